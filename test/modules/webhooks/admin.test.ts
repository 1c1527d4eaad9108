// The webhook admin API (SPEC §12): endpoint subscriptions (JSON and form bodies, validation, the
// private-network rule), the delivery log with its filters and redelivery, the signing secret
// (reveal, rotate, the overlap a program write also starts), and who may call any of it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { playProgram } from '../../helpers/fixtures.js';

const HOUR = 60 * 60 * 1000;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const newSecret = (bytes = 32) => `whsec_${randomBytes(bytes).toString('base64')}`;

type Item = Record<string, unknown>;
interface Reply {
  status: number;
  headers: Record<string, unknown>;
  body: { response?: unknown; code?: string; errors?: Array<{ path: string; message: string }> };
  one: Item;
  many: Item[];
  raw: string;
}

async function call(
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token?: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...headers, ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload !== undefined ? { payload: payload as string | object } : {}),
  });
  const body = (res.body === '' ? {} : res.json()) as Reply['body'];
  return { status: res.statusCode, headers: res.headers, body, one: body.response as Item, many: body.response as Item[], raw: res.body };
}

function expectProblem(r: Reply, status: number, code: string): void {
  expect(r.status, r.raw).toBe(status);
  expect(String(r.headers['content-type'])).toMatch(/^application\/problem\+json/);
  expect(r.body.code).toBe(code);
}

function expectInvalid(r: Reply, path: string, message?: RegExp): void {
  expectProblem(r, 400, 'validation_failed');
  const found = r.body.errors?.find((e) => e.path === path);
  expect(found, r.raw).toBeDefined();
  if (message !== undefined) expect(found?.message).toMatch(message);
}

interface Hooks {
  site: TestSite;
  admin: string;
  deliveries: Item[];
}

/** A site whose missions go to hooks.example.com, with deliveries (failed, so pending) for ann and bob. */
async function siteWithDeliveries(t: TestApp): Promise<Hooks> {
  const site = await t.createSite();
  const admin = await t.token(site.admin);
  const program = playProgram('Hooks', []);
  program.site = { ...(program.site as object), achievementCallbackUrl: 'https://hooks.example.com/q' };
  const put = await call(t, 'PUT', '/admin/program', admin, program);
  expect(put.status, put.raw).toBe(200);
  const app = await t.token(site.app);
  for (const user of ['ann', 'bob']) {
    const logged = await call(t, 'POST', `/users/${user}/actions`, app, { action: 'play', eventId: `ev-${user}-${site.siteId}` });
    expect(logged.status, logged.raw).toBe(201);
  }
  await t.app.services.webhooks.runOnce();
  const listed = await call(t, 'GET', '/admin/webhook-deliveries', admin);
  expect(listed.status, listed.raw).toBe(200);
  return { site, admin, deliveries: listed.many };
}

describe.each(configurations)('webhook admin API (%s)', (configuration) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(configuration);
  });
  afterAll(async () => t.close());

  async function adminOf(): Promise<{ site: TestSite; admin: string }> {
    const site = await t.createSite();
    return { site, admin: await t.token(site.admin) };
  }

  it('creates, lists, reads, replaces and deletes an endpoint', async () => {
    const { admin } = await adminOf();
    const created = await call(t, 'POST', '/admin/webhook-endpoints', admin, {
      url: 'https://hooks.example.com/a',
      eventTypes: ['level.changed', 'badge.earned'],
      description: 'Levels and badges',
    });
    expect(created.status, created.raw).toBe(201);
    const endpoint = created.one;
    expect(endpoint).toMatchObject({ url: 'https://hooks.example.com/a', eventTypes: ['level.changed', 'badge.earned'], description: 'Levels and badges' });
    expect(String(endpoint.id)).toMatch(/^whe_/);
    expect(new Date(String(endpoint.createdAt)).toISOString()).toBe(endpoint.createdAt);

    expect((await call(t, 'GET', '/admin/webhook-endpoints', admin)).many).toEqual([endpoint]);
    const url = `/admin/webhook-endpoints/${String(endpoint.id)}`;
    expect((await call(t, 'GET', url, admin)).one).toEqual(endpoint);

    const replaced = await call(t, 'PUT', url, admin, { url: 'https://other.example.com/b', eventTypes: ['recognition.given'], description: 'Recognitions' });
    expect(replaced.status, replaced.raw).toBe(200);
    const expected = { ...endpoint, url: 'https://other.example.com/b', eventTypes: ['recognition.given'], description: 'Recognitions' };
    expect(replaced.one).toEqual(expected);
    expect((await call(t, 'GET', url, admin)).one).toEqual(expected);

    const deleted = await call(t, 'DELETE', url, admin);
    expect(deleted.status, deleted.raw).toBe(204);
    expect(deleted.raw).toBe('');
    expectProblem(await call(t, 'GET', url, admin), 404, 'not_found');
    expectProblem(await call(t, 'DELETE', url, admin), 404, 'not_found');
    expectProblem(await call(t, 'PUT', url, admin, { url: 'https://x.example/', eventTypes: ['badge.earned'] }), 404, 'not_found');
    expect((await call(t, 'GET', '/admin/webhook-endpoints', admin)).many).toEqual([]);
  });

  it('takes form bodies with a comma-separated or a repeated eventTypes, and stores each type once', async () => {
    const { admin } = await adminOf();
    const url = encodeURIComponent('https://hooks.example.com/form');
    for (const payload of [`url=${url}&eventTypes=level.changed,badge.earned`, `url=${url}&eventTypes=level.changed&eventTypes=badge.earned`]) {
      const created = await call(t, 'POST', '/admin/webhook-endpoints', admin, payload, FORM);
      expect(created.status, created.raw).toBe(201);
      expect(created.one).toMatchObject({ url: 'https://hooks.example.com/form', eventTypes: ['level.changed', 'badge.earned'], description: null });
    }
    const doubled = await call(t, 'POST', '/admin/webhook-endpoints', admin, `url=${url}&eventTypes=badge.earned,badge.earned,level.changed`, FORM);
    expect(doubled.status, doubled.raw).toBe(201);
    expect(doubled.one.eventTypes).toEqual(['badge.earned', 'level.changed']);
    const json = await call(t, 'POST', '/admin/webhook-endpoints', admin, { url: 'https://hooks.example.com/j', eventTypes: ['badge.earned', 'badge.earned'] });
    expect(json.one.eventTypes).toEqual(['badge.earned']);
    expect((await call(t, 'GET', '/admin/webhook-endpoints', admin)).many).toHaveLength(4);
  });

  it('rejects event types without subscriptions and bad URLs, and creates nothing', async () => {
    const { admin } = await adminOf();
    const post = (url: string, eventTypes: string[]) => call(t, 'POST', '/admin/webhook-endpoints', admin, { url, eventTypes });
    const ok = 'https://hooks.example.com/x';
    expectInvalid(await post(ok, ['mission.completed']), 'eventTypes[0]', /achievementCallbackUrl/);
    expectInvalid(await post(ok, ['badge.earned', 'award.debited']), 'eventTypes[1]', /giftNotifyUrl/);
    expectInvalid(await post(ok, ['nope']), 'eventTypes[0]', /unknown event type/);
    expectInvalid(await post(ok, []), 'body.eventTypes');
    expectInvalid(await post('ftp://x.example/', ['badge.earned']), 'url', /http or https/);
    expectInvalid(await post('not a url', ['badge.earned']), 'url');
    expectInvalid(await post('https://u:p@x.example/', ['badge.earned']), 'url', /credentials/);
    expectInvalid(await call(t, 'POST', '/admin/webhook-endpoints', admin, `url=${encodeURIComponent(ok)}&eventTypes=`, FORM), 'body.eventTypes');
    expect((await call(t, 'GET', '/admin/webhook-endpoints', admin)).many).toEqual([]);
  });

  it('refuses literal private addresses unless private networks are allowed, and accepts host names', async () => {
    const { admin } = await adminOf();
    for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]/x', 'http://10.0.0.5/']) {
      expectInvalid(await call(t, 'POST', '/admin/webhook-endpoints', admin, { url, eventTypes: ['badge.earned'] }), 'url', /loopback, private or link-local/);
    }
    expect((await call(t, 'GET', '/admin/webhook-endpoints', admin)).many).toEqual([]);
    const named = await call(t, 'POST', '/admin/webhook-endpoints', admin, { url: 'https://hooks.example.com/x', eventTypes: ['badge.earned'] });
    expect(named.status, named.raw).toBe(201);

    const open = await buildTestApp(configuration, { config: { webhookAllowPrivateNetworks: true } });
    try {
      const site = await open.createSite();
      const created = await call(open, 'POST', '/admin/webhook-endpoints', await open.token(site.admin), {
        url: 'http://127.0.0.1:9/hook',
        eventTypes: ['badge.earned'],
      });
      expect(created.status, created.raw).toBe(201);
      expect(created.one.url).toBe('http://127.0.0.1:9/hook');
    } finally {
      await open.close();
    }
  });

  it('lists deliveries newest first, filtered and paged, reads one and redelivers it', async () => {
    const { admin, deliveries } = await siteWithDeliveries(t);
    expect(deliveries).toHaveLength(2);
    for (const d of deliveries) {
      expect(d).toMatchObject({
        eventType: 'mission.completed',
        destination: 'site:achievementCallbackUrl',
        status: 'pending',
        attempts: 1,
        lastStatus: null,
        lastUrl: 'https://hooks.example.com/q',
      });
      expect(d.lastError).not.toBeNull();
    }
    expect(deliveries.map((d) => d.userId).sort()).toEqual(['ann', 'bob']);
    const keys = deliveries.map((d) => `${String(d.createdAt)} ${String(d.id)}`);
    expect(keys).toEqual([...keys].sort().reverse());

    const all = await call(t, 'GET', '/admin/webhook-deliveries', admin);
    expect(all.headers['x-total-count']).toBe('2');
    const ann = await call(t, 'GET', '/admin/webhook-deliveries?userId=ann', admin);
    expect(ann.many).toHaveLength(1);
    expect(ann.many[0]?.userId).toBe('ann');
    expect(ann.headers['x-total-count']).toBe('1');
    expect((await call(t, 'GET', '/admin/webhook-deliveries?status=delivered', admin)).many).toEqual([]);
    expect((await call(t, 'GET', '/admin/webhook-deliveries?status=pending', admin)).many).toHaveLength(2);
    expect((await call(t, 'GET', '/admin/webhook-deliveries?eventType=mission.completed', admin)).many).toHaveLength(2);
    expect((await call(t, 'GET', '/admin/webhook-deliveries?eventType=badge.earned', admin)).many).toEqual([]);
    expectProblem(await call(t, 'GET', '/admin/webhook-deliveries?eventType=bogus', admin), 400, 'validation_failed');
    expectProblem(await call(t, 'GET', '/admin/webhook-deliveries?status=bogus', admin), 400, 'validation_failed');
    const paged = await call(t, 'GET', '/admin/webhook-deliveries?limit=1&offset=1', admin);
    expect(paged.many).toEqual([deliveries[1]]);
    expect(paged.headers['x-total-count']).toBe('2');

    const first = deliveries[0] as Item;
    expect((await call(t, 'GET', `/admin/webhook-deliveries/${String(first.id)}`, admin)).one).toEqual(first);
    expectProblem(await call(t, 'GET', '/admin/webhook-deliveries/whd_unknown', admin), 404, 'not_found');
    expectProblem(await call(t, 'POST', '/admin/webhook-deliveries/whd_unknown/redeliver', admin), 404, 'not_found');

    const redelivered = await call(t, 'POST', `/admin/webhook-deliveries/${String(first.id)}/redeliver`, admin);
    expect(redelivered.status, redelivered.raw).toBe(202);
    expect(redelivered.one).toMatchObject({ id: first.id, eventId: first.eventId, status: 'pending', attempts: 1 });
    expect(Date.parse(String(redelivered.one.nextAttemptAt))).toBeLessThanOrEqual(Date.now());
  });

  it('lets only an admin client of the site call the webhook admin API', async () => {
    const a = await siteWithDeliveries(t);
    const endpoint = (await call(t, 'POST', '/admin/webhook-endpoints', a.admin, { url: 'https://hooks.example.com/s', eventTypes: ['badge.earned'] })).one;
    const delivery = a.deliveries[0] as Item;
    const body = { url: 'https://hooks.example.com/t', eventTypes: ['level.changed'] };
    const routes: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?]> = [
      ['GET', '/admin/webhook-endpoints'],
      ['POST', '/admin/webhook-endpoints', body],
      ['GET', `/admin/webhook-endpoints/${String(endpoint.id)}`],
      ['PUT', `/admin/webhook-endpoints/${String(endpoint.id)}`, body],
      ['DELETE', `/admin/webhook-endpoints/${String(endpoint.id)}`],
      ['GET', '/admin/webhook-deliveries'],
      ['GET', `/admin/webhook-deliveries/${String(delivery.id)}`],
      ['POST', `/admin/webhook-deliveries/${String(delivery.id)}/redeliver`],
      ['GET', '/admin/webhook-secret'],
      ['POST', '/admin/webhook-secret/rotate'],
    ];
    const appToken = await t.token(a.site.app);
    const userToken = await t.token(a.site.app, 'ann');
    for (const [method, url, payload] of routes) {
      expectProblem(await call(t, method, url, undefined, payload), 401, 'missing_token');
      expectProblem(await call(t, method, url, appToken, payload), 403, 'forbidden');
      expectProblem(await call(t, method, url, userToken, payload), 403, 'forbidden');
    }
    // Nothing changed: the endpoint is there as it was.
    expect((await call(t, 'GET', `/admin/webhook-endpoints/${String(endpoint.id)}`, a.admin)).one).toEqual(endpoint);

    const b = await adminOf();
    expectProblem(await call(t, 'GET', `/admin/webhook-endpoints/${String(endpoint.id)}`, b.admin), 404, 'not_found');
    expectProblem(await call(t, 'PUT', `/admin/webhook-endpoints/${String(endpoint.id)}`, b.admin, body), 404, 'not_found');
    expectProblem(await call(t, 'DELETE', `/admin/webhook-endpoints/${String(endpoint.id)}`, b.admin), 404, 'not_found');
    expectProblem(await call(t, 'GET', `/admin/webhook-deliveries/${String(delivery.id)}`, b.admin), 404, 'not_found');
    expectProblem(await call(t, 'POST', `/admin/webhook-deliveries/${String(delivery.id)}/redeliver`, b.admin), 404, 'not_found');
    expect((await call(t, 'GET', '/admin/webhook-endpoints', b.admin)).many).toEqual([]);
    const bDeliveries = await call(t, 'GET', '/admin/webhook-deliveries', b.admin);
    expect(bDeliveries.many).toEqual([]);
    expect(bDeliveries.headers['x-total-count']).toBe('0');
    // A's endpoint and delivery survived B's attempts.
    expect((await call(t, 'GET', `/admin/webhook-endpoints/${String(endpoint.id)}`, a.admin)).one).toEqual(endpoint);
    expect((await call(t, 'GET', `/admin/webhook-deliveries/${String(delivery.id)}`, a.admin)).one).toMatchObject({
      id: delivery.id,
      attempts: delivery.attempts,
    });
  });

  it('reveals the secret, the same one each time, and rotates it with a day of overlap', async () => {
    const { admin } = await adminOf();
    const revealed = await call(t, 'GET', '/admin/webhook-secret', admin);
    expect(revealed.status, revealed.raw).toBe(200);
    expect(revealed.one).toEqual({ secret: expect.stringMatching(SECRET), previousSecretValidUntil: null });
    const first = String(revealed.one.secret);
    expect((await call(t, 'GET', '/admin/webhook-secret', admin)).one).toEqual(revealed.one);

    const rotated = await call(t, 'POST', '/admin/webhook-secret/rotate', admin);
    expect(rotated.status, rotated.raw).toBe(200);
    const second = String(rotated.one.secret);
    expect(second).toMatch(SECRET);
    expect(second).not.toBe(first);
    const until = String(rotated.one.previousSecretValidUntil);
    expect(new Date(until).toISOString()).toBe(until);
    expect(Date.parse(until) - Date.now()).toBeGreaterThan(23.9 * HOUR);
    expect(Date.parse(until) - Date.now()).toBeLessThanOrEqual(24 * HOUR);
    expect((await call(t, 'GET', '/admin/webhook-secret', admin)).one).toEqual(rotated.one);

    const given = newSecret();
    const chosen = await call(t, 'POST', '/admin/webhook-secret/rotate', admin, { secret: given });
    expect(chosen.status, chosen.raw).toBe(200);
    expect(chosen.one.secret).toBe(given);
    expect(chosen.one.previousSecretValidUntil).not.toBeNull();

    for (const secret of ['short', newSecret(8)]) {
      expectInvalid(await call(t, 'POST', '/admin/webhook-secret/rotate', admin, { secret }), 'secret', /whsec_/);
    }
    expect((await call(t, 'GET', '/admin/webhook-secret', admin)).one.secret).toBe(given);

    const settings = await call(t, 'GET', '/admin/site', admin);
    expect(settings.status, settings.raw).toBe(200);
    expect(settings.one.webhookSecret).toBe(`****${given.slice(-4)}`);
  });

  it('keeps the old secret signing for a day when a program write sets a new one', async () => {
    const { admin } = await adminOf();
    const old = String((await call(t, 'GET', '/admin/webhook-secret', admin)).one.secret);
    const next = newSecret();
    const written = await call(t, 'PUT', '/admin/site', admin, { name: 'X', webhookSecret: next });
    expect(written.status, written.raw).toBe(200);
    expect(written.one.webhookSecret).toBe(`****${next.slice(-4)}`);
    const revealed = (await call(t, 'GET', '/admin/webhook-secret', admin)).one;
    expect(revealed.secret).toBe(next);
    expect(revealed.secret).not.toBe(old);
    expect(revealed.previousSecretValidUntil).not.toBeNull();
    expect(Date.parse(String(revealed.previousSecretValidUntil)) - Date.now()).toBeGreaterThan(23.9 * HOUR);
    // Writing the masked form back keeps the secret and its overlap as they are.
    const roundTrip = await call(t, 'PUT', '/admin/site', admin, { name: 'X', webhookSecret: written.one.webhookSecret });
    expect(roundTrip.status, roundTrip.raw).toBe(200);
    expect((await call(t, 'GET', '/admin/webhook-secret', admin)).one).toEqual(revealed);
  });
});
