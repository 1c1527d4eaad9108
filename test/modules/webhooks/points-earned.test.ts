// The points.earned webhook (docs/webhooks.md): one event per party, category and cause a write credits,
// with the balance and lifetime points it leaves, for actions (mission rewards, boosted or not),
// admin credits and recognitions; none for debits and reversals; nothing written while no endpoint
// subscribes; in a dry run's preview; and exact under concurrent actions of one user. Both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

const reward = (category: string, amount: number) => ({ category, amount });
const program = {
  site: { name: 'Earned', timezone: 'UTC' },
  pointCategories: [{ name: 'Points', isDefault: true }, { name: 'Coins' }],
  actions: [{ name: 'play' }, { name: 'study' }],
  missions: [
    {
      id: 'm-study',
      name: 'Study',
      rules: [{ id: 'r', action: 'study', goal: 1 }],
      rewards: { points: [reward('Points', 2)] },
      repeatableWindow: { period: 'none' },
    },
    {
      id: 'm-both',
      name: 'Both',
      rules: [{ id: 'r', action: 'play', goal: 1 }],
      rewards: { points: [reward('Points', 10), reward('Coins', 5)] },
      repeatableWindow: { period: 'none' },
    },
    {
      id: 'm-more',
      name: 'More',
      rules: [{ id: 'r', action: 'play', goal: 1 }],
      rewards: { points: [reward('Points', 3)] },
      repeatableWindow: { period: 'none' },
    },
  ],
  streaks: [{ id: 's-study', name: 'Studying', action: 'study', period: 'day', milestones: [{ length: 1, rewards: { points: [reward('Points', 4)] } }] }],
  exchanges: [
    { id: 'x-thanks', name: 'Thanks', pointCategory: 'Points', budget: { amount: 1000, period: 'none' }, categories: [{ id: 'c-help', name: 'Help' }] },
  ],
};

type Earned = { category: string; amount: number; balance: number; lifetimeBalance: number; cause: string; causeId: string; actionEventId?: string };

describe.each(configurations)('points.earned (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;

  const call = async (method: 'POST' | 'DELETE', url: string, token: string, payload?: Record<string, unknown>) => {
    const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload !== undefined ? { payload } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<{ response: ActionOutcome & Record<string, unknown> }>().response;
  };
  const earned = async (user: string): Promise<Array<Earned & { sequence: number }>> => {
    const rows = await t.database.db
      .selectFrom('outbox')
      .select('payload')
      .where('site_id', '=', site.siteId)
      .where('party_id', '=', user)
      .where('event_type', '=', 'points.earned')
      .orderBy('sequence')
      .execute();
    return rows.map((row) => {
      const payload = JSON.parse(row.payload) as { sequence: number; data: Earned & { user: unknown } };
      const { user: _user, ...data } = payload.data;
      return { ...data, sequence: payload.sequence };
    });
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => t.close());

  it('writes nothing while no endpoint subscribes', async () => {
    await call('POST', '/users/ann/actions', client, { action: 'play', eventId: 'ann-0' });
    expect(await earned('ann')).toEqual([]);
  });

  it('once subscribed: one event per credited category, with the balance and lifetime points after it', async () => {
    const endpoint = await call('POST', '/admin/webhook-endpoints', admin, { url: 'https://hooks.example.com/balances', eventTypes: ['points.earned'] });
    expect(endpoint).toMatchObject({ eventTypes: ['points.earned'] });
    // A dry run previews them, to the subscribed endpoint.
    const dry = await call('POST', '/users/ann/actions?dryRun=true', client, { action: 'play' });
    expect(dry.webhooks?.filter((hook) => hook.eventType === 'points.earned').map((hook) => hook.payload.data)).toEqual([
      expect.objectContaining({ category: 'Points', amount: 13, balance: 26, lifetimeBalance: 26 }),
      expect.objectContaining({ category: 'Coins', amount: 5, balance: 10, lifetimeBalance: 10 }),
    ]);
    expect(await earned('ann')).toEqual([]);

    const logged = await call('POST', '/users/ann/actions', client, { action: 'play', eventId: 'ann-1' });
    const completions = logged.missionsCompleted.map((m) => m.completionId);
    const events = await earned('ann');
    expect(events).toEqual([
      { category: 'Points', amount: 13, balance: 26, lifetimeBalance: 26, cause: 'mission', causeId: completions[0], actionEventId: 'ann-1', sequence: 1 },
      { category: 'Coins', amount: 5, balance: 10, lifetimeBalance: 10, cause: 'mission', causeId: completions[0], actionEventId: 'ann-1', sequence: 2 },
    ]);
  });

  it('one event per cause: a mission reward and a streak milestone one action credits are two', async () => {
    const logged = await call('POST', '/users/cy/actions', client, { action: 'study', eventId: 'cy-1' });
    const completion = logged.missionsCompleted[0]?.completionId;
    const streak = { category: 'Points', amount: 4, balance: 6, lifetimeBalance: 6, cause: 'streak', actionEventId: 'cy-1', sequence: 1 };
    const mission = { category: 'Points', amount: 2, balance: 6, lifetimeBalance: 6, cause: 'mission', actionEventId: 'cy-1', sequence: 2 };
    expect(await earned('cy')).toEqual([
      { ...streak, causeId: expect.stringMatching(/^s-study:\d+:1$/) },
      { ...mission, causeId: completion },
    ]);
  });

  it('for admin credits and recognitions, but never for debits or reversals', async () => {
    const credit = await call('POST', '/admin/users/ann/points', admin, { category: 'Points', amount: 7, reason: 'bonus' });
    await call('POST', '/admin/users/ann/points', admin, { category: 'Points', amount: -4, reason: 'fix' });
    const reversed = await t.app.inject({ method: 'DELETE', url: '/users/ann/actions/ann-1', headers: { authorization: `Bearer ${admin}` } });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const events = await earned('ann');
    expect(events.slice(2)).toEqual([
      { category: 'Points', amount: 7, balance: 33, lifetimeBalance: 33, cause: 'adjustment', causeId: credit.entryId, sequence: 3 },
    ]);
    // The balance the next event reports is the ledger's: 33 − 4 − 13 reversed, + 13 for the next play.
    await call('POST', '/users/ann/actions', client, { action: 'play', eventId: 'ann-2' });
    expect((await earned('ann')).at(-2)).toMatchObject({ category: 'Points', amount: 13, balance: 29, lifetimeBalance: 33 });

    const given = await call('POST', '/users/bob/interactions-collection', client, {
      exchangeId: 'x-thanks',
      categoryId: 'c-help',
      recipients: ['ann'],
      points: 20,
    });
    expect(given).toBeDefined();
    expect((await earned('ann')).at(-1)).toMatchObject({ category: 'Points', amount: 20, balance: 49, lifetimeBalance: 53, cause: 'recognition' });
  });

  it('stays exact under concurrent actions of one user', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => call('POST', '/users/dan/actions', client, { action: 'play', eventId: `dan-${i}` })));
    const points = (await earned('dan')).filter((event) => event.category === 'Points');
    expect(points.map((event) => event.balance).sort((a, b) => a - b)).toEqual([13, 26, 39, 52, 65, 78, 91, 104]);
    // In sequence order the balances only grow.
    expect(points.map((event) => event.balance)).toEqual([13, 26, 39, 52, 65, 78, 91, 104]);
  });
});
