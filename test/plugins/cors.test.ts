// CORS for the UI blocks embedded on a company's own pages (SPEC §14): a preflight is answered for
// the union of every site's `allowedOrigins` (cached 5 s on the app clock); the request itself is
// checked against its token's site, and refused (403 origin_not_allowed, nothing written) from an
// origin that site does not allow. Requests without an Origin (servers) and same-origin requests
// (the /demo page) pass as they are; errors stay readable by allowed pages; public routes answer
// any origin with `*`.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../helpers/app.js';

const START = Date.parse('2026-06-15T16:00:00Z');
/** The union of allowed origins is cached this long (app clock). */
const UNION_TTL_MS = 5_000;

// Site A's settings are URLs, with a path, a trailing slash, upper case and an explicit default
// port: the origin (scheme, host, port as a browser sends it) is what is compared.
const A_SETTINGS = ['https://a.example/embedded/page?x=1', 'HTTPS://Shop.Example:443/', 'http://localhost:8080/'];
const A = 'https://a.example';
const A_SHOP = 'https://shop.example';
const A_LOCAL = 'http://localhost:8080';
const B = 'https://b.example';
const UNLISTED = 'https://evil.example';
/** `${request.protocol}://${request.host}` under inject: light-my-request sends Host: localhost:80. */
const SELF = 'http://localhost:80';

const program = (name: string, allowedOrigins: string[]) => ({
  site: { name, timezone: 'UTC', allowedOrigins },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read', clientLoggable: true }],
});

interface Ctx {
  site: TestSite;
  admin: string;
  app: string;
  /** A user-level token for ann. */
  ann: string;
}

type Method = 'GET' | 'POST' | 'PUT' | 'OPTIONS';

describe.each(configurations)('CORS (%s)', (configuration) => {
  let t: TestApp;
  let now = START;
  let a: Ctx;
  let b: Ctx;

  const call = (
    method: Method,
    url: string,
    { token, origin, payload, headers = {} }: { token?: string; origin?: string; payload?: unknown; headers?: Record<string, string> } = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...headers, ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}), ...(origin !== undefined ? { origin } : {}) },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const preflight = (url: string, origin: string, method = 'POST') =>
    call('OPTIONS', url, { origin, headers: { 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' } });
  const listHeader = (response: LightMyRequestResponse, name: string) =>
    String(response.headers[name] ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter((item) => item !== '');
  const expectProblem = (response: LightMyRequestResponse, status: number, code: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status, code });
  };
  const expectAllowedPreflight = (response: LightMyRequestResponse, origin: string) => {
    expect(response.statusCode, response.body).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(origin);
    expect(listHeader(response, 'access-control-allow-methods')).toEqual(expect.arrayContaining(['get', 'post', 'put', 'patch', 'delete']));
    expect(listHeader(response, 'access-control-allow-headers')).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(Number(response.headers['access-control-max-age'])).toBeGreaterThan(0);
    expect(listHeader(response, 'vary')).toContain('origin');
    expect(response.body).toBe('');
  };
  const expectRefusedPreflight = (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-methods']).toBeUndefined();
    expect(response.headers['access-control-allow-headers']).toBeUndefined();
    expect(listHeader(response, 'vary')).toContain('origin');
  };
  /** The answer is readable by a page of `origin` (and exposes the headers the blocks read). */
  const expectReadableBy = (response: LightMyRequestResponse, origin: string) => {
    expect(response.headers['access-control-allow-origin'], `${response.statusCode} ${response.body}`).toBe(origin);
    expect(listHeader(response, 'access-control-expose-headers')).toEqual(expect.arrayContaining(['x-total-count', 'x-request-id']));
    expect(listHeader(response, 'vary')).toContain('origin');
  };
  /** Lets the cached union of allowed origins expire. */
  const expireUnion = () => {
    now += UNION_TTL_MS;
  };
  const setUp = async (name: string, allowedOrigins: string[], siteId?: string): Promise<Ctx> => {
    const site = await t.createSite(siteId);
    const admin = await t.token(site.admin);
    const response = await call('PUT', '/admin/program', { token: admin, payload: program(name, allowedOrigins) });
    expect(response.statusCode, response.body).toBe(200);
    return { site, admin, app: await t.token(site.app), ann: await t.token(site.app, 'ann') };
  };
  const setOrigins = async (c: Ctx, name: string, allowedOrigins: string[]) => {
    const response = await call('PUT', '/admin/site', { token: c.admin, payload: { name, timezone: 'UTC', allowedOrigins } });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as { response: { allowedOrigins: string[] } }).response.allowedOrigins).toEqual(allowedOrigins);
  };
  /** ann's recorded actions on the site, read by a server (client token, no Origin). */
  const actionsOf = async (c: Ctx, user = 'ann') => {
    const response = await call('GET', `/users/${user}/actions`, { token: c.app });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { response: Array<{ eventId: string }> }).response;
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration, {
      clock: () => now,
      config: { clientRate: { rate: 100_000, burst: 100_000 }, userRate: { rate: 100_000, burst: 100_000 } },
    });
    // Site A through the whole program, site B through PUT /admin/site.
    a = await setUp('Site A', A_SETTINGS, 'site-a');
    b = await setUp('Site B', [], 'site-b');
    await setOrigins(b, 'Site B', ['https://b.example/']);
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    // Every test starts with a union that reflects the settings above.
    expireUnion();
  });

  describe('preflight (OPTIONS with Origin and Access-Control-Request-Method)', () => {
    it.each([
      ['a listed origin (setting with a path and query)', A],
      ['a listed origin (setting in upper case with the default port)', A_SHOP],
      ['a listed origin with a port', A_LOCAL],
    ])('answers %s with 204 and the CORS headers', async (_label, origin) => {
      const response = await preflight('/users/ann/actions', origin);
      expectAllowedPreflight(response, origin);
      // The answer to the preflight itself exposes nothing and writes nothing.
      expect(await actionsOf(a)).toEqual([]);
    });

    it('answers every path, whatever methods its routes have, before routing', async () => {
      for (const [url, method] of [
        ['/users/ann/point-balance', 'GET'],
        ['/users/ann/preferences', 'PUT'],
        ['/no/such/route', 'DELETE'],
      ] as const) {
        expectAllowedPreflight(await preflight(url, A, method), A);
      }
    });

    it('answers an origin allowed only by another site (the union of all sites)', async () => {
      expectAllowedPreflight(await preflight('/users/ann/actions', B), B);
    });

    it.each([
      ['an unlisted origin', UNLISTED],
      ['another scheme of a listed host', 'http://a.example'],
      ['another port of a listed host', 'https://a.example:8443'],
      ['a sub-domain of a listed host', 'https://www.a.example'],
      ['a listed origin with a path (browsers never send one)', 'https://a.example/embedded'],
      ['the opaque origin', 'null'],
    ])('answers %s with 204 and no access-control-allow-origin', async (_label, origin) => {
      expectRefusedPreflight(await preflight('/users/ann/actions', origin));
    });

    it('answers the server’s own origin (same-origin pages such as /demo)', async () => {
      expectAllowedPreflight(await preflight('/users/ann/actions', SELF), SELF);
    });

    it('sees an added origin within 5 s, and a removed one gone within 5 s', async () => {
      const c = await setUp('Site C', []);
      const origin = 'https://c.example';
      expectRefusedPreflight(await preflight('/users/ann/actions', origin)); // the union is now cached
      await setOrigins(c, 'Site C', [`${origin}/blocks/`]);
      now += UNION_TTL_MS;
      expectAllowedPreflight(await preflight('/users/ann/actions', origin), origin);
      await setOrigins(c, 'Site C', []);
      now += UNION_TTL_MS;
      expectRefusedPreflight(await preflight('/users/ann/actions', origin));
    });

    it('never lets a setting that is not a URL allow an origin (no wildcard)', async () => {
      const c = await setUp('Site D', []);
      const response = await call('PUT', '/admin/site', {
        token: c.admin,
        payload: { name: 'Site D', timezone: 'UTC', allowedOrigins: ['*', 'null', 'not a url', 'file:///tmp/page.html'] },
      });
      // Either refused as invalid, or stored and matching nothing.
      if (response.statusCode !== 200) expectProblem(response, 422, 'validation_failed');
      expireUnion();
      for (const origin of [UNLISTED, 'null', '*', 'file://']) expectRefusedPreflight(await preflight('/users/ann/actions', origin));
      const write = await call('POST', '/users/ann/actions', { token: c.ann, origin: 'null', payload: { action: 'read' } });
      expectProblem(write, 403, 'origin_not_allowed');
      expect(await actionsOf(c)).toEqual([]);
    });
  });

  describe('requests with a token and an Origin', () => {
    it('answers an origin the token’s site allows, readable by that origin', async () => {
      const read = await call('GET', '/users/ann/point-balance', { token: a.ann, origin: A });
      expect(read.statusCode, read.body).toBe(200);
      expectReadableBy(read, A);

      const write = await call('POST', '/users/ann/actions', { token: a.ann, origin: A_SHOP, payload: { action: 'read', eventId: 'from-shop' } });
      expect(write.statusCode, write.body).toBe(201);
      expectReadableBy(write, A_SHOP);
      expect((await actionsOf(a)).map((e) => e.eventId)).toContain('from-shop');
    });

    it('refuses (403 origin_not_allowed) an origin allowed only by another site, and writes nothing', async () => {
      const before = await actionsOf(a);
      const write = await call('POST', '/users/ann/actions', { token: a.ann, origin: B, payload: { action: 'read', eventId: 'from-b' } });
      expectProblem(write, 403, 'origin_not_allowed');
      // A client token of site A, from site B's origin, is refused as well.
      const clientWrite = await call('POST', '/users/ann/actions', { token: a.app, origin: B, payload: { action: 'read', eventId: 'from-b-client' } });
      expectProblem(clientWrite, 403, 'origin_not_allowed');
      const prefs = await call('PUT', '/users/ann/preferences', { token: a.ann, origin: B, payload: { firstName: 'Mallory' } });
      expectProblem(prefs, 403, 'origin_not_allowed');

      expect(await actionsOf(a)).toEqual(before);
      const names = await call('GET', '/users/ann/preferences', { token: a.app });
      expect(names.statusCode, names.body).toBe(200);
      expect(JSON.stringify(names.json())).not.toContain('Mallory');
      // And site B's own token from its own origin is fine.
      const own = await call('POST', '/users/ann/actions', { token: b.ann, origin: B, payload: { action: 'read', eventId: 'b-own' } });
      expect(own.statusCode, own.body).toBe(201);
      expectReadableBy(own, B);
    });

    it('refuses reads from an unlisted origin too', async () => {
      const response = await call('GET', '/users/ann/point-balance', { token: a.ann, origin: UNLISTED });
      expectProblem(response, 403, 'origin_not_allowed');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('answers a server (no Origin) as before, without CORS headers', async () => {
      const write = await call('POST', '/users/ann/actions', { token: a.ann, payload: { action: 'read', eventId: 'from-server' } });
      expect(write.statusCode, write.body).toBe(201);
      expect(write.headers['access-control-allow-origin']).toBeUndefined();
      // Site B allows no origin of site A's; a server still works for it.
      const read = await call('GET', '/users/ann/point-balance', { token: b.app });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.headers['access-control-allow-origin']).toBeUndefined();
      expect((await actionsOf(a)).map((e) => e.eventId)).toContain('from-server');
    });

    it('answers a same-origin page (the /demo page) whatever the site allows', async () => {
      // Site B does not list the server's own origin.
      const write = await call('POST', '/users/ann/actions', { token: b.ann, origin: SELF, payload: { action: 'read', eventId: 'same-origin' } });
      expect(write.statusCode, write.body).toBe(201);
      expect((await actionsOf(b)).map((e) => e.eventId)).toContain('same-origin');
      // As a browser sends it: the Host without the default port, and the Origin likewise.
      const read = await call('GET', '/users/ann/point-balance', { token: b.ann, origin: 'http://questline.example', headers: { host: 'questline.example' } });
      expect(read.statusCode, read.body).toBe(200);
      // Another host is not the same origin.
      const other = await call('GET', '/users/ann/point-balance', { token: b.ann, origin: 'http://questline.example', headers: { host: 'other.example' } });
      expectProblem(other, 403, 'origin_not_allowed');
    });

    it('takes the page’s own origin from the proxy’s X-Forwarded-* headers when TRUST_PROXY is set', async () => {
      const proxied = await buildTestApp(configuration, { config: { trustProxy: true } });
      try {
        const site = await proxied.createSite();
        const token = await proxied.token(site.app, 'ann');
        const headers = { authorization: `Bearer ${token}`, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'questline.example' };
        const same = await proxied.app.inject({ method: 'GET', url: '/users/ann/point-balance', headers: { ...headers, origin: 'https://questline.example' } });
        expect(same.statusCode, same.body).toBe(200);
        const other = await proxied.app.inject({ method: 'GET', url: '/users/ann/point-balance', headers: { ...headers, origin: 'http://questline.example' } });
        expectProblem(other, 403, 'origin_not_allowed');
      } finally {
        await proxied.close();
      }
    });

    it('sees a removed origin at the request check', async () => {
      const c = await setUp('Site E', ['https://e.example']);
      const before = await call('POST', '/users/ann/actions', { token: c.ann, origin: 'https://e.example', payload: { action: 'read', eventId: 'e-1' } });
      expect(before.statusCode, before.body).toBe(201);
      await setOrigins(c, 'Site E', []);
      now += UNION_TTL_MS;
      const after = await call('POST', '/users/ann/actions', { token: c.ann, origin: 'https://e.example', payload: { action: 'read', eventId: 'e-2' } });
      expectProblem(after, 403, 'origin_not_allowed');
      expect((await actionsOf(c)).map((e) => e.eventId)).toEqual(['e-1']);
    });
  });

  describe('errors stay readable by allowed pages', () => {
    it('a 401 for an invalid token carries access-control-allow-origin for an origin in the union', async () => {
      for (const origin of [A, B]) {
        const response = await call('GET', '/users/ann/point-balance', { token: 'not.a.token', origin });
        expectProblem(response, 401, 'invalid_token');
        expectReadableBy(response, origin);
      }
      const missing = await call('GET', '/users/ann/point-balance', { origin: A });
      expectProblem(missing, 401, 'missing_token');
      expectReadableBy(missing, A);
    });

    it('a 401 to an unlisted origin carries no access-control-allow-origin', async () => {
      const response = await call('GET', '/users/ann/point-balance', { token: 'not.a.token', origin: UNLISTED });
      expectProblem(response, 401, 'invalid_token');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('a 422 (and a 400) from an allowed origin carries access-control-allow-origin', async () => {
      const before = await actionsOf(a);
      const unknown = await call('POST', '/users/ann/actions', { token: a.ann, origin: A, payload: { action: 'no_such_action' } });
      expectProblem(unknown, 422, 'unknown_action');
      expectReadableBy(unknown, A);
      const invalid = await call('POST', '/users/ann/actions', { token: a.ann, origin: A_SHOP, payload: { value: 'x' } });
      expectProblem(invalid, 400, 'validation_failed');
      expectReadableBy(invalid, A_SHOP);
      expect(await actionsOf(a)).toEqual(before);
    });

    it('a 403 for another user’s path from an allowed origin carries access-control-allow-origin', async () => {
      const response = await call('GET', '/users/bob/point-balance', { token: a.ann, origin: A });
      expectProblem(response, 403, 'forbidden');
      expectReadableBy(response, A);
    });
  });

  describe('public routes answer any origin with *', () => {
    it.each(['/health/live', '/elements/questline.js', '/sites/site-a/jwks.json'])('%s', async (url) => {
      for (const origin of [UNLISTED, A, 'null']) {
        const response = await call('GET', url, { origin });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['access-control-allow-origin']).toBe('*');
      }
    });
  });

  // Last: it moves the clock past every token's lifetime.
  describe('expired tokens', () => {
    it('a 401 for an expired token carries access-control-allow-origin', async () => {
      const token = await t.token(a.site.app, 'ann');
      now += t.config.tokenTtlSeconds * 1000 + 1_000;
      const response = await call('GET', '/users/ann/point-balance', { token, origin: A });
      expectProblem(response, 401, 'token_expired');
      expectReadableBy(response, A);
    });
  });
});
