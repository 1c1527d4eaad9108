// GET /users/{u}/actions, GET /admin/actions/log and GET /admin/actions/active-users (SPEC §8).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

const program = {
  site: { name: 'History', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read_article', clientLoggable: true }, { name: 'login' }, { name: 'share', suppressRepeats: true }],
};

describe.each(configurations)('action history (%s)', (configuration) => {
  let t: TestApp;
  let admin: string;
  let app: string;
  let site: TestSite;

  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  const log = (userId: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/users/${userId}/actions`, headers: { authorization: `Bearer ${app}` }, payload });

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    admin = await t.token(site.admin);
    app = await t.token(site.app);
    expect((await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program })).statusCode).toBe(
      200,
    );
    // ann: five reads on 2026-06-01..05 (New York), one login on 2026-06-05; bob: one read on 2026-06-05.
    for (let day = 1; day <= 5; day++)
      expect((await log('ann', { action: 'read_article', timestamp: `2026-06-0${day}T10:00:00`, eventId: `ann-${day}` })).statusCode).toBe(201);
    await log('ann', { action: 'login', timestamp: '2026-06-05T23:30:00-04:00', eventId: 'ann-login' });
    await log('bob', { action: 'read_article', timestamp: '2026-06-05T09:00:00-04:00', eventId: 'bob-1' });
    // Not recorded (suppressed repeat): not in the history, not active.
    await log('cy', { action: 'share', timestamp: '2026-06-03T09:00:00-04:00' });
    await log('cy', { action: 'share', timestamp: '2026-06-03T09:01:00-04:00' });
  });
  afterAll(async () => t.close());

  it("lists a user's recorded actions newest first, paged with a cursor", async () => {
    const first = await get('/users/ann/actions?limit=4', app);
    expect(first.statusCode).toBe(200);
    expect(first.json().response.map((a: { eventId: string }) => a.eventId)).toEqual(['ann-login', 'ann-5', 'ann-4', 'ann-3']);
    expect(first.json().response[1]).toEqual({
      eventId: 'ann-5',
      userId: 'ann',
      action: 'read_article',
      value: 1,
      metadata: {},
      timestamp: '2026-06-05T14:00:00.000Z',
      receivedAt: expect.stringMatching(/Z$/),
    });
    const cursor = first.headers['x-next-cursor'] as string;
    expect(first.headers.link).toContain(`cursor=${cursor}`);
    const second = await get(`/users/ann/actions?limit=4&cursor=${cursor}`, app);
    expect(second.json().response.map((a: { eventId: string }) => a.eventId)).toEqual(['ann-2', 'ann-1']);
    expect(second.headers['x-next-cursor']).toBeUndefined();
  });

  it.each([
    ['from (inclusive) and to (exclusive)', '?from=2026-06-02T10:00:00&to=2026-06-04T10:00:00', ['ann-3', 'ann-2']],
    ['action', '?action=login', ['ann-login']],
    ['epoch seconds', `?from=${Date.parse('2026-06-05T00:00:00-04:00') / 1000}`, ['ann-login', 'ann-5']],
  ])('filters by %s', async (_name, query, expected) => {
    const response = await get(`/users/ann/actions${query}`, app);
    expect(response.json().response.map((a: { eventId: string }) => a.eventId)).toEqual(expected);
  });

  it('refuses a bad cursor and a bad bound', async () => {
    expect((await get('/users/ann/actions?cursor=nonsense', app)).json().code).toBe('validation_failed');
    expect((await get('/users/ann/actions?from=yesterday', app)).json().errors[0].path).toBe('querystring.from');
  });

  // Numbers no bigint column or Date holds: 400 on the parameter, never the database's 500.
  const cursorOf = (at: unknown) => Buffer.from(JSON.stringify([at, 'x'])).toString('base64url');
  it.each([
    ['from', 'from=100000000000000000000'],
    ['to', 'to=1e300'],
    ['from', 'from=9000000000000000'],
    ['cursor', `cursor=${cursorOf(1e300)}`],
    ['cursor', `cursor=${cursorOf(1.5)}`],
    ['cursor', `cursor=${cursorOf(-1)}`],
    ['cursor', `cursor=${cursorOf(9e15)}`],
  ])('refuses a %s past every instant (%s) with 400 naming it', async (name, query) => {
    for (const [url, token] of [
      [`/users/ann/actions?${query}`, app],
      [`/admin/actions/log?${query}`, admin],
    ] as const) {
      const response = await get(url, token);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: `querystring.${name}` }] });
    }
  });

  it('lets a user-level token read only its own history', async () => {
    const annToken = await t.token(site.app, 'ann');
    expect((await get('/users/ann/actions', annToken)).json().response).toHaveLength(6);
    expect((await get('/users/bob/actions', annToken)).statusCode).toBe(403);
  });

  it("lists the site's log for admins, filtered by user", async () => {
    const all = await get('/admin/actions/log?limit=500', admin);
    // ann 6, bob 1, cy's first share (the repeat was suppressed, so not recorded).
    expect(all.json().response).toHaveLength(8);
    const bob = await get('/admin/actions/log?userId=bob', admin);
    expect(bob.json().response.map((a: { eventId: string }) => a.eventId)).toEqual(['bob-1']);
    expect((await get('/admin/actions/log', app)).statusCode).toBe(403);
  });

  it('counts active users per day of the action timestamp (backdated actions count on their day)', async () => {
    const response = await get('/admin/actions/active-users?from=2026-06-01&to=2026-06-30', admin);
    expect(response.json().response).toEqual([
      { date: '2026-06-01', activeUsers: 1 },
      { date: '2026-06-02', activeUsers: 1 },
      { date: '2026-06-03', activeUsers: 2 },
      { date: '2026-06-04', activeUsers: 1 },
      { date: '2026-06-05', activeUsers: 2 },
    ]);
    expect((await get('/admin/actions/active-users?from=2026-06-30&to=2026-06-01', admin)).statusCode).toBe(400);
    expect((await get('/admin/actions/active-users?from=2026-06-01&to=2026-06-30', app)).statusCode).toBe(403);
  });
});
