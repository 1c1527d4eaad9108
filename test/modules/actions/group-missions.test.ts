// Group missions (SPEC §5): a group's own actions and its members' actions advance the group's
// missions; a completion is the group's and credits the group's balance; parties are locked in one
// fixed order, so members acting at once neither deadlock nor lose progress.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp } from '../../helpers/app.js';

const program = {
  site: { name: 'Teams', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read_article' }, { name: 'sell' }, { name: 'win_deal' }],
  groups: [
    { id: 'g-sales', name: 'Sales' },
    { id: 'g-emea', name: 'EMEA' },
  ],
  missions: [
    {
      id: 'm-team',
      name: 'Team reading',
      party: 'group',
      rules: [{ id: 'r-1', action: 'read_article', goal: 3 }],
      rewards: { points: [{ category: 'Points', amount: 500 }] },
      repeatableWindow: { period: 'none' },
    },
    { id: 'm-solo', name: 'Solo reading', rules: [{ id: 'r-1', action: 'read_article', goal: 1 }], rewards: { points: [{ category: 'Points', amount: 10 }] } },
    {
      id: 'm-team-sales',
      name: 'Team sales',
      party: 'group',
      rules: [{ id: 'r-1', action: 'sell', type: 'sum', goal: 1000 }],
      rewards: { points: [{ category: 'Points', amount: 50 }] },
      repeatableWindow: { period: 'none' },
    },
    {
      id: 'm-team-deal',
      name: 'First deal',
      party: 'group',
      rules: [{ id: 'r-1', action: 'win_deal', goal: 1 }],
      rewards: { points: [{ category: 'Points', amount: 20 }] },
    },
  ],
};

describe.each(configurations)('group missions (%s)', (configuration) => {
  let t: TestApp;
  let admin: string;
  let app: string;
  let siteId: string;

  const balance = async (type: 'user' | 'group', id: string) => {
    const row = await t.database.db
      .selectFrom('point_balances')
      .select('balance')
      .where('site_id', '=', siteId)
      .where('party_type', '=', type)
      .where('party_id', '=', id)
      .where('category', '=', 'Points')
      .executeTakeFirst();
    return Number(row?.balance ?? 0);
  };
  const completions = async (type: 'user' | 'group', id: string, missionId: string) =>
    (
      await t.database.db
        .selectFrom('mission_completions')
        .select('completion_id')
        .where('site_id', '=', siteId)
        .where('party_type', '=', type)
        .where('party_id', '=', id)
        .where('mission_id', '=', missionId)
        .execute()
    ).length;
  const logFor = (path: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: path, headers: { authorization: `Bearer ${app}` }, payload });

  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { clientRate: { rate: 100_000, burst: 100_000 } } });
    const site = await t.createSite();
    siteId = site.siteId;
    admin = await t.token(site.admin);
    app = await t.token(site.app);
    expect((await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program })).statusCode).toBe(
      200,
    );
    for (const [group, user] of [
      ['g-sales', 'ann'],
      ['g-sales', 'bob'],
      ['g-emea', 'bob'],
    ]) {
      expect(
        (await t.app.inject({ method: 'PUT', url: `/admin/groups/${group}/members/${user}`, headers: { authorization: `Bearer ${admin}` } })).statusCode,
      ).toBe(201);
    }
  });
  afterAll(async () => t.close());

  it("advances a group's mission with its members' actions and its own, and credits the group", async () => {
    const first = await logFor('/users/ann/actions', { action: 'read_article' });
    expect(first.statusCode).toBe(201);
    // The user's own mission, and the progress of the group mission, in one response.
    expect(first.json().response.missionsCompleted.map((m: { id: string }) => m.id)).toEqual(['m-solo']);
    expect(first.json().response.progress).toEqual(expect.arrayContaining([{ challengeId: 'm-team', percentComplete: 33 }]));

    // bob belongs to two groups: his action advances both.
    await logFor('/users/bob/actions', { action: 'read_article' });
    const third = await logFor('/groups/g-sales/actions', { action: 'read_article' });
    expect(third.statusCode).toBe(201);
    expect(third.json().response.missionsCompleted.map((m: { id: string }) => m.id)).toEqual(['m-team']);

    expect(await completions('group', 'g-sales', 'm-team')).toBe(1);
    expect(await balance('group', 'g-sales')).toBe(500);
    expect(await completions('group', 'g-emea', 'm-team')).toBe(0);
    const emea = await t.database.db
      .selectFrom('mission_progress')
      .select('current')
      .where('site_id', '=', siteId)
      .where('party_type', '=', 'group')
      .where('party_id', '=', 'g-emea')
      .executeTakeFirst();
    expect(Number(emea?.current)).toBe(1);
    // Group completions credit the group, never the members.
    expect(await balance('user', 'ann')).toBe(10);
    expect(await balance('user', 'bob')).toBe(10);
  });

  it("says which of a member's rewards went to the group, and the member's summary counts none of them", async () => {
    const logged = await logFor('/users/ann/actions', { action: 'win_deal' });
    expect(logged.statusCode).toBe(201);
    expect(logged.json().response.missionsCompleted.map((m: { id: string }) => m.id)).toEqual(['m-team-deal']);
    expect(logged.json().response.pointsAwarded).toEqual([{ category: 'Points', requested: 20, credited: 20, groupId: 'g-sales' }]);
    const glance = await t.app.inject({ method: 'GET', url: '/users/ann/at-a-glance', headers: { authorization: `Bearer ${app}` } });
    const recent = glance.json().response.recentActions as Array<{ eventId: string; pointsEarned: unknown[] }>;
    expect(recent.find((action) => action.eventId === logged.json().response.eventId)?.pointsEarned).toEqual([]);
  });

  it('keeps every member action when members act at once (one fixed lock order)', async () => {
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => logFor(`/users/${i % 2 === 0 ? 'ann' : 'bob'}/actions`, { action: 'sell', value: 50 })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array.from({ length: 40 }, () => 201));
    // 40 × 50 = 2000 sold by g-sales members: the repeatable sum mission (goal 1000) completed twice.
    expect(await completions('group', 'g-sales', 'm-team-sales')).toBe(2);
    // bob's 20 sales (1000) complete it for g-emea too.
    expect(await completions('group', 'g-emea', 'm-team-sales')).toBe(1);
  });

  it('never lets a user-level token log for a group', async () => {
    const site = await t.createSite();
    const userToken = await t.token(site.app, 'ann');
    const response = await t.app.inject({
      method: 'POST',
      url: '/groups/g-sales/actions',
      headers: { authorization: `Bearer ${userToken}` },
      payload: { action: 'read_article' },
    });
    expect(response.statusCode).toBe(403);
  });
});
