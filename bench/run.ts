// npm run bench: Questline's figures, measured in one run on this machine, written to
// bench/REPORT.md (with bench/latency.svg) when every section ran:
// - action logging: a bare Fastify route vs Questline's public route, token-authenticated path
//   and action logging (each server in its own process; autocannon, 50 connections, in this
//   process), of workload (a), the benchmark program with returning users (./returning.ts), and
//   (b), points per action; (a) also with a busy loop taking a core, and on PostgreSQL + Redis
//   with one node and with two (./postgres.ts); and the floors under them: raw SQLite on
//   Questline's schema running each workload's statements with none of its code
//   (./floor-server.ts: (a) replays the statements Questline ran, ./floor-rounds.ts; (b) is
//   ./floor-points.ts); for (a) also raw PostgreSQL (./floor-postgres.ts);
// - the read endpoints (./reads.ts); leaderboards with 1,000,000 users, in-process and on Redis,
//   with the server's memory, a user's standing on Redis against raw Redis commands, and what
//   boards cost action logging (./leaderboards.ts); one action's cost as a user's history grows
//   (./history.ts);
// - the console's overview of 90 days over a site with 1,000,000 actions of history, on SQLite and
//   PostgreSQL (./analytics.ts);
// - one action's CPU split by phase, from a CPU profile of the server, on SQLite and on PostgreSQL
//   (./phases.ts), beside the figures measured before the write-path work (bench/phases-before.json);
// - micro-benchmarks: token verification (jose HS256 on every call vs Questline's verified-token
//   cache) and SQLite through Kysely (the stock dialect vs the cached one, raw better-sqlite3 as
//   the reference), the median of 5 rounds each.
// The report's first table is issue 24's targets, met or not, from the figures of those sections
// (./targets.ts); it is printed at the end of every run.
// BENCH_SECTIONS=actions,phases,reads,analytics,leaderboards,boards,engagement,history,micro runs some sections only, and
// BENCH_ONLY=postgres1,actions some action targets only (while working on one figure; the
// report needs them all, so neither writes it). BENCH_RETURNING_ACTIONS=n gives each user of
// workload (a) n past actions (3 by default).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { jwtVerify } from 'jose';
import { Kysely, SqliteDialect } from 'kysely';
import { CachedSqliteDialect } from '../src/db/sqlite-dialect.js';
import { TokenService } from '../src/modules/oauth/tokens.js';
import { FloorsOfA } from './floor-rounds.js';
import {
  clientToken,
  describeCpu,
  describeLoad,
  interleaved,
  load,
  loadSpread,
  median,
  opsPerSecond,
  printReport,
  report,
  section,
  sectionsMarkdown,
  startQuestline,
  startServer,
  withBusyLoop,
  type LoadResult,
  type Server,
} from './harness.js';
import { histogramSvg, type Series } from './histogram.js';
import { benchOverview, HISTORY_ACTIONS, OVERVIEW_TARGET_MS } from './analytics.js';
import { benchEngagementOnActions, cpuPerAction } from './engagement.js';
import { benchHistory } from './history.js';
import { AROUND, benchBoardReads, benchBoardsOnActions, USERS } from './leaderboards.js';
import { PHASES, timeByPhase, type CpuProfile, type Phase } from './phases.js';
import { benchPostgres, type BenchPostgres } from './postgres.js';
import { benchReads, READS } from './reads.js';
import { importReturningUsers } from './returning.js';
import { issue24Targets, targetsMarkdown, type Issue24Figures } from './targets.js';
import { pointsActionBody, randomActionBody } from './workload.js';

const ALL_SECTIONS = ['actions', 'phases', 'reads', 'analytics', 'leaderboards', 'boards', 'engagement', 'history', 'micro'] as const;
const chosen = process.env.BENCH_SECTIONS?.split(',') ?? [...ALL_SECTIONS];
const runs = (name: (typeof ALL_SECTIONS)[number]) => chosen.includes(name);
const complete = ALL_SECTIONS.every(runs) && process.env.BENCH_ONLY === undefined;
const startedAt = new Date();
/** The report's targets (issue 13): what was measured, against what, met or not. */
const targets: Array<{ target: string; measured: string; met: boolean }> = [];
/** What the sections measured for issue 24's targets (./targets.ts decides met or not). */
const figures: Issue24Figures = { sqliteCpu: {}, sqliteRps: {}, floorRps: {}, sqliteP99: {} };
/** Users of both workloads, and the past actions each user of workload (a) gets first (./returning.ts). */
const WORKLOAD_USERS = 10_000;
const RETURNING_ACTIONS = Number(process.env.BENCH_RETURNING_ACTIONS ?? 3);
const histogram: Series[] = [];

const dir = mkdtempSync(join(tmpdir(), 'questline-bench-'));
const postgres =
  runs('actions') || runs('phases') || runs('analytics') || runs('leaderboards') || runs('boards') || runs('engagement') ? await benchPostgres() : undefined;
try {
  if (runs('actions')) await actionLogging(postgres);
  if (runs('phases')) await actionPhases(postgres);
  if (runs('reads')) await readEndpoints();
  if (runs('analytics')) await overviewOverHistory(postgres);
  if (runs('leaderboards')) await leaderboardsAtScale(postgres);
  if (runs('boards')) await boardsOnActions(postgres?.redisUrl);
  if (runs('engagement')) await engagementOnActions(postgres);
  if (runs('history')) await historyCost();
  if (runs('micro')) await micro();
} finally {
  await postgres?.drop();
  rmSync(dir, { recursive: true, force: true });
}
printReport();
process.stdout.write(`\n## Targets (issue 24)\n\n${targetsMarkdown(issue24Targets(figures)).join('\n')}\n`);
if (complete) writeReport();

// --- Action logging ----------------------------------------------------------------------------
async function actionLogging(postgres: BenchPostgres | undefined): Promise<void> {
  // BENCH_ONLY=postgres1,actions measures those targets alone, and the bare route.
  const only = process.env.BENCH_ONLY?.split(',');
  const wanted = (...names: string[]) => only === undefined || names.some((name) => only.includes(name));
  const bare = await startServer(['bench/bare-server.ts'], {});
  // The floor of each workload, each in its own process and file; (a)'s starts from a trace of
  // Questline's (below), (b)'s from an empty database, as Questline's (b) does.
  const floorPoints = await startServer(['bench/floor-server.ts'], { FLOOR_DATABASE: join(dir, 'floor-points.db'), FLOOR_WORKLOAD: 'points' });
  const questline = await startQuestline(dir, 'bench');
  const questlinePoints = await startQuestline(dir, 'bench-points', { BENCH_PROGRAM: 'points' });
  // The same server with webhook delivery left to workers: what the in-server dispatcher costs.
  const withoutDispatcher = await startQuestline(dir, 'bench-no-dispatcher', { WEBHOOK_DISPATCHER: 'false' });
  // Two nodes of one site on PostgreSQL + Redis; with one node, the second idles.
  const nodes: Server[] = [];
  if (postgres !== undefined) {
    const env = { DATABASE_URL: postgres.url, REDIS_URL: postgres.redisUrl, CLIENT_RATE_LIMIT_RPS: '1000000', CLIENT_RATE_LIMIT_BURST: '1000000' };
    nodes.push(await startServer(['bench/questline-server.ts'], env));
    const client = /CLIENT (\S+ \S+ \S+)/.exec((nodes[0] as Server).output())?.[1] as string;
    nodes.push(await startServer(['bench/questline-server.ts'], { ...env, BENCH_JOIN: client }));
  }
  // Workload (a) is of returning users: each has a history, imported before anything is measured,
  // into every server of (a) that is measured (the two PostgreSQL nodes share one database), which
  // also leaves their state in that server's cache, as a server running for a while holds it. The
  // imports run at once: they are CPU-bound, in different processes.
  const floorsOfA = ['floorInsert', 'floorAction', 'floorPostgres', 'floorPostgresBatched'];
  // Those replay Questline's rounds of (a), which therefore run too.
  if (only !== undefined && wanted('floorAction', 'floorPostgres', 'floorPostgresBatched') && !only.includes('actions')) only.push('actions');
  const returning = [
    ...(wanted('actions', 'actionsBusy', ...floorsOfA) ? [['SQLite', questline] as const] : []),
    ...(wanted('actionsWithoutDispatcher') ? [['SQLite without the dispatcher', withoutDispatcher] as const] : []),
    ...(nodes.length > 0 && wanted('postgres1', 'postgres2') ? [['PostgreSQL', nodes[0] as Server] as const] : []),
  ];
  const imported = await Promise.all(
    returning.map(async ([label, server]) => [label, await importReturningUsers(server, WORKLOAD_USERS, RETURNING_ACTIONS)] as const),
  );
  if (nodes.length > 0 && postgres !== undefined && wanted('postgres1', 'postgres2')) {
    // A site with some history, as PostgreSQL's statistics know it: a database never analyzed
    // plans the rate-limit count over the site's whole history (docs/deployment.md), which
    // autovacuum's first ANALYZE of a live database ends within a minute or two.
    const warm = { authorization: `Bearer ${(await clientToken(nodes[0] as Server)).token}` };
    await load((nodes[0] as Server).url, { headers: warm, request: actionRequest });
    await postgres.analyze();
  }
  const auth = { authorization: `Bearer ${(await clientToken(questline)).token}` };
  // The floors of (a) replay what the SQLite server of (a) runs in its measured rounds, from copies
  // of its database as it is now, once its users have their history (./floor-rounds.ts).
  const floors = wanted(...floorsOfA)
    ? await FloorsOfA.start(dir, questline, join(dir, 'bench.db'), wanted('floorPostgres', 'floorPostgresBatched') ? postgres : undefined)
    : undefined;
  const other = { authorization: `Bearer ${(await clientToken(withoutDispatcher)).token}` };
  const onPoints = { authorization: `Bearer ${(await clientToken(questlinePoints)).token}` };
  // Every latency of the measured rounds, for the histogram picture.
  const samples = { actions: [] as number[], postgres1: [] as number[] };
  // The CPU each request costs the server's process (and PostgreSQL's and Redis's), besides its throughput.
  const of = (...servers: Server[]) => ({ server: () => servers.map((server) => server.child.pid as number) });
  const withPostgres = (...servers: Server[]) => ({ ...of(...servers), PostgreSQL: () => postgres?.pids() ?? [], Redis: () => postgres?.redisPids() ?? [] });
  const measured: Record<string, () => Promise<LoadResult>> = {
    bare: () => load(`${bare.url}/bare`, { cpu: of(bare) }),
    ...(floors !== undefined
      ? { floorInsert: () => load(floors.sqlite.url, { request: () => ({ path: '/insert', method: 'POST', body: '{}' }), cpu: of(floors.sqlite) }) }
      : {}),
    floorPoints: () => load(floorPoints.url, { request: pointsRequest, cpu: of(floorPoints) }),
    public: () => load(`${questline.url}/health/live`, { cpu: of(questline) }),
    authenticated: () => load(`${questline.url}/bench/authenticated`, { headers: auth, cpu: of(questline) }),
    actions: async () => {
      // What Questline logged since its last measured round, and then in this one, each apart (./floor-rounds.ts).
      await floors?.take(false);
      const round = await load(questline.url, { headers: auth, request: actionRequest, samples: samples.actions, cpu: of(questline) });
      await floors?.take(true);
      return round;
    },
    // The same actions, replayed: right after Questline's round, so that both run the same statements.
    ...(floors !== undefined ? { floorAction: () => floors.sqliteRound({ request: actionRequest, cpu: of(floors.sqlite) }) } : {}),
    // The same server while a busy loop takes one of the cores (its CPU is not the server's).
    actionsBusy: () => withBusyLoop(() => load(questline.url, { headers: auth, request: actionRequest, cpu: of(questline) })),
    points: () => load(questlinePoints.url, { headers: onPoints, request: pointsRequest, cpu: of(questlinePoints) }),
    actionsWithoutDispatcher: () => load(withoutDispatcher.url, { headers: other, request: actionRequest, cpu: of(withoutDispatcher) }),
  };
  // Queries the first node sent per action, each round (GET /bench/queries counts every query a pg client sends).
  const roundTrips: number[] = [];
  if (nodes.length > 0) {
    const onPostgres = { authorization: `Bearer ${(await clientToken(nodes[0] as Server)).token}` };
    measured.postgres1 = async () => {
      const before = await counter(nodes[0] as Server);
      const round = await load((nodes[0] as Server).url, {
        headers: onPostgres,
        request: actionRequest,
        samples: samples.postgres1,
        cpu: withPostgres(nodes[0] as Server),
      });
      roundTrips.push(((await counter(nodes[0] as Server)) - before) / round.requests);
      return round;
    };
    measured.postgres2 = () =>
      loadSpread(
        nodes.map((node) => node.url),
        { headers: onPostgres, request: actionRequest, cpu: withPostgres(...nodes) },
      );
  }
  if (floors?.postgres !== undefined) {
    // Its node, and PostgreSQL (no Redis: the floor has none).
    const cpu = { server: () => [floors.postgres?.child.pid as number], PostgreSQL: () => postgres?.pids() ?? [] };
    measured.floorPostgres = () => floors.postgresRound(false, { request: actionRequest, cpu });
    measured.floorPostgresBatched = () => floors.postgresRound(true, { request: actionRequest, cpu });
  }
  if (only !== undefined) for (const name of Object.keys(measured)) if (name !== 'bare' && !only.includes(name)) delete measured[name];
  const results = (await interleaved(3, measured)) as Record<string, LoadResult | undefined> & { bare: LoadResult };
  const faithful = await floors?.faithful();
  await Promise.all([bare, floorPoints, questline, questlinePoints, withoutDispatcher, ...nodes].map((server) => server.stop()));
  await floors?.stop();

  const importTimes = imported.map(([label, i]) => `${label} ${count(i.seconds)} s (${count(i.lines / i.seconds)} lines/s)`).join(', ');
  section(
    'Action logging',
    `Workload (a): POST /users/{id}/actions with the benchmark program (bench/workload.ts: 25 actions, 60 missions with count and sum rules, metadata conditions, repeat windows, a group prerequisite and multipliers, two point categories with caps, levels and badges): a random action of the mix for a random user of ${count(WORKLOAD_USERS)} each request, 50 connections. Its users are returning ones: before anything is measured, each gets ${RETURNING_ACTIONS} past actions of the mix at random times of the past 14 days through POST /admin/import (bench/returning.ts; ${count(WORKLOAD_USERS * RETURNING_ACTIONS)} lines into each server of (a), the imports at once: ${imported.length > 0 ? importTimes : 'none in this run'}), so that the measured actions are not their first. Workload (b), points per action (bench/workload.ts: one action, a repeatable mission paying 10 points for each, a badge at 10, five levels, an all-time points board): a random user of ${count(WORKLOAD_USERS)} visits, new users as the issue tried it.`,
    "Each server runs in its own process, the load generator (autocannon) in the bench process. 3 interleaved rounds of 4 s, medians. The CPU per request is the user and system time the server process (for PostgreSQL: the processes of the bench's cluster; Redis's process) used during a round, from /proc, divided by the requests answered. Each workload's floor is raw better-sqlite3 on Questline's schema, with Questline's SQLite settings (src/db/index.ts sqliteConnection: WAL, synchronous=NORMAL, checkpoints on another thread), running that workload's statements, one transaction per request (bench/floor-server.ts). (a)'s statements are Questline's own: every statement the SQLite server of (a) runs is recorded with its parameters from the time its users have their history (bench/trace.ts: a wrapper around better-sqlite3's statements, on in every round of that server), and the floor, which started from a copy of that server's database taken then, replays them action by action in the order they committed (bench/floor-actions.ts, bench/floor-rounds.ts): each floor round comes right after Questline's round of (a) and is as many requests as that round logged actions, one action each, after the actions of the rounds in between (the busy loop's) are replayed at once, unmeasured. So the floor reads and writes the same rows as Questline did in the same round, no more and no less. (b)'s are written by hand (bench/floor-points.ts); test/bench/floors.test.ts checks both against Questline. The busy loop is a separate `node -e 'for (;;) {}'` process running through its rounds.",
    "PostgreSQL is a cluster of the bench's own (fsync on, `synchronous_commit=off`: as durable as SQLite's default `synchronous=NORMAL`), with Redis for rate limits, leaderboards and invalidations, measured after a warm-up round and an `ANALYZE`. With 2 nodes the 50 connections are split 25/25 between them; the throughputs add, and the latencies are the worse node's. Round trips are the queries the first node sent to PostgreSQL during a round (every query of a pg client, background work included), divided by the actions it answered. The PostgreSQL floor (bench/floor-postgres.ts) is raw `pg` on Questline's schema, in a database of the same cluster given the rows of another copy of the SQLite server's database (taken with the SQLite floor's), writing the actions of the SQLite server's first measured round of (a) again and again (new ids from the second pass on) with statements of its own, 10 connections: either one transaction per action (the reads the action made, a statement per row), or batched as Questline's group commit (64 actions per batch at most, 2 batches in flight: one statement reading what the batch's decisions read that was not cached, then one transaction with a multi-row statement per table). Its CPU is its node's and the cluster's.",
  );
  report('bare Fastify route', `${describeLoad(results.bare)}; CPU per request: ${describeCpu(results.bare)}`);
  for (const [name, label] of [
    ['floorInsert', 'floor: one prepared SQLite insert per request (raw better-sqlite3, no Questline code)'],
    [
      'floorAction',
      'floor (a): the statements Questline ran in its round of (a) just before, an action per request in a transaction each (raw better-sqlite3, no engine, no token)',
    ],
    ['floorPoints', "floor (b): a points-per-action action's write set in one transaction per request (raw better-sqlite3, no engine, no token)"],
    ['public', 'Questline GET /health/live'],
    ['authenticated', 'Questline token-authenticated route (auth + rate limit)'],
    ['actions', '**action logging (a), SQLite**'],
    ['actionsBusy', 'the same with a busy loop taking one of the two cores'],
    ['actionsWithoutDispatcher', 'the same with WEBHOOK_DISPATCHER=false (delivery left to workers)'],
    ['points', '**action logging (b), points per action, SQLite**'],
  ] as const) {
    const r = results[name];
    const floorOf = name === 'actions' ? results.floorAction : name === 'points' ? results.floorPoints : undefined;
    const vsFloor = r !== undefined && floorOf !== undefined ? `, ${(r.rps / floorOf.rps).toFixed(2)}× its floor` : '';
    const vsQuiet =
      name === 'actionsBusy' && r !== undefined && results.actions !== undefined ? `, ${share(r.rps, results.actions.rps)} of the quiet throughput` : '';
    if (r !== undefined) report(label, `${describeLoad(r)}, ${share(r.rps, results.bare.rps)} of bare${vsFloor}${vsQuiet}; CPU per request: ${describeCpu(r)}`);
  }
  if (nodes.length === 0) {
    report('action logging, PostgreSQL + Redis', 'not measured: PostgreSQL is not installed (apt-get install postgresql redis-server)');
  } else {
    for (const [r, label] of [
      [results.postgres1, '**action logging (a), PostgreSQL + Redis, 1 node**'],
      [results.postgres2, '**action logging (a), PostgreSQL + Redis, 2 nodes** (25 connections each)'],
    ] as const) {
      if (r === undefined) continue;
      const vsSqlite = results.actions !== undefined ? `, ${(r.rps / results.actions.rps).toFixed(2)}× SQLite` : '';
      report(label, `${describeLoad(r)}, ${share(r.rps, results.bare.rps)} of bare${vsSqlite}; CPU per request: ${describeCpu(r)}`);
    }
    if (roundTrips.length > 0) report('PostgreSQL, 1 node: queries sent per action (round trips)', median(roundTrips).toFixed(1));
    for (const [r, label] of [
      [results.floorPostgres, "floor (a) on PostgreSQL: the trace's reads and rows, one transaction per action (raw pg, no Questline code)"],
      [results.floorPostgresBatched, "floor (a) on PostgreSQL: the same batched as Questline's group commit (up to 64 actions per batch, 2 in flight)"],
    ] as const) {
      if (r === undefined) continue;
      const vsQuestline =
        results.postgres1 !== undefined ? `; Questline with 1 node logs ${(results.postgres1.rps / r.rps).toFixed(2)}× as many actions/s` : '';
      report(label, `${describeLoad(r)}; CPU per request: ${describeCpu(r)}${vsQuestline}`);
    }
  }
  if (floors !== undefined) {
    const traced = floors.measuredPerTable();
    const total = (kind: string) => Object.entries(traced.perTable).reduce((sum, [key, n]) => sum + (key.startsWith(kind) ? n : 0), 0);
    const byTable = Object.entries(traced.perTable)
      .sort((x, y) => y[1] - x[1])
      .map(([key, n]) => `${key} ${n.toFixed(2)}`)
      .join(', ');
    report(
      "floor (a): Questline's statements per action on SQLite, as recorded in its measured rounds of (a)",
      `${count(traced.actions)} actions; ${total('read ').toFixed(2)} reads and ${total('write ').toFixed(2)} writes per action (${byTable})`,
    );
    if (faithful !== undefined) {
      const postgresSaves =
        faithful.postgres === undefined
          ? ''
          : `; on PostgreSQL ${count(faithful.postgres.stale)}, over ${faithful.postgres.pass} pass${faithful.postgres.pass === 1 ? '' : 'es'} of its trace`;
      report(
        "floor (a)'s replay: party saves finding another version than Questline's (0 when faithful)",
        `on SQLite ${count(faithful.sqlite)}${postgresSaves}`,
      );
    }
  }
  const sqlite = results.actions;
  if (sqlite !== undefined) {
    targets.push({
      target: 'SQLite action logging ≥ 40% of the bare route',
      measured: `${share(sqlite.rps, results.bare.rps)}: ${count(sqlite.rps)} against ${count(results.bare.rps)} req/s. The server's CPU per request: ${micros(sqlite.cpu?.server)} an action, ${micros(results.bare.cpu?.server)} the bare route${results.floorAction !== undefined ? `, ${micros(results.floorAction.cpu?.server)} the statements of (a) alone (the floor)` : ''}`,
      met: sqlite.rps >= 0.4 * results.bare.rps,
    });
    targets.push({ target: 'SQLite action logging p99 ≤ 15 ms at 50 connections', measured: `${sqlite.p99} ms`, met: sqlite.p99 <= 15 });
    histogram.push({ label: 'SQLite', samples: samples.actions });
  }
  const pg1 = results.postgres1;
  if (pg1 !== undefined) {
    const pg2 = results.postgres2;
    const budget = (cpus().length * 1e6) / 4000;
    targets.push({
      target: 'PostgreSQL ≥ 4,000 actions/s',
      measured: `${count(pg1.rps)} with 1 node${pg2 !== undefined ? `, ${count(pg2.rps)} with 2` : ''}. CPU per action (1 node): Questline ${micros(pg1.cpu?.server)} + PostgreSQL ${micros(pg1.cpu?.PostgreSQL)} + Redis ${micros(pg1.cpu?.Redis)}; 4,000/s on ${cpus().length} cores leaves ${count(budget)} µs per action for all of them and the load generator`,
      met: Math.max(pg1.rps, pg2?.rps ?? 0) >= 4000,
    });
    histogram.push({ label: 'PostgreSQL + Redis, 1 node', samples: samples.postgres1 });
  }
  // Issue 24's figures.
  figures.sqliteCpu = { a: sqlite?.cpu?.server, b: results.points?.cpu?.server };
  figures.sqliteRps = { a: sqlite?.rps, b: results.points?.rps };
  figures.floorRps = { a: results.floorAction?.rps, b: results.floorPoints?.rps };
  figures.sqliteP99 = { a: sqlite?.p99, b: results.points?.p99 };
  figures.busyRps = results.actionsBusy?.rps;
  if (pg1 !== undefined) {
    figures.postgres1 = {
      rps: pg1.rps,
      cpu: { node: pg1.cpu?.server ?? 0, postgres: pg1.cpu?.PostgreSQL ?? 0, redis: pg1.cpu?.Redis ?? 0 },
      ...(roundTrips.length > 0 ? { roundTrips: median(roundTrips) } : {}),
    };
  }
  figures.postgres2Rps = results.postgres2?.rps;
  const floorFigure = (r: LoadResult | undefined) =>
    r === undefined ? undefined : { rps: r.rps, cpu: { node: r.cpu?.server ?? 0, postgres: r.cpu?.PostgreSQL ?? 0 } };
  figures.postgresFloor = { perAction: floorFigure(results.floorPostgres), batched: floorFigure(results.floorPostgresBatched) };
}

function actionRequest(): { path: string; method: 'POST'; body: string } {
  const { userId, body } = randomActionBody(WORKLOAD_USERS);
  return { path: `/users/${userId}/actions`, method: 'POST', body };
}

function pointsRequest(): { path: string; method: 'POST'; body: string } {
  const { userId, body } = pointsActionBody(WORKLOAD_USERS);
  return { path: `/users/${userId}/actions`, method: 'POST', body };
}

function share(part: number, whole: number): string {
  return `${((part / whole) * 100).toFixed(0)}%`;
}
function count(n: number): string {
  return Math.round(n).toLocaleString('en');
}
function micros(value: number | undefined): string {
  return value === undefined ? '(not measured)' : `${count(value)} µs`;
}

function mib(bytes: number): string {
  return Math.round(bytes / 2 ** 20).toLocaleString('en');
}

// --- Phases ------------------------------------------------------------------------------------
async function actionPhases(postgres: BenchPostgres | undefined): Promise<void> {
  const measured: Array<{ label: string; perAction: Map<Phase, number>; cpu: number; roundTrips?: number }> = [];
  // The benchmark program, and workload (b): points per action (bench/workload.ts).
  const workloads: Array<{ name: string; env: Record<string, string>; request: typeof actionRequest }> = [
    { name: '', env: {}, request: actionRequest },
    { name: ', points per action', env: { BENCH_PROGRAM: 'points' }, request: pointsRequest },
  ];
  const servers: Array<{ label: string; request: () => { path: string; method: 'POST'; body: string }; start: () => Promise<Server> }> = [];
  for (const workload of workloads) {
    servers.push({
      label: `SQLite${workload.name}`,
      request: workload.request,
      start: () => startQuestline(dir, `phases${workload.env.BENCH_PROGRAM ?? ''}`, workload.env),
    });
    if (postgres !== undefined) {
      servers.push({
        label: `PostgreSQL + Redis${workload.name}`,
        request: workload.request,
        start: () =>
          startServer(['bench/questline-server.ts'], {
            DATABASE_URL: postgres.url,
            REDIS_URL: postgres.redisUrl,
            CLIENT_RATE_LIMIT_RPS: '1000000',
            CLIENT_RATE_LIMIT_BURST: '1000000',
            ...workload.env,
          }),
      });
    }
  }
  for (const { label, request: actionRequest, start } of servers) {
    const server = await start();
    try {
      const headers = { authorization: `Bearer ${(await clientToken(server)).token}` };
      // A warm-up round (the JIT, the party cache), then a profiled one.
      await load(server.url, { headers, request: actionRequest });
      const queriesBefore = await counter(server);
      const textsBefore = await queryTexts(server);
      await fetch(`${server.url}/bench/profile/start`, { method: 'POST' });
      const round = await load(server.url, { headers, request: actionRequest, cpu: { server: () => [server.child.pid as number] } });
      const profile = (await (await fetch(`${server.url}/bench/profile/stop`, { method: 'POST' })).json()) as CpuProfile;
      const queries = (await counter(server)) - queriesBefore;
      // BENCH_QUERY_TEXTS=1 prints what the round trips were: the queries per action by their text's start.
      if (process.env.BENCH_QUERY_TEXTS !== undefined && queries > 0) {
        const texts = Object.entries(await queryTexts(server)).map(([text, n]) => [text, (n - (textsBefore[text] ?? 0)) / round.requests] as const);
        console.error(
          `${label}: queries per action\n${texts
            .filter(([, n]) => n >= 0.005)
            .sort((a, b) => b[1] - a[1])
            .map(([text, n]) => `  ${n.toFixed(2)}  ${text.replace(/\s+/g, ' ')}`)
            .join('\n')}`,
        );
      }
      // BENCH_PROFILE_DIR=dir keeps each profile (open it in Chrome's DevTools, or with --cpu-prof tools).
      if (process.env.BENCH_PROFILE_DIR !== undefined)
        writeFileSync(join(process.env.BENCH_PROFILE_DIR, `phases-${label.toLowerCase().replace(/[^a-z]+/g, '-')}.cpuprofile`), JSON.stringify(profile));
      const perAction = new Map([...timeByPhase(profile)].map(([phase, micros]) => [phase, micros / round.requests]));
      measured.push({ label, perAction, cpu: round.cpu?.server ?? 0, ...(queries > 0 ? { roundTrips: queries / round.requests } : {}) });
    } finally {
      await server.stop();
    }
  }
  const before = existsSync('bench/phases-before.json')
    ? (JSON.parse(readFileSync('bench/phases-before.json', 'utf8')) as {
        commit: string;
        date: string;
        runs: Array<{ label: string; perAction: Record<string, number>; cpu: number; roundTrips?: number }>;
      })
    : { commit: 'none', date: 'never', runs: [] };
  section(
    "One action's CPU by phase",
    `Action logging as above (SQLite; PostgreSQL + Redis with 1 node, its node's CPU only), and workload (b), points per action (bench/workload.ts: one action, a repeatable mission paying 10 points for each, a badge at 10, five levels, an all-time points board; 10,000 users): one round of 4 s after a warm-up round, with the server's sampling CPU profiler on (node:inspector, every 200 µs). Each sample counts for the innermost function of its stack that belongs to a phase (bench/phases.ts): a native call counts for the code that made it. µs per action answered, of the main thread; the CPU measured from /proc in the same round (beside the total) also counts the process's other threads (SQLite's checkpoints, the collector's helpers, Node's I/O). "before" is bench/phases-before.json: the same measurement at commit \`${before.commit}\` (${before.date}), before the write-path work, in another run.`,
  );
  const cell = (perAction: Map<Phase, number> | Record<string, number> | undefined, phase: Phase) => {
    const value = perAction instanceof Map ? perAction.get(phase) : perAction?.[phase];
    return `${count(value ?? 0)} µs`;
  };
  for (const run of measured) {
    const was = before.runs.find((r) => r.label === run.label);
    for (const phase of PHASES) {
      if ((run.perAction.get(phase) ?? 0) < 0.5 && (was?.perAction[phase] ?? 0) < 0.5) continue;
      report(`${run.label}: ${phase}`, `${cell(run.perAction, phase)}${was !== undefined ? ` (before: ${cell(was.perAction, phase)})` : ''}`);
    }
    const total = [...run.perAction.values()].reduce((a, b) => a + b, 0);
    const wasTotal = was === undefined ? undefined : Object.values(was.perAction).reduce((a, b) => a + b, 0);
    report(
      `${run.label}: **total sampled** (CPU from /proc in the same round)`,
      `${count(total)} µs (${count(run.cpu)} µs)${was !== undefined && wasTotal !== undefined ? `; before: ${count(wasTotal)} µs (${count(was.cpu)} µs)` : ''}`,
    );
    if (run.roundTrips !== undefined)
      report(
        `${run.label}: queries sent to PostgreSQL per action (round trips)`,
        `${run.roundTrips.toFixed(1)}${was?.roundTrips !== undefined ? ` (before: ${was.roundTrips.toFixed(1)})` : ''}`,
      );
  }
  if (process.env.BENCH_PHASES_OUT !== undefined) {
    // Records this run as a baseline: BENCH_PHASES_OUT=bench/phases-before.json.
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const runs = measured.map((run) => ({
      label: run.label,
      perAction: Object.fromEntries([...run.perAction].map(([phase, micros]) => [phase, Math.round(micros)])),
      cpu: Math.round(run.cpu),
      ...(run.roundTrips !== undefined ? { roundTrips: Number(run.roundTrips.toFixed(1)) } : {}),
    }));
    writeFileSync(process.env.BENCH_PHASES_OUT, `${JSON.stringify({ commit, date: startedAt.toISOString().slice(0, 10), runs }, null, 2)}\n`);
  }
}

async function counter(server: Server): Promise<number> {
  return ((await (await fetch(`${server.url}/bench/queries`)).json()) as { queries: number }).queries;
}

async function queryTexts(server: Server): Promise<Record<string, number>> {
  return ((await (await fetch(`${server.url}/bench/queries`)).json()) as { byText?: Record<string, number> }).byText ?? {};
}

// --- Reads -------------------------------------------------------------------------------------
async function readEndpoints(): Promise<void> {
  const results = await benchReads(dir);
  section(
    'Read endpoints',
    'SQLite, the benchmark program with its four leaderboards (in-process rankings). A round of action logging first gives 10,000 users progress, completions, balances and scores; then each read for a random one of them, 10 connections, after a warm-up round: 3 interleaved rounds of 4 s, medians.',
  );
  for (const [name, label] of Object.entries(READS) as Array<[keyof typeof READS, string]>) report(label, describeLoad(results[name]));
}

// --- The console's overview ------------------------------------------------------------------
async function overviewOverHistory(postgres: BenchPostgres | undefined): Promise<void> {
  const results = await benchOverview(dir, postgres === undefined ? undefined : await postgres.another());
  section(
    "The console's overview",
    `GET /admin/analytics/overview?days=90 on a site of the benchmark program with ${count(HISTORY_ACTIONS)} recorded actions over the 90 days up to now (bench/analytics.ts: written straight into the database by SQL: 10,000 users, a completion with its points entry and webhook delivery every fifth action, every 100th completion removed with its points, a level every 40th, the users' active days). The first view builds the site's daily rollup from that history; then 30 views one after the other (nothing to fold: median and 90th percentile, as the client sees them); then 5,000 actions of the benchmark's mix logged through the API (10 at a time; the server's background fold runs meanwhile, every 2 s) and one view, which folds what is left first. Each server alone, one request at a time; the section takes about 5 minutes, most of it writing the histories.`,
  );
  if (postgres === undefined) report('PostgreSQL', 'not measured: PostgreSQL is not installed');
  for (const r of results) {
    report(`${r.store}: writing the history`, r.seeded);
    report(`${r.store}: the first view (the rollup built from the history)`, `${count(r.firstView)} ms`);
    report(`${r.store}: **a view of 90 days**`, `p50 ${r.p50.toFixed(1)} ms, p90 ${r.p90.toFixed(1)} ms`);
    report(`${r.store}: a view right after 5,000 actions (what is left folded first)`, `${count(r.afterActions)} ms`);
    targets.push({
      target: `The overview of 90 days over ${count(HISTORY_ACTIONS)} actions of history, ${r.store}: ≤ ${OVERVIEW_TARGET_MS} ms (issue 26)`,
      measured: `p50 ${r.p50.toFixed(1)} ms`,
      met: r.p50 <= OVERVIEW_TARGET_MS,
    });
  }
}

// --- Leaderboards ------------------------------------------------------------------------------
async function leaderboardsAtScale(postgres: BenchPostgres | undefined): Promise<void> {
  const results = await benchBoardReads(dir, postgres === undefined ? undefined : { url: postgres.redisUrl, pids: postgres.redisPids });
  section(
    `Leaderboards with ${count(USERS)} users`,
    `One all-time points board of ${count(USERS)} users (scores 0–50,000 in steps of 10, so many ties), each with a name and a Points balance, written straight into the SQLite file; the server loads the boards before it listens. The top 100, and a random user's entry with their rank, 10 connections, after a warm-up round: 3 interleaved rounds of 4 s, medians. The memory is the server's after those reads and a round of reads of random users' balances.`,
    `On Redis, a random user's standing with the ${AROUND} entries on each side (GET /leaderboards/{id}/leaders/{userId}?around=${AROUND}) is measured in the same rounds against a raw route (bench/redis-rank-server.ts: a bare Fastify route in its own process, with ioredis as Questline connects, answering ZREVRANK + ZSCORE, then ZREVRANGE of the entries around). Questline's sorted set is not keyed by user id (its members are the time a score was reached and the id, so that ties list in order), so the raw route reads a plain copy of it: the same ${count(USERS)} users and scores, in the same Redis. The CPU per request is the server's process and Redis's.`,
  );
  if (postgres === undefined) report('Redis', 'not measured: PostgreSQL and redis-server are not installed');
  for (const r of results) {
    report(`${r.implementation}: seeding and loading`, r.seeded);
    report(`${r.implementation}: GET /leaderboards/{id}/leaders?limit=100`, describeLoad(r.top));
    report(`${r.implementation}: GET /leaderboards/{id}/leaders/{userId}`, describeLoad(r.rank));
    if (r.standing !== undefined) {
      const { questline, raw, copied } = r.standing;
      report(`${r.implementation}: the raw route's copy of the board`, copied);
      report(
        `${r.implementation}: GET /leaderboards/{id}/leaders/{userId}?around=${AROUND}`,
        `${describeLoad(questline)}, ${(questline.rps / raw.rps).toFixed(2)}× raw; CPU per request: ${describeCpu(questline)}`,
      );
      report(
        `${r.implementation}: raw ZREVRANK + ZSCORE + ZREVRANGE (${AROUND} each side), bare Fastify route`,
        `${describeLoad(raw)}; CPU per request: ${describeCpu(raw)}`,
      );
      figures.rank = { questline: questline.rps, raw: raw.rps };
    }
    report(`${r.implementation}: server RSS (JavaScript heap used)`, `${mib(r.memory.rss)} MiB (${mib(r.memory.heapUsed)} MiB)`);
    for (const [name, read] of [
      ['top 100', r.top],
      ['a user and their rank', r.rank],
    ] as const) {
      targets.push({
        target: `${count(USERS)}-user leaderboard, ${name}, ${r.implementation}: ≥ 10,000 req/s, p99 ≤ 5 ms at 10 connections`,
        measured: describeLoad(read),
        met: read.rps >= 10_000 && read.p99 <= 5,
      });
    }
    targets.push({
      target: `RSS ≤ 1 GiB at ${count(USERS)} users (${r.implementation} boards)`,
      measured: `${mib(r.memory.rss)} MiB`,
      met: r.memory.rss <= 2 ** 30,
    });
  }
}

async function boardsOnActions(redisUrl: string | undefined): Promise<void> {
  const results = await benchBoardsOnActions(dir, redisUrl);
  section(
    'Leaderboards on action logging',
    'Action logging (SQLite, as above) with the four benchmark boards (all-time and weekly points, missions this month, one action today) against the same program without boards, embedded and with Redis (where rate limits go too). 5 interleaved rounds of 4 s, medians: the differences are a few percent, about the noise of one round.',
  );
  for (const { label, result, share: ofPlain } of results)
    report(`action logging, ${label}`, `${describeLoad(result)}${ofPlain !== undefined ? `, ${(ofPlain * 100).toFixed(0)}% of no boards` : ''}`);
}

// --- Engagement mechanics (issue 27) -----------------------------------------------------------
async function engagementOnActions(postgres: BenchPostgres | undefined): Promise<void> {
  const results = await benchEngagementOnActions(dir, postgres);
  section(
    'Engagement mechanics on action logging',
    "Workload (a)'s mix on the benchmark program with its four boards, against the same program using every mechanic of issue 27 (bench/workload.ts engagementProgram: three streaks with freezes and milestones, expiry in both point categories, two boosts in force, a level prerequisite and a group exclusion on every fifth mission, prizes on every board), a random one of 10,000 users each request (no history imported first). On SQLite, and on PostgreSQL + Redis (one node each, the CPU per action adding the server's, PostgreSQL's and Redis's). A warm-up round, then 5 interleaved rounds of 4 s, medians.",
  );
  for (const { store, none, all } of results) {
    const ratio = cpuPerAction(all) / cpuPerAction(none);
    report(`${store}, none of them`, `${describeLoad(none)}; CPU per action: ${describeCpu(none)}`);
    report(`${store}, all of them`, `${describeLoad(all)}; CPU per action: ${describeCpu(all)}; ${(ratio * 100).toFixed(0)}% of none`);
    targets.push({
      target: `${store}: action logging with every mechanic of issue 27 costs at most 15% more CPU than with none`,
      measured: `${Math.round(cpuPerAction(all))} µs vs ${Math.round(cpuPerAction(none))} µs per action (${((ratio - 1) * 100).toFixed(0)}%)`,
      met: ratio <= 1.15,
    });
  }
}

// --- History -----------------------------------------------------------------------------------
async function historyCost(): Promise<void> {
  const { results, importRate, perSize } = await benchHistory(dir);
  section(
    "One action's cost as a user's history grows",
    `Two users each with 1,000, 10,000 and 100,000 actions behind them, imported through POST /admin/import (${count(importRate)} lines/s) with timestamps spread over the past 300 days, so that the engine built their progress, completions, ledger and caps; "0" is a new user for every action. Then one action at a time on one connection (no queueing), the sizes taking turns request by request so that noise hits them alike: each action's latency as the client sees it, ${count(perSize)} actions per size, spread over the users of a size. A user with history has finished the one-time missions, so an action of theirs advances fewer missions than a new user's does.`,
  );
  figures.history = results.map((r) => ({ history: r.history, p50: r.p50 }));
  const base = results.find((r) => r.history === 0) as (typeof results)[number];
  for (const r of results)
    report(
      r.history === 0 ? 'no history (a new user for each action)' : `${count(r.history)} actions of history`,
      `p50 ${count(r.p50)} µs, p90 ${count(r.p90)} µs; p50 ${(r.p50 / base.p50).toFixed(2)}× a new user's`,
    );
  const worst = results.reduce((a, b) => (b.p50 > a.p50 ? b : a));
  const least = results.find((r) => r.history === 1_000);
  const most = results.at(-1) as (typeof results)[number];
  targets.push({
    target: "One action's cost within 10% from 0 to 100,000 actions of history (it must not grow)",
    measured: `the slowest median is ${worst.history === 0 ? "a new user's" : `${(worst.p50 / base.p50).toFixed(2)}× a new user's (${count(worst.history)} actions)`}; ${count(most.history)} actions against ${count(least?.history ?? 0)}: ${(most.p50 / (least ?? base).p50).toFixed(2)}×`,
    met: worst.p50 / base.p50 <= 1.1,
  });
}

// --- Micro-benchmarks --------------------------------------------------------------------------
async function micro(): Promise<void> {
  section('Micro-benchmarks', 'In the bench process, the median of 5 rounds each.');
  const secret = 'bench-secret-0123456789abcdef0123456789abcdef';
  const tokens = new TokenService(secret, 86_400, Date.now);
  const { token } = await tokens.issue({ siteId: 's', clientId: 'c', role: 'app', secretVersion: 1 });
  const key = new TextEncoder().encode(secret);
  const joseRate = await opsPerSecond(() => jwtVerify(token, key, { algorithms: ['HS256'] }), 5_000);
  const cachedRate = await opsPerSecond(() => tokens.verify(token), 200_000);
  report('token check: jose HS256 verify every time', `${count(joseRate)} /s`);
  report('token check: Questline verified-token cache', `${count(cachedRate)} /s (${(cachedRate / joseRate).toFixed(0)}×)`);

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
      () =>
        stock
          .selectFrom('t')
          .selectAll()
          .where('site_id', '=', 's')
          .where('id', '=', (i++ * 7919) % 10_000)
          .executeTakeFirst(),
      20_000,
    );
    const cachedRate2 = await opsPerSecond(
      () =>
        cached
          .selectFrom('t')
          .selectAll()
          .where('site_id', '=', 's')
          .where('id', '=', (i++ * 7919) % 10_000)
          .executeTakeFirst(),
      20_000,
    );
    report('SQLite select by key: raw better-sqlite3', `${count(rawRate)} /s`);
    report('SQLite select by key: Kysely stock dialect', `${count(stockRate)} /s`);
    report('SQLite select by key: Kysely cached dialect', `${count(cachedRate2)} /s (${(cachedRate2 / stockRate).toFixed(1)}× stock)`);
    await stock.destroy();
    await cached.destroy();
    raw.close();
  } finally {
    rmSync(sqliteDir, { recursive: true, force: true });
  }
}

// --- The report --------------------------------------------------------------------------------
function machine(): string[] {
  const run = (file: string, args: string[]) => {
    try {
      return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return 'not installed';
    }
  };
  const os = /PRETTY_NAME="([^"]+)"/.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? 'unknown';
  const sqlite = new Sqlite(':memory:');
  const sqliteVersion = (sqlite.prepare('select sqlite_version() as v').get() as { v: string }).v;
  sqlite.close();
  const commit = run('git', ['rev-parse', '--short', 'HEAD']);
  const postgresBin = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().at(-1) : undefined;
  const postgres =
    postgresBin === undefined
      ? 'not installed'
      : run(`/usr/lib/postgresql/${postgresBin}/bin/postgres`, ['--version']).replace(/^postgres \(PostgreSQL\) /, '');
  const dirty = run('git', ['status', '--porcelain', '--untracked-files=no']) !== '' ? ' with uncommitted changes' : '';
  return [
    `- **Date:** ${startedAt.toISOString().replace(/\.\d+Z$/, 'Z')}, commit \`${commit}\`${dirty}`,
    `- **CPU:** ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores (shared: the servers, PostgreSQL, Redis and the load generator all run on them)`,
    `- **Memory:** ${Math.round(totalmem() / 2 ** 30)} GiB; **OS:** ${os}, Linux ${release()}`,
    `- **Node** ${process.version}; **SQLite** ${sqliteVersion} (better-sqlite3); **PostgreSQL** ${postgres}; **Redis** ${/v=(\S+)/.exec(run('redis-server', ['--version']))?.[1] ?? 'not installed'}`,
  ];
}

function writeReport(): void {
  const description = machine();
  writeFileSync('bench/latency.svg', histogramSvg('Action logging latency, 50 connections (every response of the 3 measured rounds)', histogram));
  const markdown = [
    '# Questline benchmark report',
    '',
    'Written by `npm run bench` (after `npm install`; it starts its own PostgreSQL and Redis when they are installed: `apt-get install postgresql redis-server`). Every figure below comes from the one run described here, on this machine; run it again on yours to compare. Figures from a shared 2-core machine move by 5–10% from run to run: compare ratios measured in the same run.',
    '',
    ...description,
    '',
    '## Targets (issue 24)',
    '',
    `Each figure from this run's sections below, against issue 24's targets; met or not is computed (bench/targets.ts). (a) is the benchmark program with returning users, (b) points per action.`,
    '',
    ...targetsMarkdown(issue24Targets(figures)),
    '',
    '## Targets (issues 13 and 26)',
    '',
    '| target | measured | met |',
    '|---|---|---|',
    ...targets.map((t) => `| ${t.target} | ${t.measured} | ${t.met ? 'yes' : '**no**'} |`),
    '',
    sectionsMarkdown(),
    '',
    '## Latency of action logging',
    '',
    '![Histogram of action logging latency on SQLite and on PostgreSQL + Redis](latency.svg)',
    '',
    '[latency.svg](latency.svg): the share of responses in each latency band, over every response of the measured rounds.',
    '',
  ].join('\n');
  writeFileSync('bench/REPORT.md', markdown);
  process.stdout.write('\nwrote bench/REPORT.md and bench/latency.svg\n');
}
