// The contractual request rate (SPEC §3, interface document §8): a token bucket per client and, for
// user-level tokens, one per user as well. Over either: 429 with Retry-After. Every authenticated
// response reports the tighter bucket in RateLimit-Policy / RateLimit (IETF httpapi draft syntax).
import fp from 'fastify-plugin';
import type { RateConfig } from '../config.js';
import { AppError } from '../errors.js';
import type { BucketResult, RateLimitStore } from './rate-limit-store.js';

export const rateLimitPlugin = fp<{ store: RateLimitStore; clientRate: RateConfig; userRate: RateConfig }>(
  async (app, { store, clientRate, userRate }) => {
    app.addHook('onRequest', async (request, reply) => {
      const auth = request.auth;
      if (!auth) return;
      const checks: Array<Promise<[string, RateConfig, BucketResult]>> = [];
      const perClient = auth.client.rate ?? clientRate;
      checks.push(store.take(`c:${auth.clientId}`, perClient).then((r) => ['client', perClient, r]));
      if (auth.userId !== undefined) {
        // '/' is in no id (src/http/ids.ts), so no two (site, user) pairs share a bucket.
        checks.push(store.take(`u:${auth.siteId}/${auth.userId}`, userRate).then((r) => ['user', userRate, r]));
      }
      const results = await Promise.all(checks);
      const denied = results.find(([, , result]) => !result.allowed);
      const [name, rate, result] = denied ?? results.reduce((tightest, next) => (next[2].remaining < tightest[2].remaining ? next : tightest));
      const window = Math.max(1, Math.ceil(rate.burst / rate.rate));
      reply.header('ratelimit-policy', `"${name}";q=${rate.burst};w=${window}`);
      reply.header('ratelimit', `"${name}";r=${result.remaining};t=${result.allowed ? result.resetSeconds : result.retryAfterSeconds}`);
      if (denied) {
        throw new AppError('rate_limited', `The ${name} request rate of ${rate.rate}/s (burst ${rate.burst}) is exceeded; retry later`, {
          headers: { 'retry-after': String(result.retryAfterSeconds) },
        });
      }
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
