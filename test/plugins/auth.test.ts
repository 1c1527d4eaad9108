// The auth plugin through the real HTTP stack (SPEC §2, §3): bearer parsing, signature and expiry,
// the access levels, path-id validation, revocation on this node and on another node.
import type { FastifyInstance, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { decodeJwt, SignJWT } from 'jose';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/index.js';
import { Id } from '../../src/http/ids.js';
import type { Access } from '../../src/plugins/auth.js';
import { buildTestApp, configurations, TEST_TOKEN_SECRET, type TestApp, type TestSite } from '../helpers/app.js';

const PROBES: Array<[string, Access]> = [
  ['/admin/probe', 'admin'],
  ['/client/probe', 'client'],
  ['/definitions/probe', 'definitions'],
];

/** Test-only routes, one per access level; each answers the caller's auth context. */
function registerProbes(app: FastifyInstance): void {
  const answer = async (request: FastifyRequest) => {
    const auth = request.auth;
    return auth && { siteId: auth.siteId, clientId: auth.clientId, role: auth.role, userId: auth.userId ?? null };
  };
  app.get('/users/:userId/probe', { config: { access: 'user' }, schema: { params: Type.Object({ userId: Id }) } }, answer);
  for (const [path, access] of PROBES) app.get(path, { config: { access } }, answer);
}

const get = (app: FastifyInstance, url: string, token?: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { ...headers, ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) } });

/** Every error is RFC 9457 problem+json carrying the request id of the response. */
function expectProblem(response: LightMyRequestResponse, status: number, code: string): Record<string, unknown> {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json() as Record<string, unknown>;
  const { errors, ...rest } = body;
  expect(rest).toEqual({
    type: `urn:questline:error:${code}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code,
    requestId: response.headers['x-request-id'],
  });
  expect(typeof response.headers['x-request-id']).toBe('string');
  if (errors !== undefined) expect(Array.isArray(errors)).toBe(true);
  if (status === 401) expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="questline"/);
  return body;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const unb64 = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

function sign(claims: Record<string, unknown>, secret: string, alg = 'HS256'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg, typ: 'JWT' })
    .setIssuer('questline')
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(secret));
}

async function pollUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(configurations)('auth plugin (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  beforeAll(async () => {
    t = await buildTestApp(configuration);
    registerProbes(t.app);
    site = await t.createSite();
  });
  afterAll(async () => t.close());

  it.each(['/users/ann/probe', ...PROBES.map(([path]) => path)])('answers 401 missing_token without a token on %s', async (url) => {
    const response = await get(t.app, url);
    expectProblem(response, 401, 'missing_token');
    expect(response.headers['www-authenticate']).toBe('Bearer realm="questline"');
  });

  it('echoes a valid incoming request id in the problem body', async () => {
    const response = await get(t.app, '/client/probe', undefined, { 'x-request-id': 'probe-req-42' });
    expect(response.headers['x-request-id']).toBe('probe-req-42');
    expect(expectProblem(response, 401, 'missing_token').requestId).toBe('probe-req-42');
    const invalid = await get(t.app, '/client/probe', undefined, { 'x-request-id': 'not a valid id' });
    expect(invalid.headers['x-request-id']).not.toBe('not a valid id');
    expectProblem(invalid, 401, 'missing_token');
  });

  it('protects the HEAD routes Fastify adds to GET routes', async () => {
    const anonymous = await t.app.inject({ method: 'HEAD', url: '/admin/probe' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="questline"');
    const response = await t.app.inject({ method: 'HEAD', url: '/admin/probe', headers: { authorization: `Bearer ${await t.token(site.app)}` } });
    expect(response.statusCode).toBe(403);
  });

  it('accepts the Bearer scheme in any case', async () => {
    const token = await t.token(site.app);
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const response = await t.app.inject({ method: 'GET', url: '/client/probe', headers: { authorization: `${scheme} ${token}` } });
      expect(response.statusCode, scheme).toBe(200);
    }
  });

  it.each([
    ['Basic scheme', (token: string) => `Basic ${token}`],
    ['no token', () => 'Bearer'],
    ['blank token', () => 'Bearer   '],
    ['two tokens', (token: string) => `Bearer ${token} ${token}`],
    ['token without scheme', (token: string) => token],
    ['invalid characters', () => 'Bearer abc$def'],
  ])('answers 401 invalid_token for a malformed Authorization header (%s)', async (_name, header) => {
    const token = await t.token(site.app);
    const response = await t.app.inject({ method: 'GET', url: '/client/probe', headers: { authorization: header(token) } });
    expectProblem(response, 401, 'invalid_token');
  });

  it('refuses tampered, unsigned, foreign and claim-less tokens with 401 invalid_token', async () => {
    const token = await t.token(site.app, 'ann');
    const [header = '', payload = '', signature = ''] = token.split('.');
    const middle = Math.floor(signature.length / 2);
    const flipped = signature.slice(0, middle) + (signature[middle] === 'A' ? 'B' : 'A') + signature.slice(middle + 1);
    const claims = unb64(payload);
    const other = await buildTestApp(configuration, { config: { tokenSecret: 'another-token-secret-abcdefghijklmnopqrstuvwxyz' } });
    try {
      const otherSite = await other.createSite();
      const real = { sid: site.siteId, cid: site.admin.clientId, role: 'admin', ver: 1 };
      const candidates: Array<[string, string]> = [
        ['flipped signature char', `${header}.${payload}.${flipped}`],
        ['escalated role in payload', `${header}.${b64({ ...claims, role: 'admin' })}.${signature}`],
        ['dropped uid in payload', `${header}.${b64({ ...claims, uid: undefined })}.${signature}`],
        ['truncated signature', `${header}.${payload}.${signature.slice(0, -4)}`],
        ['no signature', `${header}.${payload}.`],
        ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`],
        ['not a JWT', 'abc.def.ghi'],
        ['token of a deployment with another secret', await other.token(otherSite.admin)],
        ['real claims signed with another key', await sign(real, 'some-other-key-0123456789abcdefghijklmnop')],
        ['right key but HS512', await sign(real, TEST_TOKEN_SECRET, 'HS512')],
        ['right key but unknown role', await sign({ ...real, role: 'root' }, TEST_TOKEN_SECRET)],
        ['right key but no version', await sign({ sid: site.siteId, cid: site.admin.clientId, role: 'admin' }, TEST_TOKEN_SECRET)],
      ];
      for (const [name, candidate] of candidates) {
        const response = await get(t.app, '/definitions/probe', candidate);
        expect(response.statusCode, name).toBe(401);
        expectProblem(response, 401, 'invalid_token');
      }
    } finally {
      await other.close();
    }
    expect((await get(t.app, '/users/ann/probe', token)).statusCode).toBe(200);
  });

  it('refuses a well-signed token whose client, site, secret version or role does not match with 401 token_revoked', async () => {
    const real = { sid: site.siteId, cid: site.admin.clientId, role: 'admin', ver: 1 };
    const app = { sid: site.siteId, cid: site.app.clientId, role: 'app', ver: 1 };
    for (const claims of [
      { ...real, cid: 'qlc_000000000000000000000000' },
      { ...real, sid: 'another-site' },
      { ...real, ver: 2 },
      { ...app, role: 'admin' },
      { ...real, role: 'app' },
    ]) {
      expectProblem(await get(t.app, '/definitions/probe', await sign(claims, TEST_TOKEN_SECRET)), 401, 'token_revoked');
    }
    // An app client's token claiming the admin role reaches no admin endpoint.
    expectProblem(await get(t.app, '/admin/probe', await sign({ ...app, role: 'admin' }, TEST_TOKEN_SECRET)), 401, 'token_revoked');
    expect((await get(t.app, '/admin/probe', await sign(real, TEST_TOKEN_SECRET))).statusCode).toBe(200);
    expect((await get(t.app, '/client/probe', await sign(app, TEST_TOKEN_SECRET))).statusCode).toBe(200);
  });

  type Kind = 'admin' | 'app' | 'user(app)' | 'user(admin)';
  const matrix: Array<[Kind, string, number]> = [];
  const expected: Record<Kind, number[]> = {
    // /users/ann, /users/bob, /admin, /client, /definitions
    admin: [200, 200, 200, 200, 200],
    app: [200, 200, 403, 200, 200],
    'user(app)': [200, 403, 403, 403, 200],
    'user(admin)': [200, 403, 403, 403, 200],
  };
  const paths = ['/users/ann/probe', '/users/bob/probe', ...PROBES.map(([path]) => path)];
  for (const [kind, statuses] of Object.entries(expected) as Array<[Kind, number[]]>) {
    paths.forEach((path, index) => matrix.push([kind, path, statuses[index] ?? 0]));
  }

  it.each(matrix)('%s token on %s → %i', async (kind, path, status) => {
    const client = kind === 'admin' || kind === 'user(admin)' ? site.admin : site.app;
    const userId = kind.startsWith('user') ? 'ann' : undefined;
    const response = await get(t.app, path, await t.token(client, userId));
    if (status === 200) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ siteId: site.siteId, clientId: client.clientId, role: client.role, userId: userId ?? null });
    } else {
      expectProblem(response, 403, 'forbidden');
    }
  });

  const long = { a: 'a'.repeat(60), b: 'b'.repeat(60), c: 'c'.repeat(60) };
  it.each([
    { label: 'encoded @', userId: 'ann@example.com', url: '/users/ann%40example.com/probe' },
    { label: 'raw @', userId: 'ann@example.com', url: '/users/ann@example.com/probe' },
    { label: 'encoded : and +', userId: 'a:b+c', url: '/users/a%3Ab%2Bc/probe' },
    { label: 'trailing slash', userId: 'x.y-z_1', url: '/users/x.y-z_1/probe/' },
    // SPEC §2: ids are up to 255 characters, however they are percent-encoded in the path.
    { label: '255 characters', userId: 'u'.repeat(255), url: `/users/${'u'.repeat(255)}/probe` },
    { label: '182 characters, encoded to 186', userId: `${long.a}@${long.b}:${long.c}`, url: `/users/${long.a}%40${long.b}%3A${long.c}/probe` },
  ])('lets a user-level token call its own path ($label)', async ({ userId, url }) => {
    const response = await get(t.app, url, await t.token(site.app, userId));
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as { userId: string }).userId).toBe(userId);
  });

  it.each([
    { label: 'a space', url: '/users/a%20b/probe' },
    { label: '256 characters', url: `/users/${'u'.repeat(256)}/probe` },
    { label: 'a slash', url: '/users/a%2Fb/probe' },
    { label: 'a non-ASCII letter', url: '/users/%C3%A9/probe' },
  ])('answers 400 validation_failed for a path id with $label', async ({ url }) => {
    const body = expectProblem(await get(t.app, url, await t.token(site.app)), 400, 'validation_failed');
    expect(body.errors).toEqual([expect.objectContaining({ path: 'params.userId' })]);
  });

  it('answers a path that is not valid percent-encoding with a 400 problem', async () => {
    const response = await get(t.app, '/users/%zz/probe', await t.token(site.app));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    expect(response.json()).toMatchObject({ status: 400, requestId: response.headers['x-request-id'] });
  });

  it.each(['rotate', 'delete'] as const)('revokes every token of a client on %s', async (change) => {
    const s = await t.createSite();
    const [clientToken, userToken, bystander] = [await t.token(s.app), await t.token(s.app, 'ann'), await t.token(s.admin)];
    expect((await get(t.app, '/client/probe', clientToken)).statusCode).toBe(200);
    const rotated = change === 'rotate' ? await t.app.services.sites.rotateClient(s.app.clientId) : undefined;
    if (change === 'delete') await t.app.services.sites.deleteClient(s.app.clientId);

    for (const [url, token] of [
      ['/client/probe', clientToken],
      ['/users/ann/probe', userToken],
    ] as const) {
      const response = await get(t.app, url, token);
      expectProblem(response, 401, 'token_revoked');
      expect(response.headers['www-authenticate']).toContain('token revoked');
    }
    await expect(t.token(s.app)).rejects.toThrow(/401.*invalid_client/);
    expect((await get(t.app, '/admin/probe', bystander)).statusCode).toBe(200);
    if (rotated !== undefined) {
      expect(rotated.clientSecret).not.toBe(s.app.clientSecret);
      expect(decodeJwt(await t.token(rotated)).ver).toBe(2);
      expect((await get(t.app, '/client/probe', await t.token(rotated))).statusCode).toBe(200);
      expect((await get(t.app, '/users/ann/probe', await t.token(rotated, 'ann'))).statusCode).toBe(200);
    }
  });

  describe('on another node sharing the database', () => {
    async function withSecondNode(samePrefix: boolean, run: (app2: FastifyInstance) => Promise<void>): Promise<void> {
      const database = openDatabase(t.config.database);
      const config = samePrefix ? t.config : { ...t.config, redisPrefix: `${t.config.redisPrefix}other:` };
      const app2 = await buildApp(config, { database });
      try {
        registerProbes(app2);
        await run(app2);
      } finally {
        await app2.close();
        await database.close();
      }
    }

    it.each(['rotate', 'delete'] as const)('refuses tokens revoked elsewhere after its periodic refresh (%s)', async (change) => {
      await withSecondNode(false, async (app2) => {
        const s = await t.createSite();
        const token = await t.token(s.app);
        expect((await get(app2, '/client/probe', token)).statusCode).toBe(200);
        if (change === 'rotate') await t.app.services.sites.rotateClient(s.app.clientId);
        else await t.app.services.sites.deleteClient(s.app.clientId);
        expect(t.config.clientRefreshSeconds).toBeLessThanOrEqual(60);
        await app2.services.registry.refresh();
        expectProblem(await get(app2, '/client/probe', token), 401, 'token_revoked');
        expect((await get(app2, '/admin/probe', await t.token(s.admin))).statusCode).toBe(200);
      });
    });

    if (configuration === 'scale-out') {
      it.each(['rotate', 'delete'] as const)('refuses tokens revoked elsewhere at once through Redis (%s)', async (change) => {
        await withSecondNode(true, async (app2) => {
          const s = await t.createSite();
          const token = await t.token(s.app, 'ann');
          expect((await get(app2, '/users/ann/probe', token)).statusCode).toBe(200);
          if (change === 'rotate') await t.app.services.sites.rotateClient(s.app.clientId);
          else await t.app.services.sites.deleteClient(s.app.clientId);
          const refused = await pollUntil(async () => (await get(app2, '/users/ann/probe', token)).statusCode === 401, 2000);
          expect(refused).toBe(true);
          expectProblem(await get(app2, '/users/ann/probe', token), 401, 'token_revoked');
        });
      });
    }
  });
});

describe.each(configurations)('auth plugin token expiry (%s)', (configuration) => {
  let now = Date.now();
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => now });
    registerProbes(t.app);
  });
  afterAll(async () => t.close());

  it('refuses tokens older than their 24 h lifetime with 401 token_expired', async () => {
    const site = await t.createSite();
    const [seen, unseen, user] = [await t.token(site.app), await t.token(site.app), await t.token(site.app, 'ann')];
    expect((await get(t.app, '/client/probe', seen)).statusCode).toBe(200);
    now += (86_400 - 1) * 1000;
    expect((await get(t.app, '/client/probe', seen)).statusCode).toBe(200);
    now += 2000;
    // `seen` comes from the verified-token cache, `unseen` and `user` through a full verification.
    for (const [url, token] of [
      ['/client/probe', seen],
      ['/client/probe', unseen],
      ['/users/ann/probe', user],
    ] as const) {
      const response = await get(t.app, url, token);
      expectProblem(response, 401, 'token_expired');
      expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
    }
    expect((await get(t.app, '/client/probe', await t.token(site.app))).statusCode).toBe(200);
  });
});
