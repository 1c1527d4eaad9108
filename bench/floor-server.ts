// The floors under action logging on SQLite, in their own process on Questline's own schema (its
// migrations, its indexes), with raw better-sqlite3 and none of Questline's code on the request
// path, one transaction per request:
// - POST /insert: one prepared insert of an action event (the "one SQLite insert" route);
// - POST /users/:userId/actions: an action's reads and writes as Questline runs them, answered
//   with the response Questline gave (or would give).
//   Workload (a): FLOOR_DATABASE is a copy of the database of the Questline server whose
//   statements are recorded (./trace.ts), as it was when the recording began; POST /floor/trace
//   {file, keep} queues the actions of a trace file and replays at once all queued but the last
//   `keep`; each request then replays the next one (./floor-actions.ts).
//   Workload (b), FLOOR_WORKLOAD=points: the write set of a points-per-action action
//   (./floor-points.ts), on a fresh FLOOR_DATABASE.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { openDatabase, sqliteConnection } from '../src/db/index.js';
import { actionsFloor } from './floor-actions.js';
import { pointsFloor } from './floor-points.js';
import type { Trace } from './trace.js';

const filename = process.env.FLOOR_DATABASE ?? '';
// Questline's migrations (a trace's copy has them already: this checks it is at the latest).
const database = openDatabase({ kind: 'sqlite', filename, synchronous: 'NORMAL' });
await database.migrate();
await database.close();

// SQLite as Questline runs it (src/db/index.ts: WAL, synchronous=NORMAL, a 64 MiB page cache, …),
// checkpoints included: on another thread (src/db/checkpointer.ts), the serving connection only
// as a backstop. Left to the committing connection, they cost the floor up to half its throughput
// on a busy 2-core machine (little on a quiet one), which Questline does not pay.
const { database: db } = sqliteConnection(filename, 'NORMAL');
const insertEvent = db.prepare(
  'insert into action_events (site_id, event_id, party_type, party_id, action, value, metadata, occurred_at, received_at, recorded, reason, outcome, reversed_at, reversal, groups) values (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, null, ?, null, null, null)',
);
const points = process.env.FLOOR_WORKLOAD === 'points' ? pointsFloor(db, 'floor') : undefined;
const traced = points === undefined ? actionsFloor(db) : undefined;

const app = Fastify({ logger: false });
app.post('/insert', async () => {
  const now = Date.now();
  insertEvent.run('floor', randomUUID(), 'user', 'u', 'a', 1, '{}', now, now, '{}');
  return { status: 'ok' };
});
app.post<{ Params: { userId: string } }>('/users/:userId/actions', async (request, reply) => {
  const outcome = traced !== undefined ? traced() : (points as NonNullable<typeof points>)(request.params.userId, JSON.stringify(request.body));
  return reply.code(201).type('application/json').send(`{"response":${outcome}}`);
});
app.post<{ Body: { file: string; keep: number } }>('/floor/trace', async (request) => {
  if (traced === undefined) throw new Error('workload (b) replays no trace');
  traced.add(JSON.parse(readFileSync(request.body.file, 'utf8')) as Trace);
  return { replayed: traced.catchUp(request.body.keep), queued: traced.queued() };
});
// How faithful the replay was: party saves that found another version than the trace's (0).
app.get('/floor/stale', async () => ({ stale: traced?.stale() ?? 0 }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`Server listening at ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
