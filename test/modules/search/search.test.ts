// GET /search (deprecated, SPEC §8): missions, actions and users by the start of an id or of a
// word of a name, the same objects as their own endpoints return, with Deprecation, Sunset and
// successor Link headers; client tokens only.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';

interface Ctx {
  site: TestSite;
  admin: string;
  app: string;
}

interface Found {
  missions?: Array<{ id: string; name: string }>;
  actions?: Array<{ name: string }>;
  users?: Array<{ userId: string; firstName: string | null; lastName: string | null }>;
}

describe.each(configurations)('GET /search (%s)', (configuration) => {
  let t: TestApp;
  let c: Ctx;
  let other: Ctx;

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, token?: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: token !== undefined ? { authorization: `Bearer ${token}` } : {}, ...(payload !== undefined ? { payload } : {}) });
  const body = <T>(response: LightMyRequestResponse, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return (response.json() as { response: T }).response;
  };
  const setUp = async (): Promise<Ctx> => {
    const site = await t.createSite();
    const ctx = { site, admin: await t.token(site.admin), app: await t.token(site.app) };
    body(await call('PUT', '/admin/program', ctx.admin, exampleProgram()));
    return ctx;
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { clientRate: { rate: 100_000, burst: 100_000 } } });
    c = await setUp();
    other = await setUp();
    for (const [user, firstName, lastName] of [
      ['ann', 'Ann', 'Lee'],
      ['bob', 'Robert', 'Annand'],
      ['u-3', 'Joanna', 'Smith'],
    ] as const) {
      body(await call('PUT', `/users/${user}/preferences`, c.app, { firstName, lastName }));
    }
    body(await call('POST', '/users/annex/actions', c.app, { action: 'login' }), 201);
    body(await call('PUT', '/users/ann-other/preferences', other.app, { firstName: 'Ann', lastName: 'Elsewhere' }));
  });
  afterAll(async () => t.close());

  it('answers with deprecation headers naming the successors of what was searched', async () => {
    const all = await call('GET', '/search?q=a', c.app);
    expect(all.statusCode).toBe(200);
    expect(all.headers.deprecation).toBe('@1687910400');
    expect(all.headers.sunset).toBe('Thu, 30 Nov 2023 00:00:00 GMT');
    expect(all.headers.link).toBe(
      ['/challenges', '/actions', '/users/{userId}/preferences']
        .map((path) => `<${path}>; rel="successor-version"; title="call the endpoint of the specific object"`)
        .join(', '),
    );
    const missions = await call('GET', '/search?q=a&type=missions', c.app);
    expect(missions.headers.link).toBe('</challenges>; rel="successor-version"; title="call the endpoint of the specific object"');
  });

  it('finds missions and actions as GET /challenges and GET /actions show them', async () => {
    const challenges = body<Array<{ id: string; name: string }>>(await call('GET', '/challenges?limit=500', c.app));
    const actions = body<Array<{ name: string }>>(await call('GET', '/actions?limit=500', c.app));
    const everything = body<Found>(await call('GET', '/search?type=missions&limit=500', c.app));
    expect(everything).toEqual({ missions: challenges });
    expect(body<Found>(await call('GET', '/search?type=actions&limit=500', c.app))).toEqual({ actions });

    // By the start of the id or of a word of the name, ignoring case; not inside a word.
    const someMission = challenges[0] as { id: string; name: string };
    const word = (someMission.name.split(' ').pop() as string).toUpperCase();
    const byWord = body<Found>(await call('GET', `/search?type=missions&q=${encodeURIComponent(word)}`, c.app));
    expect(byWord.missions?.map((m) => m.id)).toContain(someMission.id);
    expect(byWord.missions).toEqual(
      challenges.filter(
        (m) =>
          m.id.toLowerCase().startsWith(word.toLowerCase()) ||
          m.name
            .toLowerCase()
            .split(/[\s\-_.]+/)
            .some((w) => w.startsWith(word.toLowerCase())),
      ),
    );
    const byId = body<Found>(await call('GET', `/search?type=missions&q=${someMission.id}`, c.app));
    expect(byId.missions?.map((m) => m.id)).toContain(someMission.id);
    expect(body<Found>(await call('GET', '/search?type=actions&q=LOG', c.app)).actions?.map((a) => a.name)).toEqual(
      actions.filter((a) => a.name.toLowerCase().startsWith('log')).map((a) => a.name),
    );
    expect(body<Found>(await call('GET', '/search?type=missions&q=zzzz-nothing', c.app))).toEqual({ missions: [] });
  });

  it('finds users the site knows by id or by the start of a first or last name, never another site’s', async () => {
    const users = async (q: string) => body<Found>(await call('GET', `/search?type=users&q=${encodeURIComponent(q)}`, c.app)).users?.map((u) => u.userId);
    // "ann": ann's id and first name, Annand (bob's last name), annex's id; not Joanna (inside a word) nor another site's Ann.
    expect(await users('ann')).toEqual(['ann', 'bob', 'annex']);
    expect(await users('ANN')).toEqual(['ann', 'bob', 'annex']);
    expect(await users('smi')).toEqual(['u-3']);
    expect(await users('u-')).toEqual(['u-3']);
    expect(await users('%')).toEqual([]);
    const ann = body<Found>(await call('GET', '/search?type=users&q=lee', c.app)).users;
    expect(ann).toEqual([{ userId: 'ann', firstName: 'Ann', lastName: 'Lee', iconUrl: null }]);
    // Paging applies to each list.
    expect(body<Found>(await call('GET', '/search?type=users&q=ann&limit=1&offset=1', c.app)).users?.map((u) => u.userId)).toEqual(['bob']);
  });

  it('refuses user-level tokens, missing tokens and unknown types', async () => {
    const userToken = await t.token(c.site.app, 'ann');
    const forbidden = await call('GET', '/search?q=a', userToken);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ code: 'forbidden' });
    expect((await call('GET', '/search?q=a')).statusCode).toBe(401);
    const bad = await call('GET', '/search?type=badges', c.app);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
  });
});
