// Leaderboards that close, through the HTTP stack on both stores: a window is closed once its end
// and the grace period have passed (never before), its final standings are kept with ranks shared
// by equal scores, each rank's prize is paid once (points through the ledger, a badge), and
// `leaderboard.closed` goes to the outbox; GET /leaderboards/{id}/results lists closed windows,
// newest first, paged, with the leaders read's access; group boards pay the group; an allTime
// board closes at its fixed end; an action backdated into a closed window changes nothing of it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LeaderboardResultsService } from '../../../src/modules/leaderboard-results/service.js';
import { VerifyService } from '../../../src/modules/verify/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { repeatableMission as mission } from '../../helpers/fixtures.js';

// Wednesday 2026-06-17, noon in New York. The week (from Sunday) ends Sunday 2026-06-21 00:00 there.
const WEDNESDAY_NOON = Date.parse('2026-06-17T16:00:00Z');
const WEEK_START = Date.parse('2026-06-14T04:00:00Z');
const WEEK_END = Date.parse('2026-06-21T04:00:00Z');
const GRACE = 600_000;
let now = WEDNESDAY_NOON;
const clock = () => now;

const points = (amount: number) => ({ points: [{ category: 'Points', amount }] });
const program = {
  site: { name: 'Closing', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'small' }, { name: 'big' }, { name: 'tiny' }, { name: 'team' }],
  badges: [{ id: 'b-champ', name: 'Champion' }],
  groups: [
    { id: 'g-blue', name: 'Blue team' },
    { id: 'g-red', name: 'Red team' },
  ],
  missions: [mission('m-small', 'small', 10), mission('m-big', 'big', 30), mission('m-tiny', 'tiny', 5), { ...mission('m-team', 'team', 5), party: 'group' }],
  leaderboards: [
    {
      id: 'lb-week',
      name: 'Weekly',
      metric: { type: 'points', category: 'Points' },
      period: 'week',
      size: 5,
      prizes: [
        { ranks: '1', rewards: { ...points(100), badge: 'b-champ' } },
        { ranks: '2-3', rewards: points(10) },
      ],
    },
    { id: 'lb-day', name: 'Daily', metric: { type: 'actionCount', action: 'small' }, period: 'day' },
    {
      id: 'lb-teams',
      name: 'Teams',
      metric: { type: 'points', category: 'Points' },
      period: 'week',
      party: 'group',
      prizes: [{ ranks: '1', rewards: points(50) }],
    },
    {
      id: 'lb-final',
      name: 'Final',
      metric: { type: 'actionCount', action: 'big' },
      period: 'allTime',
      end: '2026-06-19T18:00:00',
      prizes: [{ ranks: '1', rewards: points(7) }],
    },
  ],
};

interface Winner {
  rank: number;
  userId?: string;
  groupId?: string;
  firstName: string | null;
  lastName: string | null;
  score: number;
  prize: { points: Array<{ category: string; amount: number }>; badge?: { id: string; name: string } } | null;
}
interface ClosedWindow {
  closingId: string;
  windowStart: string;
  windowEnd: string;
  firstDay: string | null;
  lastDay: string;
  closedAt: string;
  winners: Winner[];
}

describe.each(configurations)('leaderboards that close (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;

  const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | null = client, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: token !== null ? { authorization: `Bearer ${token}` } : {}, ...(payload !== undefined ? { payload } : {}) });
  const log = async (user: string, action: string, extra: Record<string, unknown> = {}) => {
    const response = await request('POST', `/users/${user}/actions`, client, { action, ...extra });
    expect(response.statusCode, response.body).toBe(201);
    now += 1000;
  };
  const results = async (board: string, query = '', token = client) => {
    const response = await request('GET', `/leaderboards/${board}/results${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return { windows: (response.json() as { response: ClosedWindow[] }).response, total: Number(response.headers['x-total-count']) };
  };
  const sweep = () => t.app.services.leaderboardResults.sweep();
  const prizeEntries = async () =>
    (
      await t.database.db
        .selectFrom('points_ledger')
        .select(['party_id', 'credited', 'cause_id'])
        .where('site_id', '=', site.siteId)
        .where('cause', '=', 'prize')
        .execute()
    ).map((row) => `${row.party_id}:${Number(row.credited)}`);
  const outbox = async (type: string) =>
    (await t.database.db.selectFrom('outbox').select(['party_id', 'payload']).where('site_id', '=', site.siteId).where('event_type', '=', type).execute()).map(
      (row) => ({ partyId: row.party_id, data: (JSON.parse(row.payload) as { data: Record<string, unknown> }).data }),
    );
  const expectProblem = (response: { statusCode: number; headers: Record<string, unknown>; body: string; json(): unknown }, status: number, code: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(String(response.headers['content-type'])).toContain('application/problem+json');
    expect((response.json() as { code: string }).code).toBe(code);
  };
  const winner = (rank: number, userId: string, score: number, prize: Winner['prize'], firstName: string | null = null): Winner => ({
    rank,
    userId,
    firstName,
    lastName: null,
    score,
    prize,
  });

  beforeAll(async () => {
    now = WEDNESDAY_NOON;
    t = await buildTestApp(configuration, { clock, config: { clientRate: { rate: 100000, burst: 100000 }, tokenTtlSeconds: 30 * 86_400 } });
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    const put = await request('PUT', '/admin/program', admin, program);
    expect(put.statusCode, put.body).toBeLessThan(300);
    const hook = await request('POST', '/admin/webhook-endpoints', admin, {
      url: 'https://hooks.example.com/closed',
      eventTypes: ['leaderboard.closed', 'badge.earned'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    expect((await request('PUT', '/users/ann/preferences', client, { firstName: 'Ann' })).statusCode).toBe(200);
    for (const [group, user] of [
      ['g-blue', 'bob'],
      ['g-red', 'ann'],
      ['g-red', 'cat'],
    ] as const) {
      expect((await request('PUT', `/admin/groups/${group}/members/${user}`, admin, {})).statusCode).toBeLessThan(300);
    }
    // The closer first sees the boards now: the windows that hold now are the first it closes.
    expect(await sweep()).toBe(0);
    await log('ann', 'big'); // ann 30
    await log('dan', 'small');
    await log('dan', 'small'); // dan 20
    await log('bob', 'small'); // bob 10
    await log('cat', 'small'); // cat 10, after bob: they share rank 3
    await log('eve', 'tiny'); // eve 5: rank 5, no prize
    await log('ann', 'team'); // g-red 5
    await log('cat', 'team'); // g-red 10
    await log('bob', 'team'); // g-blue 5
  });
  afterAll(async () => t.close());

  it('closes no window before its end and the grace period', async () => {
    now = WEEK_END + GRACE - 1;
    await sweep();
    expect(await results('lb-week')).toEqual({ windows: [], total: 0 });
    expect(await prizeEntries()).not.toContain('ann:100');
  });

  it('closes the week once its grace has passed: ranks shared by ties, each paid its prize, once', async () => {
    now = WEEK_END + GRACE;
    await sweep();
    const { windows, total } = await results('lb-week');
    expect(total).toBe(1);
    expect(windows).toEqual([
      {
        closingId: expect.stringMatching(/^lbc_/) as unknown as string,
        windowStart: new Date(WEEK_START).toISOString(),
        windowEnd: new Date(WEEK_END).toISOString(),
        firstDay: '2026-06-14',
        lastDay: '2026-06-20',
        closedAt: new Date(WEEK_END + GRACE).toISOString(),
        winners: [
          winner(1, 'ann', 30, { points: [{ category: 'Points', amount: 100 }], badge: { id: 'b-champ', name: 'Champion' } }, 'Ann'),
          winner(2, 'dan', 20, points(10)),
          winner(3, 'bob', 10, points(10)),
          winner(3, 'cat', 10, points(10)),
        ],
      },
    ]);
    expect((await prizeEntries()).filter((e) => !e.startsWith('g-')).sort()).toEqual(['ann:100', 'ann:7', 'bob:10', 'cat:10', 'dan:10']);
    // The prize went through the ledger: ann's history and balance show it.
    const history = await request('GET', '/admin/users/ann/point-history', admin);
    expect(history.statusCode, history.body).toBe(200);
    const entries = (history.json() as { response: Array<{ cause: string; amount: number; causeId: string; reason: string }> }).response;
    expect(
      entries
        .filter((e) => e.cause === 'prize')
        .map((e) => e.amount)
        .sort(),
    ).toEqual([100, 7]);
    expect(entries.find((e) => e.amount === 100)?.causeId).toBe(windows[0]?.closingId);
    // leaderboard.closed, carried by the first-placed party, and ann's badge.
    const closed = (await outbox('leaderboard.closed')).filter((e) => (e.data.leaderboard as { id: string }).id === 'lb-week');
    expect(closed).toEqual([
      {
        partyId: 'ann',
        data: {
          user: { userId: 'ann' },
          leaderboard: { id: 'lb-week', name: 'Weekly' },
          closingId: windows[0]?.closingId,
          window: { start: new Date(WEEK_START).toISOString(), end: new Date(WEEK_END).toISOString() },
          winners: [
            { rank: 1, userId: 'ann', score: 30, prize: { points: [{ category: 'Points', amount: 100 }], badge: { id: 'b-champ', name: 'Champion' } } },
            { rank: 2, userId: 'dan', score: 20, prize: points(10) },
            { rank: 3, userId: 'bob', score: 10, prize: points(10) },
            { rank: 3, userId: 'cat', score: 10, prize: points(10) },
          ],
        },
      },
    ]);
    expect((await outbox('badge.earned')).map((e) => e.partyId)).toEqual(['ann']);
  });

  it('pays nothing more when swept again', async () => {
    const before = (await prizeEntries()).sort();
    expect(await sweep()).toBe(0);
    now += 3_600_000;
    await sweep();
    expect((await prizeEntries()).sort()).toEqual(before);
    expect((await results('lb-week')).total).toBe(1);
  });

  it('pays a group board to the group', async () => {
    const { windows } = await results('lb-teams');
    expect(windows.map((w) => w.winners)).toEqual([[{ rank: 1, groupId: 'g-red', firstName: 'Red team', lastName: null, score: 10, prize: points(50) }]]);
    expect(await prizeEntries()).toContain('g-red:50');
    expect(await prizeEntries()).not.toContain('g-blue:50');
  });

  it('counts nothing on an allTime board from its fixed end on', async () => {
    // ann did one big action before lb-final's end; one now is not on it.
    await log('ann', 'big');
    const live = await request('GET', '/leaderboards/lb-final/leaders');
    expect((live.json() as { response: Array<{ userId: string; score: number }> }).response.map((e) => `${e.userId}:${e.score}`)).toEqual(['ann:1']);
  });

  it('closes an allTime board at its fixed end', async () => {
    const { windows } = await results('lb-final');
    expect(windows).toEqual([
      expect.objectContaining({
        windowStart: new Date(0).toISOString(),
        windowEnd: new Date(Date.parse('2026-06-19T22:00:00Z')).toISOString(),
        firstDay: null,
        lastDay: '2026-06-19',
        winners: [winner(1, 'ann', 1, points(7), 'Ann')],
      }),
    ]);
  });

  it('keeps a board without prizes: each day closed, with who ranked first and no prize', async () => {
    // Wednesday to Saturday closed (the week's end passed); on Wednesday dan logged small first, then bob and cat.
    const { windows, total } = await results('lb-day');
    expect(total).toBe(4);
    expect(windows.map((w) => w.windowStart)).toEqual([
      '2026-06-20T04:00:00.000Z',
      '2026-06-19T04:00:00.000Z',
      '2026-06-18T04:00:00.000Z',
      '2026-06-17T04:00:00.000Z',
    ]);
    expect(windows[3]?.winners).toEqual([winner(1, 'dan', 2, null)]);
    expect(windows[0]?.winners).toEqual([]);
    const page = await results('lb-day', '?limit=1&offset=1');
    expect(page.total).toBe(4);
    expect(page.windows.map((w) => w.windowStart)).toEqual(['2026-06-19T04:00:00.000Z']);
  });

  it('changes neither results nor prizes when an action is backdated into a closed window', async () => {
    const before = await results('lb-week');
    const paid = (await prizeEntries()).sort();
    await log('eve', 'big', { timestamp: '2026-06-18T12:00:00-04:00' });
    await log('eve', 'big', { timestamp: '2026-06-18T12:00:01-04:00' }); // eve 65: first in the window's live listing now
    await sweep();
    expect(await results('lb-week')).toEqual(before);
    expect((await prizeEntries()).sort()).toEqual(paid);
    const live = await request('GET', '/leaderboards/lb-week/leaders?window=2026-06-18');
    expect((live.json() as { response: Array<{ userId: string }> }).response[0]?.userId).toBe('eve');
  });

  it('recomputes every prize from the kept results in questline verify', async () => {
    const verify = async () => (await new VerifyService(t.database.db, t.app.services.programs).verify([site.siteId])).drift;
    expect(await verify()).toEqual([]);
    // A prize paid twice (its entry written again) is drift.
    const paid = await t.database.db
      .selectFrom('points_ledger')
      .selectAll()
      .where('site_id', '=', site.siteId)
      .where('cause', '=', 'prize')
      .where('party_id', '=', 'dan')
      .executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('points_ledger')
      .values({ ...paid, entry_id: 'pts_twice' })
      .execute();
    expect(await verify()).toContainEqual(expect.objectContaining({ check: 'prize', subject: 'user:dan', expected: 10, actual: 20 }));
    await t.database.db.deleteFrom('points_ledger').where('site_id', '=', site.siteId).where('entry_id', '=', 'pts_twice').execute();
    // A kept prize that does not match its rank's prize is drift.
    const week = (await results('lb-week')).windows[0]?.closingId as string;
    const bob = () =>
      t.database.db.updateTable('leaderboard_results').where('site_id', '=', site.siteId).where('closing_id', '=', week).where('party_id', '=', 'bob');
    await bob().set({ prize: null }).execute();
    expect((await verify()).filter((d) => d.check === 'prize').map((d) => d.detail)).toEqual([expect.stringContaining('prize of bob at rank 3')]);
    await bob()
      .set({ prize: JSON.stringify(points(10)) })
      .execute();
    expect(await verify()).toEqual([]);
  });

  it("answers with the leaders read's access: user tokens read, others' boards are unknown", async () => {
    expect((await results('lb-week', '', await t.token(site.app, 'zed'))).total).toBe(1);
    expectProblem(await request('GET', '/leaderboards/lb-nope/results'), 404, 'not_found');
    expectProblem(await request('GET', '/leaderboards/lb-week/results', null), 401, 'missing_token');
    expect((await request('GET', '/leaderboards/lb-week/results', 'not-a-token')).statusCode).toBe(401);
    const other = await t.createSite();
    expectProblem(await request('GET', '/leaderboards/lb-week/results', await t.token(other.admin)), 404, 'not_found');
    expectProblem(await request('GET', '/leaderboards/lb-week/results?limit=0'), 400, 'validation_failed');
  });

  it('ranks no party whose score is 0 or less, and closes windows while another site cannot be read', async () => {
    // Another site, whose weekly board pays 100 to its first: its only scorer's action is reversed.
    const other = await t.createSite();
    const otherAdmin = await t.token(other.admin);
    const otherClient = await t.token(other.app);
    const put = await request('PUT', '/admin/program', otherAdmin, { ...program, leaderboards: [program.leaderboards[0]] });
    expect(put.statusCode, put.body).toBeLessThan(300);
    now = WEEK_END + 7 * 86_400_000 + 3_600_000; // a week later: the closer starts following the new board
    await sweep();
    const logged = await request('POST', '/users/zed/actions', otherClient, { action: 'small', eventId: 'zed-1' });
    expect(logged.statusCode, logged.body).toBe(201);
    expect((await request('DELETE', '/users/zed/actions/zed-1', otherAdmin)).statusCode).toBe(200);
    now += 7 * 86_400_000;
    // Every other site's program fails to load this round: each is reported and skipped, and this one still closes.
    const services = t.app.services;
    const snapshot = services.programs.snapshot.bind(services.programs);
    const failing = vi
      .spyOn(services.programs, 'snapshot')
      .mockImplementation((siteId: string) => (siteId === other.siteId ? snapshot(siteId) : Promise.reject(new Error(`unreadable ${siteId}`))));
    const errors: unknown[] = [];
    const closer = new LeaderboardResultsService(t.database.db, services.programs, services.actions, services.points, services.preferences, {
      clock,
      intervalMs: 60_000,
      graceMs: GRACE,
      closingsPerRound: 100,
      onError: (error) => errors.push(error),
    });
    try {
      expect(await closer.sweep()).toBe(1);
    } finally {
      failing.mockRestore();
    }
    expect(errors.map(String)).toContain(`Error: unreadable ${site.siteId}`);
    const closed = await request('GET', '/leaderboards/lb-week/results', otherClient);
    expect((closed.json() as { response: ClosedWindow[] }).response.map((window) => window.winners)).toEqual([[]]);
    const paid = await t.database.db.selectFrom('points_ledger').select('entry_id').where('site_id', '=', other.siteId).where('cause', '=', 'prize').execute();
    expect(paid).toEqual([]);
    expect((await new VerifyService(t.database.db, t.app.services.programs).verify([other.siteId])).drift).toEqual([]);
  });
});
