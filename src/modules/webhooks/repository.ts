// The dispatcher's and the admin API's reads and writes of outbox routing, deliveries and endpoints;
// every delivery made and every change of a delivery's status also tells the console's overview
// (src/db/analytics-changes.ts), in the same statement or transaction.
import { sql, type QueryCreator } from 'kysely';
import { uuidv7 } from '../../uuid.js';
import type { OffsetSpan } from '../../engine/calendar.js';
import type { AnalyticsChange } from '../../db/analytics-changes.js';
import type { Database, Db, Trx } from '../../db/index.js';
import { localDayNumber } from '../../db/local-days.js';
import type { DatabaseSchema, DeliveryStatus, OutboxTable, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/schema.js';
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

/**
 * The rows that tell the console's overview about deliveries entering and leaving statuses
 * (src/db/analytics-changes.ts), one per site, written in the transaction that changes them.
 */
async function writeChanges(db: Db, changes: ReadonlyArray<{ siteId: string; change: AnalyticsChange }>): Promise<void> {
  const bySite = new Map<string, AnalyticsChange[]>();
  for (const { siteId, change } of changes) bySite.set(siteId, [...(bySite.get(siteId) ?? []), change]);
  if (bySite.size === 0) return;
  await db
    .insertInto('analytics_changes')
    .values([...bySite].map(([siteId, list]) => ({ site_id: siteId, change_id: uuidv7(), changes: JSON.stringify(list) })))
    .execute();
}

/** A delivery of `createdAt` leaving status `from` for `to`. */
const moved = (siteId: string, createdAt: number, from: DeliveryStatus, to: DeliveryStatus) => [
  { siteId, change: ['w', createdAt, from, -1] as AnalyticsChange },
  { siteId, change: ['w', createdAt, to, 1] as AnalyticsChange },
];

/** Events waiting to be routed that backlog() looks through (they are routed within a second normally). */
const MAX_UNROUTED_COUNTED = 100_000;

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
      const made: Array<{ siteId: string; change: AnalyticsChange }> = [];
      for (const { event, destinations } of events) {
        if (destinations.length > 0) {
          const inserted = await trx
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
            .returning(['site_id', 'created_at'])
            .execute();
          for (const row of inserted) made.push({ siteId: row.site_id, change: ['w', Number(row.created_at), 'pending', 1] });
        }
      }
      await writeChanges(trx, made);
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

  /**
   * Records an attempt's outcome, unless the claim was lost meanwhile (lease expired and taken, or
   * redelivery); a delivery that leaves `pending` tells the overview, in the same statement
   * (PostgreSQL) or transaction (SQLite).
   */
  async finish(delivery: DeliveryRow, owner: string, result: AttemptResult): Promise<void> {
    if (result.status === 'pending') {
      await this.finishing(this.db, delivery, owner, result).execute();
      return;
    }
    if (this.database.dialect === 'postgres') {
      await this.db
        .with('finished', (db) => this.finishing(db, delivery, owner, result).returning(['site_id', 'created_at', 'status']))
        .insertInto('analytics_changes')
        .columns(['site_id', 'change_id', 'changes'])
        .expression((eb) =>
          eb
            .selectFrom('finished')
            .select([
              'site_id',
              sql<string>`gen_random_uuid()::text`.as('change_id'),
              sql<string>`json_build_array(json_build_array('w', created_at, 'pending', -1), json_build_array('w', created_at, status, 1))::text`.as('changes'),
            ]),
        )
        .execute();
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      const finished = await this.finishing(trx, delivery, owner, result).returning(['site_id', 'created_at']).execute();
      await writeChanges(
        trx,
        finished.flatMap((row) => moved(row.site_id, Number(row.created_at), 'pending', result.status)),
      );
    });
  }

  /** The update of a claimed (pending) delivery with an attempt's outcome. */
  private finishing(db: QueryCreator<DatabaseSchema>, delivery: DeliveryRow, owner: string, result: AttemptResult) {
    return db
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
      .where('status', '=', 'pending');
  }

  /** Gives back claims not attempted (a node stopping). */
  async release(owner: string): Promise<void> {
    await this.db.updateTable('webhook_deliveries').set({ lease_owner: null, lease_until: null }).where('lease_owner', '=', owner).execute();
  }

  /**
   * The site's deliveries created in [from, to), counted by their status and the local day of their
   * creation (`spans`: the site zone's offsets over the range), in the caller's transaction. Read
   * from the index on site, status and creation time alone.
   */
  async countByDay(
    trx: Trx,
    siteId: string,
    from: number,
    to: number,
    spans: readonly OffsetSpan[],
  ): Promise<Array<{ day: number; status: DeliveryStatus; n: number }>> {
    const rows = await trx.db
      .selectFrom('webhook_deliveries')
      .select([localDayNumber('created_at', spans).as('local_day'), 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('site_id', '=', siteId)
      .where('status', 'in', ['delivered', 'dead', 'pending'])
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy(['local_day', 'status'] as never)
      .execute();
    return rows.map((row) => ({ day: Number(row.local_day), status: row.status, n: Number(row.n) }));
  }

  /** What waits to be delivered for the site: pending deliveries (of which retrying: attempted before), the oldest one's creation, and events not routed yet. */
  async backlog(siteId: string): Promise<{ pending: number; retrying: number; oldest: number | null; unrouted: number }> {
    const [pending, unrouted] = await Promise.all([
      this.db
        .selectFrom('webhook_deliveries')
        .select([
          (eb) => eb.fn.countAll<number>().as('n'),
          (eb) => eb.fn.sum<number>(eb.case().when('attempts', '>', 0).then(1).else(0).end()).as('retrying'),
          (eb) => eb.fn.min<number>('created_at').as('oldest'),
        ])
        .where('site_id', '=', siteId)
        .where('status', '=', 'pending')
        .executeTakeFirst(),
      // From the index of the events to route (every site's, normally a few), as the dispatcher
      // reads them: the site's own index would read every event it ever had.
      this.db
        .selectFrom((eb) =>
          eb.selectFrom('outbox').select('site_id').where('routed_at', 'is', null).orderBy('created_at').limit(MAX_UNROUTED_COUNTED).as('unrouted'),
        )
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('unrouted.site_id', '=', siteId)
        .executeTakeFirst(),
    ]);
    return {
      pending: Number(pending?.n ?? 0),
      retrying: Number(pending?.retrying ?? 0),
      oldest: pending?.oldest === null || pending?.oldest === undefined ? null : Number(pending.oldest),
      unrouted: Number(unrouted?.n ?? 0),
    };
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
    return this.db.transaction().execute(async (trx) => {
      // Its status before (the row locked on PostgreSQL until the transaction ends).
      let before = trx.selectFrom('webhook_deliveries').select('status').where('site_id', '=', siteId).where('delivery_id', '=', deliveryId);
      if (this.database.dialect === 'postgres') before = before.forUpdate();
      const previous = await before.executeTakeFirst();
      if (previous === undefined) return undefined;
      const row = await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', retry_from: now, next_attempt_at: now, lease_owner: null, lease_until: null })
        .where('site_id', '=', siteId)
        .where('delivery_id', '=', deliveryId)
        .returningAll()
        .executeTakeFirst();
      if (row !== undefined && previous.status !== 'pending') await writeChanges(trx, moved(siteId, Number(row.created_at), previous.status, 'pending'));
      return row;
    });
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
