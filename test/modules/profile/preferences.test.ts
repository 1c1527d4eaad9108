// GET/PUT /users/{u}/preferences, PUT /admin/users/{u}/role and /level through the HTTP stack
// (SPEC §2, §7; interface document §2 "User preferences", §9): an empty profile for a user never
// referenced, merging writes (JSON and form), the legacy userPhotoUrl with its deprecation
// headers, validation that changes nothing, the admin-set role, custom levels, and who may do what.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Preferences } from '../../../src/modules/users/preferences.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';

const EMPTY: Preferences = { firstName: null, lastName: null, userProfileUrl: null, iconUrl: null, userPhotoUrl: null, role: null, custom: {} };
const prefs = (values: Partial<Preferences>): Preferences => ({ ...EMPTY, ...values });
/** RFC 9745: `@` and the epoch seconds of 30 September 2026, when iconUrl replaced userPhotoUrl. */
const DEPRECATED_SINCE = '@1790726400';
const PHOTO = 'https://cdn.acme.example/legacy/ann.png';
const ICON = 'https://cdn.acme.example/icons/ann.png';
const L1 = { id: 'l-1', name: 'Rookie', threshold: 0 };
const L2 = { id: 'l-2', name: 'Regular', threshold: 100 };
const L3 = { id: 'l-3', name: 'Expert', threshold: 1000 };
const ref = ({ id, name }: { id: string; name: string }) => ({ id, name });
const names = (count: number, prefix: string) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, 'x']));

type Body = Record<string, unknown> | string;

describe.each(configurations)('preferences (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;

  const auth = (token: string | null) => (token === null ? {} : { authorization: `Bearer ${token}` });
  const get = (url: string, token: string | null = client) => t.app.inject({ method: 'GET', url, headers: auth(token) });
  /** A string body is sent form-urlencoded, an object as JSON. */
  const put = (url: string, payload: Body, token: string | null = client) =>
    t.app.inject({
      method: 'PUT',
      url,
      payload,
      headers: { ...auth(token), ...(typeof payload === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    });
  const ok = (response: LightMyRequestResponse, status = 200) => {
    expect(response.statusCode, response.body).toBe(status);
    return (response.json() as { response: unknown }).response;
  };
  const invalid = (response: LightMyRequestResponse, path: string) => {
    expect(response.statusCode, response.body).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status: 400, code: 'validation_failed', errors: expect.arrayContaining([expect.objectContaining({ path })]) });
  };
  const forbidden = (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json()).toMatchObject({ code: 'forbidden' });
  };
  const read = async (user: string, token: string | null = client) => ok(await get(`/users/${user}/preferences`, token)) as Preferences;
  /** PUTs preferences and checks that a GET afterwards reads exactly what the PUT answered. */
  const write = async (user: string, body: Body, token: string | null = client) => {
    const written = ok(await put(`/users/${user}/preferences`, body, token)) as Preferences;
    expect(await read(user, token)).toEqual(written);
    return written;
  };
  const install = async (token: string) => ok(await put('/admin/program', exampleProgram(), token));

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    await install(admin);
  });
  afterAll(async () => t.close());

  describe('reading and writing', () => {
    it('reads a never-referenced user as empty', async () => {
      expect(await read('nobody')).toEqual(EMPTY);
    });

    it.each<[string, Body]>([
      ['JSON', { firstName: 'Ann', lastName: 'Lee' }],
      ['a form', 'firstName=Ann&lastName=Lee'],
    ])('sets names from %s; the GET afterwards equals the PUT answer', async (kind, body) => {
      expect(await write(`names-${kind.replace(/ /g, '-')}`, body)).toEqual(prefs({ firstName: 'Ann', lastName: 'Lee' }));
    });

    it('merges: names not sent are kept, null or "" removes one, other names are custom', async () => {
      const url = 'https://acme.example/people/merge';
      const steps: Array<[Body, Preferences]> = [
        [{ firstName: 'Ann', lastName: 'Lee', userProfileUrl: url }, prefs({ firstName: 'Ann', lastName: 'Lee', userProfileUrl: url })],
        [
          { favoriteColor: 'teal', 'team.name': 'Blue_2' },
          prefs({ firstName: 'Ann', lastName: 'Lee', userProfileUrl: url, custom: { favoriteColor: 'teal', 'team.name': 'Blue_2' } }),
        ],
        [{ lastName: null, firstName: 'Anna' }, prefs({ firstName: 'Anna', userProfileUrl: url, custom: { favoriteColor: 'teal', 'team.name': 'Blue_2' } })],
        [{ userProfileUrl: '', 'team.name': null }, prefs({ firstName: 'Anna', custom: { favoriteColor: 'teal' } })],
        ['favoriteColor=&nick-name=Annie', prefs({ firstName: 'Anna', custom: { 'nick-name': 'Annie' } })],
        [{}, prefs({ firstName: 'Anna', custom: { 'nick-name': 'Annie' } })],
      ];
      for (const [index, [body, expected]] of steps.entries()) expect(await write('merge', body), `step ${index}`).toEqual(expected);
    });

    it('accepts the limits: a 100-character name, a 1,000-character value, 50 custom preferences', async () => {
      const long = { ['n'.repeat(100)]: 'v'.repeat(1000) };
      expect((await write('edge', { ...names(49, 'c'), ...long })).custom).toEqual({ ...names(49, 'c'), ...long });
    });

    it('loses no name when PUTs of different names for one user run concurrently', async () => {
      const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => put('/users/racer/preferences', { [`r${i}`]: 'x' })));
      for (const response of responses) ok(response);
      expect((await read('racer')).custom).toEqual(names(8, 'r'));
    });
  });

  describe('the legacy userPhotoUrl', () => {
    it.each<[string, Body]>([
      ['JSON', { userPhotoUrl: PHOTO }],
      ['a form', `userPhotoUrl=${encodeURIComponent(PHOTO)}`],
    ])('is still written from %s, answered with Deprecation and Link; iconUrl falls back to it, then an iconUrl wins', async (kind, body) => {
      const user = `photo-${kind.replace(/ /g, '-')}`;
      const legacy = await put(`/users/${user}/preferences`, body);
      expect(ok(legacy)).toEqual(prefs({ userPhotoUrl: PHOTO, iconUrl: PHOTO }));
      expect(legacy.headers.deprecation).toBe(DEPRECATED_SINCE);
      expect(legacy.headers.link).toMatch(/^<[^>]+>; rel="successor-version"/);
      expect(legacy.headers.sunset).toBeUndefined(); // no removal date was announced
      expect(await read(user)).toEqual(prefs({ userPhotoUrl: PHOTO, iconUrl: PHOTO }));

      const current = await put(`/users/${user}/preferences`, { iconUrl: ICON });
      expect(ok(current)).toEqual(prefs({ userPhotoUrl: PHOTO, iconUrl: ICON }));
      expect(current.headers.deprecation).toBeUndefined();
      expect(current.headers.link).toBeUndefined();
      expect(await read(user)).toEqual(prefs({ userPhotoUrl: PHOTO, iconUrl: ICON }));
      expect(await write(user, { iconUrl: null }), 'removing iconUrl falls back again').toEqual(prefs({ userPhotoUrl: PHOTO, iconUrl: PHOTO }));
    });
  });

  describe('validation: 400 and nothing changed', () => {
    const before = prefs({ firstName: 'Val', custom: { favoriteColor: 'teal' } });
    beforeAll(async () => expect(await write('val', { firstName: 'Val', favoriteColor: 'teal' })).toEqual(before));

    it.each<[string, Body, string]>([
      ['writing role', { role: 'admin' }, 'role'],
      ['writing role beside a valid name', { firstName: 'Changed', role: null }, 'role'],
      ['writing role from a form', 'role=admin', 'role'],
      ['a number', { favoriteNumber: 7 }, 'favoriteNumber'],
      ['an object', { favoriteColor: { r: 0, g: 128, b: 128 } }, 'favoriteColor'],
      ['a boolean for a reserved name', { firstName: true }, 'firstName'],
      ['a list (a repeated form key)', 'nick=a&nick=b', 'nick'],
      ['a value of 1,001 characters', { bio: 'x'.repeat(1001) }, 'bio'],
      ['a reserved name with 1,001 characters', { iconUrl: `https://x.example/${'x'.repeat(983)}` }, 'iconUrl'],
      ['a name with a space', { 'favorite color': 'red' }, 'favorite color'],
      ['a name of 101 characters', { ['n'.repeat(101)]: 'x' }, 'n'.repeat(101)],
      ['51 custom names', names(51, 'p'), '(body)'],
      ['50 new custom names beside the stored one: 51 in total', names(50, 'q'), '(body)'],
    ])('refuses %s', async (_name, body, path) => {
      invalid(await put('/users/val/preferences', body), path);
      expect(await read('val')).toEqual(before);
    });
  });

  describe('role (set by admins)', () => {
    it('is set and cleared with PUT /admin/users/{u}/role; preferences written meanwhile keep it', async () => {
      await write('ann', { firstName: 'Ann' });
      expect(ok(await put('/admin/users/ann/role', { role: 'manager' }, admin))).toEqual(prefs({ firstName: 'Ann', role: 'manager' }));
      expect(await read('ann')).toEqual(prefs({ firstName: 'Ann', role: 'manager' }));
      expect(await write('ann', { lastName: 'Lee' })).toEqual(prefs({ firstName: 'Ann', lastName: 'Lee', role: 'manager' }));
      expect(ok(await put('/admin/users/ann/role', { role: null }, admin))).toEqual(prefs({ firstName: 'Ann', lastName: 'Lee' }));
      expect(await read('ann')).toEqual(prefs({ firstName: 'Ann', lastName: 'Lee' }));
    });

    it('gives a user never referenced a role (from a form)', async () => {
      expect(ok(await put('/admin/users/newcomer/role', 'role=editor', admin))).toEqual(prefs({ role: 'editor' }));
    });

    it.each<[string, (s: TestSite) => Promise<string>]>([
      ['an app token', (s) => t.token(s.app)],
      ['a user-level token of the app client', (s) => t.token(s.app, 'ann')],
      ['a user-level token of the admin client', (s) => t.token(s.admin, 'ann')],
    ])('answers %s on the admin routes with 403', async (_name, token) => {
      const caller = await token(site);
      forbidden(await put('/admin/users/ann/role', { role: 'owner' }, caller));
      forbidden(await put('/admin/users/ann/level', { levelId: 'l-2' }, caller));
      expect((await read('ann')).role).toBeNull();
    });
  });

  describe('custom levels', () => {
    it('refuses PUT /admin/users/{u}/level on a site whose levels follow points', async () => {
      invalid(await put('/admin/users/ann/level', { levelId: 'l-2' }, admin), 'levelId');
      expect(ok(await get('/users/ann/levels'))).toMatchObject({ current: L1, next: L2 });
    });

    describe('on a site with levelType custom', () => {
      let custom: TestSite;
      let customAdmin: string;
      const levels = async (user: string) => ok(await get(`/users/${user}/levels`, customAdmin));
      const setLevel = (user: string, levelId: string) => put(`/admin/users/${user}/level`, { levelId }, customAdmin);

      beforeAll(async () => {
        custom = await t.createSite();
        customAdmin = await t.token(custom.admin);
        await install(customAdmin);
        const settings = { ...exampleProgram<{ site: Record<string, unknown> }>().site, levelType: 'custom' };
        expect(ok(await put('/admin/site', settings, customAdmin))).toMatchObject({ levelType: 'custom' });
        // Level changes are written to the outbox only with a subscriber.
        const endpoint = { url: 'https://hooks.example.com/levels', eventTypes: ['level.changed'] };
        ok(await t.app.inject({ method: 'POST', url: '/admin/webhook-endpoints', headers: auth(customAdmin), payload: endpoint }), 201);
      });

      it('sets the level, says how it changed, and shows it (no way to measure to the next)', async () => {
        const steps: Array<[string, unknown, typeof L1, typeof L1 | null]> = [
          ['l-2', { from: null, to: ref(L2), direction: 'up' }, L2, L3],
          ['l-2', null, L2, L3],
          ['l-1', { from: ref(L2), to: ref(L1), direction: 'down' }, L1, L2],
          ['l-3', { from: ref(L1), to: ref(L3), direction: 'up' }, L3, null],
        ];
        for (const [index, [levelId, levelChanged, current, next]] of steps.entries()) {
          expect(ok(await setLevel('ann', levelId)), `step ${index}`).toEqual({ levelChanged });
          expect(await levels('ann'), `step ${index}`).toEqual({ current, next, points: 0, pointsToNext: null, percentToNext: null });
        }
        // Points do not move a custom level.
        ok(await put('/admin/users/ann/level', { levelId: 'l-1' }, customAdmin));
        ok(
          await t.app.inject({
            method: 'POST',
            url: '/admin/users/ann/points',
            headers: auth(customAdmin),
            payload: { category: 'Points', amount: 5000, reason: 'test' },
          }),
          201,
        );
        expect(await levels('ann')).toMatchObject({ current: L1, next: L2, points: 5000, pointsToNext: null, percentToNext: null });

        const outbox = await t.database.db
          .selectFrom('outbox')
          .select(['payload'])
          .where('site_id', '=', custom.siteId)
          .where('party_id', '=', 'ann')
          .where('event_type', '=', 'level.changed')
          .orderBy('sequence')
          .execute();
        expect(outbox.map((row) => (JSON.parse(row.payload) as { data: unknown }).data)).toEqual([
          expect.objectContaining({ user: { userId: 'ann' }, from: null, to: ref(L2), direction: 'up' }),
          expect.objectContaining({ from: ref(L2), to: ref(L1), direction: 'down' }),
          expect.objectContaining({ from: ref(L1), to: ref(L3), direction: 'up' }),
          expect.objectContaining({ from: ref(L3), to: ref(L1), direction: 'down' }),
        ]);
      });

      it.each([
        ['an unknown level', 'l-9'],
        ['a level id of another case', 'L-2'],
      ])('refuses %s with 400 and keeps the level', async (_name, levelId) => {
        ok(await setLevel('bea', 'l-2'));
        invalid(await setLevel('bea', levelId), 'levelId');
        expect(await levels('bea')).toMatchObject({ current: L2 });
      });
    });
  });

  describe('security', () => {
    it("lets a user-level token read and write its own preferences and nobody else's", async () => {
      await write('bob', { firstName: 'Bob' });
      const ann = await t.token(site.app, 'ann');
      expect((await write('ann', { nickname: 'Annie' }, ann)).custom).toEqual({ nickname: 'Annie' });
      expect(await read('ann', ann)).toMatchObject({ firstName: 'Ann', custom: { nickname: 'Annie' } });
      forbidden(await get('/users/bob/preferences', ann));
      forbidden(await put('/users/bob/preferences', { firstName: 'Mallory' }, ann));
      expect(await read('bob')).toEqual(prefs({ firstName: 'Bob' }));
    });

    it.each<['GET' | 'PUT']>([['GET'], ['PUT']])('answers %s without a token with 401 and WWW-Authenticate', async (method) => {
      const response = method === 'GET' ? await get('/users/ann/preferences', null) : await put('/users/ann/preferences', { firstName: 'Eve' }, null);
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.json()).toMatchObject({ code: 'missing_token' });
    });

    it("shows a client of another site only its own site's preferences", async () => {
      expect(await read('ann')).toMatchObject({ firstName: 'Ann' });
      const other = await t.createSite();
      const otherClient = await t.token(other.app);
      expect(await read('ann', otherClient)).toEqual(EMPTY);
      expect(await write('ann', { firstName: 'Other' }, otherClient)).toEqual(prefs({ firstName: 'Other' }));
      expect(await read('ann')).toMatchObject({ firstName: 'Ann' });
    });

    it.each(['bad!id', 'a%20b', 'x'.repeat(256)])('answers the user id %s with 400', async (id) => {
      invalid(await get(`/users/${id}/preferences`), 'params.userId');
    });
  });
});
