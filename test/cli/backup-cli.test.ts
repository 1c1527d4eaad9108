// `questline backup` and `questline restore` in-process on both configurations (SPEC §1 progress on
// the CLI, §13), and the demo site that `npm start` creates on an empty database (SPEC §3).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/index.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/index.js';
import { AppError } from '../../src/errors.js';
import { xmlToProgram } from '../../src/modules/backup/xml.js';
import { validateProgram } from '../../src/modules/program/validate.js';
import { DEMO_PROGRAM_FILE, ensureDemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, configurations, freshDatabase, testConfig, type TestApp } from '../helpers/app.js';
import { capture, captured, rejectionOf } from '../helpers/cli.js';

const DEMO_XML = readFileSync(new URL('../../examples/demo-program.xml', import.meta.url), 'utf8');
const DEMO = validateProgram(xmlToProgram(DEMO_XML));

describe.each(configurations)('questline backup and restore (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let config: Config;
  let database: Database;
  let dir: string;
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  const backupOf = async (siteId: string) => (await captured(() => run(['backup', '--site', siteId], config, capture(false).out))).stdout;
  const versionOf = async (siteId: string) =>
    (await database.db.selectFrom('site_programs').select('version').where('site_id', '=', siteId).executeTakeFirst())?.version;

  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    config = testConfig(configuration, fresh.config);
    database = fresh.database;
    dir = mkdtempSync(join(tmpdir(), 'questline-backup-cli-'));
    const { printed, out } = capture(true);
    await run(['site', 'create', '--id', 'a', '--name', 'Site A', '--json'], config, out);
    expect(printed[0]?.result).toMatchObject({ siteId: 'a' });
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await fresh.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores a file, reporting each step on stderr', async () => {
    const { printed, out } = capture(false);
    const { stdout, stderr } = await captured(() => run(['restore', '--site', 'a', file('demo.xml', DEMO_XML)], config, out));
    expect(stderr.split('\n').filter((line) => line !== '')).toEqual([
      'restore: reading the document',
      'restore: parsed; validating the program',
      'restore: valid; applying in one transaction',
      'restore: applied',
    ]);
    expect(stdout).toBe('');
    expect(printed).toHaveLength(1);
    const human = printed[0]?.human ?? '';
    expect(
      human.startsWith(
        `Restored ${join(dir, 'demo.xml')} into site a: program version ${await versionOf('a')}, ${DEMO.missions.length} missions, ${DEMO.actions.length} actions; progress on removed rules archived for 0 users and groups; site settings changed: name "Site A" → "Questline demo", `,
      ),
      human,
    ).toBe(true);
    // The site settings the demo sets, with their values; the time zone is the site's already.
    expect(human).toContain('userlinkUrl unset → "http://127.0.0.1:3000/demo/people/{userId}"');
    expect(human).not.toContain('timezone');
  });

  it('prints the result as JSON with --json', async () => {
    const before = (await versionOf('a')) ?? 0;
    const { printed, out } = capture(true);
    const { stdout } = await captured(() => run(['restore', '--site', 'a', join(dir, 'demo.xml'), '--json'], config, out));
    expect(stdout).toBe('');
    expect(printed.map((p) => p.result)).toEqual([
      {
        siteId: 'a',
        version: before + 1,
        missions: DEMO.missions.length,
        actions: DEMO.actions.length,
        progressArchived: { parties: 0, rows: 0 },
        siteChanges: [],
      },
    ]);
    expect(DEMO.missions.length).toBeGreaterThan(5);
  });

  it('backs up the restored demo program byte for byte, on stdout', async () => {
    const { printed, out } = capture(false);
    const { stdout, stderr } = await captured(() => run(['backup', '--site', 'a'], config, out));
    expect(stdout).toBe(DEMO_XML);
    expect(stderr).toBe('');
    expect(printed).toEqual([]);
  });

  const invalid: Array<[string, string, string]> = [
    ['malformed XML', DEMO_XML.replace('</Missions>', '</Mission>'), 'malformed_xml'],
    ['an XXE document', '<!DOCTYPE Nitro [<!ENTITY x SYSTEM "file:///etc/passwd">]><Nitro><SiteConfiguration name="&x;"/></Nitro>', 'xml_forbidden'],
    ['an unknown element', DEMO_XML.replace('<Badges>', '<Trophies/><Badges>'), 'validation_failed'],
    ['a dangling reference', DEMO_XML.replace('action="complete_course"', 'action="graduate"'), 'program_invalid'],
    ['a program with no site name', DEMO_XML.replace(' name="Questline demo"', ''), 'validation_failed'],
  ];

  it.each(invalid)('refuses %s with an AppError and leaves the site unchanged', async (_name, content, code) => {
    expect(content).not.toBe(DEMO_XML);
    const version = await versionOf('a');
    const { printed, out } = capture(false);
    let error: Error | undefined;
    const { stderr } = await captured(async () => {
      error = await rejectionOf(run(['restore', '--site', 'a', file('invalid.xml', content)], config, out));
    });
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(code);
    expect(stderr).not.toContain('restore: applied');
    expect(printed).toEqual([]);
    expect(await versionOf('a')).toBe(version);
    expect(await backupOf('a')).toBe(DEMO_XML);
  });

  it('reports the XML location of a dangling reference', async () => {
    const error = await rejectionOf(
      captured(() =>
        run(
          ['restore', '--site', 'a', file('dangling.xml', DEMO_XML.replace('action="complete_course"', 'action="graduate"')), '--json'],
          config,
          capture(true).out,
        ),
      ),
    );
    const missionIndex = DEMO.missions.findIndex((m) => m.rules.some((r) => r.action === 'complete_course'));
    expect((error as AppError).options.errors).toEqual([
      { path: `SiteConfiguration/Missions/Mission[${missionIndex + 1}]/Rules/Rule[1]/@action`, message: 'action "graduate" does not exist' },
    ]);
  });

  it.each([[['backup', '--site', 'nowhere']], [['restore', '--site', 'nowhere', 'demo.xml']]])('answers not_found for an unknown site: %j', async (argv) => {
    const error = await rejectionOf(captured(() => run(argv, config, capture(false).out)));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('not_found');
    expect(error.message).toContain('nowhere');
    expect(await database.db.selectFrom('sites').select('site_id').where('site_id', '=', 'nowhere').executeTakeFirst()).toBeUndefined();
  });

  it.each([
    [['restore', '--site', 'a'], /restore needs the backup file/],
    [['restore', '--site', 'a', join(tmpdir(), 'nowhere', 'demo.xml')], /cannot read .*nowhere/],
    [['restore', '--site', 'a', tmpdir()], /cannot read/],
    [['import', '--site', 'a', tmpdir()], /cannot read/],
    [['restore', join('nowhere', 'demo.xml')], /--site is required/],
    [['backup'], /--site is required/],
  ])('refuses %j as a usage error', async (argv, message) => {
    const version = await versionOf('a');
    const error = await rejectionOf(captured(() => run(argv, config, capture(false).out)));
    expect(error).not.toBeInstanceOf(AppError);
    expect(error.message).toMatch(message);
    expect(await versionOf('a')).toBe(version);
  });
});

describe.each(configurations)('the demo site (%s)', (configuration) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(configuration);
  });
  afterAll(async () => t.close());

  it('is created with the demo program on an empty database, and only then', async () => {
    expect(await t.app.services.sites.listSites()).toEqual([]);
    const demo = await ensureDemoSite(t.app.services.sites, t.app.services.backups);
    expect(demo).toMatchObject({ siteId: 'demo', admin: { siteId: 'demo', role: 'admin' }, app: { siteId: 'demo', role: 'app' } });
    if (demo === undefined) return;

    const response = await t.app.inject({ method: 'GET', url: '/challenges?limit=500', headers: { authorization: `Bearer ${await t.token(demo.app)}` } });
    expect(response.statusCode, response.body).toBe(200);
    const ids = (response.json() as { response: Array<{ id: string }> }).response.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['m-first-read', 'm-scholar']));
    expect(ids).toEqual(DEMO.missions.map((m) => m.id));
    expect(DEMO_PROGRAM_FILE).toBe(new URL('../../examples/demo-program.xml', import.meta.url).pathname);
    expect(await t.app.services.backups.backupXml('demo')).toBe(DEMO_XML);

    expect(await ensureDemoSite(t.app.services.sites, t.app.services.backups)).toBeUndefined();
    expect((await t.app.services.sites.listSites()).map((s) => s.site_id)).toEqual(['demo']);
    expect(await t.app.services.sites.listClients('demo')).toHaveLength(2);
  });
});
