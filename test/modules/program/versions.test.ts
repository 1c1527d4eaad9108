// Program history through the HTTP stack (issue 26): every program change (PUT /admin/program, an
// entity route, a backup restore, `questline program put`) keeps a version with who, when and
// what changed; an endpoint change keeps none; a version reads with its document and its diff; a
// kept version restores through PUT's validated path, all or nothing; no version holds the webhook
// secret; only the site's own admin client reaches its history.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch, type Operation } from 'rfc6902';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { run } from '../../../src/cli/index.js';
import { programToXml } from '../../../src/modules/backup/xml.js';
import { validateProgram } from '../../../src/modules/program/validate.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { expectProblem } from '../../helpers/problem.js';
import { capture, captured } from '../../helpers/cli.js';
import { exampleProgram, playProgram } from '../../helpers/fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
const EXAMPLE = exampleProgram<Loose>();
const SECRET = EXAMPLE.site.webhookSecret as string;

/** A one-mission program whose mission counts 5 `play`s with the rule `ruleId`. */
function playWith(ruleId: string): Loose {
  const program = playProgram('Versions', []) as Loose;
  Object.assign(program.missions[0].rules[0], { id: ruleId, goal: 5 });
  return program;
}

describe.each(configurations)('program history (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;

  /** `token` null: no Authorization header. */
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token: string | null = admin, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: token !== null ? { authorization: `Bearer ${token}` } : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const ok = async (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token: string = admin, payload?: unknown) => {
    const response = await call(method, url, token, payload);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response;
  };
  const versions = async (token = admin, query = '') => (await ok('GET', `/admin/program/versions${query}`, token)).json().response as Loose[];
  const version = async (v: number, token = admin) => (await ok('GET', `/admin/program/versions/${v}`, token)).json().response as Loose;
  const program = async (token = admin) => (await ok('GET', '/admin/program', token)).json().response as Loose;
  const row = (siteId = site.siteId) => t.database.db.selectFrom('site_programs').selectAll().where('site_id', '=', siteId).executeTakeFirstOrThrow();
  const kept = (siteId = site.siteId) => t.database.db.selectFrom('program_versions').selectAll().where('site_id', '=', siteId).orderBy('version').execute();

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    admin = await t.token(site.admin);
  });
  afterAll(async () => t.close());

  it("lists a new site's initial program as version 0, made by nobody, before and after its first change", async () => {
    const fresh = await t.createSite();
    const token = await t.token(fresh.admin);
    const created = (await t.app.services.sites.findSite(fresh.siteId))?.created_at as number;
    const initial = { version: 0, changedAt: new Date(created).toISOString(), changedBy: null, summary: null, restoredFrom: null };
    const list = await call('GET', '/admin/program/versions', token);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json().response).toEqual([initial]);
    const zero = await version(0, token);
    expect(zero).toEqual({ ...initial, previousVersion: null, changes: null, document: await program(token) });

    await ok('PUT', '/admin/site', token, { name: 'Renamed', timezone: 'UTC' });
    expect((await versions(token)).map((v) => v.version)).toEqual([1, 0]);
    expect((await versions(token))[1]).toEqual(initial);
    expect((await version(0, token)).document).toEqual(zero.document);
  });

  it('keeps a version for PUT /admin/program: its client, when, and what it changed per collection', async () => {
    const started = Date.now();
    const put = await ok('PUT', '/admin/program', admin, EXAMPLE);
    const current = (await row()).version;
    const [newest] = await versions();
    expect(newest).toEqual({
      version: current,
      changedAt: expect.any(String),
      changedBy: site.admin.clientId,
      restoredFrom: null,
      summary: expect.objectContaining({
        missions: { added: EXAMPLE.missions.length, changed: 0, removed: 0, reordered: false },
        actions: { added: EXAMPLE.actions.length, changed: 0, removed: 0, reordered: false },
        site: { added: 0, changed: 1, removed: 0, reordered: false },
      }),
    });
    expect(Date.parse(newest.changedAt)).toBeGreaterThanOrEqual(started - 1);
    expect(Date.parse(newest.changedAt)).toBeLessThanOrEqual(Date.now());
    const detail = await version(current);
    const { webhookSecret: _masked, ...site_ } = put.json().response.site;
    expect(detail.document).toEqual({ ...put.json().response, site: site_ });
    expect(detail.previousVersion).toBe(current - 1);
  });

  it('keeps versions for entity routes with the client that made each, and the diff as a per-entity JSON Patch', async () => {
    await ok('PUT', '/admin/program', admin, EXAMPLE);
    const other = await t.app.services.sites.createClient(site.siteId, 'admin');
    const otherToken = await t.token(other);
    const chef = structuredClone(EXAMPLE.missions.find((m: Loose) => m.id === 'm-chef'));
    chef.rules[0].goal = 7;
    chef.name = 'Chef, again';
    await ok('PUT', '/admin/challenges/m-chef', otherToken, chef);
    await ok('POST', '/admin/badges', admin, { id: 'b-new', name: 'New badge' });
    await ok('DELETE', `/admin/levels/${EXAMPLE.levels[0].id}`, admin);

    const [deleted, badge, edited] = await versions();
    expect([deleted.changedBy, badge.changedBy, edited.changedBy]).toEqual([site.admin.clientId, site.admin.clientId, other.clientId]);
    expect([edited.summary, badge.summary, deleted.summary]).toEqual([
      { missions: { added: 0, changed: 1, removed: 0, reordered: false } },
      { badges: { added: 1, changed: 0, removed: 0, reordered: false } },
      { levels: { added: 0, changed: 0, removed: 1, reordered: false } },
    ]);

    const detail = await version(edited.version);
    expect(detail.previousVersion).toBe(edited.version - 1);
    expect(detail.changes).toEqual([{ part: 'missions', id: 'm-chef', change: 'changed', patch: expect.any(Array) }]);
    const previous = await version(edited.version - 1);
    const before = structuredClone(previous.document.missions.find((m: Loose) => m.id === 'm-chef'));
    expect(applyPatch(before, detail.changes[0].patch as Operation[]).every((error) => error === null)).toBe(true);
    expect(before).toEqual(detail.document.missions.find((m: Loose) => m.id === 'm-chef'));
    expect(detail.changes[0].patch).toContainEqual({ op: 'replace', path: '/rules/0/goal', value: 7 });

    expect((await version(badge.version)).changes).toEqual([{ part: 'badges', id: 'b-new', change: 'added', after: { id: 'b-new', name: 'New badge' } }]);
    expect((await version(deleted.version)).changes).toEqual([
      { part: 'levels', id: EXAMPLE.levels[0].id, change: 'removed', before: expect.objectContaining(EXAMPLE.levels[0]) },
    ]);
  });

  it('keeps a version for a backup restore, by the client that restored it', async () => {
    await ok('PUT', '/admin/program', admin, EXAMPLE);
    const renamed = validateProgram({ ...EXAMPLE, site: { ...EXAMPLE.site, name: 'Restored name' } });
    const restore = await ok('POST', '/restore', admin, { type: '1', data: programToXml(renamed) });
    const [newest] = await versions();
    expect(newest).toMatchObject({ version: restore.json().response.version, changedBy: site.admin.clientId, restoredFrom: null });
    expect(newest.summary).toEqual({ site: { added: 0, changed: 1, removed: 0, reordered: false } });
    expect((await version(newest.version)).changes).toEqual([
      { part: 'site', id: null, change: 'changed', patch: [{ op: 'replace', path: '/name', value: 'Restored name' }] },
    ]);
  });

  it('keeps a version for `questline program put`, made by `cli`', async () => {
    const { out } = capture();
    const file = join(mkdtempSync(join(tmpdir(), 'questline-versions-')), 'program.json');
    writeFileSync(file, JSON.stringify({ ...EXAMPLE, site: { ...EXAMPLE.site, name: 'From the CLI' } }));
    await captured(() => run(['program', 'put', '--site', site.siteId, file, '--json'], t.config, out));
    vi.restoreAllMocks();
    const [newest] = await versions();
    expect(newest).toMatchObject({ version: (await row()).version, changedBy: 'cli' });
    expect((await version(newest.version)).document.site.name).toBe('From the CLI');
  });

  it('keeps no version for a webhook endpoint change (the document is the same); the next diff is against the version kept before', async () => {
    await ok('PUT', '/admin/program', admin, EXAMPLE);
    const before = (await row()).version;
    await ok('POST', '/admin/webhook-endpoints', admin, { url: 'https://hooks.example.com/v', eventTypes: ['badge.earned'] });
    expect((await row()).version).toBe(before + 1);
    expect((await versions())[0].version).toBe(before);
    await expectProblem(await call('GET', `/admin/program/versions/${before + 1}`), 404, 'not_found');
    await ok('PUT', '/admin/site', admin, { ...(await program()).site, name: 'After endpoints' });
    const [newest] = await versions();
    expect(newest.version).toBe(before + 2);
    expect((await version(newest.version)).previousVersion).toBe(before);
  });

  it('never keeps the webhook secret in a version, and a restore keeps the current secret', async () => {
    await ok('PUT', '/admin/program', admin, EXAMPLE);
    const rows = await kept();
    expect(rows.length).toBeGreaterThan(1);
    for (const r of rows) expect(r.document).not.toContain(SECRET);
    const { version: current } = await row();
    const read = await call('GET', `/admin/program/versions/${current}`);
    expect(read.body).not.toContain(SECRET);
    expect(read.body).not.toContain(SECRET.slice(-4));
    await ok('POST', `/admin/program/versions/${current}/restore`);
    expect((await row()).webhook_secret).toBe(SECRET);
  });

  it('pages the list newest first with X-Total-Count', async () => {
    const total = (await kept()).length;
    const all = await call('GET', '/admin/program/versions?limit=500');
    expect(all.headers['x-total-count']).toBe(String(total));
    const numbers = (all.json().response as Loose[]).map((v) => v.version);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(numbers.at(-1)).toBe(0);
    const page = await call('GET', '/admin/program/versions?limit=2&offset=1');
    expect(page.headers['x-total-count']).toBe(String(total));
    expect((page.json().response as Loose[]).map((v) => v.version)).toEqual(numbers.slice(1, 3));
  });

  describe('restoring a version', () => {
    let appToken: string;
    const log = (userId: string) => call('POST', `/users/${userId}/actions`, appToken, { action: 'play' });
    const progress = () =>
      t.database.db.selectFrom('mission_progress').select(['party_id', 'rule_id', 'current']).where('site_id', '=', site.siteId).orderBy('party_id').execute();

    beforeAll(async () => {
      appToken = await t.token(site.app);
    });

    it("makes the version's document the program again: a new version, progress on removed rules archived as any change", async () => {
      await ok('PUT', '/admin/program', admin, playWith('r-a'));
      const first = (await row()).version;
      await ok('PUT', '/admin/program', admin, playWith('r-b'));
      for (const user of ['ann', 'bob']) expect((await log(user)).statusCode).toBe(201);
      expect(await progress()).toEqual([
        { party_id: 'ann', rule_id: 'r-b', current: 1 },
        { party_id: 'bob', rule_id: 'r-b', current: 1 },
      ]);
      const current = (await row()).version;

      const restore = await ok('POST', `/admin/program/versions/${first}/restore`);
      expect(restore.headers['questline-progress-archived']).toBe('parties=2, rows=2');
      expect(restore.json().response).toEqual(await program());
      expect((await program()).missions[0].rules[0].id).toBe('r-a');
      expect((await row()).version).toBe(current + 1);
      expect((await version(current + 1)).document).toEqual((await version(first)).document);
      expect((await versions())[0]).toMatchObject({ version: current + 1, changedBy: site.admin.clientId, restoredFrom: first });
      expect(await progress()).toEqual([]);
      const archived = await t.database.db
        .selectFrom('mission_progress_archive')
        .select(['party_id', 'rule_id', 'program_version'])
        .where('site_id', '=', site.siteId)
        .orderBy('party_id')
        .execute();
      expect(archived).toEqual([
        { party_id: 'ann', rule_id: 'r-b', program_version: current + 1 },
        { party_id: 'bob', rule_id: 'r-b', program_version: current + 1 },
      ]);
      // The engine runs on the restored program at once.
      expect((await log('ann')).statusCode).toBe(201);
      expect(await progress()).toEqual([{ party_id: 'ann', rule_id: 'r-a', current: 1 }]);
    });

    it('restores version 0, the initial program', async () => {
      const fresh = await t.createSite();
      const token = await t.token(fresh.admin);
      const initial = await program(token);
      await ok('PUT', '/admin/program', token, EXAMPLE);
      const restored = await ok('POST', '/admin/program/versions/0/restore', token);
      expect(restored.json().response).toEqual({ ...initial, site: { ...initial.site, webhookSecret: expect.stringMatching(/^\*\*\*\*/) } });
      expect((await versions(token))[0]).toMatchObject({ version: 2, restoredFrom: 0 });
    });

    it('refuses a version that no longer validates (a callback URL now refused), changing nothing', async () => {
      // A node that allowed private networks kept a version with a private callback URL.
      const lenient = await buildApp({ ...t.config, webhookAllowPrivateNetworks: true }, { database: t.database });
      try {
        const privateUrl = { ...EXAMPLE, site: { ...EXAMPLE.site, achievementCallbackUrl: 'http://10.0.0.5/hook' } };
        const put = await lenient.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: privateUrl });
        expect(put.statusCode, put.body).toBe(200);
      } finally {
        await lenient.close();
      }
      const refusedVersion = (await row()).version;
      await ok('PUT', '/admin/program', admin, EXAMPLE);
      const [before, keptBefore, programBefore] = [await row(), await kept(), await program()];

      const refused = expectProblem(await call('POST', `/admin/program/versions/${refusedVersion}/restore`), 422, 'program_invalid');
      expect(refused.errors).toEqual([{ path: 'site.achievementCallbackUrl', message: expect.stringMatching(/refused/) }]);
      expect(await row()).toEqual(before);
      expect(await kept()).toEqual(keptBefore);
      expect(await program()).toEqual(programBefore);
    });

    it('answers 404 for a version the site did not keep, and 400 for one that is no version number', async () => {
      const { version: current } = await row();
      for (const v of [current + 1, 999_999]) {
        expectProblem(await call('GET', `/admin/program/versions/${v}`), 404, 'not_found');
        expectProblem(await call('POST', `/admin/program/versions/${v}/restore`), 404, 'not_found');
      }
      for (const v of ['abc', '-1', '1.5', '99999999999']) {
        expectProblem(await call('GET', `/admin/program/versions/${v}`), 400, 'validation_failed');
        expectProblem(await call('POST', `/admin/program/versions/${v}/restore`), 400, 'validation_failed');
      }
      for (const query of ['limit=0', 'limit=501', 'offset=-1']) expectProblem(await call('GET', `/admin/program/versions?${query}`), 400, 'validation_failed');
      expect((await row()).version).toBe(current);
    });
  });

  describe('security', () => {
    const routes: Array<['GET' | 'POST', string]> = [
      ['GET', '/admin/program/versions'],
      ['GET', '/admin/program/versions/1'],
      ['POST', '/admin/program/versions/1/restore'],
    ];

    it.each(routes)('%s %s needs a token, a valid one, and an admin client token', async (method, url) => {
      const before = await row();
      expectProblem(await call(method, url, null), 401, 'missing_token');
      expectProblem(await call(method, url, 'not-a-token'), 401, 'invalid_token');
      expectProblem(await call(method, url, await t.token(site.admin, 'ann')), 403, 'forbidden');
      expectProblem(await call(method, url, await t.token(site.app)), 403, 'forbidden');
      expect(await row()).toEqual(before);
    });

    it("another site's admin reads and restores only its own versions: this site's are not found", async () => {
      const other = await t.createSite();
      const otherAdmin = await t.token(other.admin);
      const { version: current } = await row();
      expect((await versions(otherAdmin)).map((v) => v.version)).toEqual([0]);
      const before = [await row(), await kept()];
      expectProblem(await call('GET', `/admin/program/versions/${current}`, otherAdmin), 404, 'not_found');
      expectProblem(await call('POST', `/admin/program/versions/${current}/restore`, otherAdmin), 404, 'not_found');
      expect([await row(), await kept()]).toEqual(before);
      expect(await kept(other.siteId)).toEqual([]);
    });
  });
});
