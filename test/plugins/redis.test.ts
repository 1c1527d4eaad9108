// A kept Redis connection reports its errors through its owner's handler (the server's log, the
// CLI's stderr): the first of an outage, then at most one every 30 s while ioredis reconnects, and
// never as ioredis's "[ioredis] Unhandled error event" on stderr.
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectRedis } from '../../src/infra/redis.js';

describe('connectRedis', () => {
  afterEach(() => vi.restoreAllMocks());

  it('hands the first error of an outage to onError, once, and prints nothing itself', async () => {
    // A port nothing listens on: a server opened and closed again.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));

    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const errors: unknown[] = [];
    const redis = connectRedis(`redis://127.0.0.1:${port}`, (error) => errors.push(error));
    try {
      // ioredis retries after 50, 100, 150 … ms: several failed attempts in 1.5 s.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(errors).toHaveLength(1);
      expect(String(errors[0])).toMatch(/ECONNREFUSED/);
      expect(printed).not.toHaveBeenCalled();
    } finally {
      redis.disconnect();
    }
  });
});
