// GET /users/{u}/at-a-glance: the summary composes the other reads (SPEC §7); each recent action
// carries the program's description of it and the points it earned (docs/profile.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';

const NOW = Date.parse('2026-06-15T16:00:00Z');

describe.each(configurations)('at a glance (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let app: string;
  const glance = async (userId: string, token = app) =>
    t.app.inject({ method: 'GET', url: `/users/${userId}/at-a-glance`, headers: { authorization: `Bearer ${token}` } });
  const log = async (payload: Record<string, unknown>, user = 'ann') =>
    expect((await t.app.inject({ method: 'POST', url: `/users/${user}/actions`, headers: { authorization: `Bearer ${app}` }, payload })).statusCode).toBe(201);
  /** The example program, with an action that has no description. */
  const program = () => {
    const document = exampleProgram<{ actions: Array<Record<string, unknown>> }>();
    document.actions.push({ name: 'plain_step' });
    return document;
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => NOW });
    site = await t.createSite();
    app = await t.token(site.app);
    const admin = await t.token(site.admin);
    expect((await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program() })).statusCode).toBe(
      200,
    );
  });
  afterAll(async () => t.close());

  it('reads an unknown user as empty', async () => {
    const response = await glance('nobody');
    expect(response.statusCode).toBe(200);
    expect(response.json().response).toMatchObject({
      userId: 'nobody',
      firstName: null,
      iconUrl: null,
      points: { balance: 0, lifetimeBalance: 0, category: 'Points' },
      level: { current: { id: 'l-1', name: 'Rookie' }, next: { id: 'l-2', name: 'Regular' }, pointsToNext: 100, percentToNext: 0 },
      badges: { count: 0, latest: [] },
      missions: { completed: 0, inProgress: 0 },
      rank: null,
      recentActions: [],
    });
  });

  it('sums up what the user did', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/users/ann/preferences',
      headers: { authorization: `Bearer ${app}` },
      payload: { firstName: 'Ann', iconUrl: 'https://img.example/ann.png' },
    });
    await log({ action: 'read_article', eventId: 'g-1' }); // completes m-first-read: 10 Points, badge b-reader
    await log({ action: 'watch_video', metadata: { genre: 'cooking' }, eventId: 'g-2' }); // m-chef now 25%
    const summary = (await glance('ann')).json().response;
    expect(summary).toMatchObject({
      firstName: 'Ann',
      iconUrl: 'https://img.example/ann.png',
      points: { balance: 10, lifetimeBalance: 10 },
      level: { current: { id: 'l-1' }, pointsToNext: 90, percentToNext: 10 },
      badges: { count: 1, latest: [{ id: 'b-reader', name: 'Reader' }] },
      missions: { completed: 1, inProgress: 1 },
    });
    expect(summary.recentActions.map((a: { eventId: string }) => a.eventId)).toEqual(['g-2', 'g-1']);
    // The counts are those of the mission lists.
    const listed = async (query: string) =>
      Number(
        (await t.app.inject({ method: 'GET', url: `/users/ann/challenges${query}`, headers: { authorization: `Bearer ${app}` } })).headers['x-total-count'],
      );
    expect(summary.missions).toEqual({ completed: await listed('?type=completed'), inProgress: 1, eligible: await listed('') });
    expect(summary.missions.eligible).toBeGreaterThan(1);
  });

  it("refuses another user's summary to a user-level token", async () => {
    expect((await glance('ann', await t.token(site.app, 'ann'))).statusCode).toBe(200);
    expect((await glance('bob', await t.token(site.app, 'ann'))).statusCode).toBe(403);
  });

  it("says each recent action in the program's words, with the points it credited", async () => {
    await log({ action: 'read_article', eventId: 'c-1' }, 'cy'); // completes m-first-read: 10 Points
    await log({ action: 'plain_step', eventId: 'c-2' }, 'cy');
    await log({ action: 'QUIZ_COMPLETED', value: 80, eventId: 'c-3' }, 'cy');
    const summary = (await glance('cy')).json().response;
    expect(summary.recentActions).toEqual([
      { eventId: 'c-3', action: 'QUIZ_COMPLETED', description: null, value: 80, pointsEarned: [], timestamp: expect.any(String) },
      { eventId: 'c-2', action: 'plain_step', description: null, value: 1, pointsEarned: [], timestamp: expect.any(String) },
      {
        eventId: 'c-1',
        action: 'read_article',
        description: 'Read an article to the end',
        value: 1,
        pointsEarned: [{ category: 'Points', amount: 10 }],
        timestamp: expect.any(String),
      },
    ]);
    // The user-level token of the user reads the same.
    expect((await glance('cy', await t.token(site.app, 'cy'))).json().response.recentActions).toEqual(summary.recentActions);
  });

  it('shows no points for a reversed action', async () => {
    await log({ action: 'read_article', eventId: 'd-1' }, 'dee');
    expect((await glance('dee')).json().response.recentActions[0]).toMatchObject({ pointsEarned: [{ category: 'Points', amount: 10 }] });
    const admin = await t.token(site.admin);
    expect((await t.app.inject({ method: 'DELETE', url: '/users/dee/actions/d-1', headers: { authorization: `Bearer ${admin}` } })).statusCode).toBeLessThan(
      300,
    );
    expect((await glance('dee')).json().response.recentActions[0]).toMatchObject({
      eventId: 'd-1',
      description: 'Read an article to the end',
      pointsEarned: [],
    });
  });

  it("answers 401 without a token, and shows a client of another site only its own site's actions", async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/users/cy/at-a-glance' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'missing_token' });
    const other = await t.createSite();
    const summary = (await glance('cy', await t.token(other.app))).json().response;
    expect(summary.recentActions).toEqual([]);
    expect(summary.points.balance).toBe(0);
  });
});
