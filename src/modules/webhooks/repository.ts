// The dispatcher's and the admin API's reads and writes of outbox routing, deliveries and endpoints.
import type { Database, Db } from '../../db/index.js';
import type { DeliveryStatus, OutboxTable, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/schema.js';
import type { OutboxDepth } from '../../infra/metrics.js';
import type { Subscription } from '../program/event-routing.js';

export type DeliveryRow = WebhookDeliveriesTable;
export type UnroutedEvent = Pick<OutboxTable, 'site_id' | 'event_id' | 'event_type' | 'party_type' | 'party_id' | 'payload'>;

export interface DeliveryFilter {
  status?: DeliveryStatus | undefined;
  eventType?: string | undefined;
  userId?: string | undefined;
  limit: number;
  offset: number;
}

export interface AttemptResult {
  status: DeliveryStatus;
  nextAttemptAt: number;
  url: string | null;
  httpStatus: number | null;
  error: string | null;
  at: number;
}

export class WebhookRepository {
  constructor(private readonly database: Pick<Database, 'db' | 'dialect'>) {}

  private get db(): Db {
    return this.database.db;
  }

  /** What waits in the outbox (the metrics read it at each scrape). */
  async outboxDepth(): Promise<OutboxDepth> {
    const [unrouted, pending] = await Promise.all([
      this.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('routed_at', 'is', null)
        .executeTakeFirst(),
      this.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'pending')
        .executeTakeFirst(),
    ]);
    return { unrouted: Number(unrouted?.n ?? 0), pending: Number(pending?.n ?? 0) };
  }

  /** Outbox events not routed yet, oldest first. */
  unrouted(limit: number): Promise<UnroutedEvent[]> {
    return this.db
      .selectFrom('outbox')
      .select(['site_id', 'event_id', 'event_type', 'party_type', 'party_id', 'payload'])
      .where('routed_at', 'is', null)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /**
   * Makes the deliveries of routed events and marks the events routed, in one transaction. Routing
   * the same event twice (two nodes at once) makes no second delivery (unique per destination).
   */
  async route(events: ReadonlyArray<{ event: UnroutedEvent; destinations: readonly string[] }>, newId: () => string, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const { event, destinations } of events) {
        if (destinations.length > 0) {
          await trx
            .insertInto('webhook_deliveries')
            .values(
              destinations.map((destination) => ({
                site_id: event.site_id,
                delivery_id: newId(),
                event_id: event.event_id,
                event_type: event.event_type,
                party_type: event.party_type,
                party_id: event.party_id,
                destination,
                status: 'pending' as const,
                attempts: 0,
                retry_from: now,
                next_attempt_at: now,
                lease_owner: null,
                lease_until: null,
                last_attempt_at: null,
                last_url: null,
                last_status: null,
                last_error: null,
                delivered_at: null,
                created_at: now,
              })),
            )
            .onConflict((oc) => oc.columns(['site_id', 'event_id', 'destination']).doNothing())
            .execute();
        }
      }
      // One statement per site for the batch (a statement per event cost PostgreSQL more than the routing).
      const bySite = new Map<string, string[]>();
      for (const { event } of events) bySite.set(event.site_id, [...(bySite.get(event.site_id) ?? []), event.event_id]);
      for (const [siteId, eventIds] of bySite) {
        await trx.updateTable('outbox').set({ routed_at: now }).where('site_id', '=', siteId).where('event_id', 'in', eventIds).execute();
      }
    });
  }

  /**
   * Claims up to `limit` due deliveries for `owner` until `leaseUntil`. On PostgreSQL rows that
   * another node is claiming are skipped (FOR UPDATE SKIP LOCKED), so no two nodes claim one row.
   */
  async claim(now: number, limit: number, owner: string, leaseUntil: number): Promise<DeliveryRow[]> {
    let due = this.db
      .selectFrom('webhook_deliveries')
      .select('delivery_id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .limit(limit);
    if (this.database.dialect === 'postgres') due = due.forUpdate().skipLocked();
    return this.db
      .updateTable('webhook_deliveries')
      .set({ lease_owner: owner, lease_until: leaseUntil })
      .where('delivery_id', 'in', due)
      .returningAll()
      .execute();
  }

  /** Records an attempt's outcome, unless the claim was lost meanwhile (lease expired and taken, or redelivery). */
  async finish(delivery: DeliveryRow, owner: string, result: AttemptResult): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: result.status,
        attempts: eb('attempts', '+', 1),
        next_attempt_at: result.nextAttemptAt,
        lease_owner: null,
        lease_until: null,
        last_attempt_at: result.at,
        last_url: result.url,
        last_status: result.httpStatus,
        last_error: result.error,
        ...(result.status === 'delivered' ? { delivered_at: result.at } : {}),
      }))
      .where('site_id', '=', delivery.site_id)
      .where('delivery_id', '=', delivery.delivery_id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** Gives back claims not attempted (a node stopping). */
  async release(owner: string): Promise<void> {
    await this.db.updateTable('webhook_deliveries').set({ lease_owner: null, lease_until: null }).where('lease_owner', '=', owner).execute();
  }

  async list(siteId: string, filter: DeliveryFilter): Promise<{ rows: DeliveryRow[]; total: number }> {
    let query = this.db.selectFrom('webhook_deliveries').where('site_id', '=', siteId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.eventType !== undefined) query = query.where('event_type', '=', filter.eventType);
    if (filter.userId !== undefined) query = query.where('party_type', '=', 'user').where('party_id', '=', filter.userId);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('created_at', 'desc').orderBy('delivery_id', 'desc').limit(filter.limit).offset(filter.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { rows, total: Number(total?.n ?? 0) };
  }

  find(siteId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
    return this.db.selectFrom('webhook_deliveries').selectAll().where('site_id', '=', siteId).where('delivery_id', '=', deliveryId).executeTakeFirst();
  }

  /** Sends the delivery again: pending now, with a new 3-day retry window; a claim in flight loses its say. */
  async redeliver(siteId: string, deliveryId: string, now: number): Promise<DeliveryRow | undefined> {
    return this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', retry_from: now, next_attempt_at: now, lease_owner: null, lease_until: null })
      .where('site_id', '=', siteId)
      .where('delivery_id', '=', deliveryId)
      .returningAll()
      .executeTakeFirst();
  }

  /** The raw event a delivery carries. */
  async payload(siteId: string, eventId: string): Promise<string | undefined> {
    return (await this.db.selectFrom('outbox').select('payload').where('site_id', '=', siteId).where('event_id', '=', eventId).executeTakeFirst())?.payload;
  }

  async subscriptions(siteId: string): Promise<Subscription[]> {
    return (await this.endpoints(siteId)).map((row) => ({ endpointId: row.endpoint_id, url: row.url, eventTypes: JSON.parse(row.event_types) as string[] }));
  }

  endpoints(siteId: string): Promise<WebhookEndpointsTable[]> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('site_id', '=', siteId).orderBy('created_at').orderBy('endpoint_id').execute();
  }

  endpoint(siteId: string, endpointId: string): Promise<WebhookEndpointsTable | undefined> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('site_id', '=', siteId).where('endpoint_id', '=', endpointId).executeTakeFirst();
  }

  // Endpoints change in the caller's transaction `trx`, which also raises the program version (ProgramService.changeEndpoints).
  async createEndpoint(trx: Db, row: WebhookEndpointsTable): Promise<void> {
    await trx.insertInto('webhook_endpoints').values(row).execute();
  }

  async updateEndpoint(
    trx: Db,
    siteId: string,
    endpointId: string,
    fields: Pick<WebhookEndpointsTable, 'url' | 'event_types' | 'description'>,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('webhook_endpoints')
      .set(fields)
      .where('site_id', '=', siteId)
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteEndpoint(trx: Db, siteId: string, endpointId: string): Promise<boolean> {
    const result = await trx.deleteFrom('webhook_endpoints').where('site_id', '=', siteId).where('endpoint_id', '=', endpointId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
