// npm run bench: the performance groundwork figures, measured in one run on this machine.
// - HTTP: a bare Fastify route vs Questline's public route and token-authenticated path
//   (each server in its own process; autocannon, 50 connections, in this process).
// - Token verification: jose HS256 on every call vs Questline's verified-token cache.
// - SQLite through Kysely: the stock dialect (prepares every statement) vs the cached dialect,
//   with raw better-sqlite3 as the reference.
// Each micro-benchmark reports the median of 5 rounds.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Sqlite from 'better-sqlite3';
import { jwtVerify } from 'jose';
import { Kysely, SqliteDialect } from 'kysely';
import { CachedSqliteDialect } from '../src/db/sqlite-dialect.js';
import { TokenService } from '../src/modules/oauth/tokens.js';
import { randomActionBody } from './workload.js';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function opsPerSecond(run: () => Promise<unknown> | unknown, iterations: number): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await run();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rounds.push(iterations / seconds);
  }
  return median(rounds);
}

function startServer(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const match = /Server listening at (http:\/\/[\d.:]+)/.exec(output);
      if (match?.[1]) {
        clearInterval(poll);
        resolve({ child, url: match[1], output: () => output });
      }
      if (child.exitCode !== null) {
        clearInterval(poll);
        reject(new Error(output));
      }
    }, 50);
  });
}

async function load(url: string, headers: Record<string, string> = {}, actions?: { users: number }): Promise<{ rps: number; p50: number; p99: number }> {
  const result = await autocannon({
    url,
    connections: 50,
    duration: DURATION_SECONDS,
    headers,
    ...(actions !== undefined
      ? {
          method: 'POST' as const,
          requests: [
            {
              // A random user and action on every request.
              setupRequest: (request: autocannon.Request) => {
                const { userId, body } = randomActionBody(actions.users);
                return { ...request, path: `/users/${userId}/actions`, method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } };
              },
            },
          ],
        }
      : {}),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const rows: string[] = [];
const report = (name: string, value: string) => {
  rows.push(`| ${name} | ${value} |`);
  process.stdout.write(`${name}: ${value}\n`);
};

// --- HTTP -------------------------------------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), 'questline-bench-'));
try {
  const bare = await startServer(['bench/bare-server.ts'], {});
  const questline = await startServer(['bench/questline-server.ts'], {
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    CLIENT_RATE_LIMIT_RPS: '1000000',
    CLIENT_RATE_LIMIT_BURST: '1000000',
    REDIS_URL: '',
  });
  const client = /CLIENT (\S+) (\S+)/.exec(questline.output());
  if (!client?.[1] || !client[2]) throw new Error('no bench client printed');
  const tokenResponse = await fetch(`${questline.url}/oauth/token/`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client[1], client_secret: client[2] }),
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  // Interleaved rounds, so that a noisy neighbour slows every target alike; medians reported.
  const targets = {
    bare: () => load(`${bare.url}/bare`),
    public: () => load(`${questline.url}/health/live`),
    authenticated: () => load(`${questline.url}/bench/authenticated`, { authorization: `Bearer ${token}` }),
    actions: () => load(`${questline.url}/users/u/actions`, { authorization: `Bearer ${token}` }, { users: 10_000 }),
  };
  const results: Record<keyof typeof targets, Array<{ rps: number; p50: number; p99: number }>> = { bare: [], public: [], authenticated: [], actions: [] };
  for (let round = 0; round < 3; round++) {
    for (const name of Object.keys(targets) as Array<keyof typeof targets>) results[name].push(await targets[name]());
  }
  bare.child.kill('SIGTERM');
  questline.child.kill('SIGTERM');
  const summary = (name: keyof typeof targets) => ({
    rps: median(results[name].map((r) => r.rps)),
    p50: median(results[name].map((r) => r.p50)),
    p99: median(results[name].map((r) => r.p99)),
  });
  const bareResult = summary('bare');
  const describe = (r: { rps: number; p50: number; p99: number }) => `${Math.round(r.rps)} req/s (p50 ${r.p50} ms, p99 ${r.p99} ms)`;
  report('bare Fastify route', describe(bareResult));
  for (const [name, label] of [
    ['public', 'Questline GET /health/live'],
    ['authenticated', 'Questline token-authenticated route (auth + rate limit)'],
    ['actions', 'POST /users/{id}/actions, SQLite, 60 missions / 25 actions, 10,000 users'],
  ] as const) {
    const r = summary(name);
    report(label, `${describe(r)}, ${((r.rps / bareResult.rps) * 100).toFixed(0)}% of bare`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// --- Token verification ----------------------------------------------------------------------
const secret = 'bench-secret-0123456789abcdef0123456789abcdef';
const tokens = new TokenService(secret, 86_400);
const { token } = await tokens.issue({ siteId: 's', clientId: 'c', role: 'app', secretVersion: 1 });
const key = new TextEncoder().encode(secret);
const joseRate = await opsPerSecond(() => jwtVerify(token, key, { algorithms: ['HS256'] }), 5_000);
const cachedRate = await opsPerSecond(() => tokens.verify(token), 200_000);
report('token check: jose HS256 verify every time', `${Math.round(joseRate)} /s`);
report('token check: Questline verified-token cache', `${Math.round(cachedRate)} /s (${(cachedRate / joseRate).toFixed(0)}×)`);

// --- SQLite through Kysely -------------------------------------------------------------------
const sqliteDir = mkdtempSync(join(tmpdir(), 'questline-bench-sqlite-'));
try {
  const file = join(sqliteDir, 'b.db');
  const raw = new Sqlite(file);
  raw.pragma('journal_mode = WAL');
  raw.exec('create table t (site_id text, id integer, name text, primary key (site_id, id))');
  const insert = raw.prepare('insert into t values (?, ?, ?)');
  raw.transaction(() => {
    for (let i = 0; i < 10_000; i++) insert.run('s', i, `name ${i}`);
  })();
  interface Schema {
    t: { site_id: string; id: number; name: string };
  }
  const stock = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new Sqlite(file) }) });
  const cached = new Kysely<Schema>({ dialect: new CachedSqliteDialect(new Sqlite(file)) });
  const rawSelect = raw.prepare('select * from t where site_id = ? and id = ?');
  let i = 0;
  const rawRate = await opsPerSecond(() => rawSelect.get('s', (i++ * 7919) % 10_000), 100_000);
  const stockRate = await opsPerSecond(
    () => stock.selectFrom('t').selectAll().where('site_id', '=', 's').where('id', '=', (i++ * 7919) % 10_000).executeTakeFirst(),
    20_000,
  );
  const cachedRate2 = await opsPerSecond(
    () => cached.selectFrom('t').selectAll().where('site_id', '=', 's').where('id', '=', (i++ * 7919) % 10_000).executeTakeFirst(),
    20_000,
  );
  report('SQLite select by key: raw better-sqlite3', `${Math.round(rawRate)} /s`);
  report('SQLite select by key: Kysely stock dialect', `${Math.round(stockRate)} /s`);
  report('SQLite select by key: Kysely cached dialect', `${Math.round(cachedRate2)} /s (${(cachedRate2 / stockRate).toFixed(1)}× stock)`);
  await stock.destroy();
  await cached.destroy();
  raw.close();
} finally {
  rmSync(sqliteDir, { recursive: true, force: true });
}

process.stdout.write(`\n| measurement | result |\n|---|---|\n${rows.join('\n')}\n`);
