// The PostgreSQL floor (./floor-postgres.ts) in its own process: FLOOR_POSTGRES is its database
// (fresh: Questline's migrations are run, then FLOOR_SOURCE's rows are copied in: a copy of the
// traced SQLite server's database as it was when the recording began). POST /floor/trace {file}
// gives it its trace (the first only; ./trace.ts). POST /users/:userId/actions writes the trace's
// next action in a transaction of its own, POST /batched/users/:userId/actions batched (group
// commit); both answer Questline's response. GET /floor/stale: party saves that found another
// version than the trace's (0 when faithful), and how many times the trace was written.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import { openDatabase } from '../src/db/index.js';
import { loadFromSqlite, PostgresFloor } from './floor-postgres.js';
import type { Trace } from './trace.js';

const url = process.env.FLOOR_POSTGRES ?? '';
// Questline's schema, as its migrations make it (set-up only: nothing of Questline serves a request).
const database = openDatabase({ kind: 'postgres', url, poolSize: 1 });
await database.migrate();
await database.close();
// As many connections as Questline's pool has by default (DATABASE_POOL_SIZE).
const pool = new pg.Pool({ connectionString: url, max: 10 });
const copied = await loadFromSqlite(pool, process.env.FLOOR_SOURCE ?? '');
const floor = await PostgresFloor.open(pool);

const app = Fastify({ logger: false });
const answer = (outcome: string) => `{"response":${outcome}}`;
app.post('/users/:userId/actions', async (_request, reply) =>
  reply
    .code(201)
    .type('application/json')
    .send(answer(await floor.perAction())),
);
app.post('/batched/users/:userId/actions', async (_request, reply) =>
  reply
    .code(201)
    .type('application/json')
    .send(answer(await floor.batched())),
);
app.post<{ Body: { file: string } }>('/floor/trace', async (request) => ({ used: floor.use(JSON.parse(readFileSync(request.body.file, 'utf8')) as Trace) }));
app.get('/floor/stale', async () => ({ stale: floor.stale, pass: floor.pass }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`COPIED ${JSON.stringify(copied)}\nServer listening at ${address}\n`);
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
