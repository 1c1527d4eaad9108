// All environment parsing happens here, once (STYLE: config parsed once). Nothing else in src/
// reads process.env; everything receives a typed Config.
import ipaddr from 'ipaddr.js';

/** SQLite's durability (docs/deployment.md): NORMAL survives a process crash, FULL also a power loss. */
export type SqliteSynchronous = 'NORMAL' | 'FULL';

export type DatabaseConfig =
  | { kind: 'sqlite'; filename: string; synchronous?: SqliteSynchronous }
  | {
      kind: 'postgres';
      url: string;
      poolSize: number;
      schema?: string;
      /** How long a connection keeps a precompiled query's plan before planning it anew, ms (src/db/index.ts; default 60 s). */
      replanMs?: number;
    };

export interface RateConfig {
  /** Tokens added per second. */
  rate: number;
  /** Bucket size: the largest burst allowed. */
  burst: number;
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  redisUrl: string | undefined;
  /** Key prefix for everything this instance stores in Redis (lets several deployments, or tests, share one server). */
  redisPrefix: string;
  /** Token signing secret; undefined means "generate one and store it in the database on first start". */
  tokenSecret: string | undefined;
  tokenTtlSeconds: number;
  logLevel: string;
  webhookAllowPrivateNetworks: boolean;
  /** Deliver webhooks from the server process (false when `questline worker` processes do it). */
  webhookDispatcher: boolean;
  clientRate: RateConfig;
  userRate: RateConfig;
  /** Failed token requests allowed per client id within tokenFailureWindowSeconds. */
  tokenFailureLimit: number;
  tokenFailureWindowSeconds: number;
  /** Failed on-the-spot code redemptions allowed per user within otsFailureWindowSeconds. */
  otsFailureLimit: number;
  otsFailureWindowSeconds: number;
  /** How often each node re-reads client revocations from the database (the 60 s revocation promise). */
  clientRefreshSeconds: number;
  shutdownTimeoutMs: number;
  /**
   * Create a demo site with printed credentials when the database has no site, and serve /demo,
   * which hands every visitor a user-level token of it. Off by default unless HOST is loopback.
   */
  demoSite: boolean;
  /** Serve the Questline Console at /console (docs/console.md). */
  console: boolean;
  trustProxy: boolean;
  /** Parties whose state the action path keeps in memory between decisions (src/modules/actions/party-cache.ts). */
  partyCacheSize: number;
  /** How often a server folds what was written into the overview's daily figures (src/modules/analytics/service.ts), ms. */
  analyticsFoldMs: number;
  /** How often a server expires the points that are due (src/modules/expiry/service.ts), ms. */
  pointExpirySweepMs: number;
  /** How long after an expiry instant the sweep waits before acting on it (clock skew between nodes, writes in flight; docs/points.md), ms. */
  pointExpiryGraceMs: number;
  /** How often a server sweeps streaks for periods that ended without an action (streak.frozen, streak.broken; docs/streaks.md), ms. */
  streakSweepMs: number;
  /** How often a server closes the leaderboard windows that ended, and how long after their end (src/modules/leaderboard-results/), ms. */
  leaderboardCloseMs: number;
  leaderboardCloseGraceMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);

  const host = read.string('HOST', '127.0.0.1');
  const config: Config = {
    port: read.integer('PORT', 3000, 0, 65535),
    host,
    database: parseDatabaseUrl(
      read.string('DATABASE_URL', 'sqlite:./data/questline.db'),
      {
        poolSize: read.integer('DATABASE_POOL_SIZE', 10, 1, 1000),
        replanSeconds: read.integer('DATABASE_REPLAN_SECONDS', 60, 1, 86_400),
        synchronous: read.oneOf('SQLITE_SYNCHRONOUS', ['NORMAL', 'FULL'], 'NORMAL'),
      },
      problems,
    ),
    redisUrl: read.optionalUrl('REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: read.string('REDIS_PREFIX', 'ql:'),
    tokenSecret: read.optionalString('TOKEN_SECRET'),
    tokenTtlSeconds: read.integer('TOKEN_TTL_SECONDS', 86_400, 60, 30 * 86_400),
    logLevel: read.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    webhookAllowPrivateNetworks: read.boolean('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    webhookDispatcher: read.boolean('WEBHOOK_DISPATCHER', true),
    clientRate: { rate: read.number('CLIENT_RATE_LIMIT_RPS', 100, 0.01), burst: read.integer('CLIENT_RATE_LIMIT_BURST', 200, 1) },
    userRate: { rate: read.number('USER_RATE_LIMIT_RPS', 10, 0.01), burst: read.integer('USER_RATE_LIMIT_BURST', 20, 1) },
    tokenFailureLimit: read.integer('TOKEN_FAILURE_LIMIT', 10, 1),
    tokenFailureWindowSeconds: read.integer('TOKEN_FAILURE_WINDOW_SECONDS', 300, 1),
    otsFailureLimit: read.integer('OTS_FAILURE_LIMIT', 5, 1),
    otsFailureWindowSeconds: read.integer('OTS_FAILURE_WINDOW_SECONDS', 3600, 1),
    clientRefreshSeconds: read.integer('CLIENT_REFRESH_SECONDS', 15, 1, 60),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, 0),
    // /demo gives anyone who reaches it a token: on by default only where nobody else can reach it.
    demoSite: read.boolean('DEMO_SITE', isLoopback(host)),
    console: read.boolean('CONSOLE', true),
    trustProxy: read.boolean('TRUST_PROXY', false),
    partyCacheSize: read.integer('PARTY_CACHE_SIZE', 50_000, 1),
    analyticsFoldMs: read.integer('ANALYTICS_FOLD_MS', 2_000, 100, 3_600_000),
    pointExpirySweepMs: read.integer('POINT_EXPIRY_SWEEP_MS', 60_000, 1_000, 86_400_000),
    pointExpiryGraceMs: read.integer('POINT_EXPIRY_GRACE_MS', 60_000, 0, 86_400_000),
    streakSweepMs: read.integer('STREAK_SWEEP_MS', 60_000, 100, 3_600_000),
    leaderboardCloseMs: read.integer('LEADERBOARD_CLOSE_MS', 60_000, 100, 3_600_000),
    leaderboardCloseGraceMs: read.integer('LEADERBOARD_CLOSE_GRACE_MS', 600_000, 0, 7 * 86_400_000),
  };
  if (config.tokenSecret !== undefined && config.tokenSecret.length < 32) {
    problems.push('TOKEN_SECRET must be at least 32 characters');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Whether `host` (HOST) is reachable from this machine only: localhost or a loopback address. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const address = host.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}

function parseDatabaseUrl(
  url: string,
  { poolSize, replanSeconds, synchronous }: { poolSize: number; replanSeconds: number; synchronous: SqliteSynchronous },
  problems: string[],
): DatabaseConfig {
  if (url.startsWith('sqlite:')) {
    const filename = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (filename === '') problems.push('DATABASE_URL: sqlite: needs a file name, e.g. sqlite:./data/questline.db');
    return { kind: 'sqlite', filename, synchronous };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return { kind: 'postgres', url, poolSize, ...(replanSeconds !== 60 ? { replanMs: replanSeconds * 1000 } : {}) };
  }
  problems.push('DATABASE_URL must start with sqlite: or postgres://');
  return { kind: 'sqlite', filename: './data/questline.db', synchronous };
}

class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  number(name: string, fallback: number, min = -Infinity, max = Infinity): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < min || parsed > max) {
      this.problems.push(`${name} must be a number between ${min} and ${max} (got "${value}")`);
      return fallback;
    }
    return parsed;
  }

  integer(name: string, fallback: number, min = -Infinity, max = Infinity): number {
    const value = this.number(name, fallback, min, max);
    if (!Number.isInteger(value)) {
      this.problems.push(`${name} must be a whole number (got "${value}")`);
      return fallback;
    }
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['true', '1', 'yes', 'on'].includes(value)) return true;
    if (['false', '0', 'no', 'off'].includes(value)) return false;
    this.problems.push(`${name} must be true or false (got "${value}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
    return fallback;
  }

  optionalUrl(name: string, protocols: string[]): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    try {
      const url = new URL(value);
      if (protocols.includes(url.protocol)) return value;
    } catch {
      // reported below
    }
    this.problems.push(`${name} must be a URL starting with ${protocols.join(' or ')}`);
    return undefined;
  }
}
