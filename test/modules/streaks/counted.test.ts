// What an action counts in a streak, and what its reversal takes back, through the HTTP stack on
// both stores (docs/streaks.md#what-counts): an action dated ahead of now counts today; a reversal
// un-counts what the action counted (kept with its event), whatever the program or its time zone
// say since; `questline verify` agrees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerifyService } from '../../../src/modules/verify/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

const HOUR = 3_600_000;

/** s-read: daily, 50 Points at 2 days. */
const program = (extra: Record<string, unknown> = {}) => ({
  site: { name: 'Counted', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read' }, { name: 'quiz' }],
  streaks: [
    { id: 's-read', name: 'Reading', action: 'read', period: 'day', milestones: [{ length: 2, rewards: { points: [{ category: 'Points', amount: 50 }] } }] },
  ],
  ...extra,
});

describe.each(configurations)('streak counting (%s)', (configuration) => {
  let t: TestApp;
  let now = Date.parse('2026-03-01T00:00:00Z');

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => now, config: { tokenTtlSeconds: 365 * 86_400 } });
  });
  afterAll(async () => t.close());

  /** A new site with the program, and its admin's and app's calls. */
  const siteWith = async (document: unknown) => {
    const site: TestSite = await t.createSite();
    const admin = await t.token(site.admin);
    const app = await t.token(site.app);
    const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, status: number, payload?: unknown) => {
      const response = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
      expect(response.statusCode, response.body).toBe(status);
      return response.body === '' ? undefined : (response.json() as { response: Record<string, unknown> }).response;
    };
    await call('PUT', '/admin/program', admin, 200, document);
    return {
      site,
      call,
      admin,
      log: (user: string, extra: Record<string, unknown> = {}, action = 'read') => call('POST', `/users/${user}/actions`, app, 201, { action, ...extra }),
      streak: async (user: string) => ((await call('GET', `/users/${user}/streaks`, app, 200)) as unknown as Array<Record<string, unknown>>)[0],
      points: async (user: string) => ((await call('GET', `/users/${user}/point-balance`, app, 200)) as { balance: number }).balance,
      verify: async () => (await new VerifyService(t.database.db, t.app.services.programs).verify([site.siteId])).drift,
    };
  };

  it('an action dated ahead of now counts today: the next day still extends the run and pays its milestone', async () => {
    const s = await siteWith(program());
    now = Date.parse('2026-03-10T14:00:00Z'); // Tuesday 10:00 in New York
    await s.log('ann');
    now = Date.parse('2026-03-11T03:30:00Z'); // Tuesday 23:30; the client's clock says Wednesday 00:30
    const ahead = await s.log('ann', { timestamp: '2026-03-11T04:30:00Z' });
    expect(ahead).not.toHaveProperty('streaksExtended'); // Tuesday counted already
    now = Date.parse('2026-03-11T15:00:00Z'); // Wednesday 11:00
    const wednesday = await s.log('ann');
    expect(wednesday?.streaksExtended).toEqual([
      expect.objectContaining({ period: '2026-03-11', current: 2, milestones: [expect.objectContaining({ length: 2 })] }),
    ]);
    expect(await s.streak('ann')).toMatchObject({ current: 2, doneThisPeriod: true, nextMilestone: null });
    expect(await s.points('ann')).toBe(50);
    expect(await s.verify()).toEqual([]);
    // Ahead on the last day of a run, it extends the run today.
    now = Date.parse('2026-03-12T03:59:00Z'); // Wednesday 23:59
    await s.log('bob', { timestamp: '2026-03-12T04:30:00Z' });
    expect(await s.streak('bob')).toMatchObject({ current: 1, doneThisPeriod: true, periodStart: '2026-03-11' });
    expect(await s.verify()).toEqual([]);
    now += HOUR;
    expect(await s.streak('bob')).toMatchObject({ current: 1, doneThisPeriod: false, periodStart: '2026-03-12' });
  });

  /** The user's stored streak days: [streak, day, live actions]. */
  const storedDays = async (site: TestSite, user: string) =>
    (
      await t.database.db
        .selectFrom('streak_days')
        .select(['streak_id', 'day', 'actions'])
        .where('site_id', '=', site.siteId)
        .where('user_id', '=', user)
        .orderBy('streak_id')
        .orderBy('day')
        .execute()
    ).map((row) => [row.streak_id, Number(row.day), Number(row.actions)]);

  it('reversing an action logged before the streak existed takes nothing from the day a later action counts', async () => {
    const s = await siteWith(program({ streaks: [] }));
    now = Date.parse('2026-04-06T14:00:00Z');
    await s.log('ann', { eventId: 'ann-old' });
    await s.call('PUT', '/admin/program', s.admin, 200, program());
    now += HOUR;
    const answer = await s.log('ann', { eventId: 'ann-new' });
    expect(answer).not.toHaveProperty('streakDays'); // kept with the event, never sent
    const again = await s.call('POST', '/users/ann/actions', s.admin, 200, { action: 'read', eventId: 'ann-new' });
    expect(again).toMatchObject({ duplicate: true });
    expect(again).not.toHaveProperty('streakDays');
    expect(await s.verify()).toEqual([]);
    await s.call('DELETE', '/users/ann/actions/ann-old', s.admin, 200);
    expect(await s.streak('ann')).toMatchObject({ current: 1, doneThisPeriod: true });
    expect(await s.verify()).toEqual([]);
    await s.call('DELETE', '/users/ann/actions/ann-new', s.admin, 200);
    expect(await s.streak('ann')).toMatchObject({ current: 0, doneThisPeriod: false });
    expect(await s.verify()).toEqual([]);
  });

  it('after a time zone change a reversal un-counts the day the action counted, and verify finds no drift', async () => {
    const s = await siteWith(program());
    now = Date.parse('2026-07-01T03:30:00Z'); // June 30, 23:30 in New York; July 1 in Berlin
    await s.log('amy', { eventId: 'amy-1' });
    const counted = await storedDays(s.site, 'amy');
    expect(counted).toEqual([['s-read', Date.parse('2026-06-30') / 86_400_000, 1]]);
    now += HOUR;
    await s.call('PUT', '/admin/program', s.admin, 200, program({ site: { name: 'Counted', timezone: 'Europe/Berlin' } }));
    expect(await s.verify()).toEqual([]);
    await s.call('DELETE', '/users/amy/actions/amy-1', s.admin, 200);
    expect(await storedDays(s.site, 'amy')).toEqual([['s-read', Date.parse('2026-06-30') / 86_400_000, 0]]);
    expect(await s.verify()).toEqual([]);
  });

  it("removing one completion un-counts only its part, after the streaks' action and mission changed", async () => {
    const repeatable = (id: string, action: string) => ({
      id,
      name: id,
      rules: [{ id: 'r-1', action, type: 'count', goal: 1, metadata: [] }],
      rewards: { points: [] },
      repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
    });
    const missions = [repeatable('m-quiz', 'quiz'), repeatable('m-other', 'read')];
    const streaks = (action: string, mission: string) => [
      { id: 's-act', name: 'Acting', action, period: 'day' },
      { id: 's-done', name: 'Completing', mission, period: 'day' },
    ];
    const s = await siteWith(program({ missions, streaks: streaks('quiz', 'm-quiz') }));
    now = Date.parse('2026-08-03T14:00:00Z');
    await s.log('cy', { eventId: 'cy-1' }, 'quiz');
    const day = Date.parse('2026-08-03') / 86_400_000;
    expect(await storedDays(s.site, 'cy')).toEqual([
      ['s-act', day, 1],
      ['s-done', day, 1],
    ]);
    now += HOUR;
    await s.call('PUT', '/admin/program', s.admin, 200, program({ missions, streaks: streaks('read', 'm-other') }));
    expect(await s.verify()).toEqual([]);
    await s.call('DELETE', '/users/cy/challenges/m-quiz/completions/latest', s.admin, 200);
    expect(await storedDays(s.site, 'cy')).toEqual([
      ['s-act', day, 1],
      ['s-done', day, 0],
    ]);
    expect(await s.verify()).toEqual([]);
    await s.call('DELETE', '/users/cy/actions/cy-1', s.admin, 200);
    expect(await storedDays(s.site, 'cy')).toEqual([
      ['s-act', day, 0],
      ['s-done', day, 0],
    ]);
    expect(await s.verify()).toEqual([]);
  });

  it('an action that counts no streak keeps nothing with its event; one that counts keeps its day', async () => {
    const s = await siteWith(program());
    now = Date.parse('2026-09-07T14:00:00Z');
    await s.log('flo', { eventId: 'flo-1' });
    await s.log('flo', { eventId: 'flo-2' }, 'quiz');
    const outcomes = await t.database.db
      .selectFrom('action_events')
      .select(['event_id', 'outcome'])
      .where('site_id', '=', s.site.siteId)
      .where('party_id', '=', 'flo')
      .orderBy('event_id')
      .execute();
    expect(outcomes.map((row) => (JSON.parse(row.outcome) as { streakDays?: unknown }).streakDays)).toEqual([
      [{ streakId: 's-read', day: Date.parse('2026-09-07') / 86_400_000, action: 1 }],
      undefined,
    ]);
    await s.call('DELETE', '/users/flo/actions/flo-2', s.admin, 200);
    await s.call('DELETE', '/users/flo/actions/flo-1', s.admin, 200);
    expect(await storedDays(s.site, 'flo')).toEqual([['s-read', Date.parse('2026-09-07') / 86_400_000, 0]]);
    expect(await s.verify()).toEqual([]);
  });
});
