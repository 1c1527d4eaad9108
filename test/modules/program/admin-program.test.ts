// GET/PUT /admin/program through the HTTP stack (SPEC §4): the canonical example round-trips, the
// webhook secret is write-only, invalid programs change nothing, the site row follows the program,
// only a site's own admin client reaches it.
import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgramDocument } from '../../../src/modules/program/model.js';
import { validateProgram } from '../../../src/modules/program/validate.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { EXAMPLE_PROGRAM_PATH as examplePath } from '../../helpers/fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
const example = JSON.parse(readFileSync(examplePath, 'utf8')) as Loose;
const SECRET = example.site.webhookSecret as string;
const MASKED = `****${SECRET.slice(-4)}`;

/** What GET /admin/program must answer after a PUT of `input`: canonical, the secret masked. */
function expectedRead(input: unknown, masked: string | null = MASKED): ProgramDocument {
  const program = validateProgram(input);
  delete program.site.webhookSecret;
  if (masked !== null) program.site.webhookSecret = masked;
  return program;
}

function withoutSecret(program: Loose): Loose {
  const copy = structuredClone(program);
  delete copy.site.webhookSecret;
  return copy;
}

function expectProblem(response: LightMyRequestResponse, status: number, code: string): Loose {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json() as Loose;
  expect(body).toMatchObject({ status, code, requestId: response.headers['x-request-id'] });
  return body;
}

describe.each(configurations)('admin program (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;

  const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, token: string | undefined, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: token !== undefined ? { authorization: `Bearer ${token}` } : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const read = async (token = admin) => {
    const response = await call('GET', '/admin/program', token);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { response: Loose }).response;
  };
  const row = (siteId = site.siteId) => t.database.db.selectFrom('site_programs').selectAll().where('site_id', '=', siteId).executeTakeFirst();
  const siteRow = (siteId = site.siteId) =>
    t.database.db.selectFrom('sites').select(['name', 'timezone']).where('site_id', '=', siteId).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    admin = await t.token(site.admin);
  });
  afterAll(async () => t.close());

  it('reads the initial program of a new site before any PUT', async () => {
    const fresh = await t.createSite();
    const program = await read(await t.token(fresh.admin));
    expect(program.site).toMatchObject({ name: `Test site ${fresh.siteId}`, timezone: 'America/Los_Angeles' });
    expect(program.site.webhookSecret).toBeUndefined();
    expect(program.pointCategories).toEqual([{ name: 'Points', isDefault: true }]);
    expect(program.missions).toEqual([]);
  });

  it('accepts the canonical example as it stands and reads back the same fields and values', async () => {
    const put = await call('PUT', '/admin/program', admin, example);
    expect(put.statusCode, put.body).toBe(200);
    const program = await read();
    expect(withoutSecret(program)).toMatchObject(withoutSecret(example));
    expect(program).toEqual(expectedRead(example));
    expect((put.json() as { response: unknown }).response).toEqual(program);
    // Every key of the example, at every depth, is present in the read-back document.
    const missing: string[] = [];
    const walk = (given: unknown, got: unknown, path: string) => {
      if (typeof given !== 'object' || given === null) return;
      for (const [key, value] of Object.entries(given)) {
        if (got === null || typeof got !== 'object' || !(key in got)) missing.push(`${path}${key}`);
        else walk(value, (got as Record<string, unknown>)[key], `${path}${key}.`);
      }
    };
    walk(example, program, '');
    expect(missing).toEqual([]);
  });

  it('shows the webhook secret only as **** and its last 4 characters, never in full', async () => {
    await call('PUT', '/admin/program', admin, example);
    for (const url of ['/admin/program', '/admin/site']) {
      const response = await call('GET', url, admin);
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain(SECRET);
      expect(response.body).not.toContain(SECRET.slice(0, -4));
      const body = response.json() as { response: Loose };
      expect(url === '/admin/site' ? body.response.webhookSecret : body.response.site.webhookSecret).toBe(MASKED);
    }
    const put = await call('PUT', '/admin/program', admin, example);
    expect(put.body).not.toContain(SECRET);
    expect((await row())?.webhook_secret).toBe(SECRET);
    expect((await row())?.document).not.toContain(SECRET);
  });

  it('keeps the secret when the read-back (masked) document is PUT again; replaces or removes it when asked', async () => {
    await call('PUT', '/admin/program', admin, example);
    const before = await row();
    const readBack = await read();
    expect(readBack.site.webhookSecret).toBe(MASKED);
    const again = await call('PUT', '/admin/program', admin, readBack);
    expect(again.statusCode, again.body).toBe(200);
    expect((await row())?.webhook_secret).toBe(SECRET);
    expect((await row())?.version).toBe((before?.version ?? 0) + 1);
    expect(await read()).toEqual(readBack);

    const omitted = withoutSecret(example);
    expect((await call('PUT', '/admin/program', admin, omitted)).statusCode).toBe(200);
    expect((await row())?.webhook_secret).toBe(SECRET);

    const rotated = { ...example, site: { ...example.site, webhookSecret: 'whsec_new-secret-9876' } };
    expect((await call('PUT', '/admin/program', admin, rotated)).statusCode).toBe(200);
    expect((await row())?.webhook_secret).toBe('whsec_new-secret-9876');
    expect((await read()).site.webhookSecret).toBe('****9876');

    const removed = { ...example, site: { ...example.site, webhookSecret: '' } };
    expect((await call('PUT', '/admin/program', admin, removed)).statusCode).toBe(200);
    expect((await row())?.webhook_secret).toBeNull();
    expect(await read()).toEqual(expectedRead(example, null));
    await call('PUT', '/admin/program', admin, example);
  });

  it('loads a saved GET answer as it is: PUT takes the {"response": program} envelope GET returns', async () => {
    await call('PUT', '/admin/program', admin, example);
    const before = await row();
    const saved = (await call('GET', '/admin/program', admin)).body;
    const again = await t.app.inject({
      method: 'PUT',
      url: '/admin/program',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: saved,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.body).toBe(saved);
    expect((await row())?.version).toBe((before?.version ?? 0) + 1);
    expect((await row())?.webhook_secret).toBe(SECRET);
    expect(await read()).toEqual(JSON.parse(saved).response);

    // Changed in the saved file and loaded again: the change lands; field errors name program paths.
    const edited = JSON.parse(saved) as { response: Loose };
    edited.response.site.name = 'Acme Renamed';
    expect((await call('PUT', '/admin/program', admin, edited)).statusCode).toBe(200);
    expect((await read()).site.name).toBe('Acme Renamed');
    edited.response.missions[0].rules[0].action = 'graduate';
    const refused = expectProblem(await call('PUT', '/admin/program', admin, edited), 422, 'program_invalid');
    expect(refused.errors).toEqual([{ path: 'missions.0.rules.0.action', message: 'action "graduate" does not exist' }]);
    expect((await read()).missions[0].rules[0].action).toBe(example.missions[0].rules[0].action);

    // Only the envelope alone is unwrapped: beside other fields, `response` is an unknown program field.
    const mixed = expectProblem(await call('PUT', '/admin/program', admin, { ...example, response: example }), 400, 'validation_failed');
    expect(mixed.errors).toEqual([{ path: 'response', message: 'is not a known field' }]);
    await call('PUT', '/admin/program', admin, example);
  });

  it('documents the PUT body in the OpenAPI reference as the program or the envelope GET answers', async () => {
    const reference = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as Loose;
    const put = reference.paths['/admin/program'].put;
    expect(put.description).toMatch(/\{"response": program\}/);
    const { anyOf } = put.requestBody.content['application/json'].schema;
    expect(anyOf).toHaveLength(2);
    expect(anyOf[0].required).toEqual(['site', 'pointCategories']);
    expect(anyOf[1]).toMatchObject({ required: ['response'], properties: { response: { required: ['site', 'pointCategories'] } } });
    expect(reference.paths['/admin/program'].get.responses['200'].content['application/json'].schema.properties.response.required).toEqual([
      'site',
      'pointCategories',
    ]);
  });

  it('accepts Windows zone names ("Pacific Standard Time") and stores and echoes the IANA zone', async () => {
    const windows = structuredClone(example);
    windows.site.timezone = 'Pacific Standard Time';
    windows.missions[0].timezone = 'Pacific Standard Time';
    windows.missions[1].timezone = 'W. Europe Standard Time';
    const put = await call('PUT', '/admin/program', admin, windows);
    expect(put.statusCode, put.body).toBe(200);
    const echoed = (put.json() as { response: Loose }).response;
    expect([echoed.site.timezone, echoed.missions[0].timezone, echoed.missions[1].timezone]).toEqual([
      'America/Los_Angeles',
      'America/Los_Angeles',
      'Europe/Berlin',
    ]);
    expect(await read()).toEqual(echoed);
    expect(await siteRow()).toEqual({ name: 'Acme Learning', timezone: 'America/Los_Angeles' });
    expect((await row())?.document).not.toContain('Standard Time');

    const site = await call('PUT', '/admin/site', admin, { name: 'Acme Learning', timezone: 'Eastern Standard Time' });
    expect(site.statusCode, site.body).toBe(200);
    expect((site.json() as { response: Loose }).response.timezone).toBe('America/New_York');
    expect(await siteRow()).toEqual({ name: 'Acme Learning', timezone: 'America/New_York' });
    await call('PUT', '/admin/program', admin, example);
  });

  it("makes the site's name and time zone in the sites table follow the program", async () => {
    await call('PUT', '/admin/program', admin, example);
    expect(await siteRow()).toEqual({ name: 'Acme Learning', timezone: 'America/New_York' });
    const moved = { ...example, site: { ...example.site, name: 'Acme Europe', timezone: 'Europe/Paris' } };
    expect((await call('PUT', '/admin/program', admin, moved)).statusCode).toBe(200);
    expect(await siteRow()).toEqual({ name: 'Acme Europe', timezone: 'Europe/Paris' });
    const defaulted = { ...example, site: { name: 'Acme Default' } };
    expect((await call('PUT', '/admin/program', admin, defaulted)).statusCode).toBe(200);
    expect(await siteRow()).toEqual({ name: 'Acme Default', timezone: 'America/Los_Angeles' });
    await call('PUT', '/admin/program', admin, example);
    expect(await siteRow()).toEqual({ name: 'Acme Learning', timezone: 'America/New_York' });
  });

  const invalid: Array<[string, () => unknown, number, string, string]> = [
    ['a mission without rules', () => ({ ...example, missions: [{ ...example.missions[0], rules: undefined }] }), 400, 'validation_failed', 'missions.0.rules'],
    ['an unknown field', () => ({ ...example, theme: 'dark' }), 400, 'validation_failed', 'theme'],
    ['a JSON array', () => [example], 400, 'validation_failed', '(document)'],
    ['a rule on an unknown action', () => ({ ...example, actions: example.actions.slice(1) }), 422, 'program_invalid', 'missions.0.rules.0.action'],
    [
      'an unknown time zone (and a new name)',
      () => ({ ...example, site: { ...example.site, name: 'Renamed', timezone: 'Mars/Olympus' } }),
      422,
      'program_invalid',
      'site.timezone',
    ],
  ];

  it.each(invalid)('refuses %s with field errors and changes nothing', async (_name, body, status, code, path) => {
    await call('PUT', '/admin/program', admin, example);
    const [before, versionBefore, siteBefore] = [await read(), (await row())?.version, await siteRow()];
    const response = await call('PUT', '/admin/program', admin, body());
    const problem = expectProblem(response, status, code);
    expect(problem.errors).toContainEqual({ path, message: expect.any(String) });
    expect(await read()).toEqual(before);
    expect((await row())?.version).toBe(versionBefore);
    expect(await siteRow()).toEqual(siteBefore);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/admin/program',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: '{"site":',
    });
    expectProblem(response, 400, 'malformed_body');
  });

  describe('security', () => {
    const routes: Array<['GET' | 'PUT', string]> = [
      ['GET', '/admin/program'],
      ['PUT', '/admin/program'],
      ['GET', '/admin/site'],
      ['PUT', '/admin/site'],
    ];
    const payloadFor = (method: string, url: string) =>
      method === 'GET' ? undefined : url === '/admin/site' ? { name: 'Hijacked' } : { ...example, site: { name: 'Hijacked' } };

    it.each(routes)('%s %s answers 401 without a token and 403 to app and user-level tokens', async (method, url) => {
      await call('PUT', '/admin/program', admin, example);
      const before = await read();
      const response = await call(method, url, undefined, payloadFor(method, url));
      expectProblem(response, 401, 'missing_token');
      const tokens = {
        app: await t.token(site.app),
        'user (app client)': await t.token(site.app, 'ann'),
        'user (admin client)': await t.token(site.admin, 'ann'),
      };
      for (const [kind, token] of Object.entries(tokens)) {
        const refused = await call(method, url, token, payloadFor(method, url));
        expect(refused.statusCode, `${kind}: ${refused.body}`).toBe(403);
        expectProblem(refused, 403, 'forbidden');
        expect(refused.body).not.toContain('Acme');
      }
      expect(await read()).toEqual(before);
    });

    it("gives every site its own program: another site's admin neither sees nor changes this one", async () => {
      await call('PUT', '/admin/program', admin, example);
      const before = await read();
      const other = await t.createSite();
      const otherAdmin = await t.token(other.admin);
      const theirs = await read(otherAdmin);
      expect(theirs.site.name).toBe(`Test site ${other.siteId}`);
      expect(JSON.stringify(theirs)).not.toMatch(/Acme|m-first-read/);

      const program = { ...example, site: { name: 'Other program', timezone: 'Asia/Tokyo', webhookSecret: 'other-secret-1111' }, missions: [] };
      expect((await call('PUT', '/admin/program', otherAdmin, program)).statusCode).toBe(200);
      expect((await read(otherAdmin)).site).toMatchObject({ name: 'Other program', webhookSecret: '****1111' });
      expect(await read()).toEqual(before);
      expect((await row())?.webhook_secret).toBe(SECRET);
      expect((await row(other.siteId))?.webhook_secret).toBe('other-secret-1111');
      expect(await siteRow()).toEqual({ name: 'Acme Learning', timezone: 'America/New_York' });
      expect(await siteRow(other.siteId)).toEqual({ name: 'Other program', timezone: 'Asia/Tokyo' });
    });
  });
});
