// The floors of issue 24's benchmark (bench/floor-*.ts) run what Questline runs for the same
// actions, no more and no less: a floor that drifted from Questline's write set would make the
// ratio against it meaningless. Workload (a)'s floors replay a trace of Questline's statements
// (bench/trace.ts), recorded in rounds as the bench records them: replayed on a copy of the
// database as it was when the recording began, they must leave the very rows Questline left.
// Workload (b)'s is written by hand (bench/floor-points.ts): the same users' actions must read
// and write each table as often as Questline's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsFloor } from '../../bench/floor-actions.js';
import { pointsFloor } from '../../bench/floor-points.js';
import { loadFromSqlite, PostgresFloor } from '../../bench/floor-postgres.js';
import { perTable, segment, startRecording, tracePerTable, type Trace } from '../../bench/trace.js';
import { benchProgram, pointsActionBody, pointsProgram, randomActionBody } from '../../bench/workload.js';
import { openDatabase } from '../../src/db/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { freshPostgresDatabase } from '../helpers/spawned-server.js';

const USERS = 60;
/** The bench's servers have no client rate limit of their own either. */
const UNLIMITED = { config: { clientRate: { rate: 1_000_000, burst: 1_000_000 } } };
const ACTIONS = 240;
/** The tables an action reads or writes: a floor must leave them as Questline did. */
const TABLES = [
  'parties',
  'action_events',
  'mission_progress',
  'mission_completions',
  'points_ledger',
  'point_balances',
  'point_earnings',
  'trophies',
  'level_changes',
  'outbox',
  'daily_active_users',
  'leaderboard_scores',
];

/** Every row of the tables, each as text (PostgreSQL answers bigints as strings), sorted. */
async function rowsOf(query: (sql: string) => Promise<Array<Record<string, unknown>>>): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = await query(`select * from ${table}`);
    tables[table] = rows.map((row) => JSON.stringify(Object.entries(row).map(([column, value]) => [column, value === null ? null : String(value)]))).sort();
  }
  return tables;
}

const sqliteRows = (filename: string) => {
  const db = new Sqlite(filename, { readonly: true });
  return rowsOf(async (sql) => db.prepare(sql).all() as Array<Record<string, unknown>>).finally(() => db.close());
};

async function logActions(t: TestApp, token: string, bodies: Array<{ userId: string; body: string }>, concurrency: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const { userId, body } = bodies[next++] as { userId: string; body: string };
        const response = await t.app.inject({
          method: 'POST',
          url: `/users/${userId}/actions`,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: body,
        });
        expect(response.statusCode).toBe(201);
      }
    }),
  );
}

describe('floor (a): a trace of Questline on the benchmark program, with returning users', () => {
  let t: TestApp;
  let dir: string;
  /** The two rounds' traces, and both as one. */
  let rounds: [Trace, Trace];
  let trace: Trace;
  /** A copy of Questline's database as it was when the recording began. */
  let pristine: string;
  let questlineRows: Record<string, string[]>;

  const copyOf = async (name: string) => {
    const file = join(dir, name);
    const source = new Sqlite(pristine, { readonly: true });
    await source.backup(file);
    source.close();
    return file;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'questline-floors-'));
    t = await buildTestApp('embedded', UNLIMITED);
    const site = await t.createSite();
    await t.app.services.programs.replace({ siteId: site.siteId, clientId: null }, benchProgram());
    // Returning users: each gets a history through the import first, as bench/returning.ts gives it.
    const admin = await t.token(site.admin);
    const past = Date.now() - 86_400_000;
    const lines = Array.from({ length: USERS * 3 }, (_, i) =>
      JSON.stringify({ userId: `user-${i % USERS}`, ...(JSON.parse(randomActionBody(1).body) as object), timestamp: past + i }),
    );
    const imported = await t.app.inject({
      method: 'POST',
      url: '/admin/import',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/x-ndjson' },
      payload: lines.join('\n'),
    });
    expect(imported.statusCode).toBe(200);
    const filename = t.config.database.kind === 'sqlite' ? t.config.database.filename : '';
    pristine = join(dir, 'pristine.db');
    const source = new Sqlite(filename, { readonly: true });
    await source.backup(pristine);
    source.close();
    // Two rounds of several requests at once, as the bench sends them (their transactions commit in groups).
    const token = await t.token(site.app);
    const recording = startRecording();
    await logActions(
      t,
      token,
      Array.from({ length: ACTIONS / 2 }, () => randomActionBody(USERS)),
      8,
    );
    const first = recording.take();
    await logActions(
      t,
      token,
      Array.from({ length: ACTIONS / 2 }, () => randomActionBody(USERS)),
      8,
    );
    const second = recording.stop();
    rounds = [segment(first), segment(second)];
    trace = segment([...first, ...second]);
    questlineRows = await sqliteRows(filename);
  });

  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds every action, each with its event, and nothing else that wrote', () => {
    expect(rounds.map((round) => round.actions.length)).toEqual([ACTIONS / 2, ACTIONS / 2]);
    expect(trace.actions).toHaveLength(ACTIONS);
    // What is no action's (the program's version check) only reads.
    for (const sql of Object.keys(trace.left)) expect(sql).toMatch(/^select /i);
    const counts = tracePerTable(trace);
    expect(counts['write action_events']).toBe(1);
    expect(counts['read parties']).toBe(1);
    expect(counts['write mission_progress']).toBeGreaterThan(1);
  });

  it('on SQLite, replays a round at once and the next request by request, leaving the rows Questline left', async () => {
    const db = new Sqlite(await copyOf('floor.db'));
    const floor = actionsFloor(db);
    floor.add(rounds[0]);
    floor.add(rounds[1]);
    expect(floor.catchUp(ACTIONS / 2)).toBe(ACTIONS / 2);
    const recording = startRecording();
    const answers = Array.from({ length: ACTIONS / 2 }, () => JSON.parse(floor()) as { eventId: string });
    const replayed = recording.stop();
    expect(floor.queued()).toBe(0);
    expect(() => floor()).toThrow(/every action/);
    // The second round's statements, table by table, and Questline's responses to its actions.
    expect(
      perTable(
        replayed.map((s) => s.sql),
        ACTIONS / 2,
      ),
    ).toEqual(tracePerTable(rounds[1]));
    expect(answers.map((answer) => answer.eventId)).toHaveLength(ACTIONS / 2);
    expect(floor.stale()).toBe(0);
    db.close();
    expect(await sqliteRows(join(dir, 'floor.db'))).toEqual(questlineRows);
  });

  describe.skipIf(process.env.TEST_DATABASE_URL === undefined || process.env.TEST_DATABASE_URL === '')('on PostgreSQL (bench/floor-postgres.ts)', () => {
    let fresh: { url: string; drop(): Promise<void> };
    let pool: pg.Pool;

    beforeAll(async () => {
      fresh = await freshPostgresDatabase(process.env.TEST_DATABASE_URL as string);
      const database = openDatabase({ kind: 'postgres', url: fresh.url, poolSize: 1 });
      await database.migrate();
      await database.close();
      pool = new pg.Pool({ connectionString: fresh.url, max: 4 });
      const copied = await loadFromSqlite(pool, await copyOf('postgres-source.db'));
      expect(copied.parties).toBe(USERS);
    });

    afterAll(async () => {
      await pool?.end();
      await fresh?.drop();
    });

    it('leaves the rows Questline left, a transaction per action and batched alike; then writes the trace again', async () => {
      const floor = await PostgresFloor.open(pool);
      expect(floor.use(trace)).toBe(true);
      expect(floor.use(rounds[0])).toBe(false);
      const half = ACTIONS / 2;
      // Submitted at once: a party's actions are written in order, and the batched ones up to 64
      // in a batch, a party once per batch.
      await Promise.all(Array.from({ length: half }, () => floor.perAction()));
      await Promise.all(Array.from({ length: ACTIONS - half }, () => floor.batched()));
      expect(floor.stale).toBe(0);
      expect(await rowsOf(async (sql) => (await pool.query(sql)).rows)).toEqual(questlineRows);
      // Past the trace's end, again with new ids, and party versions moved on by what a pass moved them.
      await Promise.all(Array.from({ length: ACTIONS + 10 }, (_, i) => (i % 2 === 0 ? floor.batched() : floor.perAction())));
      expect(floor.pass).toBe(3);
      expect(floor.stale).toBe(0);
      const { rows } = await pool.query<{ n: string }>('select count(*) as n from action_events');
      expect(Number(rows[0]?.n)).toBe((questlineRows.action_events ?? []).length + ACTIONS + 10);
    });
  });
});

describe('floor (b): points per action, written by hand', () => {
  it("reads and writes each table as often as Questline for the same users' actions", async () => {
    const users = 20;
    // Each user logs 15 actions: a badge at the 10th, a level at 100 points.
    const bodies = Array.from({ length: users * 15 }, (_, i) => ({ ...pointsActionBody(1), userId: `user-${i % users}` }));
    const t = await buildTestApp('embedded', UNLIMITED);
    const dir = mkdtempSync(join(tmpdir(), 'questline-floor-b-'));
    try {
      const site = await t.createSite();
      await t.app.services.programs.replace({ siteId: site.siteId, clientId: null }, pointsProgram());
      const token = await t.token(site.app);
      const recording = startRecording();
      await logActions(t, token, bodies, 1);
      const questline = segment(recording.stop());
      expect(questline.actions).toHaveLength(bodies.length);

      const filename = join(dir, 'floor.db');
      const database = openDatabase({ kind: 'sqlite', filename });
      await database.migrate();
      await database.close();
      const db = new Sqlite(filename);
      const floor = pointsFloor(db, 'floor');
      const replaying = startRecording();
      for (const { userId, body } of bodies) floor(userId, body);
      const statements = replaying.stop();
      db.close();
      expect(
        perTable(
          statements.map((s) => s.sql),
          bodies.length,
        ),
      ).toEqual(tracePerTable(questline));
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
