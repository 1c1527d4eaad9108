// GET /metrics (Prometheus text format): requests and latencies per route pattern (never per id),
// actions by result, webhook deliveries and failures, the outbox depth, leaderboard loads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp } from '../helpers/app.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

const program = (hook: string) => ({
  site: { name: 'Metrics', timezone: 'UTC', achievementCallbackUrl: hook },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read' }, { name: 'share', suppressRepeats: true }],
  missions: [
    { id: 'm-read', name: 'Read', rules: [{ id: 'r-1', action: 'read', type: 'count', goal: 1 }], rewards: { points: [{ category: 'Points', amount: 5 }] } },
  ],
  leaderboards: [{ id: 'lb', name: 'Points', metric: { type: 'points', category: 'Points' }, period: 'allTime' }],
});

/** The value of one sample of the exposition, by its name and labels as written. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(configurations)('metrics (%s)', (configuration) => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { webhookAllowPrivateNetworks: true, webhookDispatcher: false } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('counts requests per route, actions by result, deliveries, the outbox and leaderboard loads', async () => {
    const site = await t.createSite();
    const admin = await t.token(site.admin);
    const app = await t.token(site.app);
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
      t.app.inject({ method, url, headers: { authorization: `Bearer ${method === 'PUT' ? admin : app}` }, ...(payload !== undefined ? { payload } : {}) });
    receiver.answer(500);
    expect((await call('PUT', '/admin/program', program(`${receiver.url}/hook`))).statusCode).toBe(200);
    expect((await call('POST', '/users/ann/actions', { action: 'read', eventId: 'e-1' })).statusCode).toBe(201);
    expect((await call('POST', '/users/ann/actions', { action: 'read', eventId: 'e-1' })).statusCode).toBe(200);
    expect((await call('POST', '/users/bob/actions', { action: 'share' })).statusCode).toBe(201);
    expect((await call('POST', '/users/bob/actions', { action: 'share' })).statusCode).toBe(201); // suppressed
    expect((await call('POST', '/users/bob/actions', { action: 'nope' })).statusCode).toBe(422);
    expect((await call('GET', '/leaderboards/lb/leaders')).statusCode).toBe(200);

    let text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const route = 'method="POST",route="/users/:userId/actions"';
    expect(sample(text, `questline_http_requests_total{${route},status="201"}`)).toBe(3);
    expect(sample(text, `questline_http_requests_total{${route},status="200"}`)).toBe(1);
    expect(sample(text, `questline_http_requests_total{${route},status="422"}`)).toBe(1);
    expect(sample(text, `questline_http_request_duration_seconds_count{${route}}`)).toBe(5);
    expect(text).not.toContain('/users/ann/');
    expect(sample(text, 'questline_actions_total{result="recorded"}')).toBe(2);
    expect(sample(text, 'questline_actions_total{result="duplicate"}')).toBe(1);
    expect(sample(text, 'questline_actions_total{result="repeat_suppressed"}')).toBe(1);
    // The mission.completed event waits in the outbox until a dispatcher routes it.
    expect(sample(text, 'questline_outbox_depth{stage="unrouted"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'questline_leaderboard_load_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(text).toContain('questline_process_cpu_seconds_total');

    await t.app.services.webhooks.runOnce(); // the receiver answers 500
    text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(text, 'questline_webhook_delivery_failures_total')).toBe(1);
    expect(sample(text, 'questline_webhook_deliveries_total')).toBe(0);
    expect(sample(text, 'questline_outbox_depth{stage="unrouted"}')).toBe(0);
    expect(sample(text, 'questline_outbox_depth{stage="pending_delivery"}')).toBe(1);
  });
});
