// The cost of one action as a user's history grows: users with 0, 1,000, 10,000 and 100,000
// actions behind them (imported through POST /admin/import with timestamps spread over the past
// 300 days, so the engine built their progress, completions, ledger and caps), then one action at
// a time (one connection, no queueing) for each history size in turn, so that a noisy neighbour
// slows every size alike. "0" is a new user for every action.
import { Agent, request } from 'node:http';
import { clientToken, median, startQuestline, type Server } from './harness.js';
import { randomActionBody } from './workload.js';

/** History size → how many users have it (the measured actions are spread over them, the same number for every size). */
const SIZES: Array<[number, number]> = [
  [0, 0],
  [1_000, 2],
  [10_000, 2],
  [100_000, 2],
];
const MEASURED_PER_SIZE = Number(process.env.BENCH_HISTORY_ACTIONS ?? 1_000);
const DAY = 86_400_000;

export interface HistoryResult {
  history: number;
  /** Median and 90th percentile of one action's latency, µs. */
  p50: number;
  p90: number;
}

export async function benchHistory(dir: string): Promise<{ results: HistoryResult[]; importRate: number; perSize: number }> {
  const server = await startQuestline(dir, 'history');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const admin = (await clientToken(server, 'admin')).token;
    const app = (await clientToken(server)).token;
    let imported = 0;
    const importStarted = performance.now();
    for (const [size, users] of SIZES) {
      for (let u = 0; u < users; u++) imported += await importHistory(server, agent, admin, `hist-${size}-${u}`, size);
    }
    const importRate = imported / ((performance.now() - importStarted) / 1000);

    const latencies = new Map<number, number[]>(SIZES.map(([size]) => [size, []]));
    let fresh = 0;
    const WARM_UP = 50;
    for (let i = -WARM_UP; i < MEASURED_PER_SIZE; i++) {
      for (const [size, users] of SIZES) {
        const userId = size === 0 ? `fresh-${fresh++}` : `hist-${size}-${(i + WARM_UP) % users}`;
        const { body } = randomActionBody(1);
        const started = process.hrtime.bigint();
        const answer = await send(server, agent, { method: 'POST', path: `/users/${userId}/actions`, token: app, contentType: 'application/json', body });
        const micros = Number(process.hrtime.bigint() - started) / 1000;
        if (answer.status !== 201 && answer.status !== 200) throw new Error(`history action: ${answer.status} ${answer.body}`);
        if (i >= 0) latencies.get(size)?.push(micros);
      }
    }
    const results = SIZES.map(([size]) => {
      const sorted = [...(latencies.get(size) ?? [])].sort((a, b) => a - b);
      return { history: size, p50: median(sorted), p90: sorted[Math.floor(sorted.length * 0.9)] ?? 0 };
    });
    return { results, importRate, perSize: MEASURED_PER_SIZE };
  } finally {
    agent.destroy();
    await server.stop();
  }
}

/** `size` actions for one user, oldest first, over the past 300 days; returns how many were recorded. */
async function importHistory(server: Server, agent: Agent, token: string, userId: string, size: number): Promise<number> {
  const end = Date.now() - 3_600_000;
  const start = end - 300 * DAY;
  const CHUNK = 20_000;
  let recorded = 0;
  for (let from = 0; from < size; from += CHUNK) {
    const lines: string[] = [];
    for (let i = from; i < Math.min(size, from + CHUNK); i++) {
      const action = JSON.parse(randomActionBody(1).body) as Record<string, unknown>;
      lines.push(JSON.stringify({ userId, ...action, timestamp: Math.round(start + ((end - start) * i) / size) }));
    }
    const answer = await send(server, agent, { method: 'POST', path: '/admin/import', token, contentType: 'application/x-ndjson', body: lines.join('\n') });
    if (answer.status !== 200) throw new Error(`import: ${answer.status} ${answer.body}`);
    const summary = (JSON.parse(answer.body) as { response: { recorded: number; rejected: number } }).response;
    if (summary.rejected > 0) throw new Error(`import rejected ${summary.rejected} lines: ${answer.body.slice(0, 500)}`);
    recorded += summary.recorded;
  }
  return recorded;
}

function send(
  server: Server,
  agent: Agent,
  options: { method: string; path: string; token: string; contentType: string; body: string },
): Promise<{ status: number; body: string }> {
  const url = new URL(options.path, server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method, agent, headers: { authorization: `Bearer ${options.token}`, 'content-type': options.contentType } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
