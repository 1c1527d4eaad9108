// Redis (scale-out mode, REDIS_URL): shared rate-limit counters and cross-node invalidation
// messages. Absent REDIS_URL, every user of Redis has an in-process implementation instead; the
// connections are opened and closed by buildServices (src/services.ts).
import { Redis } from 'ioredis';
import { CONNECT_TIMEOUT_MS, redisUnreachable, withConnectTimeout } from '../startup.js';

/** After the first error of an outage, how long further ones go unreported (ioredis retries every 2 s). */
const REPORT_EVERY_MS = 30_000;

/**
 * A kept connection. ioredis reconnects by itself; its errors go to `onError` (the first of an
 * outage, then at most one every 30 s), never to ioredis's "Unhandled error event" on stderr.
 */
export function connectRedis(url: string, onError: (error: unknown) => void): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 3, enableAutoPipelining: true });
  let reportedAt = -Infinity;
  redis.on('error', (error: unknown) => {
    const now = Date.now();
    if (now - reportedAt < REPORT_EVERY_MS) return;
    reportedAt = now;
    onError(error);
  });
  redis.on('ready', () => (reportedAt = -Infinity));
  return redis;
}

/**
 * Connects once to `url` and pings, without retrying: start-up calls it before opening the
 * connections it keeps, so an unreachable Redis is one StartupError naming REDIS_URL, not a stream
 * of "Unhandled error event" lines from connections that retry for ever.
 */
export async function checkRedis(url: string): Promise<void> {
  const probe = new Redis(url, {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: CONNECT_TIMEOUT_MS,
  });
  // connect() rejects with "Connection is closed"; the cause comes as an error event first.
  let cause: unknown;
  probe.on('error', (error: unknown) => (cause ??= error));
  try {
    await withConnectTimeout(probe.connect().then(() => probe.ping()));
  } catch (error) {
    throw redisUnreachable(url, cause ?? error);
  } finally {
    probe.disconnect();
  }
}

/**
 * Lua scripts as commands of the connection, returned typed as `T`: ioredis sends them by SHA1
 * (EVALSHA) and the body only when Redis does not know it yet. Defined once per connection.
 */
export function defineScripts<T>(redis: Redis, scripts: Record<keyof T & string, { lua: string; numberOfKeys?: number }>): T {
  for (const [name, script] of Object.entries<{ lua: string; numberOfKeys?: number }>(scripts)) if (!(name in redis)) redis.defineCommand(name, script);
  return redis as unknown as T;
}

/** Broadcasts small invalidation messages to every node. */
export interface InvalidationBus {
  publish(topic: string, message: string): Promise<void>;
  subscribe(topic: string, handler: (message: string) => void): Promise<void>;
  close(): Promise<void>;
}

export class RedisInvalidationBus implements InvalidationBus {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #handlers = new Map<string, Array<(message: string) => void>>();

  constructor(
    url: string,
    private readonly prefix: string,
    onError: (error: unknown) => void,
  ) {
    this.#publisher = connectRedis(url, onError);
    this.#subscriber = connectRedis(url, onError);
    this.#subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.#handlers.get(channel) ?? []) handler(message);
    });
  }

  async publish(topic: string, message: string): Promise<void> {
    await this.#publisher.publish(this.prefix + topic, message);
  }

  async subscribe(topic: string, handler: (message: string) => void): Promise<void> {
    const channel = this.prefix + topic;
    const handlers = this.#handlers.get(channel) ?? [];
    handlers.push(handler);
    this.#handlers.set(channel, handlers);
    if (handlers.length === 1) await this.#subscriber.subscribe(channel);
  }

  async close(): Promise<void> {
    this.#subscriber.disconnect();
    await this.#publisher.quit();
  }
}
