// Path ids are validated in one place (SPEC §2 Ids), and logs carry the request id but never a
// secret or a token, not even one sent by mistake in a query string; a request is one log line.
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idParams, idParamsPlugin } from '../../src/http/ids.js';
import { redactRequestUrl } from '../../src/http/request-log.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../helpers/app.js';

describe('redactRequestUrl', () => {
  it.each([
    ['/users/ann/actions', '/users/ann/actions'],
    ['/oauth/token/?client_id=qlc_1&client_secret=qls_abc', '/oauth/token/?client_id=qlc_1&client_secret=[redacted]'],
    ['/challenges?access_token=eyJ.x.y&limit=5', '/challenges?access_token=[redacted]&limit=5'],
    ['/x?Client%5FSecret=s&token=t&api-key=k&password=p&q=ok', '/x?Client%5FSecret=[redacted]&token=[redacted]&api-key=[redacted]&password=[redacted]&q=ok'],
    ['/x?%E0%A4%A=1&secret', '/x?%E0%A4%A=1&secret'],
  ])('%s', (url, expected) => expect(redactRequestUrl(url)).toBe(expected));
});

describe('a route with path parameters', () => {
  it('fails to register unless its params schema declares each of them', async () => {
    const app = Fastify();
    await app.register(idParamsPlugin);
    const handler = async () => ({});
    expect(() => app.get('/groups/:groupId/things', handler)).toThrow('Route GET /groups/:groupId/things declares no params schema for groupId');
    expect(() => app.get('/groups/:groupId/things/:thingId', { schema: { params: idParams('groupId') } }, handler)).toThrow(
      'declares no params schema for thingId',
    );
    expect(() => app.get('/groups/:groupId/things/:thingId', { schema: { params: idParams('groupId', 'thingId') } }, handler)).not.toThrow();
    expect(() => app.get('/things', handler)).not.toThrow();
    await app.close();
  });
});

describe.each(configurations)('path ids and logs (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  const lines: string[] = [];
  const logged = () =>
    lines
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    t = await buildTestApp(configuration, { logStream, config: { logLevel: 'info' } });
    // A route whose path parameters are ids declares them with idParams, and the id rule applies.
    t.app.get(
      '/groups/:groupId/things/:thingId',
      { config: { access: 'client' }, schema: { params: idParams('groupId', 'thingId') } },
      async (request) => request.params,
    );
    site = await t.createSite();
  });
  afterAll(async () => t.close());

  it.each([
    ['plain ids', '/groups/g-sales/things/t.1@x:y+z', 200],
    ['every allowed character', '/groups/AZaz09-_.@:+/things/x', 200],
    ['a space', '/groups/a%20b/things/x', 400],
    ['a slash-free but disallowed character', '/groups/a%24b/things/x', 400],
    ['256 characters', `/groups/${'a'.repeat(256)}/things/x`, 400],
  ])('%s', async (_name, url, status) => {
    const token = await t.token(site.app);
    const response = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(status);
    if (status === 400) {
      expect(response.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'params.groupId' }] });
    }
  });

  it('logs requests with their id and never a secret or a token', async () => {
    lines.length = 0;
    const tokenResponse = await t.app.inject({
      method: 'POST',
      url: '/oauth/token/',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'trace-me-1' },
      payload: `grant_type=client_credentials&client_id=${site.admin.clientId}&client_secret=${encodeURIComponent(site.admin.clientSecret)}`,
    });
    expect(tokenResponse.statusCode).toBe(200);
    const token = (tokenResponse.json() as { access_token: string }).access_token;
    await t.app.inject({ method: 'GET', url: '/groups/g/things/t', headers: { authorization: `Bearer ${token}`, 'x-request-id': 'trace-me-2' } });
    await t.app.inject({ method: 'GET', url: '/groups/g/things/t', headers: { authorization: `Bearer ${token}x` } });

    const log = lines.join('');
    expect(log).toContain('"requestId":"trace-me-1"');
    expect(log).toContain('"requestId":"trace-me-2"');
    expect(log).not.toContain(site.admin.clientSecret);
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.split('.')[2]);
  });

  it('writes one line per request, with method, route, status, duration and request id, and no credential from the query string', async () => {
    const client = await t.token(site.app);
    lines.length = 0;
    const secret = site.app.clientSecret;
    await t.app.inject({
      method: 'POST',
      url: `/oauth/token/?client_id=${site.app.clientId}&client_secret=${encodeURIComponent(secret)}`,
      headers: { 'x-request-id': 'log-1' },
    });
    await t.app.inject({ method: 'GET', url: `/challenges?access_token=${client}`, headers: { authorization: `Bearer ${client}`, 'x-request-id': 'log-2' } });
    await t.app.inject({ method: 'GET', url: '/challenges', headers: { authorization: `Bearer ${client}`, 'x-request-id': 'log-3' } });
    const text = lines.join('\n');
    expect(text).not.toContain(secret);
    expect(text).not.toContain(client.split('.')[2]);
    for (const id of ['log-1', 'log-2', 'log-3']) {
      const mine = logged().filter((line) => line.requestId === id);
      expect(mine, text).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        level: 30,
        msg: 'request',
        method: expect.any(String),
        route: expect.any(String),
        status: expect.any(Number),
        ms: expect.any(Number),
      });
    }
    expect(logged().find((line) => line.requestId === 'log-2')).toMatchObject({
      route: '/challenges',
      status: 200,
      url: '/challenges?access_token=[redacted]',
    });
  });
});
