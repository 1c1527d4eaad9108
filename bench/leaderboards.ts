// npm run bench leaderboards: one board of BENCH_USERS (default 1,000,000) users read over HTTP at
// 10 connections (the top 100, and a random user's rank), with the in-process rankings and with
// Redis sorted sets (a private redis-server started here); and action logging with the four
// benchmark boards against the same program without boards, embedded and with Redis (50
// connections, 10,000 users).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { clientToken, describeLoad, interleaved, load, printReport, report, startServer, type Server } from './harness.js';
import { randomActionBody } from './workload.js';

const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
/** BENCH_PARTS=reads or actions: one half only. */
const PARTS = (process.env.BENCH_PARTS ?? 'reads,actions').split(',');
const dir = mkdtempSync(join(tmpdir(), 'questline-bench-lb-'));
const servers: Server[] = [];
let redisServer: ChildProcess | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A private redis-server, or undefined when none is installed. */
async function startRedis(): Promise<string | undefined> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const started = await new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false));
    child.once('spawn', () => resolve(true));
  });
  if (!started) return undefined;
  redisServer = child;
  const url = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await probe.connect();
      await probe.ping();
      return url;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      probe.disconnect();
    }
  }
  throw new Error('redis-server did not start');
}

async function server(name: string, env: Record<string, string>): Promise<Server & { token: string }> {
  const started = await startServer(['bench/questline-server.ts'], {
    DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
    CLIENT_RATE_LIMIT_RPS: '1000000',
    CLIENT_RATE_LIMIT_BURST: '1000000',
    REDIS_URL: '',
    ...env,
  });
  servers.push(started);
  return { ...started, ...(await clientToken(started)) };
}

try {
  const redisUrl = await startRedis();
  if (redisUrl === undefined) process.stdout.write('redis-server is not installed: the Redis figures are skipped\n');

  // --- Reads at 1,000,000 users ----------------------------------------------------------------
  const implementations: Array<[string, Record<string, string>]> = [['in-process', {}], ...(redisUrl !== undefined ? [['Redis', { REDIS_URL: redisUrl, REDIS_PREFIX: 'bench:' }] as [string, Record<string, string>]] : [])];
  for (const [label, env] of PARTS.includes('reads') ? implementations : []) {
    const s = await server(`reads-${label}`, { ...env, BENCH_BOARDS: '1', BENCH_SCORES: String(USERS) });
    const seeded = /SEEDED .*/.exec(s.output())?.[0] ?? '';
    const auth = { authorization: `Bearer ${s.token}` };
    const reads = await interleaved(3, {
      top: () => load(`${s.url}/leaderboards/lb-all/leaders?limit=100`, { connections: 10, headers: auth }),
      rank: () => load(s.url, { connections: 10, headers: auth, request: () => ({ path: `/leaderboards/lb-all/leaders/user-${Math.floor(Math.random() * USERS)}?around=0` }) }),
    }, { warmUp: true });
    report(`${label}: ${USERS.toLocaleString('en')} users, seeding and loading`, seeded.replace(/^SEEDED \d+ /, ''));
    report(`${label}: GET /leaderboards/{id}/leaders?limit=100, 10 connections`, describeLoad(reads.top));
    report(`${label}: GET /leaderboards/{id}/leaders/{userId}, 10 connections`, describeLoad(reads.rank));
    await s.stop();
  }

  // --- The cost of boards on action logging -----------------------------------------------------
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
  const running = await Promise.all((PARTS.includes('actions') ? targets : []).map(([label, env], i) => server(`actions-${i}`, env).then((s) => [label, s] as const)));
  const action = () => {
    const { userId, body } = randomActionBody(10_000);
    return { path: `/users/${userId}/actions`, method: 'POST' as const, body };
  };
  // Five rounds: the differences measured here are a few percent, about the noise of one round.
  const results = await interleaved(5, Object.fromEntries(running.map(([label, s]) => [label, () => load(s.url, { headers: { authorization: `Bearer ${s.token}` }, request: action })])));
  for (const [label] of running) {
    const r = results[label];
    // Each configuration against the same one without boards (with Redis, rate limits go there too).
    const base = results[label.endsWith('Redis') ? 'no boards, Redis' : 'no boards'];
    if (r === undefined || base === undefined) continue;
    report(`POST /users/{id}/actions, ${label}, 50 connections`, `${describeLoad(r)}${label.startsWith('no boards') ? '' : `, ${((r.rps / base.rps) * 100).toFixed(0)}% of no boards`}`);
  }
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  redisServer?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
printReport();
