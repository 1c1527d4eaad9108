import { sql, type Kysely } from 'kysely';

// Reversals (SPEC §12). An action event can be reversed once (reversed_at, and the reversal's
// outcome for idempotent repeats); it remembers the groups whose missions it advanced, so that a
// reversal takes its contribution back from the right groups even after memberships change. A
// completion keeps the badge it awarded, so that a removal takes back that badge, and trophy cases
// can be recomputed from completions (`questline verify`). Completions and ledger entries are
// found by the event and the completion that caused them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('action_events').addColumn('reversed_at', 'bigint').execute();
  await db.schema.alterTable('action_events').addColumn('reversal', 'text').execute();
  await db.schema.alterTable('action_events').addColumn('groups', 'text').execute();
  await db.schema.alterTable('mission_completions').addColumn('badge_id', 'text').execute();
  await db.schema.createIndex('mission_completions_event').on('mission_completions').columns(['site_id', 'event_id']).execute();
  await db.schema.createIndex('points_ledger_cause').on('points_ledger').columns(['site_id', 'cause_id']).execute();

  // Completions written before: the badge their mission rewards in the site's current program.
  const programs = await sql<{ site_id: string; document: string }>`select site_id, document from site_programs`.execute(db);
  for (const { site_id: siteId, document } of programs.rows) {
    const missions = (JSON.parse(document) as { missions?: Array<{ id: string; rewards?: { badge?: string } }> }).missions ?? [];
    for (const mission of missions) {
      if (mission.rewards?.badge === undefined) continue;
      await sql`update mission_completions set badge_id = ${mission.rewards.badge} where site_id = ${siteId} and mission_id = ${mission.id} and badge_id is null`.execute(
        db,
      );
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('points_ledger_cause').execute();
  await db.schema.dropIndex('mission_completions_event').execute();
  await db.schema.alterTable('mission_completions').dropColumn('badge_id').execute();
  for (const column of ['groups', 'reversal', 'reversed_at']) await db.schema.alterTable('action_events').dropColumn(column).execute();
}
