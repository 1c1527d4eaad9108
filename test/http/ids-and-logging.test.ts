// Path ids are validated in one place (SPEC §2 Ids), and logs carry the request id but never a
// secret or a token.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../helpers/app.js';

describe.each(configurations)('path ids and logs (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  const lines: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    t = await buildTestApp(configuration, { logStream, config: { logLevel: 'info' } });
    // A route that declares no params schema: the id rule still applies to its path parameters.
    t.app.get('/groups/:groupId/things/:thingId', { config: { access: 'client' } }, async (request) => request.params);
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
    expect(log).toContain('"reqId":"trace-me-1"');
    expect(log).toContain('"reqId":"trace-me-2"');
    expect(log).not.toContain(site.admin.clientSecret);
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.split('.')[2]);
  });
});
