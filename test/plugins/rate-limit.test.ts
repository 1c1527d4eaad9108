// The contractual request rate (SPEC §3): a token bucket per client and, for user-level tokens, one
// per user; the RateLimit / RateLimit-Policy headers; and the two RateLimitStore implementations.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateConfig } from '../../src/config.js';
import { Id } from '../../src/http/ids.js';
import { MemoryRateLimitStore, RedisRateLimitStore, type BucketResult, type RateLimitStore } from '../../src/infra/rate-limit-store.js';
import { connectRedis } from '../../src/infra/redis.js';
import { AppError } from '../../src/errors.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../helpers/app.js';

function registerProbes(app: FastifyInstance): void {
  const answer = async (request: FastifyRequest) => ({ clientId: request.auth?.clientId });
  app.get('/users/:userId/probe', { config: { access: 'user' }, schema: { params: Type.Object({ userId: Id }) } }, answer);
  app.get('/client/probe', { config: { access: 'client' } }, answer);
}

interface Header {
  name: string;
  params: Record<string, number>;
}

/** Parses `"client";q=3;w=3` (the IETF httpapi draft's structured-field syntax). */
function parseHeader(value: unknown): Header {
  expect(typeof value).toBe('string');
  const match = /^"([a-z]+)"((?:;[a-z]+=\d+)+)$/.exec(String(value));
  expect(match, String(value)).not.toBeNull();
  const params = Object.fromEntries(
    (match?.[2] ?? '')
      .slice(1)
      .split(';')
      .map((pair) => {
        const [key = '', number = ''] = pair.split('=');
        return [key, Number(number)];
      }),
  );
  return { name: match?.[1] ?? '', params };
}

function expectRateLimited(response: LightMyRequestResponse, bucket: string): void {
  expect(response.statusCode, response.body).toBe(429);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.json()).toMatchObject({ code: 'rate_limited', status: 429, requestId: response.headers['x-request-id'] });
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(parseHeader(response.headers.ratelimit)).toMatchObject({ name: bucket, params: { r: 0 } });
}

const get = (app: FastifyInstance, url: string, token: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

describe.each(configurations)('per-client rate limit (%s)', (configuration) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { clientRate: { rate: 1, burst: 3 } } });
    registerProbes(t.app);
  });
  afterAll(async () => t.close());

  it("applies a client's own rate instead of the default (set with questline client rate)", async () => {
    const site = await t.createSite();
    await t.app.services.sites.setClientRate(site.app.clientId, { rate: 1, burst: 5 });
    const token = await t.token(site.app);
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await get(t.app, '/client/probe', token)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(parseHeader((await get(t.app, '/client/probe', await t.token(site.admin))).headers['ratelimit-policy'])).toMatchObject({ params: { q: 3 } });
  });

  it('allows a burst of 3, then answers 429 rate_limited with Retry-After', async () => {
    const site = await t.createSite();
    const [token, other] = [await t.token(site.app), await t.token(site.admin)];
    const responses = [];
    for (let i = 0; i < 4; i += 1) responses.push(await get(t.app, '/client/probe', token));

    responses.slice(0, 3).forEach((response, index) => {
      expect(response.statusCode, response.body).toBe(200);
      expect(parseHeader(response.headers['ratelimit-policy'])).toEqual({ name: 'client', params: { q: 3, w: 3 } });
      const limit = parseHeader(response.headers.ratelimit);
      expect(limit.name).toBe('client');
      expect(limit.params.r).toBe(2 - index);
      expect(limit.params.t).toBeGreaterThanOrEqual(1);
      expect(limit.params.t).toBeLessThanOrEqual(3);
    });
    const [fourth] = responses.slice(3);
    if (fourth === undefined) throw new Error('no fourth response');
    expectRateLimited(fourth, 'client');
    expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(1);
    expect(parseHeader(fourth.headers['ratelimit-policy'])).toEqual({ name: 'client', params: { q: 3, w: 3 } });

    // Another client of the same site has its own bucket.
    const response = await get(t.app, '/client/probe', other);
    expect(response.statusCode).toBe(200);
    expect(parseHeader(response.headers.ratelimit).params.r).toBe(2);
  });

  it('shares one bucket between the tokens of one client', async () => {
    const site = await t.createSite();
    // Tokens first: issuing one takes a slow hash, and the bucket refills meanwhile.
    const tokens = [await t.token(site.app), await t.token(site.app), await t.token(site.app), await t.token(site.app, 'ann')];
    for (const token of tokens.slice(0, 3)) expect((await get(t.app, '/client/probe', token)).statusCode).toBe(200);
    expectRateLimited(await get(t.app, '/users/ann/probe', tokens[3] ?? ''), 'client');
  });

  it('does not limit or annotate public routes', async () => {
    for (let i = 0; i < 5; i += 1) {
      const response = await t.app.inject({ method: 'GET', url: '/health/live' });
      expect(response.statusCode).toBe(200);
      expect(response.headers.ratelimit).toBeUndefined();
    }
  });
});

describe.each(configurations)('per-user rate limit (%s)', (configuration) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { userRate: { rate: 1, burst: 2 } } });
    registerProbes(t.app);
  });
  afterAll(async () => t.close());

  it('limits a user-level token on its 3rd request and leaves other users of the client alone', async () => {
    const site = await t.createSite();
    const [ann, bob] = [await t.token(site.app, 'ann'), await t.token(site.app, 'bob')];
    const first = await get(t.app, '/users/ann/probe', ann);
    expect(first.statusCode).toBe(200);
    // The tighter bucket is reported: the user's (2) rather than the client's (200).
    expect(parseHeader(first.headers['ratelimit-policy'])).toEqual({ name: 'user', params: { q: 2, w: 2 } });
    expect(parseHeader(first.headers.ratelimit).params.r).toBe(1);
    expect((await get(t.app, '/users/ann/probe', ann)).statusCode).toBe(200);
    expectRateLimited(await get(t.app, '/users/ann/probe', ann), 'user');

    expect((await get(t.app, '/users/bob/probe', bob)).statusCode).toBe(200);
    // Client-level tokens have no per-user bucket, even on the limited user's path.
    const client = await get(t.app, '/users/ann/probe', await t.token(site.app));
    expect(client.statusCode).toBe(200);
    expect(parseHeader(client.headers['ratelimit-policy']).name).toBe('client');
  });

  it('keeps one bucket per user of a site, whichever client issued the token', async () => {
    const site = await t.createSite();
    const [viaApp, viaAdmin] = [await t.token(site.app, 'cy'), await t.token(site.admin, 'cy')];
    expect((await get(t.app, '/users/cy/probe', viaApp)).statusCode).toBe(200);
    expect((await get(t.app, '/users/cy/probe', viaAdmin)).statusCode).toBe(200);
    expectRateLimited(await get(t.app, '/users/cy/probe', viaAdmin), 'user');

    // The same user id in another site is another user.
    const otherSite = await t.createSite();
    expect((await get(t.app, '/users/cy/probe', await t.token(otherSite.app, 'cy'))).statusCode).toBe(200);
  });
});

describe.each(configurations)('reads whose rate limit is taken alongside (%s)', (configuration) => {
  let t: TestApp;
  /** Reads run, by client id. */
  const reads = new Map<string, number>();
  const readsOf = (site: TestSite) => reads.get(site.app.clientId) ?? 0;
  beforeAll(async () => {
    // A burst of 2 and a refill far slower than the test.
    t = await buildTestApp(configuration, { config: { clientRate: { rate: 0.01, burst: 2 } } });
    registerProbes(t.app);
    t.app.get(
      '/client/read',
      {
        config: { access: 'client', rateLimit: 'alongside' },
        schema: { querystring: Type.Object({ n: Type.Optional(Type.Integer()), missing: Type.Optional(Type.Boolean()) }), errors: ['not_found'] },
      },
      async (request, reply) => {
        const clientId = request.auth?.clientId ?? '';
        reads.set(clientId, (reads.get(clientId) ?? 0) + 1);
        reply.header('x-total-count', '42');
        if ((request.query as { missing?: boolean }).missing === true) throw new AppError('not_found', 'No such thing');
        return { read: 'what only an allowed request may see' };
      },
    );
  });
  afterAll(async () => t.close());

  const exhaust = async (site: TestSite) => {
    const token = await t.token(site.app);
    for (let i = 0; i < 2; i += 1) {
      const response = await get(t.app, '/client/read', token);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['x-total-count']).toBe('42');
      expect(parseHeader(response.headers.ratelimit)).toMatchObject({ name: 'client', params: { r: 1 - i } });
    }
    return token;
  };
  /** A 429 as the route that takes its buckets first answers it, for comparison. */
  const firstChecked = async () => {
    const site = await t.createSite();
    const token = await t.token(site.app);
    for (let i = 0; i < 2; i += 1) await get(t.app, '/client/probe', token);
    return get(t.app, '/client/probe', token);
  };
  const expectSame429 = (response: LightMyRequestResponse, reference: LightMyRequestResponse) => {
    expectRateLimited(response, 'client');
    expect(response.body).not.toContain('what only');
    const { requestId: _a, ...body } = response.json() as Record<string, unknown>;
    const { requestId: _b, ...referenceBody } = reference.json() as Record<string, unknown>;
    expect(body).toEqual(referenceBody);
    const headers = (r: LightMyRequestResponse) => Object.keys(r.headers).sort();
    expect(headers(response)).toEqual(headers(reference));
    for (const name of ['content-type', 'retry-after', 'ratelimit-policy']) expect(response.headers[name], name).toBe(reference.headers[name]);
  };

  it('runs the read while the bucket is taken (with Redis), and answers one over the limit with the same 429 as a route checked first: none of the read leaves', async () => {
    const site = await t.createSite();
    const token = await exhaust(site);
    const refused = await get(t.app, '/client/read', token);
    expectSame429(refused, await firstChecked());
    expect(refused.headers['x-total-count']).toBeUndefined();
    // With Redis the read ran beside the take that refused it; in process a take waits on nothing, and comes first.
    expect(readsOf(site)).toBe(configuration === 'scale-out' ? 3 : 2);
  });

  it('takes the bucket first again after it refused, so a client ignoring 429s does not run reads', async () => {
    const site = await t.createSite();
    const token = await exhaust(site);
    expectRateLimited(await get(t.app, '/client/read', token), 'client');
    for (let i = 0; i < 3; i += 1) expectRateLimited(await get(t.app, '/client/read', token), 'client');
    expect(readsOf(site)).toBe(configuration === 'scale-out' ? 3 : 2);
  });

  it('answers the 429 over the limit whatever the read answered: its own error, or a request it refuses', async () => {
    const reference = await firstChecked();
    for (const query of ['?missing=true', '?n=not-a-number']) {
      const site = await t.createSite();
      const token = await exhaust(site);
      const allowed = await get(t.app, `/client/read${query}`, await t.token((await t.createSite()).app));
      expect(allowed.statusCode, query).toBe(query.includes('missing') ? 404 : 400);
      expectSame429(await get(t.app, `/client/read${query}`, token), reference);
    }
  });
});

type Step =
  | { op: 'take'; rate: RateConfig; advanceMs?: number; expect?: Partial<BucketResult> }
  | { op: 'hit'; windowSeconds: number; advanceMs?: number; expect?: { count: number; ttlSeconds?: number } }
  | { op: 'unhit'; advanceMs?: number; expect?: undefined };

const R13 = { rate: 1, burst: 3 };
const R05 = { rate: 0.5, burst: 2 };

/** Refill over time, burst cap, Retry-After; fixed windows. Steps run in order on one key per kind. */
const timedSteps: Step[] = [
  { op: 'take', rate: R13, expect: { allowed: true, remaining: 2, retryAfterSeconds: 0, resetSeconds: 1 } },
  { op: 'take', rate: R13, expect: { allowed: true, remaining: 1, resetSeconds: 2 } },
  { op: 'take', rate: R13, expect: { allowed: true, remaining: 0, resetSeconds: 3 } },
  { op: 'take', rate: R13, expect: { allowed: false, remaining: 0, retryAfterSeconds: 1 } },
  { op: 'take', rate: R13, advanceMs: 500, expect: { allowed: false, remaining: 0, retryAfterSeconds: 1 } },
  { op: 'take', rate: R13, advanceMs: 500, expect: { allowed: true, remaining: 0 } },
  { op: 'take', rate: R13, advanceMs: 2000, expect: { allowed: true, remaining: 1 } },
  { op: 'take', rate: R13, advanceMs: 60_000, expect: { allowed: true, remaining: 2, resetSeconds: 1 } },
  { op: 'hit', windowSeconds: 10, expect: { count: 1, ttlSeconds: 10 } },
  { op: 'hit', windowSeconds: 10, advanceMs: 4000, expect: { count: 2, ttlSeconds: 6 } },
  { op: 'unhit', advanceMs: 1000 },
  { op: 'hit', windowSeconds: 10, expect: { count: 2, ttlSeconds: 5 } },
  { op: 'hit', windowSeconds: 10, advanceMs: 5000, expect: { count: 1, ttlSeconds: 10 } },
];

const slowRefillSteps: Step[] = [
  { op: 'take', rate: R05, expect: { allowed: true, remaining: 1 } },
  { op: 'take', rate: R05, expect: { allowed: true, remaining: 0 } },
  { op: 'take', rate: R05, expect: { allowed: false, retryAfterSeconds: 2 } },
  { op: 'take', rate: R05, advanceMs: 1000, expect: { allowed: false, retryAfterSeconds: 1 } },
  { op: 'take', rate: R05, advanceMs: 1000, expect: { allowed: true, remaining: 0 } },
];

async function run(store: RateLimitStore, steps: Step[], key: string, advance: (ms: number) => void = () => undefined): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const step of steps) {
    advance(step.advanceMs ?? 0);
    if (step.op === 'take') results.push(await store.take(`${key}:bucket`, step.rate));
    else if (step.op === 'hit') results.push(await store.hit(`${key}:window`, step.windowSeconds));
    else {
      await store.unhit(`${key}:window`);
      results.push({ unhit: true });
    }
  }
  return results;
}

describe('MemoryRateLimitStore', () => {
  it.each([
    ['refill, burst cap and windows', timedSteps],
    ['a slow refill', slowRefillSteps],
  ])('follows the expected sequence: %s', async (_name, steps) => {
    let now = 1_700_000_000_000;
    const store = new MemoryRateLimitStore(() => now);
    const results = await run(store, steps, 'k', (ms) => (now += ms));
    steps.forEach((step, index) => expect(results[index], `step ${index}`).toMatchObject(step.expect ?? {}));
  });

  it('neither refills nor drains when the clock steps backwards', async () => {
    let now = 1_700_000_000_000;
    const store = new MemoryRateLimitStore(() => now);
    await store.take('k', R13);
    now -= 3_600_000; // an NTP step back of an hour
    expect(await store.take('k', R13)).toMatchObject({ allowed: true, remaining: 1 });
    now += 3_600_000 + 1000; // back to the first instant, plus one second: one token refilled
    expect(await store.take('k', R13)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('keeps keys apart', async () => {
    const store = new MemoryRateLimitStore(() => 0);
    for (let i = 0; i < 3; i += 1) await store.take('a', R13);
    expect((await store.take('a', R13)).allowed).toBe(false);
    expect(await store.take('b', R13)).toMatchObject({ allowed: true, remaining: 2 });
    // Taking back an event never counted leaves nothing below zero.
    await store.unhit('never-hit');
    expect(await store.hit('never-hit', 10)).toEqual({ count: 1, ttlSeconds: 10 });
  });
});

// Sequences that do not depend on elapsed time: Redis uses its own clock. A rate of 0.01/s keeps
// the refill during the test far below one token.
const slow = { rate: 0.01, burst: 3 };
const timelessSteps: Step[] = [
  ...Array.from({ length: 5 }, (): Step => ({ op: 'take', rate: slow })),
  { op: 'unhit' },
  ...Array.from({ length: 4 }, (): Step => ({ op: 'hit', windowSeconds: 60 })),
  { op: 'unhit' },
  { op: 'hit', windowSeconds: 60 },
];

const redisUrl = process.env.TEST_REDIS_URL;

describe.each(redisUrl !== undefined && redisUrl !== '' ? [redisUrl] : [])('RedisRateLimitStore (%s)', (url) => {
  it('gives the same allowed/denied sequence as MemoryRateLimitStore', async () => {
    const redis = connectRedis(url, (error) => console.error(error));
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    try {
      const project = (result: unknown) => {
        const r = result as Partial<BucketResult> & { count?: number; ttlSeconds?: number; unhit?: boolean };
        if (r.unhit) return { unhit: true };
        return 'allowed' in r ? { allowed: r.allowed, remaining: r.remaining, retryAfterSeconds: r.retryAfterSeconds } : { count: r.count };
      };
      const memory = (await run(new MemoryRateLimitStore(() => 1_700_000_000_000), timelessSteps, 'k')).map(project);
      const redisResults = await run(new RedisRateLimitStore(redis, prefix), timelessSteps, 'k');
      expect(redisResults.map(project)).toEqual(memory);
      expect(memory.slice(0, 5).map((r) => (r as BucketResult).allowed)).toEqual([true, true, true, false, false]);
      expect(memory.slice(5).map((r) => (r as { count?: number }).count)).toEqual([undefined, 1, 2, 3, 4, undefined, 4]);
      for (const result of [...redisResults.slice(6, 10), redisResults[11]]) {
        const { ttlSeconds } = result as { ttlSeconds: number };
        expect(ttlSeconds).toBeGreaterThanOrEqual(1);
        expect(ttlSeconds).toBeLessThanOrEqual(60);
      }
      // Keys are namespaced by the prefix, so deployments sharing a server stay apart.
      expect((await redis.keys(`${prefix}*`)).sort()).toEqual([`${prefix}fw:k:window`, `${prefix}rl:k:bucket`]);
      expect(await new RedisRateLimitStore(redis, `${prefix}other:`).take('k:bucket', slow)).toMatchObject({ allowed: true, remaining: 2 });
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });
});
