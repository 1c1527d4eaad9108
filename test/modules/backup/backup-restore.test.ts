// Backup and restore through the HTTP stack (SPEC §13; interface document §2 Restore request
// fields, §4 Administrative): a program made with the JSON API backs up, restores into another
// site and backs up again byte for byte; every refused restore leaves the site as it was; secrets,
// group memberships and other sites' backups stay where they belong.
import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { xmlToProgram } from '../../../src/modules/backup/xml.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';

// The canonical JSON program (SPEC §4): examples/program.json.
const PROGRAM_JSON = exampleProgram();
const PROGRAM_SECRET = (PROGRAM_JSON.site as { webhookSecret: string }).webhookSecret;
const passwd = readFileSync('/etc/passwd', 'utf8').split('\n')[0] as string;
const DEMO_XML = readFileSync(new URL('../../../examples/demo-program.xml', import.meta.url), 'utf8');
const DEMO = xmlToProgram(DEMO_XML) as { missions: unknown[]; actions: unknown[] };

const XXE = `<?xml version="1.0"?>\n<!DOCTYPE Nitro [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<Nitro><SiteConfiguration name="&xxe;"/></Nitro>`;
const LAUGHS = `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]>\n<Nitro><SiteConfiguration name="&lol9;"/></Nitro>`;

/** `xml` with `count` more actions of `length`-character descriptions. */
const withBulkActions = (xml: string, count: number, length: number) =>
  xml.replace('<Actions>', `<Actions>${Array.from({ length: count }, (_, i) => `<Action name="bulk_${i}" description="${'d'.repeat(length)}"/>`).join('')}`);

function replaced(xml: string, from: string | RegExp, to: string): string {
  const result = xml.replace(from, to);
  expect(result, `pattern ${String(from)} not found`).not.toBe(xml);
  return result;
}

function expectProblem(response: LightMyRequestResponse, status: number, code: string): { errors?: Array<{ path: string; message: string }> } {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json() as { code: string; errors?: Array<{ path: string; message: string }> };
  expect(body.code).toBe(code);
  return body;
}

describe.each(configurations)('backup and restore over HTTP (%s)', (configuration) => {
  let t: TestApp;

  const auth = (token: string | undefined) => (token === undefined ? {} : { authorization: `Bearer ${token}` });
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string | undefined, payload?: object) =>
    t.app.inject({ method, url, headers: auth(token), ...(payload !== undefined ? { payload } : {}) });
  /** POST /restore, form-urlencoded as the interface document sends it. */
  const restore = (token: string | undefined, fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/restore',
      headers: { ...auth(token), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });

  async function backup(token: string, name: string): Promise<{ id: string; name: string; createdAt: string; xml: string }> {
    const created = await call('POST', '/backup', token, { name });
    expect(created.statusCode, created.body).toBe(201);
    const summary = (created.json() as { response: { id: string; name: string; createdAt: string } }).response;
    const fetched = await call('GET', `/backup/${summary.id}`, token);
    expect(fetched.statusCode, fetched.body).toBe(200);
    expect(fetched.headers['content-type']).toMatch(/^application\/xml/);
    return { ...summary, xml: fetched.body };
  }

  /** What a site's configuration is: the admin view of its program, and its stored version. */
  async function stateOf(siteId: string, token: string): Promise<{ program: unknown; version: number | undefined }> {
    const program = await call('GET', '/admin/program', token);
    expect(program.statusCode).toBe(200);
    const row = await t.database.db.selectFrom('site_programs').select('version').where('site_id', '=', siteId).executeTakeFirst();
    return { program: program.json(), version: row?.version };
  }

  /** A new site holding examples/program.json, with its admin token. */
  async function siteWithProgram(): Promise<{ site: TestSite; token: string }> {
    const site = await t.createSite();
    const token = await t.token(site.admin);
    const put = await call('PUT', '/admin/program', token, PROGRAM_JSON);
    expect(put.statusCode, put.body).toBe(200);
    return { site, token };
  }

  beforeAll(async () => {
    t = await buildTestApp(configuration);
  });
  afterAll(async () => t.close());

  it('backs up a program made with the JSON API, restores it into another site, and backs up the same bytes there', async () => {
    const { site: source, token } = await siteWithProgram();
    const first = await backup(token, 'before the launch');
    const second = await backup(token, 'after the launch');
    expect(second).toMatchObject({
      id: expect.stringMatching(/^bk_/),
      name: 'after the launch',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(second.xml).toBe(first.xml);
    expect(first.xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Nitro method="admin.backupSiteConfig" server="questline" res="ok">\n')).toBe(true);

    const list = await call('GET', '/backup', token);
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('2');
    expect((list.json() as { response: unknown[] }).response).toEqual([
      { id: second.id, name: second.name, createdAt: second.createdAt },
      { id: first.id, name: first.name, createdAt: first.createdAt },
    ]);
    const paged = await call('GET', '/backup?limit=1&offset=1', token);
    expect(paged.headers['x-total-count']).toBe('2');
    expect((paged.json() as { response: Array<{ id: string }> }).response.map((b) => b.id)).toEqual([first.id]);

    const target = await t.createSite();
    const targetToken = await t.token(target.admin);
    const restored = await restore(targetToken, { type: '1', data: first.xml, asyncToken: 'abc' });
    expect(restored.statusCode, restored.body).toBe(200);
    const { version } = await stateOf(target.siteId, targetToken);
    expect(restored.json()).toEqual({
      response: {
        asyncToken: 'abc',
        status: 'restored',
        version,
        missions: 6,
        actions: 5,
        progressArchived: { parties: 0, rows: 0 },
        siteChanges: expect.any(Array),
      },
    });
    // A new site had only a name and a time zone: the restore says it set every other setting too.
    const changes = (restored.json() as { response: { siteChanges: Array<{ field: string; from: unknown; to: unknown }> } }).response.siteChanges;
    expect(changes.slice(0, 2)).toEqual([
      { field: 'name', from: `Test site ${target.siteId}`, to: 'Acme Learning' },
      { field: 'timezone', from: 'America/Los_Angeles', to: 'America/New_York' },
    ]);
    const sourceSite = PROGRAM_JSON.site as Record<string, unknown>;
    for (const change of changes.slice(2)) expect(change).toEqual({ field: change.field, from: null, to: sourceSite[change.field] });
    expect(changes.map((change) => change.field)).toEqual(expect.arrayContaining(['achievementCallbackUrl', 'userlinkUrl', 'subdomain']));

    expect((await backup(targetToken, 'copy')).xml).toBe(first.xml);
    const sourceProgram = (await stateOf(source.siteId, token)).program as { response: { site: Record<string, unknown> } };
    const targetProgram = (await stateOf(target.siteId, targetToken)).program as { response: { site: Record<string, unknown> } };
    delete sourceProgram.response.site.webhookSecret;
    expect(targetProgram).toEqual(sourceProgram);
  });

  it('restores by backup id (type 0), and only the backups of its own site', async () => {
    const { site, token } = await siteWithProgram();
    const saved = await backup(token, 'known good');
    const original = await stateOf(site.siteId, token);
    const smaller = { site: { name: 'Shrunk' }, pointCategories: [{ name: 'Points', isDefault: true }] };
    expect((await call('PUT', '/admin/program', token, smaller)).statusCode).toBe(200);

    const restored = await restore(token, { type: '0', data: saved.id });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ response: { status: 'restored', missions: 6, actions: 5 } });
    expect(restored.json()).not.toHaveProperty('response.asyncToken');
    const after = await stateOf(site.siteId, token);
    expect(after.program).toEqual(original.program);
    expect(after.version).toBe((original.version ?? 0) + 2);

    expectProblem(await restore(token, { type: '0', data: 'bk_00000000-0000-7000-8000-000000000000' }), 404, 'not_found');
    const other = await t.createSite();
    const otherToken = await t.token(other.admin);
    const before = await stateOf(other.siteId, otherToken);
    expectProblem(await restore(otherToken, { type: '0', data: saved.id }), 404, 'not_found');
    expectProblem(await call('GET', `/backup/${saved.id}`, otherToken), 404, 'not_found');
    const otherList = await call('GET', '/backup', otherToken);
    expect(otherList.headers['x-total-count']).toBe('0');
    expect(otherList.json()).toEqual({ response: [] });
    expect(await stateOf(other.siteId, otherToken)).toEqual(before);
  });

  it("reports the site settings a restore changes: another site's backup renames the site and moves its time zone", async () => {
    const { token } = await siteWithProgram();
    const saved = await backup(token, 'acme');
    const { site: target, token: targetToken } = await siteWithProgram();
    const renamed = { ...PROGRAM_JSON, site: { ...(PROGRAM_JSON.site as object), name: 'Beta Academy', timezone: 'Europe/Paris' } };
    expect((await call('PUT', '/admin/program', targetToken, renamed)).statusCode).toBe(200);

    const restored = await restore(targetToken, { type: '1', data: saved.xml });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({
      response: {
        status: 'restored',
        siteChanges: [
          { field: 'name', from: 'Beta Academy', to: 'Acme Learning' },
          { field: 'timezone', from: 'Europe/Paris', to: 'America/New_York' },
        ],
      },
    });
    expect((await call('GET', '/admin/site', targetToken)).json()).toMatchObject({ response: { name: 'Acme Learning', timezone: 'America/New_York' } });
    const row = await t.database.db.selectFrom('sites').select(['name', 'timezone']).where('site_id', '=', target.siteId).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Acme Learning', timezone: 'America/New_York' });

    // Restored again, by id this time, nothing changes at site level: the list is empty.
    const targetBackup = await backup(targetToken, 'as restored');
    const again = await restore(targetToken, { type: '0', data: targetBackup.id });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ response: { siteChanges: [] } });

    // Other settings are listed with their values before and after; an unset one is null.
    const origins = replaced(
      replaced(saved.xml, 'subdomain="acme"', 'subdomain="acme-eu"'),
      /(<SiteConfiguration[^>]*>)/,
      '$1\n    <AllowedOrigin url="https://acme.example"/>',
    );
    const more = await restore(targetToken, { type: '1', data: replaced(origins, / achievementCallbackUrl="[^"]*"/, '') });
    expect(more.statusCode, more.body).toBe(200);
    expect((more.json() as { response: { siteChanges: unknown } }).response.siteChanges).toEqual([
      { field: 'achievementCallbackUrl', from: 'https://hooks.acme.example/questline', to: null },
      { field: 'allowedOrigins', from: [], to: ['https://acme.example'] },
      { field: 'subdomain', from: 'acme', to: 'acme-eu' },
    ]);
  });

  it('stores a backup with a default name when none is given', async () => {
    const { token } = await siteWithProgram();
    const created = await call('POST', '/backup', token);
    expect(created.statusCode, created.body).toBe(201);
    expect((created.json() as { response: { name: string } }).response.name).toMatch(/^Backup \d{4}-\d\d-\d\dT/);
  });

  describe('refused restores leave the site unchanged', () => {
    let site: TestSite;
    let token: string;
    let xml: string;

    beforeAll(async () => {
      ({ site, token } = await siteWithProgram());
      xml = (await backup(token, 'base')).xml;
    });

    const cases: Array<{ name: string; fields: () => Record<string, string>; status: number; code: string; path?: string }> = [
      { name: 'type 2', fields: () => ({ type: '2', data: xml }), status: 400, code: 'validation_failed', path: 'body.type' },
      { name: 'a 256-character type', fields: () => ({ type: '1'.repeat(256), data: xml }), status: 400, code: 'validation_failed', path: 'body.type' },
      {
        name: 'a 256-character asyncToken',
        fields: () => ({ type: '1', data: xml, asyncToken: 'a'.repeat(256) }),
        status: 400,
        code: 'validation_failed',
        path: 'body.asyncToken',
      },
      { name: 'no type', fields: () => ({ data: xml }), status: 400, code: 'validation_failed' },
      { name: 'no data', fields: () => ({ type: '1' }), status: 400, code: 'validation_failed' },
      { name: 'malformed XML', fields: () => ({ type: '1', data: replaced(xml, '</Missions>', '</Mission>') }), status: 400, code: 'malformed_xml' },
      { name: 'an empty document', fields: () => ({ type: '1', data: '' }), status: 400, code: 'malformed_xml' },
      {
        name: 'an out-of-range character reference',
        fields: () => ({ type: '1', data: replaced(xml, 'name="Little chef"', 'name="&#x110000;"') }),
        status: 400,
        code: 'malformed_xml',
      },
      { name: 'an XXE document', fields: () => ({ type: '1', data: XXE }), status: 400, code: 'xml_forbidden' },
      { name: 'a billion-laughs document', fields: () => ({ type: '1', data: LAUGHS }), status: 400, code: 'xml_forbidden' },
      {
        name: 'an unknown attribute',
        fields: () => ({ type: '1', data: replaced(xml, '<Mission id="m-chef"', '<Mission colour="red" id="m-chef"') }),
        status: 400,
        code: 'validation_failed',
        path: 'SiteConfiguration/Missions/Mission[2]/@colour',
      },
      {
        name: 'a goal that is not a number',
        fields: () => ({ type: '1', data: replaced(xml, /(<Mission id="m-chef".*?<Rule id="r-2"[^>]*?)goal="1"/s, '$1goal="one"') }),
        status: 400,
        code: 'validation_failed',
        path: 'SiteConfiguration/Missions/Mission[2]/Rules/Rule[2]/@goal',
      },
      {
        name: 'a rule action that does not exist',
        fields: () => ({ type: '1', data: replaced(xml, 'action="purchase"', 'action="teleport"') }),
        status: 422,
        code: 'program_invalid',
        path: 'SiteConfiguration/Missions/Mission[3]/Rules/Rule[1]/@action',
      },
      {
        name: 'a badge that does not exist',
        fields: () => ({ type: '1', data: replaced(xml, '<Rewards badge="b-chef">', '<Rewards badge="b-ghost">') }),
        status: 422,
        code: 'program_invalid',
        path: 'SiteConfiguration/Missions/Mission[2]/Rewards/@badge',
      },
      {
        name: 'a prerequisite cycle',
        fields: () => ({ type: '1', data: replaced(xml, /(<Mission id="m-first-read"[^>]*>)/, '$1<Prerequisites><Mission id="m-chef"/></Prerequisites>') }),
        status: 422,
        code: 'program_invalid',
        path: 'SiteConfiguration/Missions/Mission[1]/Prerequisites/Mission',
      },
      { name: 'a document over 10 MB', fields: () => ({ type: '1', data: withBulkActions(xml, 3000, 3600) }), status: 413, code: 'payload_too_large' },
      // Over the limits checked before parsing (docs/backup-format.md).
      {
        name: 'an attribute value over 40,000 characters',
        fields: () => ({ type: '1', data: replaced(xml, 'name="Little chef"', `name="${'x'.repeat(40_001)}"`) }),
        status: 400,
        code: 'xml_forbidden',
      },
      {
        name: 'an attribute value with 4,001 character references',
        fields: () => ({ type: '1', data: replaced(xml, 'name="Little chef"', `name="${'&#x41;'.repeat(4001)}"`) }),
        status: 400,
        code: 'xml_forbidden',
      },
      {
        name: 'over 250,000 character references in all',
        fields: () => ({ type: '1', data: withBulkActions(xml, 63, 0).replace(/description=""/g, `description="${'&amp;'.repeat(4000)}"`) }),
        status: 400,
        code: 'xml_forbidden',
      },
      { name: 'over 100,000 elements', fields: () => ({ type: '1', data: withBulkActions(xml, 100_000, 0) }), status: 400, code: 'xml_forbidden' },
      {
        name: 'over 4,096 characters of text between elements',
        fields: () => ({ type: '1', data: replaced(xml, '<Actions>', `<Actions>${' '.repeat(4097)}`) }),
        status: 400,
        code: 'xml_forbidden',
      },
      {
        name: 'an element with 65 attributes',
        fields: () => ({ type: '1', data: replaced(xml, '<Actions>', `<Actions><Action ${Array.from({ length: 65 }, (_, i) => `a${i}=""`).join(' ')}/>`) }),
        status: 400,
        code: 'xml_forbidden',
      },
    ];

    it.each(cases)('$name → $status $code', async ({ fields, status, code, path }) => {
      const before = await stateOf(site.siteId, token);
      const response = await restore(token, fields());
      const body = expectProblem(response, status, code);
      if (path !== undefined) expect(body.errors?.map((e) => e.path)).toContain(path);
      if (code === 'program_invalid') expect(body.errors?.every((e) => e.path.startsWith('SiteConfiguration'))).toBe(true);
      expect(response.body).not.toContain(passwd);
      expect(await stateOf(site.siteId, token)).toEqual(before);
    });

    it('names the cycle it refuses', async () => {
      const cycle = replaced(xml, /(<Mission id="m-first-read"[^>]*>)/, '$1<Prerequisites><Mission id="m-chef"/></Prerequisites>');
      const body = expectProblem(await restore(token, { type: '1', data: cycle }), 422, 'program_invalid');
      expect(body.errors).toContainEqual({
        path: 'SiteConfiguration/Missions/Mission[1]/Prerequisites/Mission',
        message: expect.stringMatching(/cycle: m-first-read → m-chef → m-first-read/),
      });
    });
  });

  it('refuses four 9.5 MB documents of 1.9 million character references in one attribute, sent at once, and changes nothing', async () => {
    const attack = DEMO_XML.replace(/<SiteConfiguration name="[^"]*"/, `<SiteConfiguration name="${'&#65;'.repeat(1_900_000)}"`);
    expect(Buffer.byteLength(attack)).toBeGreaterThan(9_500_000);
    const sites = await Promise.all(Array.from({ length: 4 }, () => siteWithProgram()));
    const before = await Promise.all(sites.map(({ site, token }) => stateOf(site.siteId, token)));
    const [health, ...responses] = await Promise.all([
      call('GET', '/health/ready', undefined),
      ...sites.map(({ token }) => call('POST', '/restore', token, { type: '1', data: attack })),
    ]);
    expect(health?.statusCode).toBe(200);
    for (const response of responses) expectProblem(response, 400, 'xml_forbidden');
    expect(await Promise.all(sites.map(({ site, token }) => stateOf(site.siteId, token)))).toEqual(before);
    // The example backup still restores into the same sites.
    for (const { token } of sites) {
      const restored = await restore(token, { type: '1', data: DEMO_XML });
      expect(restored.statusCode, restored.body).toBe(200);
    }
  });

  it('restores the example backup (examples/demo-program.xml)', async () => {
    const site = await t.createSite();
    const token = await t.token(site.admin);
    const restored = await restore(token, { type: '1', data: DEMO_XML });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ response: { status: 'restored', missions: DEMO.missions.length, actions: DEMO.actions.length } });
    expect((await backup(token, 'demo')).xml).toBe(DEMO_XML);
  });

  describe('one restore at a time', () => {
    const restores = () => t.app.services.backups.restores;
    /** Holds the gate for the site, as a long restore would, until release() is called. */
    function holdGate(siteId: string): { release(): Promise<void> } {
      let release: () => void = () => undefined;
      const held = restores().run(siteId, () => new Promise<void>((resolve) => (release = resolve)));
      return {
        async release() {
          release();
          await held;
        },
      };
    }

    it("refuses a second restore of a site with one in progress with 429 restore_busy, and lets other sites' restores wait their turn", async () => {
      const { site, token } = await siteWithProgram();
      const saved = await backup(token, 'held');
      const before = await stateOf(site.siteId, token);
      const other = await t.createSite();
      const otherToken = await t.token(other.admin);

      const gate = holdGate(site.siteId);
      const busy = await restore(token, { type: '1', data: DEMO_XML });
      expectProblem(busy, 429, 'restore_busy');
      expect(busy.headers['retry-after']).toBe('1');
      expect(await stateOf(site.siteId, token)).toEqual(before);

      const waiting = restore(otherToken, { type: '1', data: DEMO_XML });
      await vi.waitFor(() => expect(restores().waiting).toBe(1));
      await gate.release();
      const restored = await waiting;
      expect(restored.statusCode, restored.body).toBe(200);
      expect((await restore(token, { type: '0', data: saved.id })).statusCode).toBe(200);
    });

    it('lets at most 8 restores wait, and refuses more with 429 restore_busy', async () => {
      const sites = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const site = await t.createSite();
          return { site, token: await t.token(site.admin) };
        }),
      );
      const [holder, ...rest] = sites as [(typeof sites)[0], ...typeof sites];
      const gate = holdGate(holder.site.siteId);
      const waiting = rest.slice(0, 8).map(({ token }) => restore(token, { type: '1', data: DEMO_XML }));
      await vi.waitFor(() => expect(restores().waiting).toBe(8));
      const last = rest[8] as (typeof sites)[0];
      const before = await stateOf(last.site.siteId, last.token);
      const refused = await restore(last.token, { type: '1', data: DEMO_XML });
      expectProblem(refused, 429, 'restore_busy');
      expect(refused.headers['retry-after']).toBe('1');
      expect(await stateOf(last.site.siteId, last.token)).toEqual(before);
      await gate.release();
      for (const response of await Promise.all(waiting)) expect(response.statusCode, response.body).toBe(200);
    });
  });

  it('accepts a valid document over the 1 MB body limit (restore allows 10 MB)', async () => {
    const { site, token } = await siteWithProgram();
    const big = withBulkActions((await backup(token, 'base')).xml, 600, 3000);
    const body = new URLSearchParams({ type: '1', data: big }).toString();
    expect(Buffer.byteLength(body)).toBeGreaterThan(1024 * 1024);
    expect(Buffer.byteLength(body)).toBeLessThan(10 * 1024 * 1024);
    const response = await restore(token, { type: '1', data: big });
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    expect(response.json()).toMatchObject({ response: { actions: 605, missions: 6 } });
    const again = (await backup(token, 'big')).xml;
    expect(again).toContain(`<Action name="bulk_599" description="${'d'.repeat(3000)}" suppressRepeats="false" clientLoggable="false"/>`);
    expect((await restore(token, { type: '1', data: again })).statusCode).toBe(200);
    expect((await backup(token, 'big again')).xml).toBe(again);
    // The 1 MB limit still holds everywhere else.
    const program = {
      ...PROGRAM_JSON,
      actions: [...(PROGRAM_JSON.actions as object[]), ...Array.from({ length: 400 }, (_, i) => ({ name: `x_${i}`, description: 'd'.repeat(3000) }))],
    };
    expectProblem(await call('PUT', '/admin/program', token, program), 413, 'payload_too_large');
    expect((await stateOf(site.siteId, token)).program).toMatchObject({
      response: { actions: expect.arrayContaining([expect.objectContaining({ name: 'bulk_599' })]) },
    });
  });

  it('never puts the webhook secret in a backup, and a restore keeps the current one', async () => {
    const { site: source, token } = await siteWithProgram();
    const secretOf = async (siteId: string) =>
      (await t.database.db.selectFrom('site_programs').select('webhook_secret').where('site_id', '=', siteId).executeTakeFirstOrThrow()).webhook_secret;
    expect(await secretOf(source.siteId)).toBe(PROGRAM_SECRET);
    const saved = await backup(token, 'no secrets');
    expect(saved.xml).not.toContain(PROGRAM_SECRET);
    expect(saved.xml).not.toContain('webhookSecret');
    const stored = await t.database.db.selectFrom('backups').select('xml').where('backup_id', '=', saved.id).executeTakeFirstOrThrow();
    expect(stored.xml).not.toContain(PROGRAM_SECRET);

    const target = await t.createSite();
    const targetToken = await t.token(target.admin);
    const setSite = await call('PUT', '/admin/site', targetToken, { name: 'Target', webhookSecret: 'whsec_target_only_4321' });
    expect(setSite.statusCode, setSite.body).toBe(200);
    expect(await secretOf(target.siteId)).toBe('whsec_target_only_4321');

    expect((await restore(targetToken, { type: '1', data: saved.xml })).statusCode).toBe(200);
    expect(await secretOf(target.siteId)).toBe('whsec_target_only_4321');
    expect((await call('GET', '/admin/site', targetToken)).json()).toMatchObject({ response: { name: 'Acme Learning', webhookSecret: '****4321' } });
    // Restoring its own backup does not wipe the source's secret either.
    expect((await restore(token, { type: '0', data: saved.id })).statusCode).toBe(200);
    expect(await secretOf(source.siteId)).toBe(PROGRAM_SECRET);
  });

  it('restores a document naming zones the Windows way ("Pacific Standard Time"), storing the IANA zones', async () => {
    const { site, token } = await siteWithProgram();
    const saved = (await backup(token, 'iana')).xml;
    // The site's zone comes first (SiteConfiguration), the missions' after it.
    const windows = replaced(
      replaced(saved, 'timezone="America/New_York"', 'timezone="Pacific Standard Time"'),
      /timezone="America\/New_York"/g,
      'timezone="Eastern Standard Time"',
    );
    expect(windows.match(/Standard Time/g)?.length).toBeGreaterThan(2);
    const restored = await restore(token, { type: '1', data: windows });
    expect(restored.statusCode, restored.body).toBe(200);
    const { program } = (await stateOf(site.siteId, token)) as { program: { response: { site: { timezone: string }; missions: Array<{ timezone: string }> } } };
    expect(program.response.site.timezone).toBe('America/Los_Angeles');
    expect(new Set(program.response.missions.map((m) => m.timezone))).toEqual(new Set(['America/New_York', 'Europe/Paris']));
    const row = await t.database.db.selectFrom('sites').select('timezone').where('site_id', '=', site.siteId).executeTakeFirstOrThrow();
    expect(row.timezone).toBe('America/Los_Angeles');
    const again = (await backup(token, 'after')).xml;
    expect(again).not.toContain('Standard Time');
    expect(again).toBe(replaced(saved, 'timezone="America/New_York"', 'timezone="America/Los_Angeles"'));
  });

  it('keeps group memberships across a restore', async () => {
    const { token } = await siteWithProgram();
    const saved = await backup(token, 'groups');
    expect((await call('PUT', '/admin/groups/g-sales/members/ann', token)).statusCode).toBe(201);
    expect((await call('PUT', '/admin/groups/g-emea/members/bob', token)).statusCode).toBe(201);
    expect((await restore(token, { type: '1', data: saved.xml })).statusCode).toBe(200);
    expect((await restore(token, { type: '0', data: saved.id })).statusCode).toBe(200);
    const sales = await call('GET', '/admin/groups/g-sales/members', token);
    expect((sales.json() as { response: Array<{ userId: string }> }).response.map((m) => m.userId)).toEqual(['ann']);
    const emea = await call('GET', '/admin/groups/g-emea/members', token);
    expect((emea.json() as { response: Array<{ userId: string }> }).response.map((m) => m.userId)).toEqual(['bob']);
  });

  describe('access', () => {
    let site: TestSite;
    let adminToken: string;
    let backupId: string;
    let xml: string;
    const tokens: Record<string, string> = {};

    beforeAll(async () => {
      ({ site, token: adminToken } = await siteWithProgram());
      ({ id: backupId, xml } = await backup(adminToken, 'guarded'));
      tokens.app = await t.token(site.app);
      tokens['user (app client)'] = await t.token(site.app, 'ann');
      tokens['user (admin client)'] = await t.token(site.admin, 'ann');
    });

    const endpoints: Array<[string, string, (id: string, xml: string) => object | undefined]> = [
      ['POST', '/backup', () => ({ name: 'sneaky' })],
      ['GET', '/backup', () => undefined],
      ['GET', '/backup/:id', () => undefined],
      ['POST', '/restore', (_id, document) => ({ type: '1', data: document })],
    ];
    const matrix = endpoints.flatMap(([method, path, body]) =>
      ['app', 'user (app client)', 'user (admin client)', 'no'].map((kind) => [method, path, kind, body] as const),
    );

    it.each(matrix)('%s %s with %s token is refused', async (method, path, kind, body) => {
      const before = await stateOf(site.siteId, adminToken);
      const response = await call(method as 'GET' | 'POST', path.replace(':id', backupId), tokens[kind], body(backupId, xml));
      if (kind === 'no') {
        expectProblem(response, 401, 'missing_token');
      } else {
        expectProblem(response, 403, 'forbidden');
      }
      expect(response.body).not.toContain('<Nitro');
      expect(await stateOf(site.siteId, adminToken)).toEqual(before);
      expect((await call('GET', '/backup', adminToken)).headers['x-total-count']).toBe('1');
    });
  });
});
