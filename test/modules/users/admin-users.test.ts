// GET /admin/users: the users a site knows (an action, a profile or a group membership made them
// known), found by the start of their id or any part of their name, named ones first in name
// order, paged with the total in X-Total-Count; for the site's admin clients only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

describe.each(configurations)('GET /admin/users (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let other: TestSite;
  let admin: string;

  const list = (query: string, token = admin) => t.app.inject({ method: 'GET', url: `/admin/users${query}`, headers: { authorization: `Bearer ${token}` } });
  const ids = async (query: string) => {
    const response = await list(query);
    expect(response.statusCode).toBe(200);
    return { ids: (response.json() as { response: Array<{ userId: string }> }).response.map((p) => p.userId), total: response.headers['x-total-count'] };
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    other = await t.createSite();
    admin = await t.token(site.admin);
    const headers = { authorization: `Bearer ${admin}` };
    const put = await t.app.inject({
      method: 'PUT',
      url: '/admin/program',
      headers,
      payload: {
        site: { name: 'People' },
        pointCategories: [{ name: 'Points', isDefault: true }],
        actions: [{ name: 'play' }],
        groups: [{ id: 'g-1', name: 'One' }],
      },
    });
    expect(put.statusCode).toBe(200);
    // Known by an action (no name), by a profile, and by a group membership.
    expect((await t.app.inject({ method: 'POST', url: '/users/zed-9/actions', headers, payload: { action: 'play' } })).statusCode).toBe(201);
    for (const [userId, firstName, lastName] of [
      ['ann', 'Ann', 'Lee'],
      ['bob', 'Bob', 'Annan'],
      ['cy', 'Cy', 'Young'],
    ]) {
      expect((await t.app.inject({ method: 'PUT', url: `/users/${userId}/preferences`, headers, payload: { firstName, lastName } })).statusCode).toBe(200);
    }
    expect((await t.app.inject({ method: 'PUT', url: '/admin/groups/g-1/members/member-1', headers })).statusCode).toBeLessThan(300);
    // Another site's user, never listed here.
    const otherAdmin = { authorization: `Bearer ${await t.token(other.admin)}` };
    await t.app.inject({
      method: 'PUT',
      url: '/admin/program',
      headers: otherAdmin,
      payload: { site: { name: 'Other' }, pointCategories: [{ name: 'Points', isDefault: true }], actions: [{ name: 'play' }] },
    });
    expect((await t.app.inject({ method: 'POST', url: '/users/ann-elsewhere/actions', headers: otherAdmin, payload: { action: 'play' } })).statusCode).toBe(
      201,
    );
  });
  afterAll(async () => t?.close());

  it('lists every known user, named ones first in name order, with the total', async () => {
    const response = await list('');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('5');
    expect((response.json() as { response: unknown[] }).response).toEqual([
      { userId: 'ann', firstName: 'Ann', lastName: 'Lee', iconUrl: null },
      { userId: 'bob', firstName: 'Bob', lastName: 'Annan', iconUrl: null },
      { userId: 'cy', firstName: 'Cy', lastName: 'Young', iconUrl: null },
      { userId: 'member-1', firstName: null, lastName: null, iconUrl: null },
      { userId: 'zed-9', firstName: null, lastName: null, iconUrl: null },
    ]);
  });

  it.each([
    ['ann', ['ann', 'bob'], 'the id start, and anywhere in a name (Bob Annan)'],
    ['ANN', ['ann', 'bob'], 'ignoring case'],
    ['zed', ['zed-9'], "an unnamed user by their id's start"],
    ['young', ['cy'], 'the last name'],
    ['ed-9', [], 'not inside an id'],
    ['nobody', [], 'nothing'],
  ])('finds q=%s: %s', async (q, expected) => {
    expect(await ids(`?q=${encodeURIComponent(q)}`)).toEqual({ ids: expected, total: String(expected.length) });
  });

  it('pages with limit and offset, the total unchanged', async () => {
    expect(await ids('?limit=2')).toEqual({ ids: ['ann', 'bob'], total: '5' });
    expect(await ids('?limit=2&offset=4')).toEqual({ ids: ['zed-9'], total: '5' });
  });

  it('treats a % or _ in q as itself, not as a wildcard', async () => {
    expect(await ids('?q=%25')).toEqual({ ids: [], total: '0' });
    expect(await ids('?q=_')).toEqual({ ids: [], total: '0' });
  });

  it.each([
    ['?limit=501', 'a limit over 500'],
    ['?offset=-1', 'a negative offset'],
    [`?q=${'x'.repeat(101)}`, 'a q over 100 characters'],
  ])('refuses %s (%s) with 400 validation_failed', async (query) => {
    const response = await list(query);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect((response.json() as { code: string }).code).toBe('validation_failed');
  });

  it('answers only an admin client of the site: no token 401, app 403, user-level 403', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/admin/users' })).statusCode).toBe(401);
    expect((await list('', 'not-a-token')).statusCode).toBe(401);
    expect((await list('', await t.token(site.app))).statusCode).toBe(403);
    expect((await list('', await t.token(site.admin, 'ann'))).statusCode).toBe(403);
  });

  it("lists another site's users to that site's admin only", async () => {
    const response = await list('', await t.token(other.admin));
    expect((response.json() as { response: Array<{ userId: string }> }).response.map((p) => p.userId)).toEqual(['ann-elsewhere']);
    expect(response.headers['x-total-count']).toBe('1');
  });
});
