// The admin maintenance switch (SPEC §15): while a site is in maintenance every call of its
// tokens answers 503 `maintenance` with Retry-After (SPEC §8: callers retry), except the calls of
// its admin clients, who are doing the maintenance. Public routes (health, tokens, the UI bundle)
// are not a site's and stay up.
//
// The switch is stored per site (instance_settings) and read through a short per-node cache, so a
// change reaches every node within CACHE_MS, at once where Redis carries the invalidation.
import fp from 'fastify-plugin';
import type { Db } from '../db/index.js';
import { AppError } from '../errors.js';
import type { InvalidationBus } from '../infra/redis.js';

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
    private readonly db: Db,
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
    const row = await this.db.selectFrom('instance_settings').select('value').where('site_id', '=', siteId).where('name', '=', SETTING).executeTakeFirst();
    const state = row === undefined ? OFF : (JSON.parse(row.value) as Maintenance);
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
    const value = JSON.stringify(state);
    await this.db
      .insertInto('instance_settings')
      .values({ site_id: siteId, name: SETTING, value })
      .onConflict((oc) => oc.columns(['site_id', 'name']).doUpdateSet({ value }))
      .execute();
    this.#cache.delete(siteId);
    await this.options.bus?.publish(TOPIC, siteId);
    return state;
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }
}

export const maintenancePlugin = fp<{ maintenance: MaintenanceSwitch }>(
  async (app, { maintenance }) => {
    // After authentication (the auth plugin's onRequest hook), which names the site.
    // A callback hook: with the switch cached (nearly always), a request passes without a promise.
    const check = (state: Maintenance) =>
      state.enabled
        ? new AppError('maintenance', state.message ?? 'The site is down for maintenance; retry later', {
            headers: { 'retry-after': String(state.retryAfterSeconds) },
          })
        : undefined;
    app.addHook('preHandler', (request, _reply, done) => {
      const auth = request.auth;
      if (auth === null || (auth.role === 'admin' && auth.userId === undefined)) return done();
      const cached = maintenance.cached(auth.siteId);
      if (cached !== undefined) return done(check(cached));
      maintenance.get(auth.siteId).then(
        (state) => done(check(state)),
        (error: Error) => done(error),
      );
    });
  },
  { name: 'maintenance', dependencies: ['auth', 'errors'] },
);
