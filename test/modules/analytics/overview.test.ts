// GET /admin/analytics/overview (docs/analytics.md) through the HTTP stack, on both stores: real
// actions, points, completions, levels and webhook deliveries show on their day of the site's time
// zone (a backdated action on its own day, late in the evening included); a reversal takes its
// completion and points back from their day; the figures are the same whether the site's rollup is
// built from its history or folded from what the ledger wrote since; a time zone change moves them
// to the new zone's days; the range is validated; and only the site's own admins read it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';

const DAY = 24 * 60 * 60 * 1000;
/** Noon in New York on 2026-06-15: "today" of the overview. */
const TODAY = Date.parse('2026-06-15T16:00:00Z');
const WEEK = ['2026-06-09', '2026-06-10', '2026-06-11', '2026-06-12', '2026-06-13', '2026-06-14', '2026-06-15'];

function program(callbackUrl: string, timezone = 'America/New_York'): Record<string, unknown> {
  const mission = (id: string, action: string, goal: number, points: Array<{ category: string; amount: number }>) => ({
    id,
    name: `Mission ${id}`,
    startDate: '2026-01-01T00:00:00',
    endDate: '2027-12-31T23:59:59',
    timezone,
    rules: [{ id: 'r-1', action, type: 'count', goal, metadata: [] }],
    rewards: { points },
    repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
  });
  return {
    site: { name: 'Overview', timezone, achievementCallbackUrl: callbackUrl },
    pointCategories: [{ name: 'Points', isDefault: true }, { name: 'Coins' }],
    actions: [{ name: 'play' }, { name: 'read' }, { name: 'share', suppressRepeats: true }],
    levels: [
      { id: 'l-rookie', name: 'Rookie', threshold: 10 },
      { id: 'l-pro', name: 'Pro', threshold: 20 },
    ],
    missions: [
      mission('m-play', 'play', 1, [{ category: 'Points', amount: 10 }]),
      mission('m-read', 'read', 2, [{ category: 'Coins', amount: 5 }]),
      mission('m-idle', 'share', 5, []),
    ],
  };
}

interface Overview {
  timezone: string;
  days: string[];
  actions: { total: number; perDay: number[]; byAction: Array<{ action: string; total: number; perDay: number[] }> };
  activeUsers: { perDay: number[] };
  points: Array<{ category: string; isDefault: boolean; total: number; perDay: number[] }>;
  completions: { total: number; perDay: number[]; missions: Array<{ missionId: string; name: string; total: number; perDay: number[] }> };
  topMissions: Array<{ missionId: string; name: string; completions: number }>;
  levels: Array<{ levelId: string; name: string; total: number; perDay: number[] }>;
  webhooks: {
    delivered: number[];
    failed: number[];
    pending: number[];
    backlog: { pending: number; retrying: number; oldestPendingAt: string | null; unrouted: number };
  };
}

describe.each(configurations)('GET /admin/analytics/overview (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let other: TestSite;
  let admin: string;
  let app: string;
  let receiver: Receiver;
  let now = TODAY - 5 * DAY;

  const get = (url: string, token?: string) => t.app.inject({ method: 'GET', url, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  const overview = async (days = 7, token = admin): Promise<Overview> => {
    const response = await get(`/admin/analytics/overview?days=${days}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().response as Overview;
  };
  const log = async (userId: string, action: string, timestamp?: string, token = app) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/users/${userId}/actions`,
      headers: { authorization: `Bearer ${token}` },
      payload: { action, ...(timestamp !== undefined ? { timestamp } : {}) },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().response as { eventId: string; recorded: boolean };
  };
  const put = async (url: string, payload: Record<string, unknown>, token = admin) => {
    const response = await t.app.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${token}` }, payload });
    expect(response.statusCode, response.body).toBe(200);
  };
  const series = (o: Overview) => ({
    actions: o.actions.perDay,
    users: o.activeUsers.perDay,
    points: Object.fromEntries(o.points.map((p) => [p.category, p.perDay])),
    completions: Object.fromEntries(o.completions.missions.map((m) => [m.missionId, m.perDay])),
    levels: Object.fromEntries(o.levels.map((l) => [l.levelId, l.perDay])),
  });

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => now, config: { webhookAllowPrivateNetworks: true } });
    receiver = await startReceiver();
    site = await t.createSite();
    other = await t.createSite();
    admin = await t.token(site.admin);
    app = await t.token(site.app);
    await put('/admin/program', program(receiver.url));

    // June 10: dan's completion, whose delivery fails until it is given up (3 days later).
    receiver.answer(500);
    await log('dan', 'play');
    for (let rounds = 0; rounds < 60; rounds++) {
      await t.app.services.webhooks.runOnce();
      const [delivery] = (await get('/admin/webhook-deliveries', await t.token(site.admin))).json().response as Array<{
        status: string;
        nextAttemptAt: string;
      }>;
      if (delivery?.status === 'dead') break;
      now = Date.parse(String(delivery?.nextAttemptAt));
    }
    now = TODAY;
    admin = await t.token(site.admin);
    app = await t.token(site.app);
    receiver.answer(200);

    // Before the first view: the rollup is built from this history.
    await log('ann', 'play'); // June 15: Points 10, Rookie
    // Late on June 12 in New York (June 13 in UTC): June 12, and Pro with it.
    await log('ann', 'play', '2026-06-12T23:30:00');
    await log('bob', 'read', '2026-06-11T09:00:00');
    await log('bob', 'read', '2026-06-11T10:00:00'); // m-read: Coins 5 on June 11
    await log('cy', 'share', '2026-06-14T08:00:00');
    expect((await log('cy', 'share', '2026-06-14T08:05:00')).recorded).toBe(false); // a suppressed repeat: not an action
    // Another site's activity never shows.
    const otherAdmin = await t.token(other.admin);
    await put('/admin/program', program(receiver.url), otherAdmin);
    await log('zed', 'play', undefined, await t.token(other.app));
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('answers every series on every day of the range, each figure on the day of its timestamp in the site time zone', async () => {
    await t.app.services.webhooks.runOnce();
    const o = await overview();
    expect(o.timezone).toBe('America/New_York');
    expect(o.days).toEqual(WEEK);
    expect(series(o)).toEqual({
      actions: [0, 1, 2, 1, 0, 1, 1],
      users: [0, 1, 1, 1, 0, 1, 1],
      points: { Points: [0, 10, 0, 10, 0, 0, 10], Coins: [0, 0, 5, 0, 0, 0, 0] },
      completions: { 'm-play': [0, 1, 0, 1, 0, 0, 1], 'm-read': [0, 0, 1, 0, 0, 0, 0], 'm-idle': [0, 0, 0, 0, 0, 0, 0] },
      levels: { 'l-rookie': [0, 1, 0, 0, 0, 0, 1], 'l-pro': [0, 0, 0, 1, 0, 0, 0] },
    });
    expect(o.actions).toMatchObject({
      total: 6,
      byAction: [
        expect.objectContaining({ action: 'play', total: 3 }),
        expect.objectContaining({ action: 'read', total: 2 }),
        expect.objectContaining({ action: 'share', total: 1 }),
      ],
    });
    expect(o.points).toEqual([
      { category: 'Points', isDefault: true, total: 30, perDay: [0, 10, 0, 10, 0, 0, 10] },
      { category: 'Coins', isDefault: false, total: 5, perDay: [0, 0, 5, 0, 0, 0, 0] },
    ]);
    expect(o.completions.total).toBe(4);
    expect(o.topMissions).toEqual([
      { missionId: 'm-play', name: 'Mission m-play', completions: 3 },
      { missionId: 'm-read', name: 'Mission m-read', completions: 1 },
    ]);
    expect(o.levels.map((l) => [l.name, l.total])).toEqual([
      ['Rookie', 2],
      ['Pro', 1],
    ]);
    // dan's delivery, made on June 10, failed for good; the others were delivered today.
    expect(o.webhooks).toEqual({
      delivered: [0, 0, 0, 0, 0, 0, 3],
      failed: [0, 1, 0, 0, 0, 0, 0],
      pending: [0, 0, 0, 0, 0, 0, 0],
      backlog: { pending: 0, retrying: 0, oldestPendingAt: null, unrouted: 0 },
    });
  });

  it('adds what is written after, today current at once: a backdated action on its day, and the webhook backlog', async () => {
    const before = await overview();
    receiver.answer(500);
    await log('eve', 'play'); // delivery attempted once, failed: pending, retrying
    await t.app.services.webhooks.runOnce();
    await log('eve', 'play', '2026-06-09T00:30:00'); // the first minutes of June 9; its event is not routed yet
    const o = await overview();
    expect(o.actions.perDay).toEqual(before.actions.perDay.map((n, i) => n + (i === 0 || i === 6 ? 1 : 0)));
    expect(o.activeUsers.perDay).toEqual([1, 1, 1, 1, 0, 1, 2]);
    expect(o.points[0]?.perDay).toEqual([10, 10, 0, 10, 0, 0, 20]);
    expect(o.completions.missions[0]?.perDay).toEqual([1, 1, 0, 1, 0, 0, 2]);
    expect(o.webhooks.pending).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(o.webhooks.backlog).toEqual({ pending: 1, retrying: 1, oldestPendingAt: new Date(TODAY).toISOString(), unrouted: 1 });
    receiver.answer(200);
  });

  it('takes a reversed action’s completion and points back from their day; the action and its user stay counted', async () => {
    const { eventId } = await log('fay', 'play', '2026-06-13T12:00:00');
    const logged = await overview();
    expect([logged.actions.perDay[4], logged.activeUsers.perDay[4], logged.points[0]?.perDay[4], logged.completions.missions[0]?.perDay[4]]).toEqual([
      1, 1, 10, 1,
    ]);
    expect(logged.levels[0]?.perDay[4]).toBe(1);
    const reversed = await t.app.inject({ method: 'DELETE', url: `/users/fay/actions/${eventId}`, headers: { authorization: `Bearer ${admin}` } });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const o = await overview();
    expect([o.actions.perDay[4], o.activeUsers.perDay[4], o.points[0]?.perDay[4], o.completions.missions[0]?.perDay[4]]).toEqual([1, 1, 0, 0]);
    // The level was reached that day (the reversal records a change down today, not counted as reached).
    expect(o.levels[0]?.perDay[4]).toBe(1);
    expect(o.points[0]?.total).toBe((logged.points[0]?.total ?? 0) - 10);
  });

  it('moves a redelivered delivery from failed to delivered on the day it was made', async () => {
    const [dead] = (await get('/admin/webhook-deliveries?status=dead', admin)).json().response as Array<{ id: string }>;
    const redelivered = await t.app.inject({
      method: 'POST',
      url: `/admin/webhook-deliveries/${String(dead?.id)}/redeliver`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(redelivered.statusCode, redelivered.body).toBe(202);
    const pending = await overview();
    expect([pending.webhooks.failed[1], pending.webhooks.pending[1], pending.webhooks.delivered[1]]).toEqual([0, 1, 0]);
    await t.app.services.webhooks.runOnce();
    const delivered = await overview();
    expect([delivered.webhooks.failed[1], delivered.webhooks.pending[1], delivered.webhooks.delivered[1]]).toEqual([0, 0, 1]);
    // The events that waited to be routed were delivered today; eve's first delivery waits for its next attempt.
    expect(pending.webhooks.backlog.unrouted).toBe(3);
    expect(delivered.webhooks.backlog).toMatchObject({ pending: 1, unrouted: 0 });
    expect(delivered.webhooks.delivered[6]).toBe((pending.webhooks.delivered[6] as number) + 3);
  });

  it('builds the same figures from the history as it folded from the changes', async () => {
    const folded = await overview(30);
    // Forget the rollup: the next view builds it again from the history.
    await t.database.db.deleteFrom('analytics_sites').where('site_id', '=', site.siteId).execute();
    await t.database.db.deleteFrom('analytics_days').where('site_id', '=', site.siteId).execute();
    const built = await overview(30);
    expect({ ...built, generatedAt: undefined }).toEqual({ ...folded, generatedAt: undefined });
    expect(built.days).toHaveLength(30);
    expect(built.days.at(-1)).toBe('2026-06-15');
    expect(built.actions.total).toBe(9);
  });

  it('moves every figure to the days of a new time zone', async () => {
    await put('/admin/site', { ...(program(receiver.url).site as object), timezone: 'Asia/Tokyo' });
    const o = await overview();
    expect(o.timezone).toBe('Asia/Tokyo');
    // Noon in New York is 01:00 the next day in Tokyo: today is June 16 there.
    expect(o.days).toEqual([...WEEK.slice(1), '2026-06-16']);
    // dan's and bob's actions of June 10 and 11 in New York are June 11 in Tokyo, ann's late on June
    // 12 is June 13, cy's and fay's of June 13 and 14 are June 14, today's are June 16; eve's early on
    // June 9 is before the range.
    expect(o.actions.perDay).toEqual([0, 3, 0, 1, 2, 0, 2]);
    expect(o.activeUsers.perDay).toEqual([0, 2, 0, 1, 2, 0, 2]);
    expect(o.completions.missions[0]?.perDay).toEqual([0, 1, 0, 1, 0, 0, 2]);
    expect(o.points[0]?.perDay).toEqual([0, 10, 0, 10, 0, 0, 20]);
    await put('/admin/site', program(receiver.url).site as Record<string, unknown>);
    expect((await overview()).days).toEqual(WEEK);
  });

  it('keeps the days an overview can show: an action older than 90 days is not counted, and old days are dropped', async () => {
    const before = await overview(90);
    await log('gus', 'play', '2026-02-01T12:00:00');
    const o = await overview(90);
    expect(o.actions.total).toBe(before.actions.total);
    const kept = () => t.database.db.selectFrom('analytics_days').select('day').where('site_id', '=', site.siteId).orderBy('day').execute();
    // The first day kept is the first of the 90 days before today (2026-03-18).
    expect((await kept()).filter(({ day }) => day < '2026-03-18')).toEqual([]);
    // Five months later the days shown are new ones: the old ones are dropped.
    now = TODAY + 150 * DAY;
    admin = await t.token(site.admin);
    app = await t.token(site.app);
    const later = await overview(90);
    expect(later.actions.total).toBe(0);
    expect((await kept()).length).toBe(0);
    now = TODAY;
    admin = await t.token(site.admin);
    app = await t.token(site.app);
  });

  it.each([
    ['a range it does not offer', 'days=5'],
    ['a word', 'days=week'],
    ['more than one', 'days=7&days=30'],
  ])('refuses %s (400 validation_failed)', async (_name, query) => {
    const response = await get(`/admin/analytics/overview?${query}`, admin);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ code: 'validation_failed', status: 400 });
  });

  it('defaults to 30 days', async () => {
    const response = await get('/admin/analytics/overview', admin);
    expect(response.statusCode).toBe(200);
    expect(response.json().response.days).toHaveLength(30);
  });

  it('refuses no token, a wrong one, a user-level token and an app token', async () => {
    const cases: Array<[string | undefined, number, string]> = [
      [undefined, 401, 'missing_token'],
      ['not-a-token', 401, 'invalid_token'],
      [await t.token(site.app, 'ann'), 403, 'forbidden'],
      [app, 403, 'forbidden'],
    ];
    for (const [token, status, code] of cases) {
      const response = await get('/admin/analytics/overview?days=7', token);
      expect(response.statusCode).toBe(status);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().code).toBe(code);
    }
  });

  it('is documented in /docs with its range and every series', async () => {
    const document = (await get('/docs/json')).json() as {
      paths: Record<string, { get?: { tags?: string[]; parameters?: Array<{ name: string }>; responses: Record<string, unknown> } }>;
    };
    const operation = document.paths['/admin/analytics/overview']?.get;
    expect(operation?.tags).toEqual(['admin: analytics']);
    expect(operation?.parameters?.map((p) => p.name)).toEqual(['days']);
    const schema = JSON.stringify(operation?.responses['200']);
    for (const series of ['actions', 'activeUsers', 'points', 'completions', 'topMissions', 'levels', 'webhooks', 'backlog'])
      expect(schema).toContain(`"${series}"`);
  });

  it("shows another site's admin that site's figures only", async () => {
    const o = await overview(7, await t.token(other.admin));
    expect(o.actions.total).toBe(1);
    expect(o.actions.perDay).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(o.completions.total).toBe(1);
    expect(o.webhooks.delivered.reduce((a, b) => a + b, 0) + o.webhooks.backlog.unrouted + o.webhooks.backlog.pending).toBe(1);
  });
});
