// Questline's real HTTP stack (buildApp) on a site with the benchmark program (./workload.ts), plus
// one extra route that declares client access, to measure authentication and rate limiting alone.
// BENCH_BOARDS=1 adds the benchmark leaderboards; BENCH_PROGRAM=points runs workload (b) instead; BENCH_JOIN makes a second node of a site; BENCH_SCORES=N also seeds N users with names,
// a Points balance and the same all-time score (straight into the SQLite file) and loads the boards before listening. GET /bench/memory
// answers the process's memory use, GET /bench/queries the queries sent to PostgreSQL so far; POST /bench/profile/start and
// /bench/profile/stop take a CPU profile (./phases.ts); POST /bench/trace/start starts recording its SQLite statements, and
// each POST /bench/trace/take {file} writes those of the actions logged since into a trace file (./trace.ts: what the
// floors of workload (a) replay, ./floor-rounds.ts).
// It prints its app client (CLIENT id secret site) and an admin client (ADMIN id secret).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { seedHistory } from './analytics.js';
import { segment, startRecording, tracePerTable } from './trace.js';
import { benchLeaderboards, benchProgram, engagementProgram, pointsProgram } from './workload.js';

// Every query a pg client sends (the pool's and Questline's named statements alike) is one round trip.
let queries = 0;
/** The queries by their text's first 80 characters, for a look at what the round trips are. */
const byText = new Map<string, number>();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  queries += 1;
  const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string } | undefined)?.text ?? '?');
  byText.set(text.slice(0, 80), (byText.get(text.slice(0, 80)) ?? 0) + 1);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

// A bench starts on empty tables: PostgreSQL's first plans are made on no statistics, so the
// bench has them made again every 10 s (DATABASE_REPLAN_SECONDS, 60 s by default) rather than
// measure its first minute on them.
const config = loadConfig({ DATABASE_REPLAN_SECONDS: '10', ...process.env, DEMO_SITE: 'false', LOG_LEVEL: 'warn' });
const app = await buildApp(config);
app.get('/bench/authenticated', { config: { access: 'client' } }, async () => ({ status: 'ok' }));
app.get('/bench/memory', { config: { access: 'public' } }, async () => process.memoryUsage());
app.get('/bench/queries', { config: { access: 'public' } }, async () => ({ queries, byText: Object.fromEntries(byText) }));
const inspector = new Session();
inspector.connect();
app.post('/bench/profile/start', { config: { access: 'public' } }, async () => {
  await inspector.post('Profiler.enable');
  // Every 200 µs: fine enough for phases of a few µs per action over thousands of actions, and cheap.
  await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
  await inspector.post('Profiler.start');
  return { status: 'ok' };
});
app.post('/bench/profile/stop', { config: { access: 'public' } }, async () => (await inspector.post('Profiler.stop')).profile);
let recording: ReturnType<typeof startRecording> | undefined;
app.post('/bench/trace/start', { config: { access: 'public' } }, async () => {
  recording ??= startRecording();
  return { status: 'ok' };
});
app.post<{ Body: { file: string } }>('/bench/trace/take', { config: { access: 'public' } }, async (request) => {
  if (recording === undefined) throw new Error('no trace is being recorded');
  const trace = segment(recording.take());
  writeFileSync(request.body.file, JSON.stringify(trace));
  return { actions: trace.actions.length, perTable: tracePerTable(trace), left: trace.left };
});
// BENCH_JOIN="clientId clientSecret siteId": another node of a site a first node made (same database).
const joined = process.env.BENCH_JOIN?.split(' ');
const site = joined !== undefined ? { site_id: joined[2] as string } : await app.services.sites.createSite({ name: 'Bench' });
const client =
  joined !== undefined ? { clientId: joined[0] as string, clientSecret: joined[1] as string } : await app.services.sites.createClient(site.site_id, 'app');
const admin = joined !== undefined ? undefined : await app.services.sites.createClient(site.site_id, 'admin');
const boards = process.env.BENCH_BOARDS === '1';
// BENCH_PROGRAM=points: workload (b), points per action (./workload.ts); =engagement: the benchmark
// program using every mechanic of issue 27 (./engagement.ts).
const program =
  process.env.BENCH_PROGRAM === 'points'
    ? pointsProgram()
    : process.env.BENCH_PROGRAM === 'engagement'
      ? engagementProgram()
      : { ...benchProgram(), ...(boards ? { leaderboards: benchLeaderboards() } : {}) };
if (joined === undefined) await app.services.programs.replace({ siteId: site.site_id, clientId: null }, program);

const scores = Number(process.env.BENCH_SCORES ?? 0);
if (scores > 0 && config.database.kind === 'sqlite') {
  const started = performance.now();
  const sqlite = new Sqlite(config.database.filename);
  const score = sqlite.prepare(
    'insert into leaderboard_scores (site_id, board_id, window_start, party_id, score, reached_at, version) values (?, ?, 0, ?, ?, ?, 1)',
  );
  const profile = sqlite.prepare('insert into user_profiles (site_id, user_id, preferences, role, updated_at) values (?, ?, ?, null, 0)');
  const party = sqlite.prepare("insert into parties (site_id, party_type, party_id, created_at) values (?, 'user', ?, 0)");
  const balance = sqlite.prepare(
    "insert into point_balances (site_id, party_type, party_id, category, balance, lifetime) values (?, 'user', ?, 'Points', ?, ?)",
  );
  sqlite.transaction(() => {
    for (let i = 0; i < scores; i++) {
      const user = `user-${i}`;
      // Scores from 0 to 50,000 in steps of 10: many ties, as points boards have.
      const points = 10 * ((i * 7919) % 5001);
      score.run(site.site_id, 'lb-all', user, points, 1_780_000_000_000 + i);
      party.run(site.site_id, user);
      balance.run(site.site_id, user, points, points);
      profile.run(site.site_id, user, JSON.stringify({ firstName: 'User', lastName: String(i), iconUrl: `https://example.com/u/${i}.png` }));
    }
  })();
  // As a live database's WAL is: checkpointed and short (a reader looks each page up in it).
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
  const seeded = performance.now();
  await app.services.leaderboards.warm((line) => process.stdout.write(`${line}\n`));
  process.stdout.write(
    `SEEDED ${scores} in ${((seeded - started) / 1000).toFixed(1)} s; loaded in ${((performance.now() - seeded) / 1000).toFixed(1)} s; RSS ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB\n`,
  );
}

// BENCH_HISTORY=N: N recorded actions of history (and what they caused) over the past 90 days, for the overview (./analytics.ts).
const history = Number(process.env.BENCH_HISTORY ?? 0);
if (history > 0 && joined === undefined) {
  const started = performance.now();
  await seedHistory(app.services.database.db, config.database.kind, site.site_id, history, Date.now(), String((program.site as { timezone: string }).timezone));
  process.stdout.write(`HISTORY ${history} actions written in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

const address = await app.listen({ port: 0, host: '127.0.0.1' });
// As serve() does: the webhook dispatcher runs beside the requests unless WEBHOOK_DISPATCHER=false,
// and the overview's figures are folded in the background.
if (config.webhookDispatcher) app.services.webhooks.start();
app.services.analytics.start();
if (admin !== undefined) process.stdout.write(`ADMIN ${admin.clientId} ${admin.clientSecret}\n`);
process.stdout.write(`CLIENT ${client.clientId} ${client.clientSecret} ${site.site_id}\nServer listening at ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
