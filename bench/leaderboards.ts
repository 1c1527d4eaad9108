// Leaderboards at scale: one board of BENCH_USERS (default 1,000,000) users read over HTTP at 10
// connections (the top 100, and a random user's rank), with the in-process rankings and with Redis
// sorted sets (a private redis-server, ./redis.ts), and the server's memory with those users, their
// balances and the boards loaded; and action logging with the four benchmark boards against the
// same program without boards, embedded and with Redis (50 connections, 10,000 users).
import { clientToken, interleaved, load, startQuestline, type LoadResult, type Server } from './harness.js';
import { randomActionBody } from './workload.js';

export const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);

export interface BoardReads {
  implementation: string;
  /** The server's own line: seeding and loading times, RSS when loaded. */
  seeded: string;
  top: LoadResult;
  rank: LoadResult;
  /** process.memoryUsage() of the server after the reads, bytes. */
  memory: { rss: number; heapUsed: number };
}

async function server(dir: string, name: string, env: Record<string, string>): Promise<Server & { token: string }> {
  const started = await startQuestline(dir, name, env);
  return { ...started, ...(await clientToken(started)) };
}

/** Reads of a board of USERS users, in-process and (with `redisUrl`) on Redis. */
export async function benchBoardReads(dir: string, redisUrl: string | undefined): Promise<BoardReads[]> {
  const implementations: Array<[string, Record<string, string>]> = [['in-process', {}], ...(redisUrl !== undefined ? [['Redis', { REDIS_URL: redisUrl, REDIS_PREFIX: 'bench:' }] as [string, Record<string, string>]] : [])];
  const out: BoardReads[] = [];
  for (const [implementation, env] of implementations) {
    const s = await server(dir, `reads-${implementation}`, { ...env, BENCH_BOARDS: '1', BENCH_SCORES: String(USERS) });
    try {
      const auth = { authorization: `Bearer ${s.token}` };
      const reads = await interleaved(
        3,
        {
          top: () => load(`${s.url}/leaderboards/lb-all/leaders?limit=100`, { connections: 10, headers: auth }),
          rank: () => load(s.url, { connections: 10, headers: auth, request: () => ({ path: `/leaderboards/lb-all/leaders/user-${Math.floor(Math.random() * USERS)}?around=0` }) }),
        },
        { warmUp: true },
      );
      // A read of balances across the users, as an app's home screens would make (not timed).
      await load(s.url, { connections: 10, headers: auth, request: () => ({ path: `/users/user-${Math.floor(Math.random() * USERS)}/point-balance` }) });
      const memory = (await (await fetch(`${s.url}/bench/memory`)).json()) as { rss: number; heapUsed: number };
      out.push({ implementation, seeded: (/SEEDED .*/.exec(s.output())?.[0] ?? '').replace(/^SEEDED \d+ /, 'seeded '), ...reads, memory });
    } finally {
      await s.stop();
    }
  }
  return out;
}

/** Action logging with the four benchmark boards against none, embedded and (with `redisUrl`) with Redis. */
export async function benchBoardsOnActions(dir: string, redisUrl: string | undefined): Promise<Array<{ label: string; result: LoadResult; share?: number }>> {
  const targets: Array<[string, Record<string, string>]> = [
    ['no boards', {}],
    ['4 boards, in-process', { BENCH_BOARDS: '1' }],
    ...(redisUrl !== undefined
      ? ([
          ['no boards, Redis', { REDIS_URL: redisUrl, REDIS_PREFIX: 'bench-plain:' }],
          ['4 boards, Redis', { BENCH_BOARDS: '1', REDIS_URL: redisUrl, REDIS_PREFIX: 'bench-actions:' }],
        ] as Array<[string, Record<string, string>]>)
      : []),
  ];
  const running = await Promise.all(targets.map(([label, env], i) => server(dir, `actions-${i}`, env).then((s) => [label, s] as const)));
  try {
    const action = () => {
      const { userId, body } = randomActionBody(10_000);
      return { path: `/users/${userId}/actions`, method: 'POST' as const, body };
    };
    // Five rounds: the differences measured here are a few percent, about the noise of one round.
    const results = await interleaved(5, Object.fromEntries(running.map(([label, s]) => [label, () => load(s.url, { headers: { authorization: `Bearer ${s.token}` }, request: action })])));
    return running.map(([label]) => {
      const result = results[label] as LoadResult;
      // Each configuration against the same one without boards (with Redis, rate limits go there too).
      const base = results[label.endsWith('Redis') ? 'no boards, Redis' : 'no boards'] as LoadResult;
      return { label, result, ...(label.startsWith('no boards') ? {} : { share: result.rps / base.rps }) };
    });
  } finally {
    await Promise.all(running.map(([, s]) => s.stop()));
  }
}
