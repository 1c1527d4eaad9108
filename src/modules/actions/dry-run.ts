// What a dry run answers beyond the outcome (POST …/actions?dryRun=true): read from the write set
// the decision would have written (and did, in a transaction rolled back), the webhook events it
// would send, each with the destinations the routing rule gives it now. Being the write set itself,
// it cannot differ from what logging the action writes.
import { destinationsOf, urlOf, type Subscription } from '../program/event-routing.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import type { WriteSet } from '../ledger/write-set.js';

export interface PreviewedWebhook {
  eventType: string;
  /** Where it would go: `site:<setting>` or `endpoint:<id>`, with the URL it has now. */
  destinations: Array<{ destination: string; url: string }>;
  /** The event as the outbox would keep it (its ids are the dry run's own; a user's names are added when it is sent). */
  payload: Record<string, unknown>;
}

/** The webhook events of the write set's outbox rows, each with the destinations it would be routed to. */
export function webhooksSent(writes: WriteSet, snapshot: ProgramSnapshot, subscriptions: readonly Subscription[]): PreviewedWebhook[] {
  const { site } = snapshot.program;
  return writes.outbox.map((row) => {
    const payload = JSON.parse(row.payload) as { data: Record<string, unknown> } & Record<string, unknown>;
    const destinations = destinationsOf({ eventType: row.event_type, data: payload.data }, site, subscriptions).flatMap((destination) => {
      const url = urlOf(destination, site, subscriptions);
      return url === undefined ? [] : [{ destination, url }];
    });
    return { eventType: row.event_type, destinations, payload };
  });
}
