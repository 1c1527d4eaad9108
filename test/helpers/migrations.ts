// Helpers for the migration tests: a Migrator over a fresh test database (in its own schema on
// PostgreSQL), and whether a table exists.
import { Migrator, sql } from 'kysely';
import type { Db } from '../../src/db/index.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import type { freshDatabase } from './app.js';

export function migratorOf(fresh: Awaited<ReturnType<typeof freshDatabase>>): Migrator {
  return new Migrator({
    db: fresh.database.db,
    provider: migrationProvider,
    ...(fresh.config.kind === 'postgres' ? { migrationTableSchema: fresh.config.schema } : {}),
  });
}

/** Whether a statement against the table works (it exists). */
export async function tableExists(db: Db, table: string): Promise<boolean> {
  return sql`select count(*) as n from ${sql.table(table)}`.execute(db).then(
    () => true,
    () => false,
  );
}
