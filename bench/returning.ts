// Returning users for workload (a) (issue 24): before action logging is measured, every user of
// the workload gets a few past actions of the benchmark mix through POST /admin/import, so that
// the engine has built their progress, completions, points, caps and levels as if they had been
// logged live, and the measured actions are mostly not a user's first (a first action creates
// the party and its rows; a returning user's reads and updates them).
import { clientToken, type Server } from './harness.js';
import { randomActionBody } from './workload.js';

const DAY = 86_400_000;
/** Lines per request: well under the endpoint's 10 MB. */
const CHUNK = 2_000;
/**
 * Requests in flight at once, each for its own users: the server writes their lines in groups
 * (SQLite's group commit, PostgreSQL's batched write sets) where one request at a time would
 * wait for a commit per line.
 */
const CONCURRENCY = 16;

export interface Imported {
  lines: number;
  recorded: number;
  seconds: number;
}

/**
 * Imports `perUser` past actions for each of user-0 … user-(users − 1), at random times of the
 * past 14 days (each user's in time order), through the server's admin client.
 */
export async function importReturningUsers(server: Server, users: number, perUser: number): Promise<Imported> {
  const { token } = await clientToken(server, 'admin');
  const started = performance.now();
  const now = Date.now() - 3_600_000;
  const slices = Array.from({ length: CONCURRENCY }, (_, slice) => {
    const lines: string[] = [];
    for (let user = slice; user < users; user += CONCURRENCY) {
      const times = Array.from({ length: perUser }, () => Math.round(now - Math.random() * 14 * DAY)).sort((a, b) => a - b);
      for (const timestamp of times) lines.push(JSON.stringify({ userId: `user-${user}`, ...(JSON.parse(randomActionBody(1).body) as object), timestamp }));
    }
    return lines;
  });
  const recorded = await Promise.all(
    slices.map(async (lines) => {
      let count = 0;
      for (let from = 0; from < lines.length; from += CHUNK) count += await importLines(server, token, lines.slice(from, from + CHUNK));
      return count;
    }),
  );
  return { lines: users * perUser, recorded: recorded.reduce((a, b) => a + b, 0), seconds: (performance.now() - started) / 1000 };
}

/** One import request; the lines it recorded (suppressed repeats and rate-limited lines are logged, not recorded). */
async function importLines(server: Server, token: string, lines: string[]): Promise<number> {
  const response = await fetch(`${server.url}/admin/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
    body: lines.join('\n'),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`import: ${response.status} ${text.slice(0, 500)}`);
  const summary = (JSON.parse(text) as { response: { recorded: number; rejected: number } }).response;
  if (summary.rejected > 0) throw new Error(`import rejected ${summary.rejected} lines: ${text.slice(0, 500)}`);
  return summary.recorded;
}
