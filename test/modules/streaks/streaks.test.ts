// Streaks through the HTTP stack on both stores (docs/streaks.md): GET /users/{u}/streaks as the
// days go by in the site's zone (a backdated action counts in its own day, a freeze bridges a
// missed day), milestones paid once per run (also under 20 concurrent actions), streak.extended in
// the action's transaction, the sweep's streak.frozen and streak.broken sent once by two sweeps at
// once, reversals taking a day back, PostgreSQL's unlocked decisions (two nodes at once), and who
// may read whose streaks.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { openDatabase } from '../../../src/db/index.js';
import { LedgerRepository } from '../../../src/modules/ledger/repository.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { expectProblem } from '../../helpers/problem.js';
import { VerifyService } from '../../../src/modules/verify/service.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Reading counts for s-read (daily, one freeze earned every 2 days, at most 1; 50 Points and b-three at 3 days); m-quiz's completions count for s-quiz (weekly). */
const program = () => ({
  site: { name: 'Streaks', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read', clientLoggable: true }, { name: 'quiz' }, { name: 'other' }],
  badges: [{ id: 'b-three', name: 'Three in a row' }],
  levels: [
    { id: 'l-1', name: 'One', threshold: 0 },
    { id: 'l-2', name: 'Two', threshold: 40 },
  ],
  missions: [
    {
      id: 'm-quiz',
      name: 'Quiz',
      rules: [{ id: 'r-1', action: 'quiz', type: 'count', goal: 2, metadata: [] }],
      rewards: { points: [] },
      repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
    },
  ],
  streaks: [
    {
      id: 's-read',
      name: 'Daily reading',
      action: 'read',
      period: 'day',
      freezes: { max: 1, initial: 0, earnEvery: 2 },
      milestones: [{ length: 3, rewards: { points: [{ category: 'Points', amount: 50 }], badge: 'b-three' } }],
    },
    { id: 's-quiz', name: 'Weekly quiz', mission: 'm-quiz', period: 'week' },
  ],
});

describe.each(configurations)('streaks (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let app: string;
  // Friday 2026-03-06, 10:00 in New York; daylight saving starts Sunday 2026-03-08.
  let now = Date.parse('2026-03-06T15:00:00Z');

  beforeAll(async () => {
    // Tokens issued before every day the tests move the clock to, and valid past all of them.
    now = Date.parse('2026-03-01T00:00:00Z');
    t = await buildTestApp(configuration, { clock: () => now, config: { webhookAllowPrivateNetworks: true, tokenTtlSeconds: 365 * 86_400 } });
    site = await t.createSite();
    admin = await t.token(site.admin);
    app = await t.token(site.app);
    await call('PUT', '/admin/program', admin, 200, program());
    await call('POST', '/admin/webhook-endpoints', admin, 201, {
      url: 'http://127.0.0.1:9/streaks',
      eventTypes: ['streak.extended', 'streak.frozen', 'streak.broken', 'badge.earned'],
    });
  });
  afterAll(async () => t.close());

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, status: number, payload?: unknown) => {
    const response = await t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    expect(response.statusCode, response.body).toBe(status);
    return response.body === '' ? undefined : (response.json() as { response: unknown }).response;
  };
  const log = (user: string, action: string, extra: Record<string, unknown> = {}) => call('POST', `/users/${user}/actions`, app, 201, { action, ...extra });
  const streaks = async (user: string) => (await call('GET', `/users/${user}/streaks`, app, 200)) as Array<Record<string, unknown>>;
  const streak = async (user: string, id = 's-read') => (await streaks(user)).find((s) => s.id === id) as Record<string, unknown>;
  const points = async (user: string) => ((await call('GET', `/users/${user}/point-balance`, app, 200)) as { balance: number }).balance;
  const outbox = async (user: string, type: string) =>
    (
      await t.database.db
        .selectFrom('outbox')
        .select('payload')
        .where('site_id', '=', site.siteId)
        .where('party_id', '=', user)
        .where('event_type', '=', type)
        .orderBy('sequence')
        .execute()
    ).map((row) => (JSON.parse(row.payload) as { data: Record<string, unknown> }).data);

  /** The user's stored streak days, in order: [day, live actions]. */
  const storedDays = async (user: string) =>
    (
      await t.database.db
        .selectFrom('streak_days')
        .select(['day', 'actions'])
        .where('site_id', '=', site.siteId)
        .where('user_id', '=', user)
        .orderBy('day')
        .execute()
    ).map((row) => [Number(row.day), Number(row.actions)]);

  it('lists every streak of a user who never acted', async () => {
    now = Date.parse('2026-03-06T15:00:00Z');
    expect(await streaks('nobody')).toEqual([
      {
        id: 's-read',
        name: 'Daily reading',
        period: 'day',
        current: 0,
        longest: 0,
        freezesLeft: 0,
        freezesMax: 1,
        doneThisPeriod: false,
        periodStart: '2026-03-06',
        periodEnds: '2026-03-07T05:00:00.000Z',
        nextMilestone: { length: 3, rewards: { points: [{ category: 'Points', amount: 50 }], badge: 'b-three' } },
      },
      {
        id: 's-quiz',
        name: 'Weekly quiz',
        period: 'week',
        current: 0,
        longest: 0,
        freezesLeft: 0,
        freezesMax: 0,
        doneThisPeriod: false,
        periodStart: '2026-03-01',
        periodEnds: '2026-03-08T05:00:00.000Z',
        nextMilestone: null,
      },
    ]);
  });

  it('counts days in the site zone, pays the milestone once and sends streak.extended', async () => {
    now = Date.parse('2026-03-06T15:00:00Z');
    type Answer = { pointsAwarded: unknown[]; levelChanged?: unknown; streaksExtended?: unknown[] };
    const first = (await log('ann', 'read')) as Answer;
    expect(first.streaksExtended).toEqual([
      {
        id: 's-read',
        name: 'Daily reading',
        period: '2026-03-06',
        current: 1,
        longest: 1,
        freezesLeft: 0,
        periodEnds: '2026-03-07T05:00:00.000Z',
        milestones: [],
      },
    ]);
    const again = (await log('ann', 'read')) as Answer; // the same day: nothing more
    expect(again).not.toHaveProperty('streaksExtended');
    expect(await streak('ann')).toMatchObject({ current: 1, longest: 1, doneThisPeriod: true, freezesLeft: 0 });
    // Saturday 23:30 in New York is Sunday 04:30 UTC: still Saturday's period.
    now = Date.parse('2026-03-08T04:30:00Z');
    await log('ann', 'read');
    expect(await streak('ann')).toMatchObject({ current: 2, freezesLeft: 1, periodStart: '2026-03-07', periodEnds: '2026-03-08T05:00:00.000Z' });
    // Sunday (23 hours long in New York): the third day reaches the milestone.
    now = Date.parse('2026-03-08T20:00:00Z');
    const third = (await log('ann', 'read')) as Answer;
    expect(third.pointsAwarded).toEqual([{ category: 'Points', requested: 50, credited: 50 }]);
    expect(third.streaksExtended).toEqual([
      expect.objectContaining({
        id: 's-read',
        period: '2026-03-08',
        current: 3,
        milestones: [{ length: 3, points: [{ category: 'Points', amount: 50 }], badge: 'b-three' }],
      }),
    ]);
    expect(third.levelChanged).toMatchObject({ to: { id: 'l-2' }, direction: 'up' });
    expect(await streak('ann')).toMatchObject({ current: 3, longest: 3, periodEnds: '2026-03-09T04:00:00.000Z', nextMilestone: null });
    await log('ann', 'read');
    expect(await points('ann')).toBe(50);
    const extended = await outbox('ann', 'streak.extended');
    expect(extended.map((e) => [e.period, e.current])).toEqual([
      ['2026-03-06', 1],
      ['2026-03-07', 2],
      ['2026-03-08', 3],
    ]);
    expect(extended[2]).toMatchObject({
      streak: { id: 's-read', name: 'Daily reading' },
      longest: 3,
      freezesLeft: 1,
      periodEnds: '2026-03-09T04:00:00.000Z',
      milestones: [{ length: 3, points: [{ category: 'Points', amount: 50 }], badge: 'b-three' }],
    });
    expect(await outbox('ann', 'badge.earned')).toHaveLength(1);
    expect(((await call('GET', '/users/ann/badges', app, 200)) as unknown[]).length).toBe(1);
  });

  it('a freeze bridges a missed day; a backdated action counts in its own day', async () => {
    now = Date.parse('2026-03-06T15:00:00Z');
    await log('bob', 'read');
    now += DAY;
    await log('bob', 'read'); // 2 days: one freeze earned
    now += 2 * DAY; // Monday: Sunday missed, the freeze covers it
    expect(await streak('bob')).toMatchObject({ current: 2, freezesLeft: 0, doneThisPeriod: false });
    now += DAY; // Tuesday: Monday missed too, no freeze left
    expect(await streak('bob')).toMatchObject({ current: 0, longest: 2, freezesLeft: 0 });
    // Monday's reading, logged late: the run is whole again and reaches 3.
    await log('bob', 'read', { timestamp: '2026-03-09T12:00:00-04:00' });
    expect(await streak('bob')).toMatchObject({ current: 3, longest: 3, doneThisPeriod: false });
    expect(await points('bob')).toBe(50);
    await log('bob', 'read');
    expect(await streak('bob')).toMatchObject({ current: 4, doneThisPeriod: true });
    expect(await points('bob')).toBe(50);
  });

  it("counts a mission's completions in Sunday weeks", async () => {
    now = Date.parse('2026-03-05T15:00:00Z'); // Thursday
    await log('cy', 'quiz');
    expect(await streak('cy', 's-quiz')).toMatchObject({ current: 0 });
    await log('cy', 'quiz'); // completes m-quiz
    expect(await streak('cy', 's-quiz')).toMatchObject({ current: 1, doneThisPeriod: true, periodStart: '2026-03-01' });
    now = Date.parse('2026-03-08T15:00:00Z'); // Sunday: a new week
    expect(await streak('cy', 's-quiz')).toMatchObject({ current: 1, doneThisPeriod: false, periodStart: '2026-03-08' });
    await log('cy', 'quiz');
    await log('cy', 'quiz');
    expect(await streak('cy', 's-quiz')).toMatchObject({ current: 2, doneThisPeriod: true });
    now = Date.parse('2026-03-22T15:00:00Z'); // a week missed
    expect(await streak('cy', 's-quiz')).toMatchObject({ current: 0, longest: 2 });
  });

  it('pays a milestone once under 20 concurrent actions in one period', async () => {
    now = Date.parse('2026-03-06T15:00:00Z');
    await log('dee', 'read');
    now += DAY;
    await log('dee', 'read');
    now += DAY;
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({ method: 'POST', url: '/users/dee/actions', headers: { authorization: `Bearer ${app}` }, payload: { action: 'read' } }),
      ),
    );
    expect(outcomes.map((o) => o.statusCode)).toEqual(Array.from({ length: 20 }, () => 201));
    expect(await points('dee')).toBe(50);
    const paid = await t.database.db
      .selectFrom('points_ledger')
      .select('entry_id')
      .where('site_id', '=', site.siteId)
      .where('party_id', '=', 'dee')
      .where('cause', '=', 'streak')
      .execute();
    expect(paid).toHaveLength(1);
    expect(await outbox('dee', 'streak.extended')).toHaveLength(3);
    expect((await storedDays('dee')).map(([, actions]) => actions)).toEqual([1, 1, 20]);
  });

  it('the sweep sends streak.frozen and streak.broken once, with two sweeps at once', async () => {
    now = Date.parse('2026-04-06T15:00:00Z'); // Monday
    await log('eve', 'read');
    now += DAY;
    await log('eve', 'read'); // Tuesday: a freeze earned
    now += 2 * DAY; // Thursday: Wednesday missed, frozen
    const sweeps = await Promise.all([t.app.services.streaks.sweep(now), t.app.services.streaks.sweep(now)]);
    expect(sweeps[0] + sweeps[1]).toBeGreaterThanOrEqual(1);
    expect(await outbox('eve', 'streak.frozen')).toEqual([
      { user: { userId: 'eve' }, streak: { id: 's-read', name: 'Daily reading' }, period: '2026-04-08', current: 2, freezesLeft: 0 },
    ]);
    expect(await outbox('eve', 'streak.broken')).toEqual([]);
    now += DAY; // Friday: Thursday missed as well, broken
    await Promise.all([t.app.services.streaks.sweep(now), t.app.services.streaks.sweep(now)]);
    await t.app.services.streaks.sweep(now + HOUR);
    expect(await outbox('eve', 'streak.frozen')).toHaveLength(1);
    expect(await outbox('eve', 'streak.broken')).toEqual([
      {
        user: { userId: 'eve' },
        streak: { id: 's-read', name: 'Daily reading' },
        length: 2,
        runStart: '2026-04-06',
        lastPeriod: '2026-04-07',
        missedPeriod: '2026-04-09',
      },
    ]);
    expect(await streak('eve')).toMatchObject({ current: 0, longest: 2 });
  });

  it('a reversed action takes its day back when nothing else counted it', async () => {
    now = Date.parse('2026-05-04T15:00:00Z');
    await log('flo', 'read', { eventId: 'flo-1' });
    now += DAY;
    await log('flo', 'read', { eventId: 'flo-2' });
    await log('flo', 'read', { eventId: 'flo-3' });
    expect(await streak('flo')).toMatchObject({ current: 2 });
    await call('DELETE', '/users/flo/actions/flo-2', admin, 200);
    expect(await streak('flo')).toMatchObject({ current: 2 }); // flo-3 still counts the day
    await call('DELETE', '/users/flo/actions/flo-3', admin, 200);
    expect(await streak('flo')).toMatchObject({ current: 1, doneThisPeriod: false });
    await call('DELETE', '/users/flo/actions/flo-3', admin, 200); // a repeat changes nothing
    expect(await streak('flo')).toMatchObject({ current: 1 });
  });

  it('counts streaks without a lock on PostgreSQL, and pays a milestone once when two nodes log at once', async () => {
    // A second node on the same database (on SQLite one node: two connections of one process
    // would wait on each other's write lock while holding the event loop).
    const database = openDatabase(t.config.database);
    const other = await buildApp(t.config, { database, clock: () => now });
    const locks = vi.spyOn(LedgerRepository.prototype, 'write');
    try {
      now = Date.parse('2026-06-01T15:00:00Z');
      await log('gus', 'read');
      now += DAY;
      await log('gus', 'read');
      // PostgreSQL decides a streak's action from the user's state read without a lock (then
      // cached), and writes it guarded by the user's version, as any other action.
      expect(locks).toHaveBeenCalledTimes(configuration === 'scale-out' ? 0 : 2);
      now += DAY;
      const nodes = configuration === 'scale-out' ? [t.app, other] : [t.app];
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (nodes[i % nodes.length] as typeof other).inject({
            method: 'POST',
            url: '/users/gus/actions',
            headers: { authorization: `Bearer ${app}` },
            payload: { action: 'read' },
          }),
        ),
      );
      expect(outcomes.map((o) => o.statusCode)).toEqual(Array.from({ length: 20 }, () => 201));
      const credited = outcomes.flatMap((o) => (o.json() as { response: { pointsAwarded: unknown[] } }).response.pointsAwarded);
      expect(credited).toEqual([{ category: 'Points', requested: 50, credited: 50 }]);
      expect(await points('gus')).toBe(50);
      expect(await outbox('gus', 'streak.extended')).toHaveLength(3);
      expect(await outbox('gus', 'badge.earned')).toHaveLength(1);
      expect((await storedDays('gus')).map(([, actions]) => actions)).toEqual([1, 1, 20]);
      // Each node then sees the other's days: the fourth day extends the run to 4 from either.
      now += DAY;
      await log('gus', 'read');
      expect(await streak('gus')).toMatchObject({ current: 4, longest: 4, doneThisPeriod: true });
      const fourth = await other.inject({ method: 'GET', url: '/users/gus/streaks', headers: { authorization: `Bearer ${app}` } });
      expect((fourth.json() as { response: Array<Record<string, unknown>> }).response[0]).toMatchObject({ current: 4 });
    } finally {
      locks.mockRestore();
      await other.close();
      await database.close();
    }
  });

  it('a reversal leaves a badge a streak milestone and a prize also awarded in the trophy case', async () => {
    // Another site: b-gold comes from m-first's completion, s-daily's first day and lb-day's prize.
    const other = await t.createSite();
    const otherAdmin = await t.token(other.admin);
    const otherApp = await t.token(other.app);
    await call('PUT', '/admin/program', otherAdmin, 200, {
      site: { name: 'Badges', timezone: 'UTC' },
      pointCategories: [{ name: 'Points', isDefault: true }],
      actions: [{ name: 'read' }],
      badges: [{ id: 'b-gold', name: 'Gold' }],
      missions: [
        {
          id: 'm-first',
          name: 'First',
          rules: [{ id: 'r-1', action: 'read', type: 'count', goal: 1, metadata: [] }],
          rewards: { points: [{ category: 'Points', amount: 5 }], badge: 'b-gold' },
        },
      ],
      streaks: [{ id: 's-daily', name: 'Daily', action: 'read', period: 'day', milestones: [{ length: 1, rewards: { points: [], badge: 'b-gold' } }] }],
      leaderboards: [
        {
          id: 'lb-day',
          name: 'Today',
          metric: { type: 'points', category: 'Points' },
          period: 'day',
          prizes: [{ ranks: '1', rewards: { points: [], badge: 'b-gold' } }],
        },
      ],
    });
    const trophy = async () =>
      (await t.database.db.selectFrom('trophies').select('earned_count').where('site_id', '=', other.siteId).where('party_id', '=', 'ivy').execute()).map(
        (row) => Number(row.earned_count),
      );
    now = Date.parse('2026-07-01T12:00:00Z');
    await t.app.services.leaderboardResults.sweep(); // (the closer starts following lb-day's windows)
    await call('POST', '/users/ivy/actions', otherApp, 201, { action: 'read', eventId: 'ivy-1' });
    expect(await trophy()).toEqual([2]); // the completion and the milestone
    now = Date.parse('2026-07-02T01:00:00Z'); // the day closed (and its grace passed): the prize
    expect(await t.app.services.leaderboardResults.sweep()).toBeGreaterThan(0);
    expect(await trophy()).toEqual([3]);
    // The reversal takes back the completion's badge only: the milestone's and the prize's stay.
    await call('DELETE', '/users/ivy/actions/ivy-1', otherAdmin, 200);
    expect(await trophy()).toEqual([2]);
    expect((await new VerifyService(t.database.db, t.app.services.programs).verify([other.siteId])).drift).toEqual([]);
  });

  it('questline verify recomputes the counted days and milestones, and finds them tampered with', async () => {
    const verify = async () => (await new VerifyService(t.database.db, t.app.services.programs).verify([site.siteId])).drift;
    expect(await verify()).toEqual([]);
    const day = (user: string) => t.database.db.updateTable('streak_days').where('site_id', '=', site.siteId).where('user_id', '=', user);
    await day('flo').set({ actions: 5 }).execute();
    expect((await verify()).map((d) => [d.check, d.subject, d.expected, d.actual])).toEqual([
      ['streak_days', 'user:flo', 1, 5],
      ['streak_days', 'user:flo', 0, 5],
    ]);
    // Back as it was: flo-1 counts the first day, nothing the second.
    const [first, second] = (await storedDays('flo')).map(([day]) => day as number);
    await day('flo')
      .set({ actions: 1 })
      .where('day', '=', first as number)
      .execute();
    await day('flo')
      .set({ actions: 0 })
      .where('day', '=', second as number)
      .execute();
    expect(await verify()).toEqual([]);
    await t.database.db.deleteFrom('streak_milestones').where('site_id', '=', site.siteId).where('user_id', '=', 'dee').execute();
    expect((await verify()).map((d) => [d.check, d.subject])).toEqual([
      ['trophies', 'user:dee'],
      ['streak_milestone', 'user:dee'],
    ]);
  });

  it('who may read whose streaks', async () => {
    now = Date.parse('2026-03-08T20:00:00Z');
    const url = '/users/ann/streaks';
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer nope' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin}` } })).statusCode).toBe(200);
    const own = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${await t.token(site.app, 'ann')}` } });
    expect(own.statusCode).toBe(200);
    expect((own.json() as { response: Array<{ longest: number }> }).response[0]?.longest).toBe(3);
    const other = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${await t.token(site.app, 'bob')}` } });
    expectProblem(other, 403, 'forbidden');
    // Another site's admin reads its own site, which has no streaks.
    const elsewhere = await t.createSite();
    const response = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${await t.token(elsewhere.admin)}` } });
    expect(response.statusCode).toBe(200);
    expect((response.json() as { response: unknown[] }).response).toEqual([]);
    expectProblem(
      await t.app.inject({ method: 'GET', url: `/users/${'x'.repeat(300)}/streaks`, headers: { authorization: `Bearer ${app}` } }),
      400,
      'validation_failed',
    );
  });
});
