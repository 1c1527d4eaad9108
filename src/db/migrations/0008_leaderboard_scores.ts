import type { Kysely } from 'kysely';

// Leaderboard scores (SPEC §7): one row per board, calendar window and party, written in the
// same transaction as the change that moves it. The ranking structures (in process or Redis) are
// built from these rows and can always be rebuilt; past windows stay here, readable as they were.
// Windows load whole by their key (the primary key's prefix): no index on the score, which would
// be rewritten by every change for nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('leaderboard_scores')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('board_id', 'text', (c) => c.notNull())
    // The window's first instant (ms); 0 for all-time boards.
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('score', 'double precision', (c) => c.notNull())
    // When the party reached this score: among equal scores, the earlier is listed first.
    .addColumn('reached_at', 'bigint', (c) => c.notNull())
    // Raised by every change, so that ranking structures never apply an older score over a newer one.
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('leaderboard_scores_pk', ['site_id', 'board_id', 'window_start', 'party_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('leaderboard_scores').execute();
}
