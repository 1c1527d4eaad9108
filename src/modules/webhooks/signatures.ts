// Standard Webhooks signatures (standardwebhooks.com, SPEC §12): `webhook-signature` carries
// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per secret that is signing (the current
// one, and a replaced one during its overlap), separated by spaces.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** The key sizes Standard Webhooks recommends. */
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;

/** A new secret in the `whsec_` form the Standard Webhooks libraries take: 32 random bytes. */
export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** True for a `whsec_` secret whose key is 24–64 bytes of valid base64 (what rotation accepts). */
export function isStandardSecret(secret: string): boolean {
  if (!secret.startsWith(PREFIX)) return false;
  const encoded = secret.slice(PREFIX.length);
  if (!BASE64.test(encoded)) return false;
  const bytes = Buffer.from(encoded, 'base64').length;
  return bytes >= MIN_KEY_BYTES && bytes <= MAX_KEY_BYTES;
}

/**
 * The HMAC key of a secret: a `whsec_` secret's base64 key, as the Standard Webhooks libraries
 * read it; any other secret an admin set (older programs allowed any string) as its UTF-8 bytes,
 * which those libraries read with `{ format: "raw" }`.
 */
export function signingKey(secret: string): Buffer {
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : undefined;
  if (encoded !== undefined && encoded !== '' && BASE64.test(encoded)) return Buffer.from(encoded, 'base64');
  return Buffer.from(secret, 'utf8');
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three Standard Webhooks headers for `body`, signed with every secret given (current first). */
export function signWebhook(id: string, timestampMs: number, body: string, secrets: readonly string[]): SignedHeaders {
  const timestamp = String(Math.floor(timestampMs / 1000));
  const signatures = secrets.map((secret) => `v1,${createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`);
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
