// The `questline` command: run() in-process on both configurations, cli() for exit codes, and one
// end-to-end run of src/cli/main.ts as a subprocess.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli, run } from '../../src/cli/index.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/index.js';
import { AppError } from '../../src/errors.js';
import { verifySecret } from '../../src/modules/sites/secrets.js';
import { configurations, freshDatabase, testConfig } from '../helpers/app.js';
import { capture } from '../helpers/cli.js';

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
    const site = await json<{ siteId: string; timezone: string }>('site', 'create', '--name', 'Seattle', '--id', 'seattle', '--timezone', 'Pacific Standard Time');
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
        'client', 'create', '--site', 'acme', '--role', 'admin',
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

  it('reports an up-to-date database on migrate', async () => {
    expect(await json('migrate')).toEqual({ applied: [] });
  });

  it.each([
    [['frobnicate'], /Unknown command "frobnicate"/],
    [['site', 'explode'], /Unknown command "site explode"/],
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

  it.each([
    [['frobnicate', '--json']],
    [['client', 'create', '--site', 'x', '--json']],
    [['site', 'list', '--bogus']],
  ])('exits 2 on the usage error %j', async (argv) => {
    silence();
    expect(await cli(argv)).toBe(2);
    expect(written.join('')).toContain('Usage: questline');
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

  it('exits 1 with a JSON error for an unknown site', async () => {
    const result = await questline('client', 'create', '--site', 'nope', '--role', 'app', '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ error: 'not_found', message: expect.stringContaining('nope') });
    expect(result.stderr).toContain('questline:');
  });
});
