// What the webhooks module gives the console's overview, on both stores: every delivery made and
// every change of a delivery's status is told as an analytics change (src/db/analytics-changes.ts)
// dated by the delivery's creation; deliveries are counted per local day and status; the backlog
// says what waits now (pending, retrying, the oldest, events not routed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChanges, type AnalyticsChange } from '../../../src/db/analytics-changes.js';
import { dayOfNumber, offsetSpans } from '../../../src/engine/calendar.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { playProgram } from '../../helpers/fixtures.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';

const START = Date.parse('2026-06-15T12:00:00Z');

describe.each(configurations)("deliveries in the overview's figures (%s)", (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let app: string;
  let receiver: Receiver;
  let now = START;
  const seen = new Set<string>();

  const deliveryChanges = async (): Promise<AnalyticsChange[]> => {
    const rows = await t.database.db.selectFrom('analytics_changes').selectAll().where('site_id', '=', site.siteId).execute();
    const fresh = rows.filter((row) => !seen.has(row.change_id));
    for (const row of fresh) seen.add(row.change_id);
    return fresh.flatMap((row) => parseChanges(row.changes)).filter(([kind]) => kind === 'w');
  };
  const play = async (userId: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/users/${userId}/actions`,
      headers: { authorization: `Bearer ${app}` },
      payload: { action: 'play' },
    });
    expect(response.statusCode, response.body).toBe(201);
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => now, config: { webhookAllowPrivateNetworks: true } });
    receiver = await startReceiver();
    site = await t.createSite();
    admin = await t.token(site.admin);
    app = await t.token(site.app);
    const program = playProgram('Deliveries', []);
    program.site = { ...(program.site as object), achievementCallbackUrl: receiver.url };
    const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('tells each delivery made, delivered, failed for good and redelivered, dated by its creation', async () => {
    await play('ann');
    expect(await t.app.services.webhookAdmin.backlog(site.siteId)).toEqual({ pending: 0, retrying: 0, oldestPendingAt: null, unrouted: 1 });
    receiver.answer(500);
    await t.app.services.webhooks.runOnce();
    expect(await deliveryChanges()).toEqual([['w', START, 'pending', 1]]);
    expect(await t.app.services.webhookAdmin.backlog(site.siteId)).toEqual({
      pending: 1,
      retrying: 1,
      oldestPendingAt: new Date(START).toISOString(),
      unrouted: 0,
    });
    // Retried until it is given up: it leaves pending for dead once.
    for (let rounds = 0; rounds < 60; rounds++) {
      const [delivery] = await t.database.db.selectFrom('webhook_deliveries').selectAll().where('site_id', '=', site.siteId).execute();
      if (delivery?.status === 'dead') break;
      now = Number(delivery?.next_attempt_at);
      await t.app.services.webhooks.runOnce();
    }
    expect(await deliveryChanges()).toEqual([
      ['w', START, 'pending', -1],
      ['w', START, 'dead', 1],
    ]);
    const [dead] = await t.database.db.selectFrom('webhook_deliveries').select('delivery_id').where('site_id', '=', site.siteId).execute();
    receiver.answer(200);
    const redelivered = await t.app.inject({
      method: 'POST',
      url: `/admin/webhook-deliveries/${String(dead?.delivery_id)}/redeliver`,
      headers: { authorization: `Bearer ${await t.token(site.admin)}` },
    });
    expect(redelivered.statusCode, redelivered.body).toBe(202);
    await t.app.services.webhooks.runOnce();
    expect(await deliveryChanges()).toEqual([
      ['w', START, 'dead', -1],
      ['w', START, 'pending', 1],
      ['w', START, 'pending', -1],
      ['w', START, 'delivered', 1],
    ]);
  });

  it('counts deliveries per local day of their creation and status', async () => {
    app = await t.token(site.app);
    await play('bob');
    await t.app.services.webhooks.runOnce();
    const from = START - 86_400_000;
    const spans = offsetSpans(from, now + 86_400_000, 'America/New_York');
    const days = await t.database.transaction((trx) => t.app.services.webhookAdmin.deliveriesByDay(trx, site.siteId, from, spans));
    expect(Object.fromEntries([...days].map(([day, counts]) => [dayOfNumber(day), counts]))).toEqual({
      // ann's, made at 08:00 in New York on June 15, delivered at last; bob's, made three days later, delivered.
      '2026-06-15': { delivered: 1, failed: 0, pending: 0 },
      '2026-06-18': { delivered: 1, failed: 0, pending: 0 },
    });
  });
});
