// Users' names kept in Redis beside the boards (src/modules/users/shared-names.ts), run when
// TEST_REDIS_URL is set: names read under a generation are kept only while no write came since (a
// read that raced a write never puts the old name back), a forget drops one user's name, a clear
// every name of the site, both keys expire, and a generation that starts again never repeats one.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedNames, type Name } from '../../../src/modules/users/shared-names.js';
import { connectRedis } from '../../../src/infra/redis.js';

const redisUrl = process.env.TEST_REDIS_URL;
const ann: Name = { firstName: 'Ann', lastName: 'Lee', iconUrl: 'https://example.com/ann.png' };
const annEdited: Name = { firstName: 'Anne', lastName: null, iconUrl: null };

describe.each(redisUrl !== undefined && redisUrl !== '' ? [redisUrl] : [])('SharedNames (%s)', (url) => {
  let redis: Redis;
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  let names: SharedNames;
  const kept = async (siteId: string, ...userIds: string[]) => {
    const values = await redis.hmget(names.keys(siteId).names, ...userIds);
    return SharedNames.decode(`[${values.map((value) => value ?? 'null').join(',')}]`);
  };

  beforeAll(() => {
    redis = connectRedis(url, (error) => console.error(error));
    names = new SharedNames(redis, prefix, (error) => console.error(error));
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('keeps names read under the current generation, users without one as such', async () => {
    await names.keep('s1', await names.generation('s1'), ['ann', 'bob'], new Map([['ann', ann]]));
    expect(await kept('s1', 'ann', 'bob', 'cy')).toEqual([ann, { firstName: null, lastName: null, iconUrl: null }, undefined]);
    // Another site's names are its own, in its own hash tag.
    expect(names.keys('s2').names).toBe(`${prefix}names:{s2}`);
    expect(await kept('s2', 'ann')).toEqual([undefined]);
  });

  it('refuses names read before a write (its forget came in between), and keeps those read after it', async () => {
    await names.keep('s3', await names.generation('s3'), ['ann'], new Map([['ann', ann]]));
    // A reader takes the generation and reads the old name; the write commits and forgets; the reader keeps what it read.
    const before = await names.generation('s3');
    await names.forget('s3', 'ann');
    expect(await kept('s3', 'ann')).toEqual([undefined]);
    await names.keep('s3', before, ['ann'], new Map([['ann', ann]]));
    expect(await kept('s3', 'ann')).toEqual([undefined]);
    // A reader that took the generation after the forget read the new name.
    const after = await names.generation('s3');
    expect(after).not.toBe(before);
    await names.keep('s3', after, ['ann'], new Map([['ann', annEdited]]));
    expect(await kept('s3', 'ann')).toEqual([annEdited]);
  });

  it('a forget drops one user; a clear drops every name of the site and refuses fills read before it', async () => {
    await names.keep(
      's4',
      await names.generation('s4'),
      ['ann', 'bob'],
      new Map([
        ['ann', ann],
        ['bob', annEdited],
      ]),
    );
    await names.forget('s4', 'bob');
    expect(await kept('s4', 'ann', 'bob')).toEqual([ann, undefined]);
    const before = await names.generation('s4');
    await names.clear('s4');
    expect(await redis.exists(names.keys('s4').names)).toBe(0);
    await names.keep('s4', before, ['ann'], new Map([['ann', ann]]));
    expect(await redis.exists(names.keys('s4').names)).toBe(0);
  });

  it('expires both keys 6 to 7 days after a fill, and a generation that expired never repeats', async () => {
    await names.forget('s5', 'ann');
    await names.keep('s5', await names.generation('s5'), ['ann'], new Map([['ann', ann]]));
    const week = 7 * 24 * 3600;
    for (const key of Object.values(names.keys('s5'))) {
      const ttl = await redis.ttl(key);
      expect(ttl, key).toBeGreaterThan(week - 86_400);
      expect(ttl, key).toBeLessThanOrEqual(week);
    }
    // The generation starts from Redis's clock in microseconds: one that expired starts above any value it had.
    const first = Number(await names.generation('s5'));
    expect(first).toBeGreaterThan(1_700_000_000_000_000);
    await redis.del(names.keys('s5').generation);
    await names.forget('s5', 'ann');
    expect(Number(await names.generation('s5'))).toBeGreaterThan(first);
  });

  it('keeps a fill larger than one script call', async () => {
    const users = Array.from({ length: 2500 }, (_, i) => `user-${i}`);
    await names.keep('s6', await names.generation('s6'), users, new Map(users.map((user) => [user, { firstName: user, lastName: null, iconUrl: null }])));
    expect(await redis.hlen(names.keys('s6').names)).toBe(2500);
    expect(await kept('s6', 'user-2499')).toEqual([{ firstName: 'user-2499', lastName: null, iconUrl: null }]);
  });
});
