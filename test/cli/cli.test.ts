// The `questline` command: run() in-process on both configurations, cli() for exit codes, and one
// end-to-end run of src/cli/main.ts as a subprocess.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli, run } from '../../src/cli/index.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/index.js';
import { AppError } from '../../src/errors.js';
import { verifySecret } from '../../src/modules/sites/client-secrets.js';
import { configurations, freshDatabase, testConfig } from '../helpers/app.js';
import { capture, captured } from '../helpers/cli.js';

const ROOT = new URL('../..', import.meta.url).pathname;

async function expectAppError(promise: Promise<unknown>, code: string): Promise<AppError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}

describe.each(configurations)('questline CLI (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let config: Config;
  let database: Database;

  /** Runs a command without --json: the text it printed, and what it wrote on stderr. */
  async function human(...argv: string[]): Promise<{ printed: string; stderr: string }> {
    const { printed, out } = capture(false);
    const { stderr } = await captured(() => run(argv, config, out));
    expect(printed).toHaveLength(1);
    return { printed: printed[0]?.human ?? '', stderr };
  }

  /** Runs a command with --json and returns the one document it printed. */
  async function json<T>(...argv: string[]): Promise<T> {
    const { printed, out } = capture();
    await run([...argv, '--json'], config, out);
    expect(printed).toHaveLength(1);
    return printed[0]?.result as T;
  }

  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    config = testConfig(configuration, fresh.config);
    database = fresh.database;
  });
  afterAll(async () => fresh.drop());

  it('creates a site', async () => {
    const site = await json('site', 'create', '--name', 'Acme Inc', '--id', 'acme');
    expect(site).toEqual({ siteId: 'acme', name: 'Acme Inc', timezone: 'America/Los_Angeles' });
    const row = await database.db.selectFrom('sites').selectAll().where('site_id', '=', 'acme').executeTakeFirst();
    expect(row).toMatchObject({ site_id: 'acme', name: 'Acme Inc', timezone: 'America/Los_Angeles' });
  });

  it('creates a site with a time zone and a generated id', async () => {
    const site = await json<{ siteId: string; timezone: string }>('site', 'create', '--name', 'Other', '--timezone', 'Europe/Paris');
    expect(site.siteId).toMatch(/^site-[0-9a-f]{8}$/);
    expect(site.timezone).toBe('Europe/Paris');
  });

  it('creates a site with a Windows zone name, storing its IANA zone', async () => {
    const site = await json<{ siteId: string; timezone: string }>(
      'site',
      'create',
      '--name',
      'Seattle',
      '--id',
      'seattle',
      '--timezone',
      'Pacific Standard Time',
    );
    expect(site).toEqual({ siteId: 'seattle', name: 'Seattle', timezone: 'America/Los_Angeles' });
    const row = await database.db.selectFrom('sites').select('timezone').where('site_id', '=', 'seattle').executeTakeFirstOrThrow();
    expect(row.timezone).toBe('America/Los_Angeles');
  });

  it('refuses a duplicate site id with conflict', async () => {
    await expectAppError(run(['site', 'create', '--name', 'Again', '--id', 'acme', '--json'], config, capture().out), 'conflict');
  });

  it('refuses an unknown time zone with validation_failed', async () => {
    const error = await expectAppError(
      run(['site', 'create', '--name', 'Mars', '--id', 'mars', '--timezone', 'Mars/Olympus_Mons'], config, capture().out),
      'validation_failed',
    );
    expect(error.options.errors?.map((e) => e.path)).toEqual(['timezone']);
    expect(await database.db.selectFrom('sites').select('site_id').where('site_id', '=', 'mars').executeTakeFirst()).toBeUndefined();
  });

  it('lists sites', async () => {
    const { sites } = await json<{ sites: { siteId: string; name: string; timezone: string }[] }>('site', 'list');
    expect(sites).toContainEqual({ siteId: 'acme', name: 'Acme Inc', timezone: 'America/Los_Angeles' });
    expect(sites).toHaveLength(3);
  });

  describe('clients', () => {
    let clientId: string;
    let secret: string;

    it('creates a client and stores its secret only as a scrypt hash', async () => {
      const created = await json<{ siteId: string; clientId: string; clientSecret: string; role: string }>(
        'client',
        'create',
        '--site',
        'acme',
        '--role',
        'admin',
      );
      expect(created).toEqual({ siteId: 'acme', clientId: expect.stringMatching(/^qlc_/), clientSecret: expect.stringMatching(/^qls_/), role: 'admin' });
      clientId = created.clientId;
      secret = created.clientSecret;
      const row = await database.db.selectFrom('clients').selectAll().where('client_id', '=', clientId).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ site_id: 'acme', role: 'admin', secret_version: 1, deleted_at: null });
      expect(row.secret_hash.startsWith('scrypt$')).toBe(true);
      expect(row.secret_hash).not.toContain(secret);
      expect(row.secret_hash).not.toContain(secret.slice(4));
      expect(await verifySecret(secret, row.secret_hash)).toBe(true);
    });

    it('prints the secret once in human output', async () => {
      const { printed, out } = capture(false);
      await run(['client', 'create', '--site', 'acme', '--role', 'app'], config, out);
      const result = printed[0]?.result as { clientSecret: string; clientId: string };
      expect(printed[0]?.human).toContain(result.clientSecret);
      expect(printed[0]?.human).toContain(result.clientId);
    });

    it('refuses a client for an unknown site with not_found', async () => {
      await expectAppError(run(['client', 'create', '--site', 'nope', '--role', 'app'], config, capture().out), 'not_found');
    });

    it('lists the clients of a site without secrets', async () => {
      const { clients } = await json<{ clients: Record<string, unknown>[] }>('client', 'list', '--site', 'acme');
      expect(clients).toHaveLength(2);
      expect(clients[0]).toEqual({ siteId: 'acme', clientId, role: 'admin', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });
      expect(JSON.stringify(clients)).not.toContain('qls_');
    });

    it('rotates a client to a new secret', async () => {
      const rotated = await json<{ clientId: string; clientSecret: string; siteId: string; role: string }>('client', 'rotate', '--client', clientId);
      expect(rotated).toMatchObject({ siteId: 'acme', clientId, role: 'admin' });
      expect(rotated.clientSecret).toMatch(/^qls_/);
      expect(rotated.clientSecret).not.toBe(secret);
      const row = await database.db.selectFrom('clients').selectAll().where('client_id', '=', clientId).executeTakeFirstOrThrow();
      expect(row.secret_version).toBe(2);
      expect(await verifySecret(rotated.clientSecret, row.secret_hash)).toBe(true);
      expect(await verifySecret(secret, row.secret_hash)).toBe(false);
    });

    it("sets a client's own request rate, and back to the configured default", async () => {
      expect(await json('client', 'rate', '--client', clientId, '--rate', '5', '--burst', '10')).toEqual({ clientId, rate: 5, burst: 10 });
      const row = await database.db.selectFrom('clients').selectAll().where('client_id', '=', clientId).executeTakeFirstOrThrow();
      expect([row.rate_limit_rps, row.rate_limit_burst]).toEqual([5, 10]);
      await expectAppError(run(['client', 'rate', '--client', clientId, '--rate', '0', '--burst', '10'], config, capture().out), 'validation_failed');
      expect(await json('client', 'rate', '--client', clientId, '--default')).toEqual({ clientId, rate: null, burst: null });
      await expectAppError(run(['client', 'rate', '--client', 'qlc_missing', '--default'], config, capture().out), 'not_found');
    });

    it('deletes a client; rotating or deleting it again is not_found', async () => {
      expect(await json('client', 'delete', '--client', clientId)).toEqual({ clientId, deleted: true });
      await expectAppError(run(['client', 'rotate', '--client', clientId], config, capture().out), 'not_found');
      await expectAppError(run(['client', 'delete', '--client', clientId], config, capture().out), 'not_found');
      const { clients } = await json<{ clients: { clientId: string }[] }>('client', 'list', '--site', 'acme');
      expect(clients.map((c) => c.clientId)).not.toContain(clientId);
      const row = await database.db.selectFrom('clients').select('deleted_at').where('client_id', '=', clientId).executeTakeFirstOrThrow();
      expect(row.deleted_at).not.toBeNull();
    });
  });

  it('counts in the singular when there is one: line, mission, point, action, site, user or group, completion', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'questline-cli-plural-'));
    try {
      await json('site', 'create', '--name', 'One of each', '--id', 'single');
      const program = {
        site: { name: 'One of each', timezone: 'UTC' },
        pointCategories: [{ name: 'Points', isDefault: true }],
        actions: [{ name: 'read' }],
        missions: [{ id: 'm-read', name: 'Read', rules: [{ id: 'r-1', action: 'read', goal: 1 }], rewards: { points: [{ category: 'Points', amount: 1 }] } }],
      };
      writeFileSync(join(dir, 'program.json'), JSON.stringify(program));
      const loaded = await human('program', 'put', '--site', 'single', join(dir, 'program.json'));
      expect(loaded.printed).toMatch(/: program version 1, 1 mission, 1 action; progress on removed rules archived for 0 users and groups$/);

      const lines = join(dir, 'one.ndjson');
      writeFileSync(lines, `${JSON.stringify({ userId: 'ann', action: 'read', timestamp: new Date(Date.now() - 60_000).toISOString() })}\n`);
      const imported = await human('import', '--site', 'single', lines);
      expect(imported.printed.split('\n').slice(0, 4)).toEqual([
        `Imported ${lines}: 1 line`,
        '  recorded            1 (1 mission completed, 1 point credited)',
        '  already recorded    0',
        '  suppressed          0 back-to-back repeats, 0 over a rate limit',
      ]);
      expect(imported.stderr).toMatch(/^import .*one\.ndjson: 100%: 1 line, 1 recorded, 0 duplicates, 0 rejected, \d+ lines\/s\n$/);

      const verified = await human('verify', '--site', 'single');
      expect(verified.printed).toBe('Checked 1 site: 1 user or group, 1 ledger entry, 1 completion\nNo drift');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports an up-to-date database on migrate', async () => {
    expect(await json('migrate')).toEqual({ applied: [] });
  });

  it.each([
    [['frobnicate'], /Unknown command "frobnicate"/],
    [['site', 'explode'], /Unknown command "site explode"/],
    // Names of Object's members are no commands either (the command table is a Map).
    [['constructor'], /Unknown command "constructor"/],
    [['toString'], /Unknown command "toString"/],
    [['client', 'create', '--site', 'acme'], /--role is required/],
    [['client', 'create', '--site', 'acme', '--role', 'root'], /--role must be admin or app/],
    [['client', 'rotate'], /--client is required/],
  ])('refuses %j as a usage error', async (argv, message) => {
    const error: unknown = await run(argv, config, capture().out).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AppError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('cli() exit codes', () => {
  let dir: string;
  const written: string[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'questline-cli-'));
    vi.stubEnv('DATABASE_URL', `sqlite:${join(dir, 'cli.db')}`);
    vi.stubEnv('LOG_LEVEL', 'silent');
    vi.stubEnv('REDIS_URL', '');
  });
  afterEach(() => {
    vi.restoreAllMocks();
    written.length = 0;
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  function silence(): void {
    const keep = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(keep);
    vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  }

  const POINTER = 'Run questline --help for every command and option.';

  it.each([
    [['frobnicate'], ['questline: Unknown command "frobnicate"', POINTER]],
    [
      ['client', 'create', '--site', 'x'],
      ['questline: --role is required', 'Usage: questline client create --site SITE --role admin|app', POINTER],
    ],
    [
      ['site', 'list', '--bogus'],
      ['questline: unknown option --bogus', 'Usage: questline site list', POINTER],
    ],
    [
      ['site', 'explode'],
      [
        'questline: Unknown command "site explode"',
        'Usage: questline site create --name NAME [--id ID] [--timezone TZ]',
        '       questline site list',
        POINTER,
      ],
    ],
    [
      ['restore', 'backup.xml'],
      ['questline: --site is required', 'Usage: questline restore --site SITE FILE', POINTER],
    ],
  ])("exits 2 on the usage error %j, printing the command's usage line, not the whole help", async (argv, lines) => {
    const stderr: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => stderr.push(String(chunk)) > 0);
    expect(await cli(argv)).toBe(2);
    expect(stderr.join('')).toBe(`${lines.join('\n')}\n`);
    expect(written).toEqual([]);
  });

  it('answers a usage error with --json as one JSON document, the message without the help', async () => {
    silence();
    expect(await cli(['client', 'create', '--site', 'x', '--json'])).toBe(2);
    expect(JSON.parse(written[0] ?? '')).toEqual({ error: 'usage', message: '--role is required' });
  });

  it('prints the whole help on stderr and exits 2 when no command is given; with --help on stdout, exit 0', async () => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => stdout.push(String(chunk)) > 0);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => stderr.push(String(chunk)) > 0);
    expect(await cli([])).toBe(2);
    expect(stdout).toEqual([]);
    const help = stderr.join('');
    expect(help).toMatch(/^Usage: questline <command> \[options\]\n/);
    expect(help).toContain('  program get --site SITE');
    stderr.length = 0;
    expect(await cli(['--help'])).toBe(0);
    expect(stdout.join('')).toBe(help);
    expect(stderr).toEqual([]);
  });

  it("documents in --help the site time zone's default and the Windows names it accepts", async () => {
    silence();
    expect(await cli(['--help'])).toBe(0);
    const help = written.join('');
    const site = help.slice(help.indexOf('  site create'), help.indexOf('  site list'));
    expect(site).toContain('America/Los_Angeles if not given');
    expect(site).toContain('"Pacific Standard Time"');
    expect(help).toMatch(/\n {2}program put --site SITE FILE {2,}replace the program with a JSON file/);
  });

  it("prints a malformed XML document's problem once, with its location once and no parser internals", async () => {
    silence();
    expect(await cli(['site', 'create', '--name', 'XML', '--id', 'xml'])).toBe(0);
    const mismatched = join(dir, 'mismatched.xml');
    writeFileSync(mismatched, '<Nitro>\n  <SiteConfiguration name="x">\n  </Configuration>\n</Nitro>\n');
    const truncated = join(dir, 'truncated.xml');
    writeFileSync(truncated, '<Nitro>\n  <SiteConfiguration name="x">\n    <Missions>\n');
    written.length = 0;
    expect(await cli(['restore', '--site', 'xml', mismatched])).toBe(1);
    expect(written.filter((line) => line.startsWith('questline:'))).toEqual([
      "questline: Malformed XML at line 3, column 3: Expected closing tag 'SiteConfiguration' (opened in line 2, col 3) instead of closing tag 'Configuration'.\n",
    ]);
    written.length = 0;
    expect(await cli(['restore', '--site', 'xml', truncated, '--json'])).toBe(1);
    expect(JSON.parse(written[0] ?? '')).toEqual({
      error: 'malformed_xml',
      message: 'Malformed XML at line 3, column 15: The document ends before <Missions>, <SiteConfiguration>, <Nitro> are closed.',
      errors: [{ path: 'line 3, column 15', message: 'The document ends before <Missions>, <SiteConfiguration>, <Nitro> are closed.' }],
    });
    expect(written.slice(1)).toEqual([
      'questline: Malformed XML at line 3, column 15: The document ends before <Missions>, <SiteConfiguration>, <Nitro> are closed.\n',
    ]);
  });

  it('prints each field error of a refused program put on a line of its own and exits 1; --json lists them', async () => {
    silence();
    const program = join(dir, 'program.json');
    writeFileSync(
      program,
      JSON.stringify({
        site: { name: 'P', timezone: 'Pacific Time' },
        pointCategories: [{ name: 'Points', isDefault: true }],
        missions: [{ id: 'm', name: 'M', rules: [{ id: 'r', action: 'fly', goal: 1 }] }],
      }),
    );
    expect(await cli(['site', 'create', '--name', 'P', '--id', 'p'])).toBe(0);
    written.length = 0;
    expect(await cli(['program', 'put', '--site', 'p', program])).toBe(1);
    expect(written.join('')).toBe(
      [
        'questline: The program breaks a rule',
        '  site.timezone: unknown time zone "Pacific Time": give an IANA name (America/New_York) or a Windows name (Eastern Standard Time)',
        '  missions.0.rules.0.action: action "fly" does not exist',
        '',
      ].join('\n'),
    );
    written.length = 0;
    expect(await cli(['program', 'put', '--site', 'p', program, '--json'])).toBe(1);
    expect(JSON.parse(written[0] ?? '')).toMatchObject({
      error: 'program_invalid',
      errors: [{ path: 'site.timezone' }, { path: 'missions.0.rules.0.action' }],
    });
  });

  it('exits 1 with a JSON error on an AppError', async () => {
    silence();
    expect(await cli(['client', 'rotate', '--client', 'qlc_missing', '--json'])).toBe(1);
    expect(JSON.parse(written[0] ?? '')).toEqual({ error: 'not_found', message: expect.stringContaining('qlc_missing') });
  });

  it('exits 1 on an invalid configuration', async () => {
    vi.stubEnv('PORT', 'eighty');
    silence();
    try {
      expect(await cli(['site', 'list', '--json'])).toBe(1);
      expect(JSON.parse(written[0] ?? '')).toMatchObject({ error: 'invalid_configuration' });
    } finally {
      vi.stubEnv('PORT', '');
    }
  });
});

describe('questline as a process', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'questline-cli-e2e-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function questline(...argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'e2e.db')}`, LOG_LEVEL: 'silent' };
    delete env.REDIS_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('creates a site and prints JSON', async () => {
    const result = await questline('site', 'create', '--name', 'Demo', '--id', 's1', '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ siteId: 's1', name: 'Demo', timezone: 'America/Los_Angeles' });
  });

  it('exits 2 with the usage on stderr when no command is given', async () => {
    const result = await questline();
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Usage: questline <command> \[options\]\n/);
  });

  it('exits 1 with a JSON error for an unknown site', async () => {
    const result = await questline('client', 'create', '--site', 'nope', '--role', 'app', '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ error: 'not_found', message: expect.stringContaining('nope') });
    expect(result.stderr).toContain('questline:');
  });
});
