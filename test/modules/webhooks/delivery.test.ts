// Webhook delivery end to end (SPEC §12, issue 7): a real receiver on 127.0.0.1, the real HTTP
// transport, and the consumer's own verifier (the `standardwebhooks` library, not project code).
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { playProgram } from '../../helpers/fixtures.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

interface Setup {
  site: TestSite;
  admin: string;
  app: string;
}

async function setUp(t: TestApp, site: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Setup> {
  const created = await t.createSite();
  const admin = await t.token(created.admin);
  const program = { ...playProgram('Hooks', []), ...extra };
  program.site = { ...(program.site as object), ...site };
  const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program });
  expect(put.statusCode, put.body).toBe(200);
  return { site: created, admin, app: await t.token(created.app) };
}

async function play(t: TestApp, s: Setup, userId: string, eventId: string): Promise<Record<string, unknown>> {
  const logged = await t.app.inject({
    method: 'POST',
    url: `/users/${userId}/actions`,
    headers: { authorization: `Bearer ${s.app}` },
    payload: { action: 'play', eventId },
  });
  expect(logged.statusCode, logged.body).toBe(201);
  return logged.json().response as Record<string, unknown>;
}

async function deliveries(t: TestApp, s: Setup, query = ''): Promise<Array<Record<string, unknown>>> {
  // A token of its own: tests move the clock by days.
  const admin = await t.token(s.site.admin);
  const listed = await t.app.inject({ method: 'GET', url: `/admin/webhook-deliveries${query}`, headers: { authorization: `Bearer ${admin}` } });
  expect(listed.statusCode, listed.body).toBe(200);
  return listed.json().response as Array<Record<string, unknown>>;
}

describe.each(configurations)('signed webhook deliveries (%s)', (configuration) => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { webhookAllowPrivateNetworks: true } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('posts mission.completed in the SPEC §12 shape, signed so that the standardwebhooks library verifies it', async () => {
    const s = await setUp(t, { achievementCallbackUrl: receiver.url });
    const named = await t.app.inject({
      method: 'PUT',
      url: '/users/ann/preferences',
      headers: { authorization: `Bearer ${s.app}` },
      payload: { firstName: 'Ann', lastName: 'Lee' },
    });
    expect(named.statusCode, named.body).toBe(200);
    const outcome = await play(t, s, 'ann', 'ev-signed');
    const completionId = (outcome.missionsCompleted as Array<{ completionId: string }>)[0]?.completionId;

    const before = receiver.received.length;
    expect(await t.app.services.webhooks.runOnce()).toEqual({ routed: 1, attempted: 1 });
    const request = receiver.received[before];
    expect(request?.path).toBe('/hooks');
    expect(request?.headers['content-type']).toBe('application/json');

    const secret = (await t.app.inject({ method: 'GET', url: '/admin/webhook-secret', headers: { authorization: `Bearer ${s.admin}` } })).json().response
      .secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const verified = new Webhook(secret).verify(request?.body as string, request?.headers as Record<string, string>) as Record<string, unknown>;
    expect(verified).toEqual({
      eventId: request?.headers['webhook-id'],
      eventType: 'mission.completed',
      occurredAt: outcome.timestamp,
      sequence: 1,
      context: { siteId: s.site.siteId },
      data: {
        user: { userId: 'ann', firstName: 'Ann', lastName: 'Lee' },
        mission: { id: 'm-play', name: 'Play' },
        completionStatus: 'completed',
        completionId,
        points: [{ category: 'Points', amount: 10 }],
        actionEventId: 'ev-signed',
        timestamp: outcome.timestamp,
      },
    });
    // Another secret does not verify it.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(request?.body as string, request?.headers as Record<string, string>),
    ).toThrow();

    const [delivery] = await deliveries(t, s);
    expect(delivery).toMatchObject({
      eventId: request?.headers['webhook-id'],
      eventType: 'mission.completed',
      userId: 'ann',
      destination: 'site:achievementCallbackUrl',
      status: 'delivered',
      attempts: 1,
      lastStatus: 200,
      lastError: null,
      lastUrl: receiver.url,
      nextAttemptAt: null,
    });
  });

  it('signs with both secrets while a rotated one overlaps, and each verifies on its own', async () => {
    const s = await setUp(t, { achievementCallbackUrl: receiver.url });
    const old = (await t.app.inject({ method: 'GET', url: '/admin/webhook-secret', headers: { authorization: `Bearer ${s.admin}` } })).json().response
      .secret as string;
    const rotated = await t.app.inject({ method: 'POST', url: '/admin/webhook-secret/rotate', headers: { authorization: `Bearer ${s.admin}` } });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret, previousSecretValidUntil } = rotated.json().response as { secret: string; previousSecretValidUntil: string };
    expect(secret).not.toBe(old);
    expect(Date.parse(previousSecretValidUntil) - Date.now()).toBeGreaterThan(23 * HOUR);

    await play(t, s, 'bob', 'ev-rotated');
    const before = receiver.received.length;
    await t.app.services.webhooks.runOnce();
    const request = receiver.received[before];
    expect(String(request?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const key of [secret, old])
      expect(new Webhook(key).verify(request?.body as string, request?.headers as Record<string, string>)).toMatchObject({ eventType: 'mission.completed' });
  });

  it('delivers a user event to each subscribed endpoint only, and a failing endpoint does not hold up the others', async () => {
    const down = await startReceiver();
    const downUrl = down.url;
    await down.close();
    const s = await setUp(
      t,
      { achievementCallbackUrl: receiver.url },
      {
        levels: [
          { id: 'l-1', name: 'Rookie', threshold: 0 },
          { id: 'l-2', name: 'Regular', threshold: 10 },
        ],
      },
    );
    for (const url of [`${receiver.url}/levels`, downUrl]) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/admin/webhook-endpoints',
        headers: { authorization: `Bearer ${s.admin}` },
        payload: { url, eventTypes: ['level.changed'] },
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    const badgeOnly = await t.app.inject({
      method: 'POST',
      url: '/admin/webhook-endpoints',
      headers: { authorization: `Bearer ${s.admin}` },
      payload: { url: `${receiver.url}/badges`, eventTypes: ['badge.earned'] },
    });
    expect(badgeOnly.statusCode).toBe(201);

    await play(t, s, 'cy', 'ev-level');
    const before = receiver.received.length;
    expect(await t.app.services.webhooks.runOnce()).toEqual({ routed: 2, attempted: 3 });
    const got = receiver.received.slice(before);
    expect(got.map((r) => `${r.path} ${JSON.parse(r.body).eventType}`).sort()).toEqual(['/hooks mission.completed', '/hooks/levels level.changed']);
    const level = JSON.parse(got.find((r) => r.path === '/hooks/levels')?.body as string);
    expect(level.data).toMatchObject({ user: { userId: 'cy' }, from: { id: 'l-1' }, to: { id: 'l-2' }, direction: 'up', actionEventId: 'ev-level' });

    const listed = await deliveries(t, s, '?eventType=level.changed');
    expect(listed.map((d) => d.status).sort()).toEqual(['delivered', 'pending']);
    const failed = listed.find((d) => d.status === 'pending');
    expect(failed).toMatchObject({ attempts: 1, lastStatus: null, lastUrl: downUrl });
    expect(String(failed?.lastError)).toMatch(/ECONNREFUSED/);
    expect(await deliveries(t, s, '?status=dead')).toEqual([]);
    expect((await deliveries(t, s, '?userId=cy')).length).toBe(3);
    expect(await deliveries(t, s, '?userId=nobody')).toEqual([]);
  });

  it('sends nothing and makes no delivery when the site has no URL for the event', async () => {
    const s = await setUp(t, {});
    await play(t, s, 'dee', 'ev-nowhere');
    const before = receiver.received.length;
    await t.app.services.webhooks.runOnce();
    expect(receiver.received.length).toBe(before);
    expect(await deliveries(t, s)).toEqual([]);
  });
});

describe.each(configurations)('webhook retries (%s)', (configuration) => {
  let t: TestApp;
  let now = Date.parse('2026-11-23T10:00:00Z');
  const clock = () => now;

  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { webhookAllowPrivateNetworks: true }, clock });
  });
  afterAll(async () => t.close());

  it('retries a receiver that fails twice, which then gets the event three times with one webhook-id, and it ends delivered', async () => {
    const receiver = await startReceiver();
    try {
      receiver.answer(500, 503, 204);
      const s = await setUp(t, { achievementCallbackUrl: receiver.url });
      await play(t, s, 'ann', 'ev-retry');
      expect(await t.app.services.webhooks.runOnce()).toEqual({ routed: 1, attempted: 1 });
      let [delivery] = await deliveries(t, s);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500: failure 500' });
      // The first retry waits 5–10 s: nothing is due before.
      const wait = Date.parse(String(delivery?.nextAttemptAt)) - now;
      expect(wait).toBeGreaterThanOrEqual(5_000);
      expect(wait).toBeLessThanOrEqual(10_000);
      expect((await t.app.services.webhooks.runOnce()).attempted).toBe(0);

      now += 10_000;
      expect((await t.app.services.webhooks.runOnce()).attempted).toBe(1);
      [delivery] = await deliveries(t, s);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 2, lastStatus: 503 });
      now += 20_000;
      expect((await t.app.services.webhooks.runOnce()).attempted).toBe(1);
      [delivery] = await deliveries(t, s);
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, lastStatus: 204, lastError: null, deliveredAt: new Date(now).toISOString() });

      expect(receiver.received).toHaveLength(3);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it('marks a delivery dead once its 3-day retry window is over, and redelivery sends it again with a new window', async () => {
    const receiver = await startReceiver();
    try {
      receiver.answer(500);
      const s = await setUp(t, { achievementCallbackUrl: receiver.url });
      await play(t, s, 'bob', 'ev-dead');
      const start = now;
      let rounds = 0;
      for (;;) {
        await t.app.services.webhooks.runOnce();
        const [delivery] = await deliveries(t, s);
        if (delivery?.status === 'dead') break;
        expect(delivery?.status).toBe('pending');
        now = Date.parse(String(delivery?.nextAttemptAt));
        rounds += 1;
        expect(rounds).toBeLessThan(60);
      }
      const [dead] = await deliveries(t, s);
      // The last attempt is the one at the end of the window; backoff grew to hours in between.
      expect(Date.parse(String(dead?.lastAttemptAt)) - start).toBe(3 * DAY);
      expect(dead?.attempts).toBe(receiver.received.length);
      expect(receiver.received.length).toBeGreaterThan(15);
      expect(receiver.received.length).toBeLessThan(40);
      now += DAY;
      expect((await t.app.services.webhooks.runOnce()).attempted).toBe(0);

      receiver.answer(200);
      const redelivered = await t.app.inject({
        method: 'POST',
        url: `/admin/webhook-deliveries/${String(dead?.id)}/redeliver`,
        headers: { authorization: `Bearer ${await t.token(s.site.admin)}` },
      });
      expect(redelivered.statusCode, redelivered.body).toBe(202);
      expect(redelivered.json().response).toMatchObject({ id: dead?.id, status: 'pending', nextAttemptAt: new Date(now).toISOString() });
      const count = receiver.received.length;
      expect((await t.app.services.webhooks.runOnce()).attempted).toBe(1);
      expect(receiver.received.length).toBe(count + 1);
      expect(receiver.received.at(-1)?.headers['webhook-id']).toBe(dead?.eventId);
      expect((await deliveries(t, s))[0]).toMatchObject({ status: 'delivered', attempts: Number(dead?.attempts) + 1 });
    } finally {
      await receiver.close();
    }
  });

  it('keeps a failed delivery across a restart while the receiver is down, and delivers it afterwards', async () => {
    const receiver = await startReceiver();
    const port = receiver.port;
    const s = await setUp(t, { achievementCallbackUrl: receiver.url });
    await receiver.close();
    await play(t, s, 'cy', 'ev-restart');
    expect((await t.app.services.webhooks.runOnce()).attempted).toBe(1);
    expect((await deliveries(t, s))[0]).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null });

    // A second server process on the same database stands in for the restarted one.
    const restarted = await buildApp(t.config, { database: t.database, clock });
    const back = await startReceiver(port);
    try {
      now += HOUR;
      expect((await restarted.services.webhooks.runOnce()).attempted).toBe(1);
      expect(back.received).toHaveLength(1);
      expect(JSON.parse(back.received[0]?.body as string).data).toMatchObject({ actionEventId: 'ev-restart', completionStatus: 'completed' });
      expect((await deliveries(t, s))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    } finally {
      await back.close();
      await restarted.close();
    }
  });

  it('sends each event once when two dispatchers work the same database at the same time', async () => {
    const receiver = await startReceiver();
    const other = await buildApp(t.config, { database: t.database, clock });
    try {
      const s = await setUp(t, { achievementCallbackUrl: receiver.url });
      for (let i = 0; i < 40; i += 1) await play(t, s, `user-${i}`, `ev-pair-${i}`);
      await Promise.all([t.app.services.webhooks.runOnce(), other.services.webhooks.runOnce(), t.app.services.webhooks.runOnce()]);
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
      expect((await deliveries(t, s, '?status=delivered&limit=100')).length).toBe(40);
    } finally {
      await other.close();
      await receiver.close();
    }
  });
});
