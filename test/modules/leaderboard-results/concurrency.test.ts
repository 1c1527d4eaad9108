// A prize is never paid twice, on both stores: two closers (two nodes) sweeping the same due
// windows at once close each once and pay each prize once; a closer that fails half-way through a
// window (after some prizes were posted) leaves nothing of it, and a restarted closer then pays it
// once; a round closes at most closingsPerRound windows and the next round goes on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeaderboardResultsService, type ClosingOptions } from '../../../src/modules/leaderboard-results/service.js';
import type { PointsService } from '../../../src/modules/points/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { repeatableMission as mission } from '../../helpers/fixtures.js';

// Wednesday 2026-06-17, noon in New York; the week ends Sunday 2026-06-21 00:00 there.
const WEDNESDAY_NOON = Date.parse('2026-06-17T16:00:00Z');
const WEEK_END = Date.parse('2026-06-21T04:00:00Z');
let now = WEDNESDAY_NOON;
const clock = () => now;

const prizes = [
  { ranks: '1', rewards: { points: [{ category: 'Points', amount: 100 }], badge: 'b-champ' } },
  { ranks: '2-3', rewards: { points: [{ category: 'Points', amount: 10 }] } },
];
const board = (id: string) => ({ id, name: id, metric: { type: 'points', category: 'Points' }, period: 'week', size: 10, prizes });
const program = {
  site: { name: 'Concurrent closing', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'small' }],
  badges: [{ id: 'b-champ', name: 'Champion' }],
  missions: [mission('m-small', 'small', 10)],
  leaderboards: [board('lb-a'), board('lb-b'), board('lb-c')],
};

describe.each(configurations)('closing leaderboards concurrently (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let client: string;

  const options = (overrides: Partial<ClosingOptions> = {}): ClosingOptions => ({
    clock,
    intervalMs: 60_000,
    graceMs: 600_000,
    closingsPerRound: 100,
    onError: () => {},
    ...overrides,
  });
  const closer = (points: PointsService = t.app.services.points, overrides: Partial<ClosingOptions> = {}) => {
    const s = t.app.services;
    return new LeaderboardResultsService(t.database.db, s.programs, s.actions, points, s.preferences, options(overrides));
  };
  const prizeEntries = async () =>
    (
      await t.database.db
        .selectFrom('points_ledger')
        .innerJoin('leaderboard_closings as c', (join) =>
          join.onRef('c.site_id', '=', 'points_ledger.site_id').onRef('c.closing_id', '=', 'points_ledger.cause_id'),
        )
        .select(['c.board_id', 'points_ledger.party_id', 'points_ledger.credited'])
        .where('points_ledger.site_id', '=', site.siteId)
        .where('points_ledger.cause', '=', 'prize')
        .execute()
    )
      .map((row) => `${row.board_id}:${row.party_id}:${Number(row.credited)}`)
      .sort();
  const closings = async () =>
    (await t.database.db.selectFrom('leaderboard_closings').select('board_id').where('site_id', '=', site.siteId).execute()).map((row) => row.board_id).sort();
  const trophies = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('trophies')
          .select('earned_count')
          .where('site_id', '=', site.siteId)
          .where('party_id', '=', 'ann')
          .where('badge_id', '=', 'b-champ')
          .executeTakeFirst()
      )?.earned_count ?? 0,
    );
  const paidFor = (boardId: string) => [`${boardId}:ann:100`, `${boardId}:bob:10`, `${boardId}:cat:10`];

  beforeAll(async () => {
    now = WEDNESDAY_NOON;
    t = await buildTestApp(configuration, { clock, config: { clientRate: { rate: 100000, burst: 100000 }, tokenTtlSeconds: 30 * 86_400 } });
    site = await t.createSite();
    const admin = await t.token(site.admin);
    client = await t.token(site.app);
    const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program });
    expect(put.statusCode, put.body).toBeLessThan(300);
    expect(await t.app.services.leaderboardResults.sweep()).toBe(0);
    for (const [user, times] of [
      ['ann', 3],
      ['bob', 2],
      ['cat', 1],
    ] as const) {
      for (let i = 0; i < times; i++) {
        const response = await t.app.inject({
          method: 'POST',
          url: `/users/${user}/actions`,
          headers: { authorization: `Bearer ${client}` },
          payload: { action: 'small' },
        });
        expect(response.statusCode, response.body).toBe(201);
        now += 1000;
      }
    }
    now = WEEK_END + 600_000;
  });
  afterAll(async () => t.close());

  it('leaves nothing of a window whose closer fails half-way, and a restarted closer pays it once', async () => {
    let posts = 0;
    const errors: unknown[] = [];
    const crashing = {
      post: async (...args: Parameters<PointsService['post']>) => {
        posts += 1;
        if (posts === 2) throw new Error('the node stopped half-way');
        return t.app.services.points.post(...args);
      },
    } as unknown as PointsService;
    // One window per round: the failing one.
    expect(await closer(crashing, { closingsPerRound: 1, onError: (error) => errors.push(error) }).sweep()).toBe(0);
    expect(errors).toHaveLength(1);
    expect(posts).toBe(2); // ann's prize was posted, then the node stopped: rolled back with the rest
    expect(await closings()).toEqual([]);
    expect(await prizeEntries()).toEqual([]);
    expect(await trophies()).toBe(0);
    // Restarted, one round at a time: lb-a first.
    expect(await closer(undefined, { closingsPerRound: 1 }).sweep()).toBe(1);
    expect(await closings()).toEqual(['lb-a']);
    expect(await prizeEntries()).toEqual(paidFor('lb-a'));
  });

  it('closes each window once with two closers at once, paying each prize once', async () => {
    const [one, two] = await Promise.all([closer().sweep(), closer().sweep()]);
    expect(one + two).toBe(2);
    expect(await closings()).toEqual(['lb-a', 'lb-b', 'lb-c']);
    expect(await prizeEntries()).toEqual([...paidFor('lb-a'), ...paidFor('lb-b'), ...paidFor('lb-c')].sort());
    expect(await trophies()).toBe(3);
    // Balances: 30 + 3 × 100 for ann, 20 + 3 × 10 for bob, 10 + 3 × 10 for cat.
    const balances = await t.database.db
      .selectFrom('point_balances')
      .select(['party_id', 'balance'])
      .where('site_id', '=', site.siteId)
      .where('party_type', '=', 'user')
      .orderBy('party_id')
      .execute();
    expect(balances.map((row) => `${row.party_id}:${Number(row.balance)}`)).toEqual(['ann:330', 'bob:50', 'cat:40']);
    // And again, with the windows closed: nothing.
    expect(await Promise.all([closer().sweep(), closer().sweep(), t.app.services.leaderboardResults.sweep()])).toEqual([0, 0, 0]);
    expect((await prizeEntries()).length).toBe(9);
  });
});
