// POST /oauth/token (SPEC §3): the client-credentials grant, its RFC 6749 error shape, and the
// per-client limit on failed attempts.
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

type Fields = Record<string, string>;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

function expectOAuthError(response: LightMyRequestResponse, status: number, error: string): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers['cache-control']).toBe('no-store');
  const body = response.json() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  expect(body.error_description).not.toBe('');
}

describe.each(configurations)('POST /oauth/token (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
  });
  afterAll(async () => t.close());

  const asForm = (fields: Fields, url = '/oauth/token/') =>
    t.app.inject({ method: 'POST', url, headers: FORM, payload: new URLSearchParams(fields).toString() });
  const asJson = (fields: Record<string, unknown>, url = '/oauth/token/') => t.app.inject({ method: 'POST', url, payload: fields });

  const credentials = (extra: Fields = {}): Fields => ({
    grant_type: 'client_credentials',
    client_id: site.app.clientId,
    client_secret: site.app.clientSecret,
    ...extra,
  });

  function expectToken(response: LightMyRequestResponse, expected: { clientId: string; role: string; userId?: string }): void {
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
    const body = response.json() as { access_token: string; token_type: string; expires_in: number };
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(86_400);
    const claims = decodeJwt(body.access_token);
    expect(claims.cid).toBe(expected.clientId);
    expect(claims.sid).toBe(site.siteId);
    expect(claims.role).toBe(expected.role);
    expect(claims.uid).toBe(expected.userId);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(86_400);
  }

  describe.each(['/oauth/token/', '/oauth/token'])('at %s', (url) => {
    it('issues a client-level token from a form body', async () => {
      expectToken(await asForm(credentials(), url), { clientId: site.app.clientId, role: 'app' });
    });

    it('issues a client-level token from a JSON body', async () => {
      const response = await asJson({ grant_type: 'client_credentials', client_id: site.admin.clientId, client_secret: site.admin.clientSecret }, url);
      expectToken(response, { clientId: site.admin.clientId, role: 'admin' });
    });

    it('issues a user-level token with xoauth_end_user_id', async () => {
      expectToken(await asForm(credentials({ xoauth_end_user_id: 'ann@example.com' }), url), {
        clientId: site.app.clientId,
        role: 'app',
        userId: 'ann@example.com',
      });
      expectToken(await asJson(credentials({ xoauth_end_user_id: 'a:b+c_d-e.f' }), url), { clientId: site.app.clientId, role: 'app', userId: 'a:b+c_d-e.f' });
    });

    it('accepts HTTP Basic client authentication', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...FORM, authorization: basic(site.app.clientId, site.app.clientSecret) },
        payload: 'grant_type=client_credentials&xoauth_end_user_id=bob',
      });
      expectToken(response, { clientId: site.app.clientId, role: 'app', userId: 'bob' });
    });
  });

  it('accepts a user id of exactly 255 characters', async () => {
    const userId = 'u'.repeat(255);
    expectToken(await asForm(credentials({ xoauth_end_user_id: userId })), { clientId: site.app.clientId, role: 'app', userId });
  });

  const badRequests: Array<[string, () => Fields, number, string]> = [
    ['missing grant_type', () => ({ client_id: site.app.clientId, client_secret: site.app.clientSecret }), 400, 'invalid_request'],
    ['empty grant_type', () => credentials({ grant_type: '' }), 400, 'invalid_request'],
    ['missing client_id', () => ({ grant_type: 'client_credentials', client_secret: site.app.clientSecret }), 400, 'invalid_request'],
    ['missing client_secret', () => ({ grant_type: 'client_credentials', client_id: site.app.clientId }), 400, 'invalid_request'],
    ['grant_type=password', () => credentials({ grant_type: 'password' }), 400, 'unsupported_grant_type'],
    ['grant_type=authorization_code', () => credentials({ grant_type: 'authorization_code' }), 400, 'unsupported_grant_type'],
    ['an unknown client', () => credentials({ client_id: 'qlc_000000000000000000000000' }), 401, 'invalid_client'],
    ['a wrong secret', () => credentials({ client_secret: `${site.app.clientSecret}x` }), 401, 'invalid_client'],
    ["another client's secret", () => credentials({ client_secret: site.admin.clientSecret }), 401, 'invalid_client'],
    ['a user id with a space', () => credentials({ xoauth_end_user_id: 'a b' }), 400, 'invalid_request'],
    ['a user id of 256 characters', () => credentials({ xoauth_end_user_id: 'u'.repeat(256) }), 400, 'invalid_request'],
    ['an empty user id', () => credentials({ xoauth_end_user_id: '' }), 400, 'invalid_request'],
    ['a user id with a slash', () => credentials({ xoauth_end_user_id: 'a/b' }), 400, 'invalid_request'],
  ];

  describe.each(['form', 'json'] as const)('rejects, as %s,', (encoding) => {
    it.each(badRequests)('%s', async (_name, fields, status, error) => {
      const response = encoding === 'form' ? await asForm(fields()) : await asJson(fields());
      expectOAuthError(response, status, error);
      if (status === 401) expect(response.headers['www-authenticate']).toMatch(/^Basic /);
    });
  });

  it('rejects a wrong secret sent with HTTP Basic', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/oauth/token/',
      headers: { ...FORM, authorization: basic(site.admin.clientId, 'qls_wrong') },
      payload: 'grant_type=client_credentials',
    });
    expectOAuthError(response, 401, 'invalid_client');
    expect(response.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('rejects credentials sent both with HTTP Basic and in the body (RFC 6749 §2.3)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/oauth/token/',
      headers: { ...FORM, authorization: basic(site.admin.clientId, site.admin.clientSecret) },
      payload: new URLSearchParams(credentials()).toString(),
    });
    expectOAuthError(response, 400, 'invalid_request');
  });

  it.each(['grant_type', 'client_id', 'client_secret', 'xoauth_end_user_id'])('rejects %s sent twice in a form body', async (field) => {
    const fields = credentials({ xoauth_end_user_id: 'ann' });
    const payload = `${new URLSearchParams(fields).toString()}&${field}=${encodeURIComponent(fields[field] ?? '')}`;
    const response = await t.app.inject({ method: 'POST', url: '/oauth/token/', headers: FORM, payload });
    expectOAuthError(response, 400, 'invalid_request');
  });

  it.each([
    ['malformed JSON', '{"grant_type": "client_credentials",'],
    ['a JSON array', '["client_credentials"]'],
    ['an empty JSON body', ''],
  ])('answers %s with invalid_request in RFC 6749 form', async (_name, payload) => {
    const response = await t.app.inject({ method: 'POST', url: '/oauth/token/', headers: { 'content-type': 'application/json' }, payload });
    expectOAuthError(response, 400, 'invalid_request');
  });

  it('answers a request without a body with invalid_request', async () => {
    expectOAuthError(await t.app.inject({ method: 'POST', url: '/oauth/token/' }), 400, 'invalid_request');
  });
});

describe.each(configurations)('POST /oauth/token failure limit (%s)', (configuration) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { tokenFailureLimit: 3 } });
  });
  afterAll(async () => t.close());

  const request = (clientId: string, clientSecret: string) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: FORM,
      payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
    });

  it('answers slow_down after too many wrong secrets for one client id, right secret included', async () => {
    const site = await t.createSite();
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expectOAuthError(await request(site.app.clientId, 'qls_wrong'), 401, 'invalid_client');
    }
    const blocked = await request(site.app.clientId, site.app.clientSecret);
    expectOAuthError(blocked, 429, 'slow_down');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(t.config.tokenFailureWindowSeconds);

    // Another client id, of the same site, is unaffected.
    expect((await request(site.admin.clientId, site.admin.clientSecret)).statusCode).toBe(200);
  });

  it('limits wrong secrets sent concurrently as well', async () => {
    const site = await t.createSite();
    const responses = await Promise.all(Array.from({ length: 8 }, () => request(site.app.clientId, 'qls_wrong')));
    const statuses = responses.map((response) => response.statusCode);
    // At most the limit (3) may be checked against the secret; the others must be refused unchecked.
    expect(statuses.filter((status) => status === 401).length, JSON.stringify(statuses)).toBeLessThanOrEqual(3);
    for (const response of responses) {
      expectOAuthError(response, response.statusCode, response.statusCode === 401 ? 'invalid_client' : 'slow_down');
    }
    expectOAuthError(await request(site.app.clientId, site.app.clientSecret), 429, 'slow_down');
  });

  it('counts only failures: successes below the limit do not block', async () => {
    const site = await t.createSite();
    expectOAuthError(await request(site.app.clientId, 'qls_wrong'), 401, 'invalid_client');
    expectOAuthError(await request(site.app.clientId, 'qls_wrong'), 401, 'invalid_client');
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expect((await request(site.app.clientId, site.app.clientSecret)).statusCode).toBe(200);
    }
  });

  it('limits unknown client ids the same way', async () => {
    const unknown = 'qlc_ffffffffffffffffffffffff';
    for (let attempt = 1; attempt <= 3; attempt += 1) expectOAuthError(await request(unknown, 'qls_x'), 401, 'invalid_client');
    const blocked = await request(unknown, 'qls_x');
    expectOAuthError(blocked, 429, 'slow_down');
    expect(blocked.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  });
});
