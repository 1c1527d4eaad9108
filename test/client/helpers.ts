// What the client tests share: a Questline listening on 127.0.0.1 (buildTestApp, then app.listen),
// a small program, and a fetch that counts and can tamper with what the client sends.
import { buildTestApp, type ConfigurationName, type TestApp, type TestAppOptions } from '../helpers/app.js';

export interface RunningQuestline extends TestApp {
  baseUrl: string;
}

export async function startQuestline(configuration: ConfigurationName, options: TestAppOptions = {}): Promise<RunningQuestline> {
  const t = await buildTestApp(configuration, options);
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return Object.assign(t, { baseUrl });
}

/**
 * A site in UTC: `read_article` completes the repeatable mission m-read (10 Points), a points
 * leaderboard, and an exchange where users thank each other with up to 50 Points a month.
 */
export const quickStartProgram = {
  site: { name: 'Client quick start', timezone: 'UTC' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read_article' }],
  missions: [
    {
      id: 'm-read',
      name: 'Read an article',
      startDate: '2020-01-01T00:00:00',
      endDate: '2099-12-31T23:59:59',
      rules: [{ id: 'r-1', action: 'read_article', type: 'count', goal: 1, metadata: [] }],
      rewards: { points: [{ category: 'Points', amount: 10 }] },
      repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
    },
  ],
  leaderboards: [{ id: 'lb-points', name: 'Top readers', metric: { type: 'points', category: 'Points' }, period: 'allTime', size: 10 }],
  exchanges: [
    {
      id: 'x-thanks',
      name: 'Thanks',
      pointCategory: 'Points',
      budget: { amount: 50, period: 'month' },
      categories: [{ id: 'c-help', name: 'Helpfulness' }],
    },
  ],
};

/** A fetch that records each request's method and path, and lets a test answer or fail some of them itself. */
export function recordingFetch(intercept?: (request: Request, index: number) => Promise<Response | undefined> | Response | undefined) {
  const sent: Array<{ method: string; path: string; body: string; authorization: string | null }> = [];
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: url.pathname + url.search,
      body: await request.clone().text(),
      authorization: request.headers.get('authorization'),
    });
    const answer = await intercept?.(request, sent.length - 1);
    return answer ?? globalThis.fetch(request);
  };
  return { fetch, sent, tokenRequests: () => sent.filter((entry) => entry.path === '/oauth/token/').length };
}
