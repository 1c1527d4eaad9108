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

/** An answer the proxy gives instead of (or, with `after: 'forward'`, after) Questline's. */
export interface InjectedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Forward the request to Questline first (so it may be applied) and then answer this instead. */
  forwardFirst?: boolean;
}

export interface FaultyProxy {
  url: string;
  /** Method and path of every request the proxy received, in order. */
  received: string[];
  /** Answers for the next requests whose path starts with `pathPrefix`, in turn. */
  inject(pathPrefix: string, ...answers: InjectedAnswer[]): void;
  /** Forgets what was received and the answers not given yet. */
  reset(): void;
  close(): Promise<void>;
}

/** A reverse proxy in front of Questline that answers chosen requests itself (429, 503, ...), as a gateway or a busy node would. */
export async function startFaultyProxy(upstream: string): Promise<FaultyProxy> {
  const { createServer } = await import('node:http');
  const received: string[] = [];
  const injected: Array<{ pathPrefix: string; answer: InjectedAnswer }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const path = req.url ?? '/';
        received.push(`${req.method} ${path}`);
        const index = injected.findIndex((entry) => path.startsWith(entry.pathPrefix));
        const answer = index === -1 ? undefined : injected.splice(index, 1)[0]?.answer;
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers))
          if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const forward = () => globalThis.fetch(`${upstream}${path}`, { method: req.method ?? 'GET', headers, ...(body !== undefined ? { body } : {}) });
        if (answer === undefined || answer.forwardFirst === true) {
          const upstreamAnswer = await forward();
          if (answer === undefined) {
            const responseHeaders: Record<string, string> = {};
            upstreamAnswer.headers.forEach((value, name) => {
              if (name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'connection') responseHeaders[name] = value;
            });
            res.writeHead(upstreamAnswer.status, responseHeaders).end(Buffer.from(await upstreamAnswer.arrayBuffer()));
            return;
          }
          await upstreamAnswer.arrayBuffer();
        }
        res.writeHead(answer.status, { 'content-type': 'application/problem+json', ...answer.headers }).end(answer.body ?? '');
      })().catch((error: unknown) => res.writeHead(502).end(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    inject(pathPrefix, ...answers) {
      for (const answer of answers) injected.push({ pathPrefix, answer });
    },
    reset() {
      received.length = 0;
      injected.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A problem+json body as Questline writes it. */
export const problem = (status: number, code: string, title: string) =>
  JSON.stringify({ type: `urn:questline:error:${code}`, title, status, detail: title, code, requestId: `req-${code}` });
