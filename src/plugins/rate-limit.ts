// The contractual request rate (SPEC §3, interface document §8): a token bucket per client and, for
// user-level tokens, one per user as well. Over either: 429 with Retry-After. Every authenticated
// response reports the tighter bucket in RateLimit-Policy / RateLimit (IETF httpapi draft syntax).
//
// A read without effects may declare `config.rateLimit: 'alongside'`: with Redis its buckets are
// taken while it runs instead of before, so that the take and the read's own commands go out in one
// round trip (ioredis sends the commands of one turn of the event loop together). Its answer waits
// for the take, and one over the limit is replaced by the 429 (nothing of the read leaves). A
// bucket that refused is taken first again, until its retry time, on this node: a client that
// ignores 429s does not make the node run its reads.
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { RateConfig } from '../config.js';
import { AppError } from '../errors.js';
import { problemPayload } from './error-handler.js';
import type { BucketResult, RateLimitStore } from '../infra/rate-limit-store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'alongside': a read without effects, whose rate limit is checked while it runs (see src/plugins/rate-limit.ts). */
    rateLimit?: 'alongside';
  }
}

/** The buckets a request took from: each one's name, key, rate and answer. */
type Taken = Array<{ name: string; key: string; rate: RateConfig; result: BucketResult }>;

/** Buckets that refused recently, per node (bounded: a forgotten one is only taken alongside once more). */
const REFUSED_KEPT = 10_000;

export const rateLimitPlugin = fp<{ store: RateLimitStore; clientRate: RateConfig; userRate: RateConfig; clock?: () => number }>(
  async (app, { store, clientRate, userRate, clock = Date.now }) => {
    /** Bucket key → until when (ms) its requests are taken first. */
    const refused = new LRUCache<string, number>({ max: REFUSED_KEPT });
    /** Takes of 'alongside' requests, answered in onSend, and the headers the reply had when the read began. */
    const pending = new WeakMap<FastifyRequest, { taken: Promise<Taken>; headers: ReadonlySet<string> }>();

    app.addHook('onRequest', async (request, reply) => {
      const auth = request.auth;
      if (!auth) return;
      const perClient = auth.client.rate ?? clientRate;
      const buckets = [{ name: 'client', key: `c:${auth.clientId}`, rate: perClient }];
      // '/' is in no id (src/http/ids.ts), so no two (site, user) pairs share a bucket.
      if (auth.userId !== undefined) buckets.push({ name: 'user', key: `u:${auth.siteId}/${auth.userId}`, rate: userRate });
      const taken = Promise.all(buckets.map(async (bucket) => ({ ...bucket, result: await store.take(bucket.key, bucket.rate) })));
      const now = clock();
      if (store.remote && request.routeOptions.config.rateLimit === 'alongside' && buckets.every((bucket) => (refused.get(bucket.key) ?? 0) <= now)) {
        // Answered in onSend; a failed take becomes the answer there.
        taken.catch(() => {});
        pending.set(request, { taken, headers: new Set(Object.keys(reply.getHeaders())) });
        return;
      }
      enforce(reply, await taken, refused, clock);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const deferred = pending.get(request);
      if (deferred === undefined) return payload;
      pending.delete(request);
      // Whatever the read answered (its entries, or its own error), a 429 or a failed take goes instead, with none of the read's headers.
      const instead = (error: unknown) => {
        for (const name of Object.keys(reply.getHeaders())) if (!deferred.headers.has(name) && !name.startsWith('ratelimit')) reply.removeHeader(name);
        return problemPayload(error, request, reply);
      };
      let taken: Taken;
      try {
        taken = await deferred.taken;
      } catch (error) {
        return instead(error);
      }
      try {
        enforce(reply, taken, refused, clock);
        return payload;
      } catch (error) {
        return instead(error);
      }
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);

/** Sets the headers of the tighter bucket; throws the 429 when one refused (and keeps taking its bucket first until its retry time). */
function enforce(reply: FastifyReply, taken: Taken, refused: LRUCache<string, number>, clock: () => number): void {
  const denied = taken.find((bucket) => !bucket.result.allowed);
  if (denied !== undefined) refused.set(denied.key, clock() + denied.result.retryAfterSeconds * 1000);
  const { name, rate, result } = denied ?? taken.reduce((tightest, next) => (next.result.remaining < tightest.result.remaining ? next : tightest));
  const window = Math.max(1, Math.ceil(rate.burst / rate.rate));
  reply.header('ratelimit-policy', `"${name}";q=${rate.burst};w=${window}`);
  reply.header('ratelimit', `"${name}";r=${result.remaining};t=${result.allowed ? result.resetSeconds : result.retryAfterSeconds}`);
  if (denied) {
    throw new AppError('rate_limited', `The ${name} request rate of ${rate.rate}/s (burst ${rate.burst}) is exceeded; retry later`, {
      headers: { 'retry-after': String(result.retryAfterSeconds) },
    });
  }
}
