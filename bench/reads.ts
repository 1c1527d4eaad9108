// The read endpoints an app calls most, on the benchmark program with its four leaderboards
// (SQLite, in-process rankings): first a round of action logging over 10,000 users gives them
// progress, completions, balances and scores (not counted), then each read for random users of
// them, 10 connections, interleaved rounds.
import { clientToken, interleaved, load, startQuestline, type LoadResult } from './harness.js';
import { randomActionBody } from './workload.js';

const USERS = 10_000;
const user = () => `user-${Math.floor(Math.random() * USERS)}`;

export const READS = {
  eligible: 'GET /users/{id}/challenges (eligible missions)',
  atAGlance: 'GET /users/{id}/at-a-glance',
  balance: 'GET /users/{id}/point-balance',
  top: 'GET /leaderboards/{id}/leaders?limit=100 (top 100)',
  rank: 'GET /leaderboards/{id}/leaders/{userId} (a user and their rank)',
} as const;

export async function benchReads(dir: string): Promise<Record<keyof typeof READS, LoadResult>> {
  const server = await startQuestline(dir, 'reads', { BENCH_BOARDS: '1' });
  try {
    const headers = { authorization: `Bearer ${(await clientToken(server)).token}` };
    await load(server.url, {
      headers,
      request: () => {
        const { userId, body } = randomActionBody(USERS);
        return { path: `/users/${userId}/actions`, method: 'POST', body };
      },
    });
    const get = (path: () => string) => () => load(server.url, { connections: 10, headers, request: () => ({ path: path() }) });
    return await interleaved(
      3,
      {
        eligible: get(() => `/users/${user()}/challenges`),
        atAGlance: get(() => `/users/${user()}/at-a-glance`),
        balance: get(() => `/users/${user()}/point-balance`),
        top: get(() => '/leaderboards/lb-all/leaders?limit=100'),
        rank: get(() => `/leaderboards/lb-all/leaders/${user()}?around=0`),
      },
      { warmUp: true },
    );
  } finally {
    await server.stop();
  }
}
