// The outbox dispatcher (SPEC §12): routes each outbox event into its deliveries, then delivers
// them as signed JSON POSTs. At least once: a delivery is done only when a 2xx reply is recorded;
// a failure is retried with exponential backoff and jitter for 3 days, then it is dead. Any number
// of dispatchers (server nodes, `questline worker`) share the work through claims in the database
// (a lease, taken with FOR UPDATE SKIP LOCKED on PostgreSQL), and state lives only there, so a
// restart loses nothing. Deliveries are independent: a failing one never holds up the others.
import { randomUUID } from 'node:crypto';
import { uuidv7 } from '../../uuid.js';
import { VERSION } from '../../package.js';
import type { PreferencesService } from '../users/preferences.js';
import type { ProgramService } from '../program/service.js';
import type { Database } from '../../db/index.js';
import { WebhookRepository, type DeliveryRow } from './repository.js';
import { destinationsOf, urlOf, type Subscription } from '../program/event-routing.js';
import { WebhookSecrets } from './signing-secrets.js';
import { signWebhook } from './signatures.js';
import { HttpTransport, type WebhookTransport } from './transport.js';

export const RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;
const FIRST_RETRY_MS = 10_000;
const LONGEST_RETRY_MS = 6 * 60 * 60 * 1000;
/** Longer than an attempt can take (10 s), so a live claim never expires under its holder. */
const LEASE_MS = 60_000;
const ROUTE_BATCH = 200;

/** The wait before retry `attempts` + 1: doubling from 10 s up to 6 h, times a random 0.5–1 (spreads a burst of failures). */
export function retryDelay(attempts: number, random: number): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
  return Math.round(base * (0.5 + random / 2));
}

export interface DispatcherOptions {
  repository: WebhookRepository;
  programs: ProgramService;
  preferences: PreferencesService;
  secrets: WebhookSecrets;
  transport: WebhookTransport;
  clock: () => number;
  random?: () => number;
  /** Deliveries in flight at once on this node. */
  concurrency?: number;
  /** How long an idle dispatcher waits before looking for work again. */
  pollMs?: number;
  onError: (error: unknown) => void;
  /** Each attempt's outcome (metrics). */
  onAttempt?: (delivered: boolean) => void;
}

export interface DispatchRound {
  routed: number;
  attempted: number;
}

export class WebhookDispatcher {
  /** This dispatcher's claims carry it (a node's claims can be told apart and released). */
  readonly #owner = randomUUID();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #clock: () => number;
  readonly #random: () => number;
  readonly #concurrency: number;
  readonly #pollMs: number;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(private readonly options: DispatcherOptions) {
    this.#clock = options.clock;
    this.#random = options.random ?? Math.random;
    this.#concurrency = options.concurrency ?? 16;
    this.#pollMs = options.pollMs ?? 500;
  }

  /** One round, for tests and tools: routes what is waiting, then makes every due attempt and waits for them. */
  async runOnce(): Promise<DispatchRound> {
    const routed = await this.route();
    let attempted = 0;
    for (;;) {
      const claimed = await this.options.repository.claim(this.#clock(), this.#concurrency, this.#owner, this.#clock() + LEASE_MS);
      if (claimed.length === 0) break;
      await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
      attempted += claimed.length;
    }
    return { routed, attempted };
  }

  /** Delivers in the background until stop(). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.run();
  }

  /** Looks for work now rather than at the next poll (an event was just written on this node). */
  nudge(): void {
    this.#wake?.();
  }

  /** Stops claiming, lets the attempts in flight finish (each is bounded by its timeout), and returns. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
    await Promise.all(this.#inFlight);
    await this.options.repository.release(this.#owner).catch((error: unknown) => this.options.onError(error));
  }

  private async run(): Promise<void> {
    while (this.#running) {
      let found = 0;
      try {
        found += await this.route();
        const free = this.#concurrency - this.#inFlight.size;
        if (free > 0) {
          const claimed = await this.options.repository.claim(this.#clock(), free, this.#owner, this.#clock() + LEASE_MS);
          for (const delivery of claimed) {
            const attempt = this.attempt(delivery).finally(() => this.#inFlight.delete(attempt));
            this.#inFlight.add(attempt);
          }
          found += claimed.length;
        }
      } catch (error) {
        // The database is away: try again at the next poll.
        this.options.onError(error);
        found = 0;
      }
      if (!this.#running) break;
      // Idle: wait for the poll or a nudge. Every slot busy: wait for one to free. Otherwise go on at once.
      if (found === 0) await this.pause(false);
      else if (this.#inFlight.size >= this.#concurrency) await this.pause(true);
    }
  }

  private pause(untilSlotFrees: boolean): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.#pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
      if (untilSlotFrees) void Promise.race(this.#inFlight).then(done);
    });
  }

  /** Routes waiting outbox events into deliveries; returns how many events it routed. */
  private async route(): Promise<number> {
    const events = await this.options.repository.unrouted(ROUTE_BATCH);
    if (events.length === 0) return 0;
    const subscriptions = new Map<string, Subscription[]>();
    const routed = [];
    for (const event of events) {
      const site = (await this.options.programs.snapshot(event.site_id)).program.site;
      let subscribed = subscriptions.get(event.site_id);
      if (subscribed === undefined) {
        subscribed = await this.options.repository.subscriptions(event.site_id);
        subscriptions.set(event.site_id, subscribed);
      }
      const parsed = JSON.parse(event.payload) as { data: Record<string, unknown> };
      routed.push({ event, destinations: destinationsOf({ eventType: event.event_type, data: parsed.data }, site, subscribed) });
    }
    await this.options.repository.route(routed, () => `whd_${uuidv7()}`, this.#clock());
    return events.length;
  }

  /** One attempt at one delivery, its outcome recorded; never throws. */
  private async attempt(delivery: DeliveryRow): Promise<void> {
    try {
      const { repository } = this.options;
      const site = (await this.options.programs.snapshot(delivery.site_id)).program.site;
      const url = urlOf(delivery.destination, site, delivery.destination.startsWith('endpoint:') ? await repository.subscriptions(delivery.site_id) : []);
      const payload = await repository.payload(delivery.site_id, delivery.event_id);
      if (url === undefined || payload === undefined) {
        const at = this.#clock();
        const error = url === undefined ? `the destination ${delivery.destination} no longer has a URL` : 'the event is gone';
        await repository.finish(delivery, this.#owner, { status: 'dead', nextAttemptAt: at, url: null, httpStatus: null, error, at });
        return;
      }
      const body = await this.body(delivery.site_id, payload);
      const at = this.#clock();
      const headers = {
        'content-type': 'application/json',
        'user-agent': `Questline-Webhooks/${VERSION}`,
        ...signWebhook(delivery.event_id, at, body, await this.options.secrets.signing(delivery.site_id)),
      };
      let httpStatus: number | null = null;
      let error: string | null = null;
      try {
        const reply = await this.options.transport.post(url, headers, body);
        httpStatus = reply.status;
        if (reply.status < 200 || reply.status > 299) error = `HTTP ${reply.status}${reply.excerpt !== '' ? `: ${reply.excerpt}` : ''}`;
      } catch (failure) {
        error = failure instanceof Error ? failure.message : String(failure);
      }
      const finishedAt = this.#clock();
      this.options.onAttempt?.(error === null);
      if (error === null) {
        await repository.finish(delivery, this.#owner, { status: 'delivered', nextAttemptAt: finishedAt, url, httpStatus, error: null, at: finishedAt });
        return;
      }
      const attempts = delivery.attempts + 1;
      const deadline = Number(delivery.retry_from) + RETRY_WINDOW_MS;
      const dead = finishedAt >= deadline;
      const next = dead ? finishedAt : Math.min(finishedAt + retryDelay(attempts, this.#random()), deadline);
      await repository.finish(delivery, this.#owner, { status: dead ? 'dead' : 'pending', nextAttemptAt: next, url, httpStatus, error, at: finishedAt });
    } catch (error) {
      // The claim lapses and another round (here or on another node) tries again.
      this.options.onError(error);
    }
  }

  /** The body sent: the event as written, with the user's current names (SPEC §12 `user: {userId, firstName, lastName}`). */
  private async body(siteId: string, payload: string): Promise<string> {
    const event = JSON.parse(payload) as { data: { user?: { userId: string } } };
    const user = event.data.user;
    if (user !== undefined) {
      const name = (await this.options.preferences.names(siteId, [user.userId])).get(user.userId);
      event.data.user = { userId: user.userId, firstName: name?.firstName ?? null, lastName: name?.lastName ?? null } as typeof user;
    }
    return JSON.stringify(event);
  }
}

/** The dispatcher a server or `questline worker` runs, over the real HTTP transport. */
export function webhookDispatcher(deps: {
  database: Pick<Database, 'db' | 'dialect'>;
  programs: ProgramService;
  preferences: PreferencesService;
  allowPrivateNetworks: boolean;
  clock: () => number;
  onError: (error: unknown) => void;
  onAttempt?: (delivered: boolean) => void;
}): WebhookDispatcher {
  return new WebhookDispatcher({
    repository: new WebhookRepository(deps.database),
    programs: deps.programs,
    preferences: deps.preferences,
    secrets: new WebhookSecrets(deps.programs, deps.clock),
    transport: new HttpTransport({ allowPrivateNetworks: deps.allowPrivateNetworks }),
    clock: deps.clock,
    onError: deps.onError,
    ...(deps.onAttempt !== undefined ? { onAttempt: deps.onAttempt } : {}),
  });
}
