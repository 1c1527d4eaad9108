import type { Kysely } from 'kysely';

// Leaderboards that close (docs/leaderboards.md, "Closed windows and prizes"). A board's cursor is
// the start of the first window the closer has still to close: set, when the closer first sees the
// board, to the start of its window then (windows that ended before are never closed, so no prize
// is paid for them after the fact). A closing is the claim on one window (inserted if absent: the
// node whose insert lands pays, any other sees the window closed), with the prizes that applied;
// its results are the final standings kept (the top of the board up to its size, and every party
// that won a prize), each with what it was paid.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('leaderboard_cursors')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('board_id', 'text', (c) => c.notNull())
    .addColumn('next_window_start', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('leaderboard_cursors_pk', ['site_id', 'board_id'])
    .execute();

  await db.schema
    .createTable('leaderboard_closings')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('board_id', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('window_end', 'bigint', (c) => c.notNull())
    .addColumn('closing_id', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    // The board's prizes when it closed (JSON), which `questline verify` checks the payouts against.
    .addColumn('prizes', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('leaderboard_closings_pk', ['site_id', 'board_id', 'window_start'])
    .execute();
  await db.schema.createIndex('leaderboard_closings_id').on('leaderboard_closings').columns(['site_id', 'closing_id']).unique().execute();

  await db.schema
    .createTable('leaderboard_results')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('closing_id', 'text', (c) => c.notNull())
    // 0-based listing order (score, then who reached it first, then id); ranks are shared by ties.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('score', 'double precision', (c) => c.notNull())
    // What the party was paid (JSON rewards), null for none.
    .addColumn('prize', 'text')
    .addPrimaryKeyConstraint('leaderboard_results_pk', ['site_id', 'closing_id', 'position'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['leaderboard_results', 'leaderboard_closings', 'leaderboard_cursors']) await db.schema.dropTable(table).execute();
}
