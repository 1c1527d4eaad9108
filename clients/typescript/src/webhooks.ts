// Standard Webhooks signatures, checked with Web Crypto so that the same code runs in Node and in
// browsers (and edge runtimes): `webhook-signature` holds one or more space-separated `v1,<base64
// HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, two while the site's secret is being
// rotated (docs/webhooks.md, "Verifying a request").

/** The envelope every Questline event has; `data` is the event type's own (docs/webhooks.md). */
export interface WebhookEvent<Data = unknown> {
  /** Unique per site, the same on every attempt: deduplicate on it. */
  eventId: string;
  eventType: string;
  occurredAt: string;
  /** 1, 2, 3, … per user (per group for group events): order a party's events by it. */
  sequence: number;
  context: { siteId: string };
  data: Data;
  [field: string]: unknown;
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyOptions {
  /** How far the timestamp may be from now, in seconds (default 300: replays older than that are refused). */
  toleranceSeconds?: number;
  /** The receiver's clock, ms since the epoch (default Date.now). */
  now?: () => number;
}

/** A Fetch Headers object, or a plain object of headers (Node's `req.headers`, Express's): names in any case, values strings or lists. */
export type WebhookHeaders = Headers | object;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const entry = Object.entries(headers).find(([candidate]) => candidate.toLowerCase() === name);
  const value: unknown = entry?.[1];
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string').join(' ') : undefined;
}

const encoder = new TextEncoder();

function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The HMAC key of a secret: `whsec_` and base64 (what Questline issues), or a legacy secret's UTF-8 bytes. */
function secretKey(secret: string): Uint8Array<ArrayBuffer> {
  if (!secret.startsWith('whsec_')) return encoder.encode(secret);
  try {
    return base64ToBytes(secret.slice('whsec_'.length));
  } catch {
    throw new WebhookVerificationError('The secret is not whsec_ followed by base64');
  }
}

/** Compares without an early exit, so that timing does not tell how much of a signature matched. */
function equalInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** The `v1,` signature of `content` under `secret`. */
export async function signWebhook(secret: string, content: string): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey('raw', secretKey(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(content));
  return bytesToBase64(new Uint8Array(signature));
}

/**
 * Checks a delivery and returns its event: the raw body as received (not a re-serialized object),
 * its headers, and the site's secret (or several, e.g. old and new while rotating: any one that
 * verifies is enough). Throws WebhookVerificationError when a header is missing, the timestamp is
 * outside the tolerance, or no signature matches.
 */
export async function verifyWebhook<Data = unknown>(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent<Data>> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header');
  }
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('The webhook-timestamp is not a number of seconds');
  const toleranceMs = (options.toleranceSeconds ?? 300) * 1000;
  const now = (options.now ?? Date.now)();
  if (Math.abs(now - Number(timestamp) * 1000) > toleranceMs) throw new WebhookVerificationError('The webhook-timestamp is too far from now');

  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  const content = `${id}.${timestamp}.${body}`;
  const offered = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => entry.slice(3));
  const secrets = typeof secret === 'string' ? [secret] : secret;
  for (const candidate of secrets) {
    const expected = await signWebhook(candidate, content);
    if (offered.some((signature) => equalInConstantTime(signature, expected))) {
      try {
        return JSON.parse(body) as WebhookEvent<Data>;
      } catch {
        throw new WebhookVerificationError('The payload is not JSON');
      }
    }
  }
  throw new WebhookVerificationError('No signature matches the secret');
}
