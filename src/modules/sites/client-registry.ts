// What every node knows about app clients, so a token is checked without a database round trip.
// Rotation and deletion reach this node at once when they happen here, through Redis when another
// node (or the CLI) does it, and in any case by the periodic refresh, which keeps the SPEC §3
// promise (revoked within 60 s on every node) even when Redis messages are lost.
import type { RateConfig } from '../../config.js';
import type { ClientRole } from '../../db/schema.js';
import type { InvalidationBus } from '../../infra/redis.js';
import type { ClientRow, SitesRepository } from './repository.js';

export interface ClientState {
  siteId: string;
  clientId: string;
  role: ClientRole;
  secretVersion: number;
  deleted: boolean;
  /** The client's own request rate, when it has one. */
  rate: RateConfig | undefined;
}

const TOPIC = 'clients';
/** Re-read rows changed this long before the last refresh, to tolerate clock skew between writers. */
const REFRESH_OVERLAP_MS = 60_000;

function toState(row: ClientRow): ClientState {
  return {
    siteId: row.site_id,
    clientId: row.client_id,
    role: row.role,
    secretVersion: row.secret_version,
    deleted: row.deleted_at !== null,
    rate: row.rate_limit_rps !== null && row.rate_limit_burst !== null ? { rate: row.rate_limit_rps, burst: row.rate_limit_burst } : undefined,
  };
}

export class ClientRegistry {
  readonly #clients = new Map<string, ClientState>();
  #refreshedFrom = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repository: SitesRepository,
    private readonly options: { refreshSeconds: number; bus?: InvalidationBus | undefined; clock: () => number; onError: (error: unknown) => void },
  ) {}

  async start(): Promise<void> {
    await this.refresh();
    this.#timer = setInterval(() => {
      this.refresh().catch((error: unknown) => this.options.onError(error));
    }, this.options.refreshSeconds * 1000);
    this.#timer.unref();
    await this.options.bus?.subscribe(TOPIC, (clientId) => {
      this.reload(clientId).catch((error: unknown) => this.options.onError(error));
    });
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Reads every client changed since the last refresh. */
  async refresh(): Promise<void> {
    const startedAt = this.options.clock();
    const rows = await this.repository.listClientsChangedSince(this.#refreshedFrom - REFRESH_OVERLAP_MS);
    for (const row of rows) this.#clients.set(row.client_id, toState(row));
    this.#refreshedFrom = startedAt;
  }

  /** The client's current state; a client created after the last refresh is read once from the database. */
  async get(clientId: string): Promise<ClientState | undefined> {
    return this.#clients.get(clientId) ?? (await this.reload(clientId));
  }

  /** Records a change made on this node and tells the other nodes. */
  async invalidate(row: ClientRow): Promise<void> {
    this.#clients.set(row.client_id, toState(row));
    await this.options.bus?.publish(TOPIC, row.client_id);
  }

  private async reload(clientId: string): Promise<ClientState | undefined> {
    const row = await this.repository.findClient(clientId);
    if (row === undefined) {
      const known = this.#clients.get(clientId);
      if (known !== undefined) this.#clients.set(clientId, { ...known, deleted: true });
      return undefined;
    }
    const state = toState(row);
    this.#clients.set(clientId, state);
    return state;
  }
}
