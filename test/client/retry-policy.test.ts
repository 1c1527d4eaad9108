// The pure parts of the client's retry policy: Retry-After parsing, the jittered backoff, and which
// requests are idempotent (may be sent again when the first attempt may have been applied).
import { describe, expect, it } from 'vitest';
import { backoffDelay, isIdempotent, parseRetryAfter } from '../../clients/typescript/src/index.js';
import { retryPolicy } from '../../clients/typescript/src/retry.js';

const NOW = Date.parse('2026-10-21T07:28:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['1', 1000],
    [' 120 ', 120_000],
    ['Wed, 21 Oct 2026 07:28:30 GMT', 30_000],
    ['Wed, 21 Oct 2026 07:27:00 GMT', 0], // a date past: no wait
    ['Wednesday, 21-Oct-26 07:28:05 GMT', 5000], // the obsolete RFC 850 form
  ])('reads %j as %i ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it.each([null, undefined, '', '-1', '1.5', 'soon', '+3'])('reads %j as no value', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });

  it('is uniform up to base·2^(retry−1), capped', () => {
    expect([1, 2, 3, 4, 5, 9].map((retry) => backoffDelay(retry, policy, () => 0.999_999))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(100);
  });

  it('differs between calls (jitter)', () => {
    const delays = new Set(Array.from({ length: 20 }, () => backoffDelay(4, policy)));
    expect(delays.size).toBeGreaterThan(5);
  });

  it('has bounded defaults: 3 attempts, 30 s of waiting in all', () => {
    expect(retryPolicy()).toEqual({ maxAttempts: 3, maxWaitMs: 30_000, baseDelayMs: 250, maxDelayMs: 5000 });
    expect(retryPolicy({ maxAttempts: 0 }).maxAttempts).toBe(1);
  });
});

describe('isIdempotent', () => {
  const url = (path: string) => new URL(`https://questline.example${path}`);

  it.each([
    ['GET', '/users/ann/challenges', true],
    ['PUT', '/admin/program', true],
    ['DELETE', '/users/ann/actions/e-1', true],
    ['POST', '/users/ann/actions', true], // made idempotent by its eventId
    ['POST', '/groups/g-1/actions', true],
    ['DELETE', '/users/ann/challenges/m-1/completions/latest?completionId=c-1', true],
    ['DELETE', '/users/ann/challenges/m-1/completions/latest', false], // each call removes the latest one
    ['POST', '/users/ann/interactions-collection', false],
    ['POST', '/users/ann/quizzes/q/questions/1/responses', false],
    ['POST', '/admin/users/ann/award-debits', false],
    ['POST', '/users/ann/actions/extra', false],
  ])('%s %s: %s', (method, path, expected) => {
    expect(isIdempotent(method, url(path))).toBe(expected);
  });

  it('reads paths under the base URL path', () => {
    expect(isIdempotent('POST', new URL('https://example.com/questline/users/ann/actions'), '/questline')).toBe(true);
  });
});
