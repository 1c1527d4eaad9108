// Dialect selection: one query layer (Kysely) over SQLite (embedded default) or PostgreSQL.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig, SqliteSynchronous } from '../config.js';
import { databaseUnreachable, withConnectTimeout } from '../startup.js';
import { BACKSTOP_PAGES, Checkpointer } from './checkpointer.js';
import { preparedName } from './statement-names.js';
import { CachedSqliteDialect, type DirectStatements } from './sqlite-dialect.js';
import { migrationProvider } from './migrations/index.js';
import type { DatabaseSchema } from './schema.js';

export type Db = Kysely<DatabaseSchema>;
export type DialectName = DatabaseConfig['kind'];

/**
 * A transaction as the hot path's precompiled queries (./precompiled.ts) see it: the Kysely
 * transaction, and on SQLite the connection it holds, on which statements run synchronously
 * without the query executor's round trips. Outside a transaction: `{ db }`.
 */
export interface Trx {
  readonly db: Db;
  readonly direct?: DirectStatements | undefined;
}

export interface Database {
  db: Db;
  dialect: DialectName;
  /** Runs `fn` in one transaction (committed when it resolves, rolled back when it throws). */
  transaction<T>(fn: (trx: Trx) => Promise<T>): Promise<T>;
  /** Applies every pending migration; returns the names applied. */
  migrate(): Promise<string[]>;
  /** A cheap round trip, for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

export function openDatabase(config: DatabaseConfig): Database {
  const { db, migrationTableSchema, direct, checkpointer } =
    config.kind === 'sqlite' ? openSqlite(config.filename, config.synchronous ?? 'NORMAL') : openPostgres(config);
  const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema });
  return {
    db,
    dialect: config.kind,
    transaction: (fn) => db.transaction().execute((trx) => fn({ db: trx, direct })),
    async migrate() {
      for (let attempt = 1; ; attempt++) {
        const { error, results } = await migrator.migrateToLatest();
        if (error === undefined) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
        // Kysely looks for its migration table by listing the tables of every schema; a schema
        // another user of the server drops meanwhile fails that listing with 3F000
        // (invalid_schema_name). Nothing was migrated: look again.
        if (attempt < 5 && (error as { code?: unknown }).code === '3F000') continue;
        throw error;
      }
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
      await checkpointer?.stop();
    },
  };
}

/**
 * openDatabase and a first round trip, for a process that starts: a database that cannot be opened
 * or reached is a StartupError naming DATABASE_URL (src/startup.ts) rather than a driver's stack.
 */
export async function openReachableDatabase(config: DatabaseConfig): Promise<Database> {
  let database: Database | undefined;
  try {
    database = openDatabase(config);
    await withConnectTimeout(database.ping());
    return database;
  } catch (error) {
    // Not awaited: a pool still connecting to an address that does not answer would hold it up.
    void database?.close().catch(() => undefined);
    throw databaseUnreachable(config, error);
  }
}

function openSqlite(
  filename: string,
  synchronous: SqliteSynchronous,
): { db: Db; migrationTableSchema: undefined; direct: DirectStatements; checkpointer: Checkpointer | undefined } {
  const { database, checkpointer } = sqliteConnection(filename, synchronous);
  const dialect = new CachedSqliteDialect(database);
  return { db: new Kysely<DatabaseSchema>({ dialect }), migrationTableSchema: undefined, direct: dialect.direct, checkpointer };
}

/**
 * A connection to the SQLite file with the settings Questline serves with, and the worker that
 * checkpoints it (none in memory). The bench's SQLite floors use it too (bench/floor-server.ts).
 */
export function sqliteConnection(filename: string, synchronous: SqliteSynchronous): { database: Sqlite.Database; checkpointer: Checkpointer | undefined } {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const database = new Sqlite(filename);
  database.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a committed transaction survives a process crash; a power loss may lose
  // the last transactions but never corrupts the file. FULL also survives a power loss, at the
  // cost of an fsync per commit (docs/deployment.md).
  database.pragma(`synchronous = ${synchronous}`);
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // Pages in memory: 64 MiB (the default of 2 MiB makes every decision read its pages from the OS).
  database.pragma('cache_size = -65536');
  // Temporary files in memory: a savepoint of the group commit keeps its undo copies there.
  database.pragma('temp_store = MEMORY');
  let checkpointer: Checkpointer | undefined;
  if (filename !== ':memory:') {
    // Checkpoints happen on another thread (./checkpointer.ts); this connection only as a backstop.
    database.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    checkpointer = new Checkpointer(filename, synchronous, (message) => process.emitWarning(`SQLite checkpoint: ${message}`));
  }
  return { database, checkpointer };
}

/** How long a connection keeps a precompiled query's prepared statement before preparing it anew (DATABASE_REPLAN_SECONDS). */
export const REPREPARE_MS = 60_000;

/**
 * A pg client that runs the precompiled queries (./precompiled.ts) as named prepared statements
 * (./statement-names.ts):
 * Kysely's PostgreSQL driver calls `query(sql, parameters)`, which pg parses and plans every time.
 *
 * A prepared statement keeps the generic plan PostgreSQL settles on after a few executions for as
 * long as the connection lives, whatever the tables became since: one made while a new database
 * was nearly empty can scan a whole site's events for each action (an index chosen on no
 * statistics). So each statement is prepared anew (a new name, the old one deallocated) once it is
 * `reprepareMs` old: its plan follows the tables' statistics within that time, for a few plannings
 * a minute.
 */
export class PreparingClient extends pg.Client {
  /** Per precompiled query: the name it is prepared under on this connection now, and since when. */
  readonly #prepared = new Map<string, { name: string; since: number; generation: number }>();
  readonly #reprepareMs: number;

  constructor(config?: pg.ClientConfig & { reprepareMs?: number }) {
    super(config);
    this.#reprepareMs = config?.reprepareMs ?? REPREPARE_MS;
  }

  // pg's overloads cannot be spelt in an override; Kysely uses only query(text, values).
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const query = super.query as (...a: unknown[]) => never;
    const base = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? preparedName(text) : undefined;
    if (base === undefined) return query.apply(this, args);
    const now = Date.now();
    let statement = this.#prepared.get(base);
    if (statement === undefined) {
      statement = { name: base, since: now, generation: 0 };
      this.#prepared.set(base, statement);
    } else if (now - statement.since >= this.#reprepareMs) {
      this.#forget(statement.name);
      statement.generation += 1;
      statement.name = `${base}_${statement.generation}`;
      statement.since = now;
    }
    return query.call(this, { name: statement.name, text, values });
  }

  /** Deallocates a statement this connection prepared (queued like any query; DEALLOCATE is not transactional, and cannot fail for a statement that exists). */
  #forget(name: string): void {
    const parsed = (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
    if (parsed[name] === undefined) return;
    delete parsed[name];
    (super.query as (text: string) => Promise<unknown>).call(this, `deallocate ${name}`).catch(() => {});
  }
}

function openPostgres(config: Extract<DatabaseConfig, { kind: 'postgres' }>): {
  db: Db;
  migrationTableSchema: string | undefined;
  direct: undefined;
  checkpointer: undefined;
} {
  const pool = new pg.Pool({
    Client: PreparingClient,
    ...(config.replanMs !== undefined ? { reprepareMs: config.replanMs } : {}),
    connectionString: config.url,
    max: config.poolSize,
    // A private schema (tests use one per file) is selected for every connection of the pool.
    ...(config.schema !== undefined ? { options: `-c search_path=${config.schema}` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        // Instants and counters are bigint: read them as numbers (exact below 2^53).
        if (oid === PG_INT8 || oid === PG_NUMERIC) return (value: string) => Number(value);
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  return {
    db: new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) }),
    migrationTableSchema: config.schema,
    direct: undefined,
    checkpointer: undefined,
  };
}
