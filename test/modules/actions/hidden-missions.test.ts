// The action response applies the visibility the reads apply (issue 23, item 8; docs/missions.md):
// a user-level token never learns of a mission hidden from its user through logging an action, a
// dry run or a repeated eventId; a client token (the program's own systems) sees every mission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

const mission = (id: string, hidden: string, goal: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  startDate: '2026-01-01T00:00:00',
  endDate: '2027-12-31T23:59:59',
  hidden,
  rules: [{ id: 'r-1', action: 'play', type: 'count', goal, metadata: [] }],
  rewards: { points: [{ category: 'Points', amount: 10 }] },
  ...extra,
});

const program = {
  site: { name: 'Hidden', timezone: 'UTC' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'play', clientLoggable: true }],
  missions: [
    mission('m-open', 'not_hidden', 3),
    mission('m-secret', 'hidden_until_earned', 2),
    mission('m-never', 'always_hidden', 1),
    mission('m-later', 'hidden_until_unlocked', 1, {
      prerequisites: { groups: [], missions: ['m-secret'] },
      repeatableWindow: { period: 'none', maxPerPeriod: 10 },
    }),
    { ...mission('m-kind', 'always_hidden', 1), rules: [{ id: 'r-1', action: 'RECOGNITION_GIVEN', type: 'count', goal: 1, metadata: [] }] },
    { ...mission('m-kind-open', 'not_hidden', 1), rules: [{ id: 'r-1', action: 'RECOGNITION_GIVEN', type: 'count', goal: 1, metadata: [] }] },
  ],
  exchanges: [
    {
      id: 'x-thanks',
      name: 'Thanks',
      pointCategory: 'Points',
      budget: { amount: 100, period: 'none' },
      categories: [{ id: 'c-help', name: 'Help' }],
    },
  ],
};

const START = Date.parse('2026-06-15T12:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);

describe.each(configurations)('hidden missions in the action response (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let client: string;

  const log = async (user: string, token: string, body: Record<string, unknown> = { action: 'play' }, query = '') => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/users/${user}/actions${query}`,
      headers: { authorization: `Bearer ${token}` },
      payload: body,
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    expect(response.body).not.toContain('hiddenFromUser');
    return response.json<{ response: ActionOutcome }>().response;
  };
  const named = (outcome: ActionOutcome) => ({
    progress: outcome.progress.map((p) => p.challengeId).sort(),
    completed: outcome.missionsCompleted.map((m) => m.id).sort(),
  });

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock });
    site = await t.createSite();
    const admin = await t.token(site.admin);
    client = await t.token(site.app);
    const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => t.close());

  it('leaves hidden missions out of a user-level token’s answers until the user earns or unlocks them', async () => {
    const ann = await t.token(site.app, 'ann');
    // A dry run first: the same visibility, and nothing written.
    expect(named(await log('ann', ann, { action: 'play' }, '?dryRun=true'))).toEqual({ progress: ['m-open'], completed: [] });
    const first = await log('ann', ann, { action: 'play', eventId: 'ann-1' });
    // m-never completes (its points are credited) but stays hidden; m-secret progresses unseen.
    expect(named(first)).toEqual({ progress: ['m-open'], completed: [] });
    expect(first.pointsAwarded).toEqual([{ category: 'Points', requested: 10, credited: 10 }]);
    // The second play earns m-secret, which then shows; it unlocks m-later, which the third completes.
    const second = await log('ann', ann, { action: 'play', eventId: 'ann-2' });
    expect(named(second)).toEqual({ progress: ['m-open', 'm-secret'], completed: ['m-secret'] });
    expect(named(await log('ann', ann, { action: 'play', eventId: 'ann-3' }))).toEqual({ progress: ['m-later', 'm-open'], completed: ['m-later', 'm-open'] });
    // A repeated eventId answers the first outcome, as visible as it was.
    const again = await log('ann', ann, { action: 'play', eventId: 'ann-1' });
    expect(again.duplicate).toBe(true);
    expect(named(again)).toEqual({ progress: ['m-open'], completed: [] });
    // The reads agree: m-never is in no list.
    const completed = await t.app.inject({ method: 'GET', url: '/users/ann/challenges?type=completed', headers: { authorization: `Bearer ${ann}` } });
    expect(
      completed
        .json<{ response: Array<{ id: string }> }>()
        .response.map((m) => m.id)
        .sort(),
    ).toEqual(['m-later', 'm-open', 'm-secret']);
  });

  it('judges an event stored before the hidden list existed by what it says alone', async () => {
    await log('eve', client, { action: 'play', eventId: 'eve-1' });
    // As an event of an earlier release was stored: without hiddenFromUser.
    const row = await t.database.db
      .selectFrom('action_events')
      .select('outcome')
      .where('site_id', '=', site.siteId)
      .where('event_id', '=', 'eve-1')
      .executeTakeFirstOrThrow();
    const { hiddenFromUser, ...older } = JSON.parse(row.outcome) as ActionOutcome;
    expect(hiddenFromUser).toEqual(['m-secret', 'm-never']);
    await t.database.db
      .updateTable('action_events')
      .set({ outcome: JSON.stringify(older) })
      .where('site_id', '=', site.siteId)
      .where('event_id', '=', 'eve-1')
      .execute();
    const eve = await t.token(site.app, 'eve');
    expect(named(await log('eve', eve, { action: 'play', eventId: 'eve-1' }))).toEqual({ progress: ['m-open'], completed: [] });
    expect(named(await log('eve', client, { action: 'play', eventId: 'eve-1' }))).toEqual({
      progress: ['m-never', 'm-open', 'm-secret'],
      completed: ['m-never'],
    });
  });

  it('never names an always_hidden mission a recognition completes for its giver', async () => {
    // The recipient must be a user the site knows.
    await log('dan', client);
    const cat = await t.token(site.app, 'cat');
    const response = await t.app.inject({
      method: 'POST',
      url: '/users/cat/interactions-collection',
      headers: { authorization: `Bearer ${cat}` },
      payload: { exchangeId: 'x-thanks', categoryId: 'c-help', recipients: ['dan'], points: 5 },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ response: { missionsCompleted: Array<{ id: string }> } }>().response.missionsCompleted.map((m) => m.id)).toEqual(['m-kind-open']);
  });

  it('shows every mission to a client token, for the user and for a repeated eventId', async () => {
    const first = await log('bob', client, { action: 'play', eventId: 'bob-1' });
    expect(named(first)).toEqual({ progress: ['m-never', 'm-open', 'm-secret'], completed: ['m-never'] });
    expect(named(await log('bob', client, { action: 'play', eventId: 'bob-1' }))).toEqual(named(first));
    // The same event read back by the user's own token is filtered.
    const bob = await t.token(site.app, 'bob');
    expect(named(await log('bob', bob, { action: 'play', eventId: 'bob-1' }))).toEqual({ progress: ['m-open'], completed: [] });
  });
});
