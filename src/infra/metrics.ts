// The metrics registry (prom-client): request rates and latencies per route, actions recorded and
// not (by reason), webhook deliveries that failed, what waits in the outbox, leaderboard window
// loads, and the process's own metrics. One registry per app (tests build many), never the
// library's global one. GET /metrics serves it (src/plugins/metrics-endpoint.ts).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What waits in the outbox: events not yet routed to their destinations, and deliveries waiting. */
export interface OutboxDepth {
  unrouted: number;
  pending: number;
}

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'questline_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'questline_http_request_duration_seconds',
    help: 'Time to answer, by method and route',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly actions = new Counter({
    name: 'questline_actions_total',
    help: 'Actions logged through the API: recorded, duplicate (an eventId seen before), or the reason one was not recorded (suppressed, rate_limited, …)',
    labelNames: ['result'],
    registers: [this.registry],
  });
  readonly deliveryFailures = new Counter({
    name: 'questline_webhook_delivery_failures_total',
    help: 'Webhook attempts that failed (non-2xx, timeout, network)',
    registers: [this.registry],
  });
  readonly deliveries = new Counter({ name: 'questline_webhook_deliveries_total', help: 'Webhook deliveries that succeeded', registers: [this.registry] });
  readonly leaderboardLoads = new Histogram({
    name: 'questline_leaderboard_load_seconds',
    help: 'Time to load (rebuild) one leaderboard window from the database',
    buckets: [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
    registers: [this.registry],
  });

  /** `outboxDepth`: read at each scrape. */
  constructor(outboxDepth: () => Promise<OutboxDepth>) {
    collectDefaultMetrics({ register: this.registry, prefix: 'questline_' });
    // Read at each scrape: events not yet routed to their destinations, and deliveries waiting.
    new Gauge({
      name: 'questline_outbox_depth',
      help: 'Outbox events not yet routed, and deliveries pending (to be attempted or retried)',
      labelNames: ['stage'],
      registers: [this.registry],
      async collect() {
        const { unrouted, pending } = await outboxDepth();
        this.set({ stage: 'unrouted' }, unrouted);
        this.set({ stage: 'pending_delivery' }, pending);
      },
    });
  }

  /** What logging an action came to, as the metric's label says it. */
  countAction(outcome: { recorded: boolean; duplicate: boolean; reason?: string | undefined }): void {
    this.actions.inc({ result: outcome.duplicate ? 'duplicate' : outcome.recorded ? 'recorded' : (outcome.reason ?? 'not_recorded') });
  }
}
