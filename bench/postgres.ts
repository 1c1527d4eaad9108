// The benchmark's PostgreSQL and Redis: a cluster of its own (.ci/services.sh on other ports), with
// fsync on and synchronous_commit off, so that a commit is as durable as SQLite's default
// (synchronous=NORMAL), and a fresh database for each run; its Redis is emptied. BENCH_DATABASE_URL (an admin URL) and
// BENCH_REDIS_URL use servers of your own instead; BENCH_SERVICES=dir:pgPort:redisPort runs the
// bench's own pair in another directory on other ports (two benches at once must not share one:
// each run empties its Redis).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { freshPostgresDatabase } from '../test/helpers/spawned-server.js';
import { postgresPids, processTitle, processTree } from './harness.js';

const [SERVICES_DIR, PG_PORT, REDIS_PORT] = (process.env.BENCH_SERVICES ?? '/tmp/questline-bench-services:55442:56389').split(':') as [string, string, string];

export interface BenchPostgres {
  url: string;
  redisUrl: string;
  /**
   * The processes of the bench's cluster now that work for this run (its postmaster, its own
   * processes such as the checkpointer and the WAL writer, and the backends of this run's
   * databases): other clusters on the machine, such as the tests' of other sessions, and the
   * backends of other runs' databases on the same cluster are not this run's cost. With servers
   * of your own, every PostgreSQL process on the machine.
   */
  pids(): number[];
  /** The bench's Redis process (as its INFO says); none with servers of your own. */
  redisPids(): number[];
  /** ANALYZE: the planner statistics of a live database. */
  analyze(): Promise<void>;
  /** Another fresh database on the same cluster (the PostgreSQL floor's: ./floor-postgres.ts), dropped with this one. */
  another(): Promise<string>;
  drop(): Promise<void>;
}

/** undefined where PostgreSQL is not installed (the report says so). */
export async function benchPostgres(): Promise<BenchPostgres | undefined> {
  let adminUrl = process.env.BENCH_DATABASE_URL;
  let redisUrl = process.env.BENCH_REDIS_URL;
  // The bench's own cluster and Redis unless both are given.
  const ours = adminUrl === undefined || redisUrl === undefined;
  if (adminUrl === undefined || redisUrl === undefined) {
    if (!existsSync('/usr/lib/postgresql')) return undefined;
    const printed = execFileSync('bash', ['.ci/services.sh'], {
      env: { ...process.env, QL_PG_PORT: PG_PORT, QL_REDIS_PORT: REDIS_PORT, QL_SERVICES_DIR: SERVICES_DIR, QL_PG_DURABLE: '1' },
      encoding: 'utf8',
    });
    adminUrl = /TEST_DATABASE_URL=(\S+)/.exec(printed)?.[1];
    redisUrl = /TEST_REDIS_URL=(\S+)/.exec(printed)?.[1];
    if (adminUrl === undefined || redisUrl === undefined) throw new Error(`.ci/services.sh printed no URLs: ${printed}`);
    // The bench's own Redis (no persistence) starts empty: no 1,000,000-user board of a past run.
    execFileSync('redis-cli', ['-u', redisUrl, 'flushall']);
  }
  const database = await freshPostgresDatabase(adminUrl);
  const others: Array<Awaited<ReturnType<typeof freshPostgresDatabase>>> = [];
  /** This run's databases: their backends are its cost. */
  const names = new Set([new URL(database.url).pathname.slice(1)]);
  // The postmaster's pid is the first line of its postmaster.pid.
  const postmaster = ours ? Number(readFileSync(`${SERVICES_DIR}/pg/postmaster.pid`, 'utf8').split('\n')[0]) : undefined;
  const redisPid = Number(/process_id:(\d+)/.exec(execFileSync('redis-cli', ['-u', redisUrl, 'info', 'server'], { encoding: 'utf8' }))?.[1] ?? 0);
  return {
    url: database.url,
    redisUrl,
    pids: () => (postmaster !== undefined ? processTree(postmaster).filter((pid) => forThisRun(processTitle(pid), names)) : postgresPids()),
    // A Redis of your own may run elsewhere, where its pid means nothing here.
    redisPids: () => (ours && redisPid > 0 ? [redisPid] : []),
    async analyze() {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query('analyze');
      } finally {
        await client.end();
      }
    },
    async another() {
      const other = await freshPostgresDatabase(adminUrl as string);
      others.push(other);
      names.add(new URL(other.url).pathname.slice(1));
      return other.url;
    },
    async drop() {
      for (const other of others) await other.drop();
      await database.drop();
    },
  };
}

/**
 * Whether a process of the cluster, by the title PostgreSQL gives it, works for these databases:
 * a backend or autovacuum worker of one of them, or one of the cluster's own processes (which
 * serve every database; the bench's cluster is shared by other runs, whose backends are not ours).
 */
export function forThisRun(title: string, databases: ReadonlySet<string>): boolean {
  const database = /^postgres: autovacuum worker (\S+)/.exec(title)?.[1] ?? /^postgres: \S+ (\S+) (?:\[local\]|\S+\(\d+\))/.exec(title)?.[1];
  return database === undefined || databases.has(database);
}
