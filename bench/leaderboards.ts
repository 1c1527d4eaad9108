// Leaderboards at scale: one board of BENCH_USERS (default 1,000,000) users read over HTTP at 10
// connections (the top 100, and a random user's rank), with the in-process rankings and with Redis
// sorted sets (a private redis-server, ./redis.ts), and the server's memory with those users, their
// balances and the boards loaded; on Redis, a user's standing with the entries around them
// against a raw ZREVRANK + ZSCORE + ZREVRANGE route on the same board (./redis-rank-server.ts); and
// action logging with the four benchmark boards against the same program without boards, embedded
// and with Redis (50 connections, 10,000 users). BENCH_PROFILE_DIR=dir keeps a CPU profile of
// Questline's server over one more round of standings on Redis (standing-redis.cpuprofile; read it
// with ./phase-top.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientToken, interleaved, load, startQuestline, startServer, type LoadResult, type Server } from './harness.js';
import { randomActionBody } from './workload.js';

export const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
/** Entries on each side of a user's standing: the endpoint's default. */
export const AROUND = 5;

export interface BoardReads {
  implementation: string;
  /** The server's own line: seeding and loading times, RSS when loaded. */
  seeded: string;
  top: LoadResult;
  rank: LoadResult;
  /** process.memoryUsage() of the server after the reads, bytes. */
  memory: { rss: number; heapUsed: number };
  /** Redis: a user's standing with AROUND entries each side, Questline's and the raw route's, and the raw route's copy of the board. */
  standing?: { questline: LoadResult; raw: LoadResult; copied: string };
}

async function server(dir: string, name: string, env: Record<string, string>): Promise<Server & { token: string; siteId: string }> {
  const started = await startQuestline(dir, name, env);
  return { ...started, ...(await clientToken(started)) };
}

/** Reads of a board of USERS users, in-process and (with `redis`) on Redis, whose process is `redis.pids()`. */
export async function benchBoardReads(dir: string, redis: { url: string; pids: () => number[] } | undefined): Promise<BoardReads[]> {
  const implementations: Array<[string, Record<string, string>]> = [
    ['in-process', {}],
    ...(redis !== undefined ? [['Redis', { REDIS_URL: redis.url, REDIS_PREFIX: 'bench:' }] as [string, Record<string, string>]] : []),
  ];
  const out: BoardReads[] = [];
  for (const [implementation, env] of implementations) {
    const s = await server(dir, `reads-${implementation}`, { ...env, BENCH_BOARDS: '1', BENCH_SCORES: String(USERS) });
    // On Redis, the raw route's server, on a copy of the board Questline loaded (its all-time window starts at 0).
    const raw =
      redis !== undefined && implementation === 'Redis'
        ? await startServer(['bench/redis-rank-server.ts'], {
            REDIS_URL: redis.url,
            RANK_SOURCE: `bench:lb:{${s.siteId}}:lb-all:0:set`,
            RANK_KEY: 'bench-raw:lb-all',
          })
        : undefined;
    try {
      const auth = { authorization: `Bearer ${s.token}` };
      const randomUser = () => `user-${Math.floor(Math.random() * USERS)}`;
      const cpu = (server: Server) => ({ server: () => [server.child.pid as number], Redis: () => redis?.pids() ?? [] });
      const targets: Record<string, () => Promise<LoadResult>> = {
        top: () => load(`${s.url}/leaderboards/lb-all/leaders?limit=100`, { connections: 10, headers: auth }),
        rank: () => load(s.url, { connections: 10, headers: auth, request: () => ({ path: `/leaderboards/lb-all/leaders/${randomUser()}?around=0` }) }),
      };
      if (raw !== undefined) {
        targets.standing = () =>
          load(s.url, {
            connections: 10,
            headers: auth,
            request: () => ({ path: `/leaderboards/lb-all/leaders/${randomUser()}?around=${AROUND}` }),
            cpu: cpu(s),
          });
        targets.raw = () => load(raw.url, { connections: 10, request: () => ({ path: `/rank/${randomUser()}?around=${AROUND}` }), cpu: cpu(raw) });
      }
      const reads = (await interleaved(3, targets, { warmUp: true })) as Record<string, LoadResult | undefined> & { top: LoadResult; rank: LoadResult };
      const profiles = process.env.BENCH_PROFILE_DIR;
      if (targets.standing !== undefined && profiles !== undefined) {
        await fetch(`${s.url}/bench/profile/start`, { method: 'POST' });
        await targets.standing();
        writeFileSync(join(profiles, 'standing-redis.cpuprofile'), await (await fetch(`${s.url}/bench/profile/stop`, { method: 'POST' })).text());
      }
      // A read of balances across the users, as an app's home screens would make (not timed).
      await load(s.url, { connections: 10, headers: auth, request: () => ({ path: `/users/${randomUser()}/point-balance` }) });
      const memory = (await (await fetch(`${s.url}/bench/memory`)).json()) as { rss: number; heapUsed: number };
      const { standing, raw: rawReads } = reads;
      out.push({
        implementation,
        seeded: (/SEEDED .*/.exec(s.output())?.[0] ?? '').replace(/^SEEDED \d+ /, 'seeded '),
        top: reads.top,
        rank: reads.rank,
        memory,
        ...(raw !== undefined && standing !== undefined && rawReads !== undefined
          ? { standing: { questline: standing, raw: rawReads, copied: (/COPIED .*/.exec(raw.output())?.[0] ?? '').replace(/^COPIED /, 'copied ') } }
          : {}),
      });
    } finally {
      await raw?.stop();
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
    const results = await interleaved(
      5,
      Object.fromEntries(running.map(([label, s]) => [label, () => load(s.url, { headers: { authorization: `Bearer ${s.token}` }, request: action })])),
    );
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
