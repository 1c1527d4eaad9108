// The floors under action logging, in their own process on Questline's own SQLite schema (its
// migrations, its indexes), with raw better-sqlite3 and none of Questline's code on the request path:
// - POST /insert: one prepared insert of an action event (the "one SQLite insert" route);
// - POST /users/:userId/actions: the statements a typical benchmark action runs (as logged from
//   Questline on the benchmark program: the party read, progress and completions read, three
//   progress upserts, the event insert, the party update), in one transaction, with no engine,
//   no token and no validation. What Questline adds to that is its own cost.
// FLOOR_WORKLOAD=points serves workload (b) on that route instead: the write set of a points-per-
// action action (./floor-points.ts). FLOOR_USERS=n first gives users user-0 … user-(n − 1) their
// party rows, as returning users have (workload (a) imports a history for them).
import { randomUUID } from 'node:crypto';
import Sqlite from 'better-sqlite3';
import Fastify from 'fastify';
import { openDatabase } from '../src/db/index.js';
import { pointsFloor } from './floor-points.js';

const filename = process.env.FLOOR_DATABASE ?? '';
const database = openDatabase({ kind: 'sqlite', filename, synchronous: 'NORMAL' });
await database.migrate();
await database.close();

const db = new Sqlite(filename);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -65536');
const SITE = 'floor';
const MISSIONS = ['m-1', 'm-2', 'm-3', 'm-4'];
const insertEvent = db.prepare(
  'insert into action_events (site_id, event_id, party_type, party_id, action, value, metadata, occurred_at, received_at, recorded, reason, outcome, reversed_at, reversal, groups) values (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, null, ?, null, null, null)',
);
const readParty = db.prepare('select last_recorded, level_id, version from parties where site_id = ? and party_type = ? and party_id = ?');
const insertParty = db.prepare("insert into parties (site_id, party_type, party_id, created_at, version) values (?, 'user', ?, ?, 0) on conflict do nothing");
const readProgress = db.prepare('select mission_id, rule_id, window_start, current from mission_progress where site_id = ? and party_type = ? and party_id = ? and mission_id in (?, ?, ?, ?)');
const readCompletions = db.prepare(
  'select mission_id, window_start, count(*) as n from mission_completions where site_id = ? and party_type = ? and party_id = ? and mission_id in (?, ?, ?, ?) and removed_at is null group by mission_id, window_start',
);
const upsertProgress = db.prepare(
  'insert into mission_progress (site_id, party_type, party_id, mission_id, rule_id, window_start, current, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (site_id, party_type, party_id, mission_id, rule_id) do update set window_start = excluded.window_start, current = mission_progress.current + 1, updated_at = excluded.updated_at',
);
const updateParty = db.prepare('update parties set version = version + 1, last_recorded = ? where site_id = ? and party_type = ? and party_id = ?');

const typicalAction = db.transaction((userId: string, body: { action: string; value?: number; metadata?: unknown }) => {
  const now = Date.now();
  if (readParty.get(SITE, 'user', userId) === undefined) insertParty.run(SITE, userId, now);
  readProgress.all(SITE, 'user', userId, ...MISSIONS);
  readCompletions.all(SITE, 'user', userId, ...MISSIONS);
  for (const mission of MISSIONS.slice(0, 3)) upsertProgress.run(SITE, 'user', userId, mission, 'r-1', 0, 1, now);
  const eventId = randomUUID();
  const outcome = JSON.stringify({ eventId, recorded: true, duplicate: false, timestamp: new Date(now).toISOString(), pointsAwarded: [], missionsCompleted: [], progress: [] });
  insertEvent.run(SITE, eventId, 'user', userId, body.action, body.value ?? 1, JSON.stringify(body.metadata ?? {}), now, now, outcome);
  updateParty.run(JSON.stringify(body), SITE, 'user', userId);
  return outcome;
});

const users = Number(process.env.FLOOR_USERS ?? 0);
db.transaction(() => {
  for (let i = 0; i < users; i++) insertParty.run(SITE, `user-${i}`, Date.now());
})();
const pointsAction = process.env.FLOOR_WORKLOAD === 'points' ? pointsFloor(db, SITE) : undefined;

const app = Fastify({ logger: false });
app.post('/insert', async () => {
  const now = Date.now();
  insertEvent.run(SITE, randomUUID(), 'user', 'u', 'a', 1, '{}', now, now, '{}');
  return { status: 'ok' };
});
app.post<{ Params: { userId: string }; Body: { action: string; value?: number; metadata?: unknown } }>('/users/:userId/actions', async (request, reply) => {
  const outcome = pointsAction !== undefined ? pointsAction(request.params.userId, JSON.stringify(request.body)) : typicalAction(request.params.userId, request.body);
  return reply.code(201).type('application/json').send(`{"response":${outcome}}`);
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`Server listening at ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
