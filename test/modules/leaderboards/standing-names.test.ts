// The names on a user's standing (GET /leaderboards/{id}/leaders/{userId}), on both
// configurations: each entry carries its user's name, a changed name shows on the next standing,
// and with Redis (scale-out) the names are kept beside the board: a window that loads keeps its
// users' names, the standing reads them with the ranks in one script call, a preference write
// drops the user's kept name at once (so every node shows the new one on its next read), a name
// not kept is read from the database and kept, and `questline leaderboards reload` reads every
// kept name again.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { openDatabase, type Database } from '../../../src/db/index.js';
import { SharedNames } from '../../../src/modules/users/shared-names.js';
import { connectRedis } from '../../../src/infra/redis.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { playProgram } from '../../helpers/fixtures.js';

const program = playProgram('Standing names', [
  { id: 'lb-all', name: 'All time', metric: { type: 'points', category: 'Points' }, period: 'allTime', primary: true },
]);

type Node = Awaited<ReturnType<typeof buildApp>>;
interface Entry {
  rank: number;
  userId: string;
  score: number;
  firstName: string | null;
  lastName: string | null;
  iconUrl: string | null;
}

describe.each(configurations)('names on a standing (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let client: string;
  let other: Node;
  let otherDatabase: Database;
  let redis: Redis | undefined;
  let names: SharedNames | undefined;

  const standing = async (app: Node, user: string, around: number) => {
    const response = await app.inject({
      method: 'GET',
      url: `/leaderboards/lb-all/leaders/${user}?around=${around}`,
      headers: { authorization: `Bearer ${client}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { response: { rank: number | null; score: number | null; entries: Entry[] } }).response;
  };
  const named = (entries: Entry[]) => entries.map((e) => `${e.rank}:${e.userId}:${e.firstName ?? '-'} ${e.lastName ?? '-'} ${e.iconUrl ?? '-'}`);
  const setName = async (user: string, preferences: Record<string, string | null>) => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/users/${user}/preferences`,
      headers: { authorization: `Bearer ${client}` },
      payload: preferences,
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const keptName = async (user: string) => {
    if (redis === undefined || names === undefined) throw new Error('scale-out only');
    const value = await redis.hget(names.keys(site.siteId).names, user);
    return value === null ? undefined : SharedNames.decode(`[${value}]`)[0];
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { clientRate: { rate: 100000, burst: 100000 } } });
    site = await t.createSite();
    client = await t.token(site.app);
    await t.app.services.programs.replace({ siteId: site.siteId, clientId: null }, program);
    // Scores written before the other node starts (as a previous process left them), and names.
    const scores: Array<[string, number, number]> = [
      ['ann', 30, 1000],
      ['bob', 20, 2000],
      ['cat', 20, 1500],
      ['dan', 10, 3000],
    ];
    for (const [user, score, reachedAt] of scores) {
      await t.database.db
        .insertInto('leaderboard_scores')
        .values({ site_id: site.siteId, board_id: 'lb-all', window_start: 0, party_id: user, score, reached_at: reachedAt, version: 1 })
        .execute();
    }
    await setName('ann', { firstName: 'Ann', lastName: 'Lee', iconUrl: 'https://example.com/ann.png' });
    await setName('cat', { firstName: 'Cat' });
    // Another node of the same database (and Redis), started now: it loads the board when warmed.
    otherDatabase = openDatabase(t.config.database);
    other = await buildApp(t.config, { database: otherDatabase });
    await other.services.leaderboards.warm(() => {});
    if (t.config.redisUrl !== undefined) {
      redis = connectRedis(t.config.redisUrl, (error) => console.error(error));
      names = new SharedNames(redis, t.config.redisPrefix, (error) => console.error(error));
    }
  });
  afterAll(async () => {
    await other.close();
    await otherDatabase.close();
    await redis?.quit();
    await t.close();
  });

  it("shows each entry's name, and none for users without one", async () => {
    const cat = await standing(other, 'cat', 1);
    expect(cat.rank).toBe(2);
    expect(named(cat.entries)).toEqual(['1:ann:Ann Lee https://example.com/ann.png', '2:cat:Cat - -', '2:bob:- - -']);
    expect(named((await standing(t.app, 'dan', 5)).entries)).toEqual([
      '1:ann:Ann Lee https://example.com/ann.png',
      '2:cat:Cat - -',
      '2:bob:- - -',
      '4:dan:- - -',
    ]);
    expect(await standing(other, 'nobody', 5)).toEqual({ rank: null, score: null, entries: [] });
  });

  it.runIf(configuration === 'scale-out')('keeps the names of a loaded window beside it, users without a name as such', async () => {
    expect(await keptName('ann')).toEqual({ firstName: 'Ann', lastName: 'Lee', iconUrl: 'https://example.com/ann.png' });
    expect(await keptName('bob')).toEqual({ firstName: null, lastName: null, iconUrl: null });
    expect(await keptName('dan')).toEqual({ firstName: null, lastName: null, iconUrl: null });
  });

  it('shows a changed name on the next standing: at once on every node with Redis, on the writing node without', async () => {
    await setName('ann', { firstName: 'Annie', iconUrl: null });
    expect(named((await standing(t.app, 'ann', 0)).entries)).toEqual(['1:ann:Annie Lee -']);
    if (configuration === 'scale-out') {
      // The write dropped the kept name before it answered: the other node reads the new one, and keeps it.
      expect(named((await standing(other, 'bob', 2)).entries)).toEqual(['1:ann:Annie Lee -', '2:cat:Cat - -', '2:bob:- - -', '4:dan:- - -']);
      await expect.poll(() => keptName('ann'), { timeout: 2000, interval: 20 }).toEqual({ firstName: 'Annie', lastName: 'Lee', iconUrl: null });
    }
  });

  it.runIf(configuration === 'scale-out')('reads every kept name again on a reload (a write whose forget was lost shows its name after it)', async () => {
    if (redis === undefined || names === undefined) throw new Error('scale-out only');
    // As if dan's name had been written and the node killed before it dropped the kept one.
    await t.database.db
      .insertInto('user_profiles')
      .values({ site_id: site.siteId, user_id: 'dan', preferences: JSON.stringify({ firstName: 'Dan' }), role: null, updated_at: 0, search_name: 'dan' })
      .execute();
    expect(named((await standing(other, 'dan', 0)).entries)).toEqual(['4:dan:- - -']);
    await other.services.leaderboards.reload(site.siteId, () => {});
    expect(await keptName('dan')).toEqual({ firstName: 'Dan', lastName: null, iconUrl: null });
    expect(named((await standing(t.app, 'dan', 0)).entries)).toEqual(['4:dan:Dan - -']);
  });
});
