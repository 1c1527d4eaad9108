// GET /users/{u}/at-a-glance: the summary composes the other reads (SPEC §7).
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
  const log = async (payload: Record<string, unknown>) =>
    expect((await t.app.inject({ method: 'POST', url: '/users/ann/actions', headers: { authorization: `Bearer ${app}` }, payload })).statusCode).toBe(201);

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => NOW });
    site = await t.createSite();
    app = await t.token(site.app);
    const admin = await t.token(site.admin);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: exampleProgram() })).statusCode,
    ).toBe(200);
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
});
