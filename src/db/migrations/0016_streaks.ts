import type { Kysely } from 'kysely';

// Streaks (docs/streaks.md). A streak is a pure function of the periods a user counted, so only
// those are kept, by site-local day (a weekly streak reads its weeks from the days):
// - streak_days: per user, streak and local day number, how many live actions (or completions of
//   the streak's mission) counted it; a reversal takes one back, and the day counts while above 0.
// - streak_milestones: each milestone paid, by the run it was paid in (its first period): the key
//   makes a milestone paid once per run whatever the concurrency.
// - streak_notices: each freeze used and each break announced (streak.frozen, streak.broken),
//   keyed by the period, so that sweeps on several nodes send each once.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('streak_days')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('streak_id', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('actions', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('streak_days_pk', ['site_id', 'user_id', 'streak_id', 'day'])
    .execute();

  await db.schema
    .createTable('streak_milestones')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('streak_id', 'text', (c) => c.notNull())
    .addColumn('length', 'integer', (c) => c.notNull())
    // The run's first period, and the period in which it reached the length.
    .addColumn('run_start', 'integer', (c) => c.notNull())
    .addColumn('reached', 'integer', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    // The badge it awarded (null: none) and when it counts as earned (the action's time), for the trophy cases verify recomputes.
    .addColumn('badge_id', 'text')
    .addColumn('earned_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('streak_milestones_pk', ['site_id', 'user_id', 'streak_id', 'length', 'run_start'])
    .execute();

  await db.schema
    .createTable('streak_notices')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('streak_id', 'text', (c) => c.notNull())
    // frozen | broken
    .addColumn('kind', 'text', (c) => c.notNull())
    // The period missed (frozen), or the one whose miss broke the run (broken).
    .addColumn('period', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('streak_notices_pk', ['site_id', 'user_id', 'streak_id', 'kind', 'period'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['streak_notices', 'streak_milestones', 'streak_days']) await db.schema.dropTable(table).execute();
}
