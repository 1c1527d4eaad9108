// Mission reads through the HTTP stack (SPEC §6, §3): a party's eligible and completed missions
// (hidden types, group and mission prerequisites, dates, featured dates, repeat windows in the
// mission's own time zone) and its progress in one mission, for users and groups, with paging and
// who may read what. The app clock is fixed and moved by hand to cross windows and dates.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

// Monday 2026-06-15 12:00 UTC (site time zone UTC) is 21:00 in Tokyo, where m-daily's days begin at 15:00 UTC.
const T0 = '2026-06-15T12:00:00.000Z';
let now = Date.parse(T0);
const at = (iso: string) => {
  now = Date.parse(iso);
};

const rule = (action: string, goal = 1, id = 'r') => ({ id, action, goal });
const program = {
  site: { name: 'Mission reads', timezone: 'UTC' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => ({ name })),
  groups: [
    { id: 'g-sales', name: 'Sales' },
    { id: 'g-vip', name: 'VIP' },
  ],
  missions: [
    {
      id: 'm-open',
      name: 'Open',
      description: 'Do a once',
      iconUrl: 'https://cdn.example/open.png',
      timezone: 'UTC',
      importance: 3,
      featuredStartDate: '2026-06-14T00:00:00',
      featuredEndDate: '2026-06-15T23:59:59',
      rules: [rule('a')],
      rewards: { points: [{ category: 'Points', amount: 10 }] },
    },
    { id: 'm-locked', name: 'Locked', prerequisites: { missions: ['m-open'] }, rules: [rule('b')] },
    { id: 'm-unlock', name: 'Unlockable', hidden: 'hidden_until_unlocked', prerequisites: { missions: ['m-open'] }, rules: [rule('b')] },
    { id: 'm-earn', name: 'Surprise', hidden: 'hidden_until_earned', rules: [rule('c')] },
    { id: 'm-never', name: 'Internal', hidden: 'always_hidden', rules: [rule('c')] },
    { id: 'm-vip', name: 'VIP only', prerequisites: { groups: ['g-vip'] }, rules: [rule('a', 5)] },
    { id: 'm-daily', name: 'Daily', timezone: 'Asia/Tokyo', repeatableWindow: { period: 'day', maxPerPeriod: 1 }, rules: [rule('d', 2)] },
    // Featured dates written to the minute: the end minute is included, as for endDate.
    {
      id: 'm-multi',
      name: 'Both',
      timezone: 'UTC',
      featuredStartDate: '2026-06-15T06:00',
      featuredEndDate: '2026-06-15T12:00',
      rules: [rule('e', 1, 'r-1'), rule('f', 1, 'r-2')],
    },
    { id: 'm-expired', name: 'Expired', endDate: '2026-06-01T00:00:00', rules: [rule('a')] },
    { id: 'm-future', name: 'Future', startDate: '2026-07-01T00:00:00', rules: [rule('a')] },
    { id: 'm-team', name: 'Team', party: 'group', rules: [rule('a', 3)] },
  ],
};
const FRESH = ['m-open', 'm-locked', 'm-daily', 'm-multi'];
const OPEN = {
  id: 'm-open',
  name: 'Open',
  description: 'Do a once',
  iconUrl: 'https://cdn.example/open.png',
  featuredStartDate: '2026-06-14T00:00:00',
  featuredEndDate: '2026-06-15T23:59:59',
  timezone: 'UTC',
  featured: true,
  repeatable: false,
  rewards: { points: [{ category: 'Points', amount: 10 }] },
  importance: 3,
  percentComplete: 0,
};

interface Summary {
  id: string;
  featured: boolean;
  repeatable: boolean;
  locked?: boolean;
  lockedReason?: string;
  percentComplete: number;
  completionCount?: number;
  lastCompletedAt?: string;
}
type Party = 'users' | 'groups';

describe.each(configurations)('mission reads (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;

  // Tokens are issued on the app clock, so each call takes a fresh one.
  const token = (userId?: string) => t.token(site.app, userId);
  const get = async (url: string, bearer?: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer ?? (await token())}` } });
  const ok = (response: LightMyRequestResponse, status = 200) => {
    expect(response.statusCode, response.body).toBe(status);
    return (response.json() as { response: unknown }).response;
  };
  const list = async (party: Party, id: string, type = 'eligible', bearer?: string) =>
    ok(await get(`/${party}/${id}/challenges?type=${type}`, bearer)) as Summary[];
  const ids = async (party: Party, id: string, type = 'eligible') => (await list(party, id, type)).map((m) => m.id);
  const find = async (party: Party, id: string, missionId: string, type = 'eligible') => (await list(party, id, type)).find((m) => m.id === missionId);
  const progress = async (party: Party, id: string, missionId: string, bearer?: string) =>
    ok(await get(`/${party}/${id}/challenges/${missionId}/progress`, bearer));
  const log = async (party: Party, id: string, action: string, times = 1) => {
    const bearer = await token();
    for (let i = 0; i < times; i += 1)
      ok(await t.app.inject({ method: 'POST', url: `/${party}/${id}/actions`, headers: { authorization: `Bearer ${bearer}` }, payload: { action } }), 201);
  };
  const put = async (url: string, token: string, payload: object) =>
    t.app.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${token}` }, payload });

  beforeAll(async () => {
    // A bucket that never runs out and barely refills: the in-memory store refills by the app clock,
    // which these tests move back between tests (and stands still within one).
    const unlimited = { rate: 0.01, burst: 1_000_000_000 };
    t = await buildTestApp(configuration, { clock: () => now, config: { clientRate: unlimited, userRate: unlimited } });
    site = await t.createSite();
    const admin = await t.token(site.admin);
    ok(await put('/admin/program', admin, program));
    for (const [group, user] of [
      ['g-vip', 'vip'],
      ['g-sales', 'gm-1'],
      ['g-sales', 'gm-2'],
    ]) {
      expect((await put(`/admin/groups/${group}/members/${user}`, admin, {})).statusCode).toBe(201);
    }
  });
  beforeEach(() => at(T0));
  afterAll(async () => t.close());

  it('lists for a new user the active, visible user missions it may complete, with their fields; nothing completed', async () => {
    const eligible = await list('users', 'fresh');
    expect(eligible.map((m) => [m.id, m.featured, m.repeatable, m.locked, m.percentComplete])).toEqual([
      ['m-open', true, false, false, 0],
      ['m-locked', false, false, true, 0],
      ['m-daily', false, true, false, 0],
      ['m-multi', true, false, false, 0],
    ]);
    // Never always_hidden, hidden_until_* (not yet), m-vip (not a member), expired, not started, or group missions.
    expect(eligible[0]).toEqual({ ...OPEN, locked: false });
    expect(eligible[1]).toEqual({
      id: 'm-locked',
      name: 'Locked',
      timezone: 'America/Los_Angeles',
      featured: false,
      repeatable: false,
      rewards: { points: [] },
      importance: 0,
      percentComplete: 0,
      locked: true,
      lockedReason: expect.stringContaining('Open') as string,
    });
    const completed = await get('/users/fresh/challenges?type=completed');
    expect(ok(completed)).toEqual([]);
    expect(completed.headers['x-total-count']).toBe('0');
  });

  it('shows each hidden type in the eligible and completed lists, and its progress to the user only once visible', async () => {
    const hiddenIds = ['m-unlock', 'm-earn', 'm-never'];
    const steps: Array<[action: string | null, eligible: string[], completed: string[], visible: string[]]> = [
      [null, FRESH, [], []],
      // c completes m-earn and m-never: only the first is listed as completed.
      ['c', FRESH, ['m-earn'], ['m-earn']],
      // a completes m-open, which unlocks m-unlock (and m-locked).
      ['a', ['m-locked', 'm-unlock', 'm-daily', 'm-multi'], ['m-open', 'm-earn'], ['m-unlock', 'm-earn']],
      ['b', ['m-daily', 'm-multi'], ['m-open', 'm-locked', 'm-unlock', 'm-earn'], ['m-unlock', 'm-earn']],
    ];
    for (const [index, [action, eligible, completed, visible]] of steps.entries()) {
      if (action !== null) await log('users', 'hid', action);
      expect(await ids('users', 'hid'), `step ${index}`).toEqual(eligible);
      expect(await ids('users', 'hid', 'completed'), `step ${index}`).toEqual(completed);
      const own = await token('hid');
      for (const missionId of hiddenIds) {
        const asUser = await get(`/users/hid/challenges/${missionId}/progress`, own);
        expect(asUser.statusCode, `step ${index} ${missionId}`).toBe(visible.includes(missionId) ? 200 : 404);
        if (asUser.statusCode === 404) expect(asUser.json()).toMatchObject({ code: 'not_found' });
        expect((await get(`/users/hid/challenges/${missionId}/progress`)).statusCode, `step ${index} ${missionId}`).toBe(200);
      }
    }
    expect(await progress('users', 'hid', 'm-never')).toMatchObject({ challengeId: 'm-never', completionCount: 1 });
  });

  it('lists a mission with a group prerequisite only for members of the group', async () => {
    expect(await ids('users', 'vip')).toEqual(['m-open', 'm-locked', 'm-vip', 'm-daily', 'm-multi']);
    expect(await ids('users', 'outsider')).toEqual(FRESH);
  });

  it('locks a mission until its prerequisite is done; a completed one-time mission leaves the eligible list for the completed one', async () => {
    await log('users', 'lock', 'a');
    expect(await find('users', 'lock', 'm-open')).toBeUndefined();
    const locked = await find('users', 'lock', 'm-locked');
    expect(locked).toMatchObject({ locked: false });
    expect(locked).not.toHaveProperty('lockedReason');
    // A completed one-time mission reads as done (the engine's restart from zero is for repeats).
    expect(await list('users', 'lock', 'completed')).toEqual([{ ...OPEN, percentComplete: 100, completionCount: 1, lastCompletedAt: T0 }]);
    expect(await progress('users', 'lock', 'm-open')).toEqual({
      challengeId: 'm-open',
      rules: [{ ruleId: 'r', action: 'a', goal: 1, current: 1, achieved: true }],
      percentComplete: 100,
      completionCount: 1,
      window: null,
    });
  });

  it("brings a daily mission back on the next day of the mission's time zone, and reads yesterday's progress as none", async () => {
    const daily = (current: number, completionCount: number, start: string, end: string) => ({
      challengeId: 'm-daily',
      rules: [{ ruleId: 'r', action: 'd', goal: 2, current, achieved: current >= 2 }],
      percentComplete: current * 50,
      completionCount,
      window: { start, end },
    });
    await log('users', 'daily', 'd');
    expect(await progress('users', 'daily', 'm-daily')).toEqual(daily(1, 0, '2026-06-14T15:00:00.000Z', '2026-06-15T15:00:00.000Z'));
    expect(await find('users', 'daily', 'm-daily')).toMatchObject({ percentComplete: 50, repeatable: true });
    await log('users', 'daily', 'd');
    expect(await ids('users', 'daily')).not.toContain('m-daily');
    expect(await find('users', 'daily', 'm-daily', 'completed')).toMatchObject({ completionCount: 1, lastCompletedAt: T0, repeatable: true });

    at('2026-06-15T14:59:59.999Z'); // still 06-15 in Tokyo
    expect(await ids('users', 'daily')).not.toContain('m-daily');
    at('2026-06-15T15:00:00.000Z'); // 06-16 in Tokyo, still 06-15 in the site time zone
    expect(await find('users', 'daily', 'm-daily')).toMatchObject({ percentComplete: 0 });
    expect(await progress('users', 'daily', 'm-daily')).toEqual(daily(0, 1, '2026-06-15T15:00:00.000Z', '2026-06-16T15:00:00.000Z'));
    at('2026-06-15T16:00:00.000Z');
    await log('users', 'daily', 'd', 2);
    expect(await ids('users', 'daily')).not.toContain('m-daily');
    expect(await find('users', 'daily', 'm-daily', 'completed')).toMatchObject({ completionCount: 2, lastCompletedAt: '2026-06-15T16:00:00.000Z' });

    at('2026-06-16T16:00:00.000Z');
    await log('users', 'daily', 'd');
    expect(await progress('users', 'daily', 'm-daily')).toEqual(daily(1, 2, '2026-06-16T15:00:00.000Z', '2026-06-17T15:00:00.000Z'));
    at('2026-06-17T15:00:00.000Z');
    expect(await progress('users', 'daily', 'm-daily')).toEqual(daily(0, 2, '2026-06-17T15:00:00.000Z', '2026-06-18T15:00:00.000Z'));
    expect(await find('users', 'daily', 'm-daily')).toMatchObject({ percentComplete: 0 });
  });

  it.each([
    ['2026-06-13T23:59:59.999Z', false, false],
    ['2026-06-14T00:00:00.000Z', true, false],
    ['2026-06-15T06:00:00.000Z', true, true],
    ['2026-06-15T12:00:59.999Z', true, true],
    ['2026-06-15T12:01:00.000Z', true, false],
    ['2026-06-15T23:59:59.999Z', true, false],
    ['2026-06-16T00:00:00.000Z', false, false],
  ])('at %s features m-open: %s, m-multi: %s', async (instant, open, multi) => {
    at(instant);
    const eligible = await list('users', 'fresh');
    expect(eligible.find((m) => m.id === 'm-open')?.featured).toBe(open);
    expect(eligible.find((m) => m.id === 'm-multi')?.featured).toBe(multi);
  });

  it('lists a mission between its start and end dates only', async () => {
    for (const [instant, present] of [
      ['2026-06-01T06:59:59.999Z', true],
      ['2026-06-01T07:00:01.000Z', false],
    ] as const) {
      at(instant); // m-expired ends 2026-06-01T00:00:00 in Los Angeles (07:00 UTC), its last second included
      expect((await ids('users', 'fresh')).includes('m-expired'), instant).toBe(present);
    }
    for (const [instant, present] of [
      ['2026-07-01T06:59:59.999Z', false],
      ['2026-07-01T07:00:00.000Z', true],
    ] as const) {
      at(instant);
      expect((await ids('users', 'fresh')).includes('m-future'), instant).toBe(present);
    }
  });

  it('shows the progress of a multi-action mission per rule: one of two actions is 50 %', async () => {
    await log('users', 'multi', 'e');
    expect(await find('users', 'multi', 'm-multi')).toMatchObject({ percentComplete: 50 });
    expect(await progress('users', 'multi', 'm-multi')).toEqual({
      challengeId: 'm-multi',
      rules: [
        { ruleId: 'r-1', action: 'e', goal: 1, current: 1, achieved: true },
        { ruleId: 'r-2', action: 'f', goal: 1, current: 0, achieved: false },
      ],
      percentComplete: 50,
      completionCount: 0,
      window: null,
    });
  });

  it.each([
    ['an unknown mission', '/users/fresh/challenges/m-nope/progress'],
    ['a group mission asked for a user', '/users/fresh/challenges/m-team/progress'],
    ['a user mission asked for a group', '/groups/g-sales/challenges/m-open/progress'],
  ])('answers the progress of %s with 404', async (_name, url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 404, code: 'not_found' });
  });

  it("advances a group mission with its members' actions and lists it for the group, never for a user", async () => {
    await log('users', 'gm-1', 'a');
    await log('users', 'gm-2', 'a');
    expect(await progress('groups', 'g-sales', 'm-team')).toEqual({
      challengeId: 'm-team',
      rules: [{ ruleId: 'r', action: 'a', goal: 3, current: 2, achieved: false }],
      percentComplete: 66,
      completionCount: 0,
      window: null,
    });
    expect(await list('groups', 'g-sales')).toEqual([
      {
        id: 'm-team',
        name: 'Team',
        timezone: 'America/Los_Angeles',
        featured: false,
        repeatable: false,
        rewards: { points: [] },
        importance: 0,
        percentComplete: 66,
        locked: false,
      },
    ]);
    expect(await ids('groups', 'g-vip')).toEqual(['m-team']);
    await log('groups', 'g-sales', 'a');
    expect(await ids('groups', 'g-sales')).toEqual([]);
    expect(await list('groups', 'g-sales', 'completed')).toEqual([expect.objectContaining({ id: 'm-team', completionCount: 1, lastCompletedAt: T0 })]);
    expect(await ids('users', 'gm-1', 'completed')).toEqual(['m-open']);
    expect(await ids('users', 'gm-1')).toEqual(['m-locked', 'm-unlock', 'm-daily', 'm-multi']);
  });

  it('pages with limit and offset, the total in X-Total-Count; refuses an unknown type with 400', async () => {
    for (const [query, expected] of [
      ['limit=2&offset=1', ['m-locked', 'm-daily']],
      ['limit=1', ['m-open']],
      ['offset=4', []],
    ] as const) {
      const response = await get(`/users/fresh/challenges?${query}`);
      expect(
        (ok(response) as Summary[]).map((m) => m.id),
        query,
      ).toEqual(expected);
      expect(response.headers['x-total-count']).toBe('4');
    }
    for (const party of ['users/fresh', 'groups/g-sales']) {
      const response = await get(`/${party}/challenges?type=bogus`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: 400, code: 'validation_failed' });
    }
  });

  it('lets a user-level token read only its own lists and progress, and no group', async () => {
    const ann = await token('sec-ann');
    expect((await list('users', 'sec-ann', 'eligible', ann)).map((m) => m.id)).toEqual(FRESH);
    expect(await list('users', 'sec-ann', 'completed', ann)).toEqual([]);
    expect(await progress('users', 'sec-ann', 'm-open', ann)).toMatchObject({ completionCount: 0 });
    for (const url of [
      '/users/sec-bob/challenges',
      '/users/sec-bob/challenges?type=completed',
      '/users/sec-bob/challenges/m-open/progress',
      '/groups/g-sales/challenges',
      '/groups/g-sales/challenges/m-team/progress',
    ]) {
      const response = await get(url, ann);
      expect(response.statusCode, url).toBe(403);
      expect(response.json(), url).toMatchObject({ code: 'forbidden' });
    }
  });

  it("shows another site's client the same user id as an empty user", async () => {
    await log('users', 'shared', 'a');
    expect(await ids('users', 'shared', 'completed')).toEqual(['m-open']);
    const other = await t.createSite();
    ok(await put('/admin/program', await t.token(other.admin), program));
    const otherClient = await t.token(other.app);
    expect((await list('users', 'shared', 'completed', otherClient)).map((m) => m.id)).toEqual([]);
    expect((await list('users', 'shared', 'eligible', otherClient)).map((m) => m.id)).toEqual(FRESH);
    expect(await progress('users', 'shared', 'm-open', otherClient)).toMatchObject({ completionCount: 0, percentComplete: 0 });
  });
});
