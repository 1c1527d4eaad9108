import type { Kysely } from 'kysely';

// Every transaction that changes a party's state (an action's decision, an admin adjustment, a
// level set by an admin) raises the party's version. The action path keeps a party's state in
// memory between decisions and trusts it only while the version it last saw is still the row's
// (src/modules/actions/party-cache.ts), so a change made anywhere else, by any node, is never missed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('parties')
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('parties').dropColumn('version').execute();
}
