// Retries of @questline/client against injected 429 and 503 answers (a proxy in front of a running
// Questline, both configurations): Retry-After in seconds and as an HTTP date, jittered backoff
// without it, the budget (attempts and total wait), and which calls are never sent twice.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, QuestlineError, type QuestlineClient, type RetryOptions } from '../../clients/typescript/src/index.js';
import { configurations, type TestSite } from '../helpers/app.js';
import { problem, quickStartProgram, startFaultyProxy, startQuestline, type FaultyProxy, type RunningQuestline } from './helpers.js';

const RATE_LIMITED = { status: 429, body: problem(429, 'rate_limited', 'Too many requests') };
const MAINTENANCE = { status: 503, body: problem(503, 'maintenance', 'The site is down for maintenance') };

describe.each(configurations)('@questline/client retries (%s)', (configuration) => {
  let q: RunningQuestline;
  let proxy: FaultyProxy;
  let site: TestSite;

  beforeAll(async () => {
    q = await startQuestline(configuration);
    proxy = await startFaultyProxy(q.baseUrl);
    site = await q.createSite();
    const admin = createClient({ baseUrl: q.baseUrl, clientId: site.admin.clientId, clientSecret: site.admin.clientSecret });
    await admin.PUT('/admin/program', { body: quickStartProgram as never });
  });
  afterEach(() => proxy.reset());
  afterAll(async () => {
    await proxy?.close();
    await q?.close();
  });

  const client = (retry?: RetryOptions): QuestlineClient =>
    createClient({ baseUrl: proxy.url, clientId: site.app.clientId, clientSecret: site.app.clientSecret, ...(retry !== undefined ? { retry } : {}) });
  const timed = async <T>(work: () => Promise<T>) => {
    const started = performance.now();
    const result = await work();
    return { result, ms: performance.now() - started };
  };

  it('waits the seconds a 429 Retry-After asks for, then succeeds', async () => {
    const questline = client();
    await questline.token();
    proxy.inject('/challenges', { ...RATE_LIMITED, headers: { 'retry-after': '1' } });
    const { result, ms } = await timed(() => questline.GET('/challenges'));
    expect(result.data.response.map((mission) => mission.id)).toEqual(['m-read']);
    expect(proxy.received.filter((line) => line === 'GET /challenges')).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(950);
  });

  it('waits until the HTTP date a 503 Retry-After names', async () => {
    const questline = client();
    await questline.token();
    const at = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
    proxy.inject('/challenges', { ...MAINTENANCE, headers: { 'retry-after': at.toUTCString() } });
    const { ms } = await timed(() => questline.GET('/challenges'));
    expect(proxy.received.filter((line) => line === 'GET /challenges')).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(1000);
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime() - 5);
  });

  it('backs off with jitter when there is no Retry-After', async () => {
    const questline = client({ baseDelayMs: 50, maxDelayMs: 100, maxAttempts: 4 });
    await questline.token();
    proxy.inject('/challenges', MAINTENANCE, MAINTENANCE, MAINTENANCE);
    const { ms } = await timed(() => questline.GET('/challenges'));
    expect(proxy.received.filter((line) => line === 'GET /challenges')).toHaveLength(4);
    expect(ms).toBeLessThan(1000); // three waits of at most 50, 100 and 100 ms
  });

  it('gives up at once when Retry-After is past the wait budget, with the 429 as a QuestlineError', async () => {
    const questline = client({ maxWaitMs: 5000 });
    await questline.token();
    proxy.inject('/challenges', { ...RATE_LIMITED, headers: { 'retry-after': '120' } });
    const { result, ms } = await timed(() => questline.GET('/challenges').catch((error: unknown) => error));
    expect(result).toBeInstanceOf(QuestlineError);
    expect(result).toMatchObject({ status: 429, code: 'rate_limited', requestId: 'req-rate_limited' });
    expect((result as QuestlineError).response?.headers.get('retry-after')).toBe('120');
    expect(ms).toBeLessThan(1000);
    expect(proxy.received.filter((line) => line === 'GET /challenges')).toHaveLength(1);
  });

  it('stops waiting when the caller aborts the call', async () => {
    const questline = client();
    await questline.token();
    proxy.inject('/challenges', { ...RATE_LIMITED, headers: { 'retry-after': '20' } });
    const { result, ms } = await timed(() => questline.GET('/challenges', { signal: AbortSignal.timeout(200) }).catch((error: unknown) => error));
    expect((result as Error).name).toBe('TimeoutError');
    expect(ms).toBeLessThan(2000);
    expect(proxy.received.filter((line) => line === 'GET /challenges')).toHaveLength(1);
  });

  it('stops after maxAttempts', async () => {
    const questline = client({ maxAttempts: 3 });
    await questline.token();
    proxy.inject('/challenges', ...Array.from({ length: 5 }, () => ({ ...RATE_LIMITED, headers: { 'retry-after': '0' } })));
    await expect(questline.GET('/challenges')).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    expect(proxy.received.filter((line) => line === 'GET /challenges')).toHaveLength(3);
  });

  it('retries an action logging whose 503 came after it was applied, and it counts once', async () => {
    const questline = client();
    proxy.inject('/users/eve/actions', { ...MAINTENANCE, headers: { 'retry-after': '0' }, forwardFirst: true });
    const outcome = await questline.logAction('eve', 'read_article');
    expect(outcome.duplicate).toBe(true);
    expect(proxy.received.filter((line) => line === 'POST /users/eve/actions')).toHaveLength(2);
    const { data } = await questline.GET('/users/{userId}/point-balance', { params: { path: { userId: 'eve' } } });
    expect(JSON.stringify(data.response)).toContain('"balance":10');
  });

  it('never sends a recognition again after a 503 (it may have been applied), but does after a 429 (refused before it ran)', async () => {
    const questline = client();
    await questline.logAction('fay', 'read_article');
    await questline.logAction('gus', 'read_article');
    const fay = questline.forUser('fay');
    await fay.token();
    const thank = () =>
      fay.POST('/users/{userId}/interactions-collection', {
        params: { path: { userId: 'fay' } },
        body: { exchangeId: 'x-thanks', categoryId: 'c-help', recipients: ['gus'], points: 1 },
      });
    proxy.inject('/users/fay/interactions-collection', { ...MAINTENANCE, headers: { 'retry-after': '0' } });
    await expect(thank()).rejects.toMatchObject({ status: 503, code: 'maintenance' });
    expect(proxy.received.filter((line) => line === 'POST /users/fay/interactions-collection')).toHaveLength(1);

    proxy.inject('/users/fay/interactions-collection', { ...RATE_LIMITED, headers: { 'retry-after': '0' } });
    await thank();
    expect(proxy.received.filter((line) => line === 'POST /users/fay/interactions-collection')).toHaveLength(3);
    const { data } = await questline.GET('/users/{userId}/interactions-collection', { params: { path: { userId: 'gus' }, query: { type: 'received' } } });
    expect(data.response).toHaveLength(1);
  });

  it('retries the token request on a 429 with Retry-After', async () => {
    proxy.inject('/oauth/token/', { ...RATE_LIMITED, headers: { 'retry-after': '0' } });
    const questline = client();
    await questline.GET('/challenges');
    expect(proxy.received.filter((line) => line === 'POST /oauth/token/')).toHaveLength(2);
  });
});
