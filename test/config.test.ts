// loadConfig(env): defaults, parsing, and a ConfigError that lists every problem at once.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../src/config.js';

const SECRET = 'x'.repeat(32);

/** The ConfigError loadConfig throws for env. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      database: { kind: 'sqlite', filename: './data/questline.db' },
      redisUrl: undefined,
      redisPrefix: 'ql:',
      tokenSecret: undefined,
      tokenTtlSeconds: 86_400,
      logLevel: 'info',
      webhookAllowPrivateNetworks: false,
      webhookDispatcher: true,
      clientRate: { rate: 100, burst: 200 },
      userRate: { rate: 10, burst: 20 },
      tokenFailureLimit: 10,
      tokenFailureWindowSeconds: 300,
      otsFailureLimit: 5,
      otsFailureWindowSeconds: 3600,
      clientRefreshSeconds: 15,
      shutdownTimeoutMs: 10_000,
      demoSite: true,
      console: true,
      trustProxy: false,
      partyCacheSize: 50_000,
      analyticsFoldMs: 2_000,
      pointExpirySweepMs: 60_000,
      pointExpiryGraceMs: 60_000,
      streakSweepMs: 60_000,
      leaderboardCloseMs: 60_000,
      leaderboardCloseGraceMs: 600_000,
    } satisfies Config);
  });

  it('treats empty and blank values as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '   ', TOKEN_SECRET: '', REDIS_URL: '' })).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      tokenSecret: undefined,
      redisUrl: undefined,
    });
  });

  it.each<[string, Record<string, string>, Partial<Config>]>([
    ['PORT', { PORT: '8080' }, { port: 8080 }],
    ['PORT 0 (any free port)', { PORT: '0' }, { port: 0 }],
    ['HOST', { HOST: '0.0.0.0' }, { host: '0.0.0.0' }],
    ['TOKEN_SECRET', { TOKEN_SECRET: SECRET }, { tokenSecret: SECRET }],
    ['TOKEN_TTL_SECONDS', { TOKEN_TTL_SECONDS: '3600' }, { tokenTtlSeconds: 3600 }],
    ['LOG_LEVEL', { LOG_LEVEL: 'silent' }, { logLevel: 'silent' }],
    ['REDIS_URL redis:', { REDIS_URL: 'redis://127.0.0.1:6379/0' }, { redisUrl: 'redis://127.0.0.1:6379/0' }],
    ['REDIS_URL rediss:', { REDIS_URL: 'rediss://cache.example:6380' }, { redisUrl: 'rediss://cache.example:6380' }],
    ['REDIS_PREFIX', { REDIS_PREFIX: 'prod:' }, { redisPrefix: 'prod:' }],
    ['CONSOLE off', { CONSOLE: 'false' }, { console: false }],
    ['ANALYTICS_FOLD_MS', { ANALYTICS_FOLD_MS: '500' }, { analyticsFoldMs: 500 }],
    ['POINT_EXPIRY_SWEEP_MS', { POINT_EXPIRY_SWEEP_MS: '5000' }, { pointExpirySweepMs: 5_000 }],
    ['POINT_EXPIRY_GRACE_MS', { POINT_EXPIRY_GRACE_MS: '0' }, { pointExpiryGraceMs: 0 }],
    ['STREAK_SWEEP_MS', { STREAK_SWEEP_MS: '500' }, { streakSweepMs: 500 }],
    ['client rate', { CLIENT_RATE_LIMIT_RPS: '2.5', CLIENT_RATE_LIMIT_BURST: '5' }, { clientRate: { rate: 2.5, burst: 5 } }],
    ['user rate', { USER_RATE_LIMIT_RPS: '1', USER_RATE_LIMIT_BURST: '3' }, { userRate: { rate: 1, burst: 3 } }],
    [
      'booleans true',
      { DEMO_SITE: 'true', TRUST_PROXY: 'YES', WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' },
      { demoSite: true, trustProxy: true, webhookAllowPrivateNetworks: true },
    ],
    [
      'booleans false',
      { DEMO_SITE: 'off', TRUST_PROXY: 'no', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'False' },
      { demoSite: false, trustProxy: false, webhookAllowPrivateNetworks: false },
    ],
    ['surrounding spaces', { PORT: ' 4000 ', LOG_LEVEL: ' debug ' }, { port: 4000, logLevel: 'debug' }],
    // /demo hands out tokens: on by default only on a loopback HOST.
    ['no demo by default on HOST 0.0.0.0', { HOST: '0.0.0.0' }, { host: '0.0.0.0', demoSite: false }],
    ['no demo by default on HOST ::', { HOST: '::' }, { demoSite: false }],
    ['no demo by default on a LAN address', { HOST: '192.168.1.20' }, { demoSite: false }],
    ['the demo by default on HOST localhost', { HOST: 'localhost' }, { demoSite: true }],
    ['the demo by default on HOST ::1', { HOST: '::1' }, { demoSite: true }],
    ['the demo by default on HOST 127.0.0.2', { HOST: '127.0.0.2' }, { demoSite: true }],
    ['the demo on HOST 0.0.0.0 when DEMO_SITE says so', { HOST: '0.0.0.0', DEMO_SITE: 'true' }, { demoSite: true }],
  ])('reads %s', (_name, env, expected) => {
    expect(loadConfig(env)).toMatchObject(expected);
  });

  it.each<[string, string, Config['database']]>([
    ['postgres://', 'postgres://ql:pw@db.example:5432/questline', { kind: 'postgres', url: 'postgres://ql:pw@db.example:5432/questline', poolSize: 10 }],
    ['postgresql://', 'postgresql://db.example/questline', { kind: 'postgres', url: 'postgresql://db.example/questline', poolSize: 10 }],
    ['sqlite: relative', 'sqlite:./var/ql.db', { kind: 'sqlite', filename: './var/ql.db', synchronous: 'NORMAL' }],
    ['sqlite: absolute', 'sqlite:/var/lib/questline/ql.db', { kind: 'sqlite', filename: '/var/lib/questline/ql.db', synchronous: 'NORMAL' }],
    ['sqlite:// absolute', 'sqlite:///var/lib/questline/ql.db', { kind: 'sqlite', filename: '/var/lib/questline/ql.db', synchronous: 'NORMAL' }],
    ['sqlite: in memory', 'sqlite::memory:', { kind: 'sqlite', filename: ':memory:', synchronous: 'NORMAL' }],
  ])('reads DATABASE_URL %s', (_name, url, expected) => {
    expect(loadConfig({ DATABASE_URL: url }).database).toEqual(expected);
  });

  it('reads SQLITE_SYNCHRONOUS (NORMAL by default, or FULL) and refuses anything else', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:./q.db', SQLITE_SYNCHRONOUS: 'FULL' }).database).toEqual({
      kind: 'sqlite',
      filename: './q.db',
      synchronous: 'FULL',
    });
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: 'OFF' })).toThrow(/SQLITE_SYNCHRONOUS/);
  });

  it('reads DATABASE_POOL_SIZE and DATABASE_REPLAN_SECONDS for PostgreSQL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/ql', DATABASE_POOL_SIZE: '25' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://db/ql',
      poolSize: 25,
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/ql', DATABASE_REPLAN_SECONDS: '5' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://db/ql',
      poolSize: 10,
      replanMs: 5000,
    });
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/ql', DATABASE_REPLAN_SECONDS: '0' })).toThrow(
      /DATABASE_REPLAN_SECONDS must be a number between 1 and 86400/,
    );
  });

  it.each<[string, Record<string, string>, RegExp]>([
    ['PORT not a number', { PORT: 'http' }, /^PORT must be a number between 0 and 65535/],
    ['PORT out of range', { PORT: '70000' }, /^PORT must be a number between 0 and 65535/],
    ['PORT fractional', { PORT: '80.5' }, /^PORT must be a whole number/],
    ['DATABASE_URL scheme', { DATABASE_URL: 'mysql://db/ql' }, /^DATABASE_URL must start with sqlite: or postgres:\/\//],
    ['DATABASE_URL empty sqlite file', { DATABASE_URL: 'sqlite:' }, /^DATABASE_URL: sqlite: needs a file name/],
    ['DATABASE_POOL_SIZE', { DATABASE_POOL_SIZE: '0' }, /^DATABASE_POOL_SIZE must be a number between 1 and 1000/],
    ['TOKEN_SECRET too short', { TOKEN_SECRET: 'x'.repeat(31) }, /^TOKEN_SECRET must be at least 32 characters/],
    ['TOKEN_TTL_SECONDS too short', { TOKEN_TTL_SECONDS: '59' }, /^TOKEN_TTL_SECONDS must be a number between 60/],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }, /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "verbose"\)/],
    ['boolean', { DEMO_SITE: 'maybe' }, /^DEMO_SITE must be true or false \(got "maybe"\)/],
    ['REDIS_URL scheme', { REDIS_URL: 'http://cache:6379' }, /^REDIS_URL must be a URL starting with redis: or rediss:/],
    ['REDIS_URL not a URL', { REDIS_URL: 'cache:6379 x' }, /^REDIS_URL must be a URL/],
    ['rate not positive', { CLIENT_RATE_LIMIT_RPS: '0' }, /^CLIENT_RATE_LIMIT_RPS must be a number/],
    ['burst fractional', { USER_RATE_LIMIT_BURST: '1.5' }, /^USER_RATE_LIMIT_BURST must be a whole number/],
    ['CLIENT_REFRESH_SECONDS over 60', { CLIENT_REFRESH_SECONDS: '61' }, /^CLIENT_REFRESH_SECONDS must be a number between 1 and 60/],
  ])('refuses %s', (_name, env, problem) => {
    const error = configError(env);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(problem);
    expect(error.message).toContain(error.problems[0]);
  });

  it('lists every problem at once', () => {
    const error = configError({
      PORT: 'eighty',
      DATABASE_URL: 'mongodb://db/ql',
      TOKEN_SECRET: 'short',
      LOG_LEVEL: 'loud',
      TRUST_PROXY: 'perhaps',
      REDIS_URL: 'memcached://cache',
    });
    expect(error.name).toBe('ConfigError');
    expect(error.problems).toHaveLength(6);
    for (const name of ['PORT', 'DATABASE_URL', 'TOKEN_SECRET', 'LOG_LEVEL', 'TRUST_PROXY', 'REDIS_URL']) {
      expect(
        error.problems.some((problem) => problem.startsWith(name)),
        name,
      ).toBe(true);
      expect(error.message).toContain(name);
    }
    expect(error.message).toMatch(/^Invalid configuration:\n/);
  });

  it('never echoes the token secret in its problems', () => {
    const error = configError({ TOKEN_SECRET: 'hunter2-very-secret' });
    expect(error.message).not.toContain('hunter2');
  });
});
