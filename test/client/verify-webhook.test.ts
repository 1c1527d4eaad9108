// verifyWebhook (Web Crypto) against the Standard Webhooks test vector and the server's own signer
// (src/modules/webhooks/signatures.ts): several signatures while a secret rotates, a tampered body,
// timestamps outside the tolerance, missing headers, legacy raw secrets.
import { describe, expect, it } from 'vitest';
import { signWebhook as clientSign, verifyWebhook, WebhookVerificationError } from '../../clients/typescript/src/index.js';
import { generateWebhookSecret, signWebhook } from '../../src/modules/webhooks/signatures.js';

const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  headers: {
    'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    'webhook-timestamp': '1614265330',
    'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  },
  body: '{"test": 2432232314}',
  now: () => 1614265330_000,
};
const BODY = JSON.stringify({ eventId: 'evt_1', eventType: 'badge.earned', occurredAt: '2026-06-15T12:00:00.000Z', data: { user: { userId: 'ann' } } });

describe('verifyWebhook', () => {
  it('verifies the specification test vector and returns the parsed body', async () => {
    expect(await verifyWebhook(VECTOR.body, VECTOR.headers, VECTOR.secret, { now: VECTOR.now })).toEqual({ test: 2432232314 });
    expect(await clientSign(VECTOR.secret, `${VECTOR.headers['webhook-id']}.${VECTOR.headers['webhook-timestamp']}.${VECTOR.body}`)).toBe(
      VECTOR.headers['webhook-signature'].slice(3),
    );
  });

  it('verifies what the server signs, as a string or bytes, with plain or Headers headers', async () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook('evt_1', Date.now(), BODY, [secret]);
    const event = await verifyWebhook(BODY, headers, secret);
    expect([event.eventId, event.eventType, event.data]).toEqual(['evt_1', 'badge.earned', { user: { userId: 'ann' } }]);
    await expect(verifyWebhook(new TextEncoder().encode(BODY), new Headers({ ...headers }), secret)).resolves.toEqual(event);
    await expect(
      verifyWebhook(
        BODY,
        { 'Webhook-Id': headers['webhook-id'], 'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'], 'webhook-signature': [headers['webhook-signature']] },
        secret,
      ),
    ).resolves.toEqual(event);
  });

  it('accepts either secret while one rotates (two signatures), and a list of secrets', async () => {
    const current = generateWebhookSecret();
    const previous = generateWebhookSecret();
    const headers = signWebhook('evt_2', Date.now(), BODY, [current, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    await expect(verifyWebhook(BODY, headers, current)).resolves.toMatchObject({ eventId: 'evt_1' });
    await expect(verifyWebhook(BODY, headers, previous)).resolves.toMatchObject({ eventId: 'evt_1' });
    await expect(verifyWebhook(BODY, headers, [generateWebhookSecret(), previous])).resolves.toMatchObject({ eventId: 'evt_1' });
    // A receiver already on the new secret gets a request signed by the old one only: it keeps both meanwhile.
    const oldOnly = signWebhook('evt_3', Date.now(), BODY, [previous]);
    await expect(verifyWebhook(BODY, oldOnly, current)).rejects.toThrow(WebhookVerificationError);
    await expect(verifyWebhook(BODY, oldOnly, [current, previous])).resolves.toMatchObject({ eventId: 'evt_1' });
  });

  it('refuses a tampered body, id or signature, and another secret', async () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook('evt_4', Date.now(), BODY, [secret]);
    await expect(verifyWebhook(BODY.replace('ann', 'bob'), headers, secret)).rejects.toThrow(/No signature matches/);
    await expect(verifyWebhook(BODY, { ...headers, 'webhook-id': 'evt_5' }, secret)).rejects.toThrow(/No signature matches/);
    await expect(verifyWebhook(BODY, { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') }, secret)).rejects.toThrow(
      /No signature matches/,
    );
    await expect(verifyWebhook(BODY, headers, generateWebhookSecret())).rejects.toThrow(WebhookVerificationError);
  });

  it('refuses a timestamp more than the tolerance from now, either way', async () => {
    const secret = generateWebhookSecret();
    const signedAt = Date.parse('2026-06-15T12:00:00Z');
    const headers = signWebhook('evt_6', signedAt, BODY, [secret]);
    await expect(verifyWebhook(BODY, headers, secret, { now: () => signedAt + 299_000 })).resolves.toBeDefined();
    await expect(verifyWebhook(BODY, headers, secret, { now: () => signedAt + 301_000 })).rejects.toThrow(/too far from now/);
    await expect(verifyWebhook(BODY, headers, secret, { now: () => signedAt - 301_000 })).rejects.toThrow(/too far from now/);
    await expect(verifyWebhook(BODY, headers, secret, { now: () => signedAt + 3_600_000, toleranceSeconds: 7200 })).resolves.toBeDefined();
  });

  it('refuses a request without its headers', async () => {
    const secret = generateWebhookSecret();
    const { 'webhook-signature': _signature, ...unsigned } = signWebhook('evt_7', Date.now(), BODY, [secret]);
    await expect(verifyWebhook(BODY, unsigned, secret)).rejects.toThrow(/Missing/);
    await expect(verifyWebhook(BODY, { ...unsigned, 'webhook-signature': 'v1,x', 'webhook-timestamp': 'yesterday' }, secret)).rejects.toThrow(/not a number/);
  });

  it('verifies a legacy secret (not whsec_) by its UTF-8 bytes', async () => {
    const headers = signWebhook('evt_8', Date.now(), BODY, ['clé-secrète']);
    await expect(verifyWebhook(BODY, headers, 'clé-secrète')).resolves.toMatchObject({ eventId: 'evt_1' });
  });
});
