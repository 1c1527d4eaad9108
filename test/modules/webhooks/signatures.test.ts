// Standard Webhooks signing (SPEC §12), checked against the consumer's own verifier (the
// `standardwebhooks` library, not project code) and the specification's published test vector;
// and the retry schedule of failed deliveries.
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { retryDelay } from '../../../src/modules/webhooks/dispatcher.js';
import { generateWebhookSecret, isStandardSecret, signingKey, signWebhook } from '../../../src/modules/webhooks/signatures.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const BODY = '{"type":"mission.completed","data":{"missionId":"m1"}}';

describe('signWebhook', () => {
  it('produces the three Standard Webhooks headers, the timestamp in whole seconds', () => {
    const headers = signWebhook('msg_1', 1_700_000_000_999, BODY, [SECRET]);
    expect(Object.keys(headers).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe('1700000000');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('is verified by the standardwebhooks library', () => {
    const headers = signWebhook('msg_2', Date.now(), BODY, [SECRET]);
    expect(new Webhook(SECRET).verify(BODY, { ...headers })).toEqual(JSON.parse(BODY));
  });

  it('is rejected by the library when the body, the timestamp or the secret differ', () => {
    const now = Date.now();
    const headers = signWebhook('msg_3', now, BODY, [SECRET]);
    const verifier = new Webhook(SECRET);
    expect(() => verifier.verify(BODY.replace('m1', 'm2'), { ...headers })).toThrow(/No matching signature/);
    expect(() => verifier.verify(BODY, { ...headers, 'webhook-timestamp': String(Math.floor(now / 1000) - 1) })).toThrow(/No matching signature/);
    expect(() => verifier.verify(BODY, { ...headers, 'webhook-id': 'msg_4' })).toThrow(/No matching signature/);
    expect(() => new Webhook(generateWebhookSecret()).verify(BODY, { ...headers })).toThrow(/No matching signature/);
  });

  it('gives the signature of the specification test vector', () => {
    const headers = signWebhook('msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330000, '{"test": 2432232314}', [SECRET]);
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('signs with every secret given, current first, each signature verifiable on its own', () => {
    const current = generateWebhookSecret();
    const replaced = generateWebhookSecret();
    const headers = signWebhook('msg_5', Date.now(), BODY, [current, replaced]);
    const signatures = headers['webhook-signature'].split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures[0]).not.toBe(signatures[1]);
    expect(signatures[0]).toBe(signWebhook('msg_5', Number(headers['webhook-timestamp']) * 1000, BODY, [current])['webhook-signature']);
    for (const [secret, signature] of [
      [current, signatures[0]],
      [replaced, signatures[1]],
    ] as const) {
      expect(new Webhook(secret).verify(BODY, { ...headers, 'webhook-signature': signature ?? '' })).toEqual(JSON.parse(BODY));
    }
    expect(() => new Webhook(generateWebhookSecret()).verify(BODY, { ...headers })).toThrow(/No matching signature/);
  });

  it('gives no signature when no secret is signing', () => {
    expect(signWebhook('msg_6', Date.now(), BODY, [])['webhook-signature']).toBe('');
  });
});

describe('signingKey', () => {
  it('decodes the base64 key of a whsec_ secret', () => {
    expect(signingKey(SECRET)).toEqual(Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'));
    expect(signingKey(SECRET)).toHaveLength(24);
  });

  it('uses any other secret as its UTF-8 bytes, which the library verifies in raw format', () => {
    expect(signingKey('k3y!')).toEqual(Buffer.from('k3y!', 'utf8'));
    expect(signingKey('clé')).toEqual(Buffer.from('clé', 'utf8'));
    const headers = signWebhook('msg_7', Date.now(), BODY, ['k3y!']);
    const expected = createHmac('sha256', 'k3y!').update(`msg_7.${headers['webhook-timestamp']}.${BODY}`).digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
    expect(new Webhook('k3y!', { format: 'raw' }).verify(BODY, { ...headers })).toEqual(JSON.parse(BODY));
  });

  it('uses a whsec_ secret whose key is not base64 as its UTF-8 bytes', () => {
    expect(signingKey('whsec_not base64!')).toEqual(Buffer.from('whsec_not base64!', 'utf8'));
    expect(signingKey('whsec_')).toEqual(Buffer.from('whsec_', 'utf8'));
  });
});

describe('isStandardSecret', () => {
  it('accepts new secrets, 32 random bytes in the whsec_ form, different each time', () => {
    const first = generateWebhookSecret();
    const second = generateWebhookSecret();
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(second).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(first).not.toBe(second);
    expect(signingKey(first)).toHaveLength(32);
    expect(isStandardSecret(first)).toBe(true);
    expect(isStandardSecret(second)).toBe(true);
  });

  it.each([
    ['24 bytes, the shortest allowed', `whsec_${Buffer.alloc(24, 1).toString('base64')}`],
    ['64 bytes, the longest allowed', `whsec_${Buffer.alloc(64, 2).toString('base64')}`],
    ['the specification example', SECRET],
  ])('accepts a key of %s', (_name, secret) => {
    expect(isStandardSecret(secret)).toBe(true);
  });

  it.each([
    ['no whsec_ prefix', Buffer.alloc(32, 3).toString('base64')],
    ['invalid base64', `whsec_${'!'.repeat(44)}`],
    ['base64 with a character missing', `whsec_${Buffer.alloc(32, 4).toString('base64').slice(1)}`],
    ['too short a key (16 bytes)', `whsec_${Buffer.alloc(16, 5).toString('base64')}`],
    ['too short a key (23 bytes)', `whsec_${Buffer.alloc(23, 5).toString('base64')}`],
    ['too long a key (65 bytes)', `whsec_${Buffer.alloc(65, 6).toString('base64')}`],
    ['too long a key (100 bytes)', `whsec_${Buffer.alloc(100, 6).toString('base64')}`],
    ['an empty key', 'whsec_'],
    ['a raw secret', 'k3y!'],
  ])('refuses %s', (_name, secret) => {
    expect(isStandardSecret(secret)).toBe(false);
  });
});

describe('retryDelay', () => {
  it.each([
    [1, 0, 5_000],
    [1, 1, 10_000],
    [1, 0.5, 7_500],
    [2, 0, 10_000],
    [2, 1, 20_000],
    [3, 1, 40_000],
    [0, 1, 10_000],
    [12, 1, 20_480_000],
    [13, 1, 21_600_000],
    [20, 1, 21_600_000],
    [20, 0, 10_800_000],
    [100, 1, 21_600_000],
  ])('waits, after attempt %i with random %d, %i ms', (attempts, random, expected) => {
    expect(retryDelay(attempts, random)).toBe(expected);
  });

  it('doubles with each attempt until the 6 h cap', () => {
    for (let attempts = 1; attempts < 12; attempts++) expect(retryDelay(attempts + 1, 1)).toBe(2 * retryDelay(attempts, 1));
    expect(retryDelay(14, 1)).toBe(retryDelay(13, 1));
  });

  it('is always between half and all of the base delay', () => {
    for (let attempts = 1; attempts <= 30; attempts++) {
      const base = Math.min(10_000 * 2 ** (attempts - 1), 6 * 60 * 60 * 1000);
      for (const random of [0, 0.01, 0.25, 0.5, 0.75, 0.99, 0.999999]) {
        const delay = retryDelay(attempts, random);
        expect(delay).toBeGreaterThanOrEqual(base / 2);
        expect(delay).toBeLessThanOrEqual(base);
      }
    }
  });
});
