// Tokens of @questline/client across their expiry, against a running Questline whose clock the test
// moves (both configurations; tokens live 120 s): renewed before they expire (the margin), renewed
// once and the call retried when the server says one has expired, and a supplied token asked for
// again from its supplier.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, jwtExpiry } from '../../clients/typescript/src/index.js';
import { configurations, type TestSite } from '../helpers/app.js';
import { quickStartProgram, recordingFetch, startQuestline, type RunningQuestline } from './helpers.js';

const TTL_SECONDS = 120;

describe.each(configurations)('@questline/client tokens across expiry (%s)', (configuration) => {
  let q: RunningQuestline;
  let site: TestSite;
  let now = Date.parse('2026-06-15T12:00:00Z');
  const clock = () => now;

  beforeAll(async () => {
    q = await startQuestline(configuration, { clock, config: { tokenTtlSeconds: TTL_SECONDS } });
    site = await q.createSite();
    const admin = createClient({ baseUrl: q.baseUrl, clientId: site.admin.clientId, clientSecret: site.admin.clientSecret, now: clock });
    await admin.PUT('/admin/program', { body: quickStartProgram as never });
  });
  afterAll(async () => {
    await q?.close();
  });

  /** The paths the client requested, in order. */
  const paths = (recorder: ReturnType<typeof recordingFetch>) => recorder.sent.map((entry) => entry.path);

  it('keeps a token while it is fresh and renews it before it expires', async () => {
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: q.baseUrl, clientId: site.app.clientId, clientSecret: site.app.clientSecret, fetch: recorder.fetch, now: clock });
    const first = await client.token();
    expect(jwtExpiry(first)).toBe(Math.floor(now / 1000) * 1000 + TTL_SECONDS * 1000);
    now += 50_000; // 70 s left: more than the margin (60 s, at most half of 120 s)
    await client.GET('/challenges');
    expect(recorder.tokenRequests()).toBe(1);
    now += 15_000; // 55 s left: due
    await client.GET('/challenges');
    expect(recorder.tokenRequests()).toBe(2);
    const renewed = await client.token();
    expect(renewed).not.toBe(first);
    expect(recorder.sent.filter((entry) => entry.path === '/challenges').map((entry) => entry.authorization)).toEqual([`Bearer ${first}`, `Bearer ${renewed}`]);
  });

  it('renews once and retries when the server answers 401 token_expired', async () => {
    const recorder = recordingFetch();
    // The client's clock lags the server's, so it still holds a token the server calls expired.
    const lagging = now;
    const client = createClient({
      baseUrl: q.baseUrl,
      clientId: site.app.clientId,
      clientSecret: site.app.clientSecret,
      fetch: recorder.fetch,
      now: () => lagging,
    });
    const stale = await client.token();
    now += (TTL_SECONDS + 1) * 1000;
    const outcome = await client.logAction('hal', 'read_article');
    expect(outcome.recorded).toBe(true);
    expect(paths(recorder)).toEqual(['/oauth/token/', '/users/hal/actions', '/oauth/token/', '/users/hal/actions']);
    const attempts = recorder.sent.filter((entry) => entry.path === '/users/hal/actions');
    expect(attempts[0]?.authorization).toBe(`Bearer ${stale}`);
    expect(attempts[1]?.authorization).not.toBe(`Bearer ${stale}`);
    expect(attempts[0]?.body).toBe(attempts[1]?.body); // the same eventId
  });

  it('does not loop when a fixed token has expired: the 401 is a QuestlineError', async () => {
    const token = await q.token(site.app);
    now += (TTL_SECONDS + 1) * 1000;
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: q.baseUrl, token, fetch: recorder.fetch });
    await expect(client.GET('/challenges')).rejects.toMatchObject({ status: 401, code: 'token_expired' });
    expect(recorder.sent).toHaveLength(1);
  });

  it('asks a token supplier again when its token is due, and after a 401', async () => {
    let supplied = 0;
    const supplier = async () => {
      supplied += 1;
      return q.token(site.app, 'ivy');
    };
    const client = createClient({ baseUrl: q.baseUrl, token: supplier, now: clock });
    const path = { params: { path: { userId: 'ivy' } } };
    await client.GET('/users/{userId}/levels', path);
    await client.GET('/users/{userId}/levels', path);
    expect(supplied).toBe(1);
    now += 70_000; // due: less than 60 s left
    await client.GET('/users/{userId}/levels', path);
    expect(supplied).toBe(2);

    // A client whose clock never moves learns of the expiry from the server.
    const frozen = now;
    let suppliedToFrozen = 0;
    const frozenClient = createClient({
      baseUrl: q.baseUrl,
      token: async () => {
        suppliedToFrozen += 1;
        return q.token(site.app, 'ivy');
      },
      now: () => frozen,
    });
    await frozenClient.GET('/users/{userId}/levels', path);
    now += (TTL_SECONDS + 1) * 1000;
    await frozenClient.GET('/users/{userId}/levels', path);
    expect(suppliedToFrozen).toBe(2);
    expect(() => frozenClient.forUser('ivy')).toThrow(/clientId and clientSecret/);
  });
});
