// The admin maintenance switch (SPEC §15): while a site is in maintenance every call of its
// tokens answers 503 `maintenance` with Retry-After (src/plugins/maintenance-gate.ts).
//
// The switch is stored per site (instance_settings) and read through a short per-node cache, so a
// change reaches every node within CACHE_MS, at once where Redis carries the invalidation.
import type { InvalidationBus } from '../../infra/redis.js';
import type { SitesRepository } from './repository.js';

export interface Maintenance {
  enabled: boolean;
  /** What callers are told to wait before retrying (Retry-After). */
  retryAfterSeconds: number;
  message: string | null;
  /** When the switch was last set; null when it never was. */
  since: string | null;
}

const SETTING = 'maintenance';
const TOPIC = 'maintenance';
const CACHE_MS = 2_000;
const OFF: Maintenance = { enabled: false, retryAfterSeconds: 60, message: null, since: null };

export class MaintenanceSwitch {
  readonly #cache = new Map<string, { state: Maintenance; at: number }>();

  constructor(
    private readonly repository: SitesRepository,
    private readonly options: { bus?: InvalidationBus | undefined; clock?: () => number } = {},
  ) {}

  async start(): Promise<void> {
    await this.options.bus?.subscribe(TOPIC, (siteId) => this.#cache.delete(siteId));
  }

  /** The switch as this node has it, while that is fresh; undefined when it must be read. */
  cached(siteId: string): Maintenance | undefined {
    const cached = this.#cache.get(siteId);
    return cached !== undefined && this.now() - cached.at < CACHE_MS ? cached.state : undefined;
  }

  async get(siteId: string): Promise<Maintenance> {
    const now = this.now();
    const cached = this.cached(siteId);
    if (cached !== undefined) return cached;
    const stored = await this.repository.setting(siteId, SETTING);
    const state = stored === undefined ? OFF : (JSON.parse(stored) as Maintenance);
    this.#cache.set(siteId, { state, at: now });
    return state;
  }

  async set(siteId: string, change: { enabled: boolean; retryAfterSeconds?: number | undefined; message?: string | null | undefined }): Promise<Maintenance> {
    const state: Maintenance = {
      enabled: change.enabled,
      retryAfterSeconds: change.retryAfterSeconds ?? OFF.retryAfterSeconds,
      message: change.message ?? null,
      since: new Date(this.now()).toISOString(),
    };
    await this.repository.putSetting(siteId, SETTING, JSON.stringify(state));
    this.#cache.delete(siteId);
    await this.options.bus?.publish(TOPIC, siteId);
    return state;
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }
}
