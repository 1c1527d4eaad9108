// npm run bench: the performance groundwork figures, measured in one run on this machine.
// - HTTP: a bare Fastify route vs Questline's public route, token-authenticated path and action
//   logging (each server in its own process; autocannon, 50 connections, in this process); action
//   logging also on PostgreSQL + Redis with one node and with two (./postgres.ts); and the floors
//   under it: raw SQLite on Questline's schema with none of its code (./floor-server.ts).
// - Token verification: jose HS256 on every call vs Questline's verified-token cache.
// - SQLite through Kysely: the stock dialect (prepares every statement) vs the cached dialect,
//   with raw better-sqlite3 as the reference.
// Each micro-benchmark reports the median of 5 rounds.
// npm run bench leaderboards: the leaderboard figures instead (./leaderboards.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { jwtVerify } from 'jose';
import { Kysely, SqliteDialect } from 'kysely';
import { CachedSqliteDialect } from '../src/db/sqlite-dialect.js';
import { TokenService } from '../src/modules/oauth/tokens.js';
import { clientToken, describeLoad, interleaved, load, loadSpread, opsPerSecond, printReport, report, startServer, type LoadResult, type Server } from './harness.js';
import { benchPostgres } from './postgres.js';
import { randomActionBody } from './workload.js';

if (process.argv[2] === 'leaderboards') {
  await import('./leaderboards.js');
  process.exit(0);
}

// --- HTTP -------------------------------------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), 'questline-bench-'));
try {
  const bare = await startServer(['bench/bare-server.ts'], {});
  const floor = await startServer(['bench/floor-server.ts'], { FLOOR_DATABASE: join(dir, 'floor.db') });
  const questline = await startServer(['bench/questline-server.ts'], {
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    CLIENT_RATE_LIMIT_RPS: '1000000',
    CLIENT_RATE_LIMIT_BURST: '1000000',
    REDIS_URL: '',
  });
  // The same server with webhook delivery left to workers: what the in-server dispatcher costs.
  const withoutDispatcher = await startServer(['bench/questline-server.ts'], {
    DATABASE_URL: `sqlite:${join(dir, 'bench-no-dispatcher.db')}`,
    CLIENT_RATE_LIMIT_RPS: '1000000',
    CLIENT_RATE_LIMIT_BURST: '1000000',
    REDIS_URL: '',
    WEBHOOK_DISPATCHER: 'false',
  });
  // Two nodes of one site on PostgreSQL + Redis; with one node, the second idles.
  const postgres = await benchPostgres();
  const nodes: Server[] = [];
  if (postgres !== undefined) {
    const env = { DATABASE_URL: postgres.url, REDIS_URL: postgres.redisUrl, CLIENT_RATE_LIMIT_RPS: '1000000', CLIENT_RATE_LIMIT_BURST: '1000000' };
    nodes.push(await startServer(['bench/questline-server.ts'], env));
    const client = /CLIENT (\S+ \S+ \S+)/.exec((nodes[0] as Server).output())?.[1] as string;
    nodes.push(await startServer(['bench/questline-server.ts'], { ...env, BENCH_JOIN: client }));
  }
  if (postgres !== undefined) {
    // A site with some history, as PostgreSQL's statistics know it: a database never analyzed
    // plans the rate-limit count over the site's whole history (docs/deployment.md), which
    // autovacuum's first ANALYZE of a live database ends within a minute or two.
    const warm = { authorization: `Bearer ${(await clientToken(nodes[0] as Server)).token}` };
    await load((nodes[0] as Server).url, { headers: warm, request: actionRequest });
    await postgres.analyze();
  }
  const { token } = await clientToken(questline);
  const auth = { authorization: `Bearer ${token}` };
  const other = { authorization: `Bearer ${(await clientToken(withoutDispatcher)).token}` };
  const targets: Record<string, () => Promise<LoadResult>> = {
    bare: () => load(`${bare.url}/bare`),
    floorInsert: () => load(floor.url, { request: () => ({ path: '/insert', method: 'POST', body: '{}' }) }),
    floorAction: () => load(floor.url, { request: actionRequest }),
    public: () => load(`${questline.url}/health/live`),
    authenticated: () => load(`${questline.url}/bench/authenticated`, { headers: auth }),
    actions: () => load(questline.url, { headers: auth, request: actionRequest }),
    actionsWithoutDispatcher: () => load(withoutDispatcher.url, { headers: other, request: actionRequest }),
  };
  if (nodes.length > 0) {
    const onPostgres = { authorization: `Bearer ${(await clientToken(nodes[0] as Server)).token}` };
    targets.postgres1 = () => load((nodes[0] as Server).url, { headers: onPostgres, request: actionRequest });
    targets.postgres2 = () => loadSpread(nodes.map((node) => node.url), { headers: onPostgres, request: actionRequest });
  }
  // BENCH_ONLY=postgres1,actions measures those targets alone, and the bare route (while working on one figure; the report needs them all).
  const only = process.env.BENCH_ONLY?.split(',');
  if (only !== undefined) for (const name of Object.keys(targets)) if (name !== 'bare' && !only.includes(name)) delete targets[name];
  const measured = await interleaved(3, targets);
  const results = measured as typeof measured & Record<'bare', LoadResult>;
  await bare.stop();
  await floor.stop();
  await questline.stop();
  await withoutDispatcher.stop();
  for (const node of nodes) await node.stop();
  await postgres?.drop();
  report('bare Fastify route', describeLoad(results.bare));
  for (const [name, label] of [
    ['floorInsert', 'floor: one prepared SQLite insert per request (raw better-sqlite3, no Questline code)'],
    ['floorAction', "floor: a typical action's SQL statements in one transaction per request (raw better-sqlite3, no engine, no token)"],
    ['public', 'Questline GET /health/live'],
    ['authenticated', 'Questline token-authenticated route (auth + rate limit)'],
    ['actions', 'POST /users/{id}/actions, SQLite, 60 missions / 25 actions, 10,000 users'],
    ['actionsWithoutDispatcher', 'the same with WEBHOOK_DISPATCHER=false (delivery left to workers)'],
  ] as const) {
    const r: LoadResult | undefined = results[name];
    if (r !== undefined) report(label, `${describeLoad(r)}, ${((r.rps / results.bare.rps) * 100).toFixed(0)}% of bare`);
  }
  if (nodes.length === 0) {
    report('POST /users/{id}/actions, PostgreSQL + Redis', 'not measured: PostgreSQL is not installed (apt-get install postgresql redis-server)');
  } else {
    for (const [r, label] of [
      [results.postgres1, 'the same on PostgreSQL + Redis, 1 node'],
      [results.postgres2, 'the same on PostgreSQL + Redis, 2 nodes (25 connections each)'],
    ] as const) {
      if (r === undefined) continue;
      const vsSqlite = results.actions !== undefined ? `, ${(r.rps / results.actions.rps).toFixed(2)}× SQLite` : '';
      report(label, `${describeLoad(r)}, ${((r.rps / results.bare.rps) * 100).toFixed(0)}% of bare${vsSqlite}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function actionRequest(): { path: string; method: 'POST'; body: string } {
  const { userId, body } = randomActionBody(10_000);
  return { path: `/users/${userId}/actions`, method: 'POST', body };
}

if (process.env.BENCH_ONLY !== undefined) {
  printReport();
  process.exit(0);
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

printReport();
