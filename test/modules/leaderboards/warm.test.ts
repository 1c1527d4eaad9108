// Leaderboards on a node that starts on an existing database (SPEC §7, issue 6): warming loads the
// current windows from their rows before the first read and reports large windows; stop() ends
// warming; leaderboard names follow preference changes, on the node that wrote them and (scale-out)
// on the others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { openDatabase, type Database } from '../../../src/db/index.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { playProgram } from '../../helpers/fixtures.js';

const program = playProgram('Warm', [
  { id: 'lb-all', name: 'All time', metric: { type: 'points', category: 'Points' }, period: 'allTime', primary: true },
  { id: 'lb-empty', name: 'Nobody yet', metric: { type: 'actionCount', action: 'play' }, period: 'day' },
]);

type Node = Awaited<ReturnType<typeof buildApp>>;

describe.each(configurations)('leaderboards on start (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;
  const nodes: Array<{ app: Node; database: Database }> = [];

  /** Another node on the same database (and, scale-out, the same Redis and key prefix). */
  const node = async () => {
    const database = openDatabase(t.config.database);
    const app = await buildApp(t.config, { database });
    nodes.push({ app, database });
    return app;
  };
  const board = async (app: Node, id = 'lb-all') => {
    const response = await app.inject({ method: 'GET', url: `/leaderboards/${id}/leaders`, headers: { authorization: `Bearer ${client}` } });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { response: Array<{ rank: number; userId: string; score: number; firstName: string | null }> }).response;
  };
  const insertScore = (user: string, score: number, reachedAt: number) =>
    t.database.db
      .insertInto('leaderboard_scores')
      .values({ site_id: site.siteId, board_id: 'lb-all', window_start: 0, party_id: user, score, reached_at: reachedAt, version: 1 })
      .execute();

  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { clientRate: { rate: 100000, burst: 100000 } } });
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program });
    expect(put.statusCode, put.body).toBeLessThan(300);
  });
  afterAll(async () => {
    for (const { app, database } of nodes) {
      await app.close();
      await database.close();
    }
    await t.close();
  });

  it('loads the current windows from their rows when warmed, and reports windows above the threshold', async () => {
    // Scores written before this node starts (as a previous process left them); nothing has read the board yet.
    await insertScore('ann', 30, 1000);
    await insertScore('bob', 20, 2000);
    await insertScore('cat', 20, 1500);
    const warmed = await node();
    const lines: string[] = [];
    await warmed.services.leaderboards.warm((line) => lines.push(line), 2);
    // Only the window with more rows than the threshold reports; the empty day board does not.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^leaderboard ${site.siteId}/lb-all: 3 scores loaded in \\d+\\.\\d s$`));
    // A row appearing behind the service's back is not read again: the window was loaded by warming.
    await insertScore('dan', 50, 3000);
    expect((await board(warmed)).map((e) => `${e.rank}:${e.userId}:${e.score}`)).toEqual(['1:ann:30', '2:cat:20', '2:bob:20']);
  });

  it('warms nothing once stopped, so the first read loads every row', async () => {
    const stopped = await node();
    await stopped.services.leaderboards.stop();
    const lines: string[] = [];
    await stopped.services.leaderboards.warm((line) => lines.push(line), 0);
    expect(lines).toEqual([]);
    if (configuration === 'embedded') {
      // In process each node loads on its own: this one reads the rows now, including dan's.
      expect((await board(stopped)).map((e) => `${e.rank}:${e.userId}:${e.score}`)).toEqual(['1:dan:50', '2:ann:30', '3:cat:20', '3:bob:20']);
    }
  });

  it('shows a changed name on the next read, on the node that wrote it and on the others', async () => {
    const other = await node();
    const logged = await t.app.inject({
      method: 'POST',
      url: '/users/eve/actions',
      headers: { authorization: `Bearer ${client}` },
      payload: { action: 'play' },
    });
    expect(logged.statusCode, logged.body).toBe(201);
    const setName = async (firstName: string) => {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/users/eve/preferences',
        headers: { authorization: `Bearer ${client}` },
        payload: { firstName },
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    const eveOn = async (app: Node) => (await board(app)).find((e) => e.userId === 'eve')?.firstName;
    await setName('Eve');
    expect(await eveOn(t.app)).toBe('Eve');
    expect(await eveOn(other)).toBe('Eve');
    await setName('Evelyn');
    expect(await eveOn(t.app)).toBe('Evelyn');
    if (configuration === 'scale-out') {
      // The other node hears of the change through Redis.
      await expect.poll(() => eveOn(other), { timeout: 2000, interval: 20 }).toBe('Evelyn');
    }
  });
});
