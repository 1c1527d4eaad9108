// The admin side of webhooks (SPEC §12): subscriptions of endpoints to the event types that have
// no site URL, the delivery log with redelivery, the signing secret, and deliveries per day and
// the backlog for the console's overview.
import { uuidv7 } from '../../uuid.js';
import type { OffsetSpan } from '../../engine/calendar.js';
import type { Trx } from '../../db/index.js';
import type { DeliveryStatus, WebhookEndpointsTable } from '../../db/schema.js';
import { AppError, type FieldError } from '../../errors.js';
import type { ProgramService } from '../program/service.js';
import type { DeliveryFilter, DeliveryRow, WebhookRepository } from './repository.js';
import { EVENT_TYPES, SUBSCRIBABLE_TYPES } from '../program/event-routing.js';
import { checkedTarget, RefusedTarget } from '../../http/targets.js';

export interface EndpointInput {
  url: string;
  eventTypes: string[];
  description?: string | undefined;
}

export interface Endpoint {
  id: string;
  url: string;
  eventTypes: string[];
  description: string | null;
  createdAt: string;
}

export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  userId?: string;
  groupId?: string;
  destination: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastUrl: string | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

/** Deliveries per local day of their creation (its number: localDayNumber in src/engine/calendar.ts), by their status now. */
export type DeliveriesByDay = Map<number, { delivered: number; failed: number; pending: number }>;

/** What waits to be delivered for a site now. */
export interface DeliveryBacklog {
  /** Deliveries waiting for an attempt, of which `retrying` failed at least once. */
  pending: number;
  retrying: number;
  oldestPendingAt: string | null;
  /** Events written but not routed into deliveries yet. */
  unrouted: number;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export class WebhookAdminService {
  constructor(
    private readonly repository: WebhookRepository,
    /** Endpoint changes go through it: which types have a subscriber is part of the site's program snapshot. */
    private readonly programs: Pick<ProgramService, 'changeEndpoints'>,
    private readonly options: { allowPrivateNetworks: boolean; clock?: () => number; onChange?: () => void },
  ) {}

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }

  async endpoints(siteId: string): Promise<Endpoint[]> {
    return (await this.repository.endpoints(siteId)).map(presentEndpoint);
  }

  async endpoint(siteId: string, endpointId: string): Promise<Endpoint> {
    const row = await this.repository.endpoint(siteId, endpointId);
    if (row === undefined) throw new AppError('not_found', `No webhook endpoint "${endpointId}"`);
    return presentEndpoint(row);
  }

  async createEndpoint(siteId: string, input: EndpointInput): Promise<Endpoint> {
    const row: WebhookEndpointsTable = {
      site_id: siteId,
      endpoint_id: `whe_${uuidv7()}`,
      ...this.checked(input),
      created_at: this.now(),
    };
    await this.programs.changeEndpoints(siteId, (trx) => this.repository.createEndpoint(trx, row));
    return presentEndpoint(row);
  }

  async updateEndpoint(siteId: string, endpointId: string, input: EndpointInput): Promise<Endpoint> {
    const fields = this.checked(input);
    await this.programs.changeEndpoints(siteId, async (trx) => {
      if (!(await this.repository.updateEndpoint(trx, siteId, endpointId, fields))) throw new AppError('not_found', `No webhook endpoint "${endpointId}"`);
    });
    return this.endpoint(siteId, endpointId);
  }

  /** Deletes the subscription; its pending deliveries end as dead at their next attempt. */
  async deleteEndpoint(siteId: string, endpointId: string): Promise<void> {
    await this.programs.changeEndpoints(siteId, async (trx) => {
      if (!(await this.repository.deleteEndpoint(trx, siteId, endpointId))) throw new AppError('not_found', `No webhook endpoint "${endpointId}"`);
    });
  }

  async deliveries(siteId: string, filter: DeliveryFilter): Promise<{ deliveries: Delivery[]; total: number }> {
    const { rows, total } = await this.repository.list(siteId, filter);
    return { deliveries: rows.map(presentDelivery), total };
  }

  async delivery(siteId: string, deliveryId: string): Promise<Delivery> {
    const row = await this.repository.find(siteId, deliveryId);
    if (row === undefined) throw new AppError('not_found', `No webhook delivery "${deliveryId}"`);
    return presentDelivery(row);
  }

  /**
   * The site's deliveries made from `from` on, per local day (`spans`: the site zone's offsets from
   * `from`) and status now, in the caller's transaction `trx` (the console's overview builds its
   * figures from these, then follows the changes the repository writes with each delivery).
   */
  async deliveriesByDay(trx: Trx, siteId: string, from: number, spans: readonly OffsetSpan[]): Promise<DeliveriesByDay> {
    const days: DeliveriesByDay = new Map();
    for (const { day, status, n } of await this.repository.countByDay(trx, siteId, from, Number.MAX_SAFE_INTEGER, spans)) {
      let entry = days.get(day);
      if (entry === undefined) days.set(day, (entry = { delivered: 0, failed: 0, pending: 0 }));
      entry[status === 'delivered' ? 'delivered' : status === 'dead' ? 'failed' : 'pending'] += n;
    }
    return days;
  }

  /** What waits to be delivered for the site now. */
  async backlog(siteId: string): Promise<DeliveryBacklog> {
    const backlog = await this.repository.backlog(siteId);
    return { pending: backlog.pending, retrying: backlog.retrying, oldestPendingAt: iso(backlog.oldest), unrouted: backlog.unrouted };
  }

  /** Sends a delivery again (whatever its status) with a fresh retry window; receivers see the same webhook-id. */
  async redeliver(siteId: string, deliveryId: string): Promise<Delivery> {
    const row = await this.repository.redeliver(siteId, deliveryId, this.now());
    if (row === undefined) throw new AppError('not_found', `No webhook delivery "${deliveryId}"`);
    this.options.onChange?.();
    return presentDelivery(row);
  }

  private checked(input: EndpointInput): Pick<WebhookEndpointsTable, 'url' | 'event_types' | 'description'> {
    const errors: FieldError[] = [];
    try {
      checkedTarget(input.url, this.options.allowPrivateNetworks);
    } catch (error) {
      if (!(error instanceof RefusedTarget)) throw error;
      errors.push({ path: 'url', message: error.message });
    }
    for (const [i, type] of input.eventTypes.entries()) {
      if ((SUBSCRIBABLE_TYPES as readonly string[]).includes(type)) continue;
      const message = (EVENT_TYPES as readonly string[]).includes(type)
        ? `${type} events go to the site's ${type === 'mission.completed' ? 'achievementCallbackUrl' : 'giftNotifyUrl or itemPurchaseNotifyUrl'} setting`
        : `unknown event type; endpoints subscribe to ${SUBSCRIBABLE_TYPES.join(', ')}`;
      errors.push({ path: `eventTypes[${i}]`, message });
    }
    if (errors.length > 0) throw new AppError('validation_failed', 'The webhook endpoint is invalid', { errors });
    return { url: input.url, event_types: JSON.stringify([...new Set(input.eventTypes)]), description: input.description ?? null };
  }
}

function presentEndpoint(row: WebhookEndpointsTable): Endpoint {
  return {
    id: row.endpoint_id,
    url: row.url,
    eventTypes: JSON.parse(row.event_types) as string[],
    description: row.description,
    createdAt: iso(row.created_at) as string,
  };
}

function presentDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.delivery_id,
    eventId: row.event_id,
    eventType: row.event_type,
    ...(row.party_type === 'user' ? { userId: row.party_id } : { groupId: row.party_id }),
    destination: row.destination,
    status: row.status,
    attempts: Number(row.attempts),
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    lastAttemptAt: iso(row.last_attempt_at),
    lastUrl: row.last_url,
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    lastError: row.last_error,
    deliveredAt: iso(row.delivered_at),
    createdAt: iso(row.created_at) as string,
  };
}
