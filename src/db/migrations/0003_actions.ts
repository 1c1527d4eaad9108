import type { Kysely } from 'kysely';

// The action engine's state (SPEC §5). A party is a user or a group; every table is keyed by
// site_id first. The points ledger is the source of truth; balances, cap totals, progress and
// trophy counts are maintained beside it in the same transaction (questline verify recomputes them).
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per user or group that was ever referenced: the lock that serializes its decisions.
  await db.schema
    .createTable('parties')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // The previous recorded action {action, value, metadata}, for back-to-back suppression.
    .addColumn('last_recorded', 'text')
    .addColumn('level_id', 'text')
    // Per-party event sequence for webhook consumers (SPEC §12).
    .addColumn('sequence', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('parties_pk', ['site_id', 'party_type', 'party_id'])
    .execute();

  // Every logged action, recorded or not: idempotency returns the original outcome.
  await db.schema
    .createTable('action_events')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('recorded', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text')
    // The response given when it was logged, returned again for a duplicate.
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('action_events_pk', ['site_id', 'event_id'])
    .execute();
  await db.schema.createIndex('action_events_party_time').on('action_events').columns(['site_id', 'party_type', 'party_id', 'occurred_at']).execute();
  await db.schema
    .createIndex('action_events_party_action_time')
    .on('action_events')
    .columns(['site_id', 'party_type', 'party_id', 'action', 'occurred_at'])
    .execute();
  await db.schema.createIndex('action_events_site_time').on('action_events').columns(['site_id', 'occurred_at']).execute();

  await db.schema
    .createTable('mission_progress')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('mission_id', 'text', (c) => c.notNull())
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('current', 'double precision', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('mission_progress_pk', ['site_id', 'party_type', 'party_id', 'mission_id', 'rule_id'])
    .execute();

  await db.schema
    .createTable('mission_completions')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('completion_id', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('mission_id', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'bigint', (c) => c.notNull())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .addColumn('removed_at', 'bigint')
    .addPrimaryKeyConstraint('mission_completions_pk', ['site_id', 'completion_id'])
    .execute();
  await db.schema
    .createIndex('mission_completions_party_mission')
    .on('mission_completions')
    .columns(['site_id', 'party_type', 'party_id', 'mission_id', 'window_start'])
    .execute();

  // Site-wide completions of missions with a supply: claimed by an atomic conditional update.
  await db.schema
    .createTable('mission_supply')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('mission_id', 'text', (c) => c.notNull())
    .addColumn('used', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('mission_supply_pk', ['site_id', 'mission_id'])
    .execute();

  // Append-only: every credit and debit with its cause.
  await db.schema
    .createTable('points_ledger')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('requested', 'bigint', (c) => c.notNull())
    .addColumn('credited', 'bigint', (c) => c.notNull())
    // mission | adjustment
    .addColumn('cause', 'text', (c) => c.notNull())
    .addColumn('cause_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text')
    .addColumn('reason', 'text')
    // When the points count (the action's timestamp): the calendar windows of caps and leaderboards.
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('points_ledger_pk', ['site_id', 'entry_id'])
    .execute();
  await db.schema.createIndex('points_ledger_party').on('points_ledger').columns(['site_id', 'party_type', 'party_id', 'category']).execute();

  await db.schema
    .createTable('point_balances')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull())
    .addColumn('lifetime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('point_balances_pk', ['site_id', 'party_type', 'party_id', 'category'])
    .execute();

  // What a party earned through actions per calendar day and year (site time zone): the caps.
  await db.schema
    .createTable('point_earnings')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('earned', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('point_earnings_pk', ['site_id', 'party_type', 'party_id', 'category', 'period', 'period_start'])
    .execute();

  await db.schema
    .createTable('trophies')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('badge_id', 'text', (c) => c.notNull())
    .addColumn('earned_count', 'integer', (c) => c.notNull())
    .addColumn('first_earned_at', 'bigint', (c) => c.notNull())
    .addColumn('last_earned_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('trophies_pk', ['site_id', 'party_type', 'party_id', 'badge_id'])
    .execute();

  await db.schema
    .createTable('level_changes')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('change_id', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('from_level', 'text')
    .addColumn('to_level', 'text')
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text')
    .addColumn('changed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('level_changes_pk', ['site_id', 'change_id'])
    .execute();

  // Transactional outbox (SPEC §12): written with the state change it reports; delivered later.
  await db.schema
    .createTable('outbox')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('sequence', 'bigint', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('outbox_pk', ['site_id', 'event_id'])
    .execute();
  await db.schema.createIndex('outbox_created').on('outbox').columns(['created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'outbox',
    'level_changes',
    'trophies',
    'point_earnings',
    'point_balances',
    'points_ledger',
    'mission_supply',
    'mission_completions',
    'mission_progress',
    'action_events',
    'parties',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
