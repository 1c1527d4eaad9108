import { sql, type Kysely } from 'kysely';

// Webhook delivery (SPEC §12). The outbox keeps the events, written with the state change they
// report; the dispatcher routes each one once (routed_at) into a delivery per destination, and
// delivers those with retries. Admin subscriptions name the event types that have no site URL.
// A rotated signing secret keeps signing beside the new one until the overlap ends.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('routed_at', 'bigint').execute();
  // Only the rows still to route are indexed: routing reads them oldest first.
  await db.schema.createIndex('outbox_unrouted').on('outbox').columns(['created_at']).where(sql.ref('routed_at'), 'is', null).execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // JSON array of event types.
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_endpoints_pk', ['site_id', 'endpoint_id'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('party_type', 'text', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    // `site:achievementCallbackUrl` (a site setting) or `endpoint:<id>` (an admin subscription);
    // the URL is read when each attempt is made, so a corrected URL serves the retries.
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    // Retries stop (dead) 3 days after this: the delivery's creation, or its last redelivery.
    .addColumn('retry_from', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    // A claim: the node attempting it, and until when (a node that dies loses it at that time).
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('last_url', 'text')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_deliveries_pk', ['site_id', 'delivery_id'])
    // Routing twice (two nodes, or a retry after a crash) never makes a second delivery.
    .addUniqueConstraint('webhook_deliveries_event_destination', ['site_id', 'event_id', 'destination'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['next_attempt_at'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema.createIndex('webhook_deliveries_site_created').on('webhook_deliveries').columns(['site_id', 'created_at']).execute();
  await db.schema.createIndex('webhook_deliveries_site_party').on('webhook_deliveries').columns(['site_id', 'party_id', 'created_at']).execute();

  await db.schema.alterTable('site_programs').addColumn('previous_webhook_secret', 'text').execute();
  await db.schema.alterTable('site_programs').addColumn('previous_webhook_secret_until', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_programs').dropColumn('previous_webhook_secret_until').execute();
  await db.schema.alterTable('site_programs').dropColumn('previous_webhook_secret').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
  await db.schema.dropIndex('outbox_unrouted').execute();
  await db.schema.alterTable('outbox').dropColumn('routed_at').execute();
}
