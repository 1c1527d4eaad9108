// questline leaderboards reload (issue 6): with Redis, a board whose update was lost between a
// commit and its publish (a node killed in between) is repaired from the database rows, and
// every node's next read shows it; without Redis there is nothing to reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/cli/index.js';
import { AppError } from '../../../src/errors.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { playProgram } from '../../helpers/fixtures.js';

const program = playProgram('Reload', [
  { id: 'lb-all', name: 'All time', metric: { type: 'points', category: 'Points' }, period: 'allTime' },
  { id: 'lb-day', name: 'Today', metric: { type: 'actionCount', action: 'play' }, period: 'day' },
]);

describe.each(configurations)('questline leaderboards reload (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let client: string;

  const reload = async (siteId: string) => {
    const printed: Array<{ result: unknown; human: string }> = [];
    await run(['leaderboards', 'reload', '--site', siteId, '--json'], t.config, { json: true, print: (result, human) => printed.push({ result, human }) });
    expect(printed).toHaveLength(1);
    return printed[0] as { result: { siteId: string; reloaded: Array<{ boardId: string; scores: number }> }; human: string };
  };
  const top = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/leaderboards/lb-all/leaders', headers: { authorization: `Bearer ${client}` } });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { response: Array<{ userId: string; score: number; rank: number }> }).response.map((e) => `${e.rank}:${e.userId}:${e.score}`);
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { clientRate: { rate: 100000, burst: 100000 } } });
    site = await t.createSite();
    const admin = await t.token(site.admin);
    client = await t.token(site.app);
    const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program });
    expect(put.statusCode, put.body).toBeLessThan(300);
    for (const user of ['ann', 'ann', 'bob']) {
      const logged = await t.app.inject({
        method: 'POST',
        url: `/users/${user}/actions`,
        headers: { authorization: `Bearer ${client}` },
        payload: { action: 'play' },
      });
      expect(logged.statusCode, logged.body).toBe(201);
    }
  });
  afterAll(async () => t.close());

  it('loads the rows again, so a score whose publish was lost appears on the next read', async () => {
    expect(await top()).toEqual(['1:ann:20', '2:bob:10']);
    // A committed change that never reached the ranking structure (its node died after the commit).
    await t.database.db
      .updateTable('leaderboard_scores')
      .set({ score: 50, version: 2 })
      .where('site_id', '=', site.siteId)
      .where('board_id', '=', 'lb-all')
      .where('party_id', '=', 'bob')
      .execute();
    expect(await top()).toEqual(['1:ann:20', '2:bob:10']);
    const { result, human } = await reload(site.siteId);
    if (configuration === 'embedded') {
      // Each server process keeps its own boards and loads them when it starts.
      expect(result).toEqual({ siteId: site.siteId, reloaded: [] });
      expect(human).toMatch(/no REDIS_URL.*nothing to reload/);
      return;
    }
    expect(result).toEqual({
      siteId: site.siteId,
      reloaded: [
        { boardId: 'lb-all', windowStart: 0, scores: 2 },
        { boardId: 'lb-day', windowStart: expect.any(Number) as number, scores: 2 },
      ],
    });
    expect(await top()).toEqual(['1:bob:50', '2:ann:20']);
  });

  it('refuses an unknown site', async () => {
    const error: unknown = await reload('no-such-site').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('not_found');
  });
});
