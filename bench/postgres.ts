// The benchmark's PostgreSQL and Redis: a cluster of its own (.ci/services.sh on other ports), with
// fsync on and synchronous_commit off, so that a commit is as durable as SQLite's default
// (synchronous=NORMAL), and a fresh database for each run; its Redis is emptied. BENCH_DATABASE_URL (an admin URL) and
// BENCH_REDIS_URL use servers of your own instead.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { freshPostgresDatabase } from '../test/helpers/spawned-server.js';

export interface BenchPostgres {
  url: string;
  redisUrl: string;
  /** ANALYZE: the planner statistics of a live database. */
  analyze(): Promise<void>;
  drop(): Promise<void>;
}

/** undefined where PostgreSQL is not installed (the report says so). */
export async function benchPostgres(): Promise<BenchPostgres | undefined> {
  let adminUrl = process.env.BENCH_DATABASE_URL;
  let redisUrl = process.env.BENCH_REDIS_URL;
  if (adminUrl === undefined || redisUrl === undefined) {
    if (!existsSync('/usr/lib/postgresql')) return undefined;
    const printed = execFileSync('bash', ['.ci/services.sh'], {
      env: { ...process.env, QL_PG_PORT: '55442', QL_REDIS_PORT: '56389', QL_SERVICES_DIR: '/tmp/questline-bench-services', QL_PG_DURABLE: '1' },
      encoding: 'utf8',
    });
    adminUrl = /TEST_DATABASE_URL=(\S+)/.exec(printed)?.[1];
    redisUrl = /TEST_REDIS_URL=(\S+)/.exec(printed)?.[1];
    if (adminUrl === undefined || redisUrl === undefined) throw new Error(`.ci/services.sh printed no URLs: ${printed}`);
    // The bench's own Redis (no persistence) starts empty: no 1,000,000-user board of a past run.
    execFileSync('redis-cli', ['-u', redisUrl, 'flushall']);
  }
  const database = await freshPostgresDatabase(adminUrl);
  return {
    url: database.url,
    redisUrl,
    async analyze() {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query('analyze');
      } finally {
        await client.end();
      }
    },
    drop: () => database.drop(),
  };
}
