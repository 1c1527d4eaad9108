// Dialect selection: one query layer (Kysely) over SQLite (embedded default) or PostgreSQL.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { CachedSqliteDialect } from './sqlite-dialect.js';
import { migrationProvider } from './migrations/index.js';
import type { DatabaseSchema } from './schema.js';

export type Db = Kysely<DatabaseSchema>;
export type DialectName = DatabaseConfig['kind'];

export interface Database {
  db: Db;
  dialect: DialectName;
  /** Applies every pending migration; returns the names applied. */
  migrate(): Promise<string[]>;
  /** A cheap round trip, for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

export function openDatabase(config: DatabaseConfig): Database {
  const { db, migrationTableSchema } = config.kind === 'sqlite' ? openSqlite(config.filename) : openPostgres(config);
  const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema });
  return {
    db,
    dialect: config.kind,
    async migrate() {
      const { error, results } = await migrator.migrateToLatest();
      if (error !== undefined) throw error;
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

function openSqlite(filename: string): { db: Db; migrationTableSchema: undefined } {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const database = new Sqlite(filename);
  database.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a committed transaction survives a process crash; a power loss may lose
  // the last transactions but never corrupts the file (docs/deployment.md).
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return { db: new Kysely<DatabaseSchema>({ dialect: new CachedSqliteDialect(database) }), migrationTableSchema: undefined };
}

function openPostgres(config: Extract<DatabaseConfig, { kind: 'postgres' }>): { db: Db; migrationTableSchema: string | undefined } {
  const pool = new pg.Pool({
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
  };
}
