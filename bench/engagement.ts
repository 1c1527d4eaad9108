// What issue 27's mechanics cost action logging: the benchmark program (./workload.ts) with its
// four boards, against the same program using every one of them (engagementProgram: streaks on
// frequent actions, point expiry in both categories, boosts in force, level prerequisites and group
// exclusions, prizes on every board), on SQLite and on PostgreSQL + Redis, measured in interleaved
// rounds as CPU per action (the server's, and PostgreSQL's and Redis's there).
import { clientToken, interleaved, load, startQuestline, startServer, type LoadResult, type Server } from './harness.js';
import type { BenchPostgres } from './postgres.js';
import { randomActionBody } from './workload.js';

export interface EngagementCost {
  store: string;
  none: LoadResult;
  all: LoadResult;
}

/** Action logging with none of the mechanics and with all of them: 5 interleaved rounds, medians, per store. */
export async function benchEngagementOnActions(dir: string, postgres: BenchPostgres | undefined): Promise<EngagementCost[]> {
  const started: Array<[string, Server]> = [
    ['SQLite, none', await startQuestline(dir, 'engagement-none', { BENCH_BOARDS: '1' })],
    ['SQLite, all', await startQuestline(dir, 'engagement-all', { BENCH_PROGRAM: 'engagement' })],
  ];
  if (postgres !== undefined) {
    const env = { DATABASE_URL: postgres.url, REDIS_URL: postgres.redisUrl, CLIENT_RATE_LIMIT_RPS: '1000000', CLIENT_RATE_LIMIT_BURST: '1000000' };
    started.push(['PostgreSQL, none', await startServer(['bench/questline-server.ts'], { ...env, REDIS_PREFIX: 'bench-engagement-none:', BENCH_BOARDS: '1' })]);
    started.push([
      'PostgreSQL, all',
      await startServer(['bench/questline-server.ts'], { ...env, REDIS_PREFIX: 'bench-engagement-all:', BENCH_PROGRAM: 'engagement' }),
    ]);
  }
  try {
    const tokens = await Promise.all(started.map(([, server]) => clientToken(server)));
    const action = () => {
      const { userId, body } = randomActionBody(10_000);
      return { path: `/users/${userId}/actions`, method: 'POST' as const, body };
    };
    const cpu = (server: Server, label: string) => ({
      server: () => [server.child.pid as number],
      ...(label.startsWith('PostgreSQL') ? { PostgreSQL: () => postgres?.pids() ?? [], Redis: () => postgres?.redisPids() ?? [] } : {}),
    });
    const results = await interleaved(
      5,
      Object.fromEntries(
        started.map(([label, server], i) => [
          label,
          () => load(server.url, { headers: { authorization: `Bearer ${tokens[i]?.token}` }, request: action, cpu: cpu(server, label) }),
        ]),
      ),
      { warmUp: true },
    );
    const stores = postgres !== undefined ? ['SQLite', 'PostgreSQL'] : ['SQLite'];
    return stores.map((store) => ({ store, none: results[`${store}, none`] as LoadResult, all: results[`${store}, all`] as LoadResult }));
  } finally {
    await Promise.all(started.map(([, server]) => server.stop()));
  }
}

/** CPU per action of every process measured, in µs. */
export const cpuPerAction = (result: LoadResult) => Object.values(result.cpu ?? {}).reduce((sum, micros) => sum + micros, 0);
