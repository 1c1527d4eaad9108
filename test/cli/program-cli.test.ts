// `questline program get` and `questline program put` in-process on both configurations: what get
// prints, put loads (and so does a saved GET /admin/program answer); put validates like PUT
// /admin/program, all or nothing; Windows zone names are stored as IANA zones.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/index.js';
import { AppError } from '../../src/errors.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../helpers/app.js';
import { capture, captured, rejectionOf } from '../helpers/cli.js';
import { exampleProgram } from '../helpers/fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
const EXAMPLE = exampleProgram<Loose>();
const graduating = structuredClone(EXAMPLE);
graduating.missions[0].rules[0].action = 'graduate';

describe.each(configurations)('questline program get and put (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let dir: string;
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const versionOf = async (siteId = site.siteId) =>
    (await t.database.db.selectFrom('site_programs').select('version').where('site_id', '=', siteId).executeTakeFirst())?.version;

  /** What `program get` prints without --json (human) and with it (the result). */
  async function get(siteId = site.siteId): Promise<{ human: string; result: Loose; stdout: string }> {
    const { printed, out } = capture(false);
    const { stdout } = await captured(() => run(['program', 'get', '--site', siteId], t.config, out));
    expect(printed).toHaveLength(1);
    return { human: printed[0]?.human ?? '', result: printed[0]?.result, stdout };
  }

  async function put(path: string, json = true): Promise<{ human: string; result: Loose }> {
    const { printed, out } = capture(json);
    await captured(() => run(['program', 'put', '--site', site.siteId, path, ...(json ? ['--json'] : [])], t.config, out));
    expect(printed).toHaveLength(1);
    return { human: printed[0]?.human ?? '', result: printed[0]?.result };
  }

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    admin = await t.token(site.admin);
    dir = mkdtempSync(join(tmpdir(), 'questline-program-cli-'));
    const response = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: EXAMPLE });
    expect(response.statusCode, response.body).toBe(200);
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the program as GET /admin/program reads it, as indented JSON', async () => {
    const http = await t.app.inject({ method: 'GET', url: '/admin/program', headers: { authorization: `Bearer ${admin}` } });
    const { human, result, stdout } = await get();
    expect(result).toEqual((http.json() as { response: unknown }).response);
    expect(human).toBe(JSON.stringify(result, null, 2));
    expect(result.site.webhookSecret).toMatch(/^\*\*\*\*/);
    expect(stdout).toBe('');
  });

  it('loads what get printed: a new version, the same program, the webhook secret kept', async () => {
    const saved = file('program.json', `${(await get()).human}\n`);
    const before = await versionOf();
    const secret = async () =>
      (await t.database.db.selectFrom('site_programs').select('webhook_secret').where('site_id', '=', site.siteId).executeTakeFirstOrThrow()).webhook_secret;
    const secretBefore = await secret();
    const { human, result } = await put(saved, false);
    expect(result).toEqual({
      siteId: site.siteId,
      version: (before ?? 0) + 1,
      missions: EXAMPLE.missions.length,
      actions: EXAMPLE.actions.length,
      progressArchived: { parties: 0, rows: 0 },
    });
    expect(human).toBe(
      `Loaded ${saved} into site ${site.siteId}: program version ${(before ?? 0) + 1}, ${EXAMPLE.missions.length} missions, ${EXAMPLE.actions.length} actions; progress on removed rules archived for 0 users and groups`,
    );
    expect(await versionOf()).toBe((before ?? 0) + 1);
    expect(await secret()).toBe(secretBefore);
    expect((await get()).result).toEqual(JSON.parse(readFileSync(saved, 'utf8')));
  });

  it('loads a saved GET /admin/program answer ({"response": program}) as it is', async () => {
    const http = await t.app.inject({ method: 'GET', url: '/admin/program', headers: { authorization: `Bearer ${admin}` } });
    const answer = JSON.parse(http.body) as { response: Loose };
    answer.response.site.name = 'Renamed from a saved answer';
    answer.response.missions = answer.response.missions.slice(0, 1);
    const { result } = await put(file('answer.json', JSON.stringify(answer)));
    expect(result).toMatchObject({ missions: 1, actions: EXAMPLE.actions.length });
    const program = (await get()).result;
    expect(program.site.name).toBe('Renamed from a saved answer');
    expect(program.missions.map((m: { id: string }) => m.id)).toEqual([EXAMPLE.missions[0].id]);
    const row = await t.database.db.selectFrom('sites').select('name').where('site_id', '=', site.siteId).executeTakeFirstOrThrow();
    expect(row.name).toBe('Renamed from a saved answer');
  });

  it('stores a Windows zone name as its IANA zone', async () => {
    const program = structuredClone(EXAMPLE);
    program.site.timezone = 'Pacific Standard Time';
    program.missions[0].timezone = 'GMT Standard Time';
    await put(file('windows.json', JSON.stringify(program)));
    const read = (await get()).result;
    expect([read.site.timezone, read.missions[0].timezone]).toEqual(['America/Los_Angeles', 'Europe/London']);
    const row = await t.database.db.selectFrom('sites').select('timezone').where('site_id', '=', site.siteId).executeTakeFirstOrThrow();
    expect(row.timezone).toBe('America/Los_Angeles');
  });

  const invalid: Array<[string, string, string, Array<{ path: string; message: string }> | undefined]> = [
    [
      'a rule on an unknown action',
      JSON.stringify(graduating),
      'program_invalid',
      [{ path: 'missions.0.rules.0.action', message: 'action "graduate" does not exist' }],
    ],
    ['an unknown field', JSON.stringify({ ...EXAMPLE, theme: 'dark' }), 'validation_failed', [{ path: 'theme', message: 'is not a known field' }]],
    [
      'an unknown time zone in an envelope',
      JSON.stringify({ response: { ...EXAMPLE, site: { ...EXAMPLE.site, timezone: 'Mars/Olympus' } } }),
      'program_invalid',
      [{ path: 'site.timezone', message: expect.stringMatching(/unknown time zone "Mars\/Olympus"/) }],
    ],
    ['a file that is not JSON', '{"site": ', 'malformed_body', undefined],
  ];

  it.each(invalid)('refuses %s as PUT /admin/program does, and changes nothing', async (_name, content, code, errors) => {
    const before = await versionOf();
    const program = (await get()).result;
    const error = await rejectionOf(
      captured(() => run(['program', 'put', '--site', site.siteId, file('invalid.json', content)], t.config, capture(false).out)),
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(code);
    expect((error as AppError).options.errors).toEqual(errors);
    expect(await versionOf()).toBe(before);
    expect((await get()).result).toEqual(program);
    if (errors === undefined) return;
    const http = await t.app.inject({
      method: 'PUT',
      url: '/admin/program',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: content,
    });
    expect(http.json()).toMatchObject({ code, errors });
  });

  it.each([
    [['program', 'get'], /--site is required/],
    [['program', 'put', 'program.json'], /--site is required/],
    [['program', 'put', '--site', 'SITE'], /program put needs the JSON file/],
    [['program', 'put', '--site', 'SITE', join(tmpdir(), 'nowhere', 'program.json')], /cannot read/],
    [['program', 'delete', '--site', 'SITE'], /Unknown command "program delete"/],
  ])('refuses %j as a usage error', async (argv, message) => {
    const before = await versionOf();
    const error = await rejectionOf(
      captured(() =>
        run(
          argv.map((arg) => (arg === 'SITE' ? site.siteId : arg)),
          t.config,
          capture(false).out,
        ),
      ),
    );
    expect(await versionOf()).toBe(before);
    expect(error).not.toBeInstanceOf(AppError);
    expect(error.message).toMatch(message);
  });

  it.each([[['program', 'get', '--site', 'nowhere']], [['program', 'put', '--site', 'nowhere', 'program.json']]])(
    'answers not_found for an unknown site: %j',
    async (argv) => {
      const error = await rejectionOf(captured(() => run(argv, t.config, capture(false).out)));
      expect((error as AppError).code).toBe('not_found');
    },
  );
});
