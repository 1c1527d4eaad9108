// `questline verify [--site SITE]` in-process on both configurations (SPEC §12: the ledger is the
// source of truth): a site with actions, an adjustment and a reversal verifies clean (exit 0, "No
// drift"); --json prints the report; a tampered balance is one DRIFT line and exit code 1; an
// unknown --site is not_found. cli() gives the exit codes and stdout of the real command.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { cli, run } from '../../src/cli/index.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/index.js';
import { AppError } from '../../src/errors.js';
import type { Reversal } from '../../src/modules/actions/reversal.js';
import type { ActionOutcome } from '../../src/modules/actions/service.js';
import type { VerifyReport } from '../../src/modules/verify/service.js';
import { configurations, freshDatabase, testConfig } from '../helpers/app.js';
import { exampleProgram } from '../helpers/fixtures.js';
import { capture, rejectionOf } from '../helpers/cli.js';

// Noon in New York on 2026-06-15, inside every mission's dates.
const START = Date.parse('2026-06-15T16:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);

describe.each(configurations)('questline verify (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let config: Config;
  let database: Database;
  let app: FastifyInstance;
  const siteId = 'acme';

  const db = () => database.db;
  const count = async (table: 'points_ledger' | 'mission_completions') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const balance = async (user: string, category: string) =>
    Number(
      (
        await db()
          .selectFrom('point_balances')
          .select('balance')
          .where('site_id', '=', siteId)
          .where('party_id', '=', user)
          .where('category', '=', category)
          .executeTakeFirstOrThrow()
      ).balance,
    );
  const bump = (user: string, category: string, by: number) =>
    db()
      .updateTable('point_balances')
      .set((eb) => ({ balance: eb('balance', '+', by) }))
      .where('site_id', '=', siteId)
      .where('party_id', '=', user)
      .where('category', '=', category)
      .execute();
  /** `questline verify …`: the exit code run() resolves with, and the one thing it printed. */
  const verify = async (...argv: string[]) => {
    const { printed, out } = capture(argv.includes('--json'));
    const code = await run(['verify', ...argv], config, out);
    expect(printed).toHaveLength(1);
    return { code: code ?? 0, human: printed[0]?.human as string, report: printed[0]?.result as VerifyReport };
  };

  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    config = testConfig(configuration, fresh.config);
    database = fresh.database;
    app = await buildApp(config, { database, clock });
    await app.services.sites.createSite({ siteId, name: 'Acme' });
    await app.services.sites.createSite({ siteId: 'empty', name: 'Empty' });
    const token = async (role: 'admin' | 'app') => {
      const client = await app.services.sites.createClient(siteId, role);
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/token/',
        payload: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret },
      });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { access_token: string }).access_token;
    };
    const admin = await token('admin');
    const client = await token('app');
    const call = async (method: 'PUT' | 'POST' | 'DELETE', url: string, bearer: string, payload?: Record<string, unknown>): Promise<LightMyRequestResponse> => {
      const response = await app.inject({ method, url, headers: { authorization: `Bearer ${bearer}` }, ...(payload !== undefined ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
      return response;
    };
    const log = async (user: string, body: Record<string, unknown>) =>
      (await call('POST', `/users/${user}/actions`, client, body)).json<{ response: ActionOutcome }>().response;

    await call('PUT', '/admin/program', admin, exampleProgram());
    // ann: m-first-read (10 Points), then m-chef (50 Points, 20 Coins), a login (2 Points) and 5 Points by hand.
    expect((await log('ann', { action: 'read_article' })).missionsCompleted.map((m) => m.id)).toEqual(['m-first-read']);
    await log('ann', { action: 'watch_video', metadata: { genre: 'cooking' } });
    await log('ann', { action: 'watch_video', metadata: { genre: 'cooking' } });
    expect((await log('ann', { action: 'read_article', metadata: { topic: 'recipe' } })).missionsCompleted.map((m) => m.id)).toEqual(['m-chef']);
    await log('ann', { action: 'login' });
    await call('POST', '/admin/users/ann/points', admin, { category: 'Points', amount: 5, reason: 'welcome' });
    // bob's first read is reversed: its completion and its 10 Points go.
    const read = await log('bob', { action: 'read_article' });
    const reversal = (await call('DELETE', `/users/bob/actions/${read.eventId}`, admin)).json<{ response: Reversal }>().response;
    expect(reversal.completionsRemoved.map((c) => c.id)).toEqual(['m-first-read']);
    expect(await balance('ann', 'Points')).toBe(67);
    expect(await balance('bob', 'Points')).toBe(0);
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await app.close();
    await fresh.drop();
  });

  it('finds no drift: exit code 0, a summary of what it checked and "No drift"', async () => {
    const { code, human } = await verify();
    expect(code).toBe(0);
    const lines = human.split('\n');
    expect(lines).toEqual([
      `Checked 2 sites: 2 users and groups, ${await count('points_ledger')} ledger entries, ${await count('mission_completions')} completions`,
      'No drift',
    ]);
    expect(await count('points_ledger')).toBe(7); // ann: 4 credits and the adjustment; bob: a credit and its reversal
  });

  it('prints the report of one site as JSON with --site and --json', async () => {
    const { code, report } = await verify('--site', siteId, '--json');
    expect(code).toBe(0);
    expect(JSON.parse(JSON.stringify(report))).toEqual({ sites: 1, checked: { parties: 2, ledgerEntries: 7, completions: 4 }, drift: [] });
    expect((await verify('--site', 'empty', '--json')).report).toEqual({ sites: 1, checked: { parties: 0, ledgerEntries: 0, completions: 0 }, drift: [] });
  });

  it('reports a tampered balance as one DRIFT line and exits 1; clean again once undone', async () => {
    await bump('ann', 'Points', 1);
    try {
      const { code, human } = await verify();
      expect(code).toBe(1);
      const lines = human.split('\n');
      expect(lines.filter((line) => line.startsWith('DRIFT'))).toEqual([`DRIFT ${siteId} balance user:ann: Points balance: expected 67, found 68`]);
      expect(lines.at(-1)).toBe('1 drift');
      expect(human).not.toContain('No drift');

      const json = await verify('--site', siteId, '--json');
      expect(json.code).toBe(1);
      expect(json.report.drift).toEqual([{ siteId, check: 'balance', subject: 'user:ann', detail: 'Points balance', expected: 67, actual: 68 }]);
      // The other site is not affected.
      expect((await verify('--site', 'empty')).code).toBe(0);
    } finally {
      await bump('ann', 'Points', -1);
    }
    expect(await verify()).toMatchObject({ code: 0, human: expect.stringMatching(/\nNo drift$/) });
  });

  it('refuses an unknown --site with not_found, checking nothing', async () => {
    const { printed, out } = capture(false);
    const error = await rejectionOf(run(['verify', '--site', 'nowhere'], config, out));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('not_found');
    expect(error.message).toContain('nowhere');
    expect(printed).toEqual([]);
  });

  it.runIf(configuration === 'embedded')('exits 0, then 1 on drift, through cli() with the report on stdout', async () => {
    if (config.database.kind !== 'sqlite') throw new Error('embedded runs on SQLite');
    vi.stubEnv('DATABASE_URL', `sqlite:${config.database.filename}`);
    vi.stubEnv('LOG_LEVEL', 'silent');
    vi.stubEnv('REDIS_URL', '');
    const written: string[] = [];
    const keep = (chunk: string | Uint8Array) => written.push(String(chunk)) > 0;
    const command = async (argv: string[]) => {
      written.length = 0;
      vi.spyOn(process.stdout, 'write').mockImplementation(keep);
      vi.spyOn(process.stderr, 'write').mockImplementation(keep);
      try {
        return await cli(argv);
      } finally {
        vi.restoreAllMocks();
      }
    };
    try {
      expect(await command(['verify', '--json'])).toBe(0);
      expect(JSON.parse(written.join(''))).toMatchObject({ sites: 2, drift: [] });

      await bump('ann', 'Coins', -3);
      expect(await command(['verify', '--site', siteId])).toBe(1);
      expect(written.join('')).toContain(`DRIFT ${siteId} balance user:ann: Coins balance: expected 20, found 17\n`);
      await bump('ann', 'Coins', 3);

      expect(await command(['verify', '--site', 'nowhere', '--json'])).toBe(1);
      expect(JSON.parse(written[0] ?? '')).toEqual({ error: 'not_found', message: expect.stringContaining('nowhere') });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
