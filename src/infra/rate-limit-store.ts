// Token buckets and failure counters, in process (embedded) or in Redis (scale-out, shared by
// every node). Both implementations answer the same interface and are tested against each other.
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import type { RateConfig } from '../config.js';
import { defineScripts } from './redis.js';

export interface BucketResult {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until a request would be allowed again (0 when allowed). */
  retryAfterSeconds: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
}

export interface RateLimitStore {
  /** Whether a take waits on another process (Redis): only then do reads take their buckets alongside (./rate-limit.ts). */
  readonly remote: boolean;
  /** Takes one token from the bucket `key`, refilled at `rate.rate` per second up to `rate.burst`. */
  take(key: string, rate: RateConfig): Promise<BucketResult>;
  /** Counts one event in a fixed window of `windowSeconds`; returns the count so far and the seconds left. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; ttlSeconds: number }>;
  /** Takes back one event counted by hit (an attempt that turned out not to count). */
  unhit(key: string): Promise<void>;
}

function bucketResult(tokens: number, allowed: boolean, rate: RateConfig): BucketResult {
  return {
    allowed,
    remaining: Math.floor(tokens),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / rate.rate)),
    resetSeconds: Math.ceil((rate.burst - tokens) / rate.rate),
  };
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly remote = false;
  readonly #buckets = new LRUCache<string, { tokens: number; at: number }>({ max: 200_000 });
  readonly #windows = new LRUCache<string, { count: number; resetAt: number }>({ max: 200_000 });

  constructor(private readonly clock: () => number = Date.now) {}

  async take(key: string, rate: RateConfig): Promise<BucketResult> {
    const now = this.clock();
    const bucket = this.#buckets.get(key) ?? { tokens: rate.burst, at: now };
    // A clock stepping backwards (NTP) refills nothing and drains nothing.
    let tokens = Math.min(rate.burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * rate.rate);
    const allowed = tokens >= 1;
    if (allowed) tokens -= 1;
    this.#buckets.set(key, { tokens, at: Math.max(now, bucket.at) });
    return bucketResult(tokens, allowed, rate);
  }

  async hit(key: string, windowSeconds: number): Promise<{ count: number; ttlSeconds: number }> {
    const now = this.clock();
    let window = this.#windows.get(key);
    if (window === undefined || window.resetAt <= now) window = { count: 0, resetAt: now + windowSeconds * 1000 };
    window.count += 1;
    this.#windows.set(key, window);
    return { count: window.count, ttlSeconds: Math.ceil((window.resetAt - now) / 1000) };
  }

  async unhit(key: string): Promise<void> {
    const window = this.#windows.get(key);
    if (window !== undefined && window.count > 0) window.count -= 1;
  }
}

// The bucket lives in a hash {t: tokens, ts: ms}; Redis's own clock is used so that nodes with
// drifting clocks share one bucket correctly.
const TAKE_SCRIPT = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 't', 'ts')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil then tokens = burst; at = now end
tokens = math.min(burst, tokens + (now - at) / 1000 * rate)
local allowed = 0
if tokens >= 1 then tokens = tokens - 1; allowed = 1 end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return {allowed, tostring(tokens)}
`;

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1])) end
return {count, redis.call('TTL', KEYS[1])}
`;

const UNHIT_SCRIPT = `
if (tonumber(redis.call('GET', KEYS[1]) or '0') > 0) then redis.call('DECR', KEYS[1]) end
return 0
`;

interface LimitCommands {
  questlineRateTake(key: string, rate: number, burst: number): Promise<[number, string]>;
  questlineRateHit(key: string, windowSeconds: number): Promise<[number, number]>;
  questlineRateUnhit(key: string): Promise<number>;
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly remote = true;
  readonly #commands: LimitCommands;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.#commands = defineScripts<LimitCommands>(redis, {
      questlineRateTake: { lua: TAKE_SCRIPT, numberOfKeys: 1 },
      questlineRateHit: { lua: HIT_SCRIPT, numberOfKeys: 1 },
      questlineRateUnhit: { lua: UNHIT_SCRIPT, numberOfKeys: 1 },
    });
  }

  async take(key: string, rate: RateConfig): Promise<BucketResult> {
    const [allowed, tokens] = await this.#commands.questlineRateTake(`${this.prefix}rl:${key}`, rate.rate, rate.burst);
    return bucketResult(Number(tokens), allowed === 1, rate);
  }

  async hit(key: string, windowSeconds: number): Promise<{ count: number; ttlSeconds: number }> {
    const [count, ttl] = await this.#commands.questlineRateHit(`${this.prefix}fw:${key}`, windowSeconds);
    return { count, ttlSeconds: Math.max(0, ttl) };
  }

  async unhit(key: string): Promise<void> {
    await this.#commands.questlineRateUnhit(`${this.prefix}fw:${key}`);
  }
}
