// Boosts through the HTTP stack (docs/missions.md, "Boosts"): the action response, the dry run and
// the mission.completed webhook say which boost applied; a backdated event takes the boost in force
// at its timestamp; a group boost reaches members only; a reversal claws back exactly the boosted
// credit; and a repeated eventId answers the stored outcome, boost included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

const START = Date.parse('2026-06-30T12:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);

const mission = (id: string, amount: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  rules: [{ id: 'r-1', action: 'play', type: 'count', goal: 1, metadata: [] }],
  rewards: { points: [{ category: 'Points', amount }] },
  repeatableWindow: { period: 'none' },
  ...extra,
});

const program = {
  site: { name: 'Boosts', timezone: 'UTC', achievementCallbackUrl: 'https://hooks.example.com/achievements' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'play', clientLoggable: true }],
  groups: [{ id: 'g-vip', name: 'VIP' }],
  missions: [mission('m-play', 10)],
  boosts: [
    // June, in Paris time: double points.
    { id: 'b-june', name: 'Double June', multiplier: 2, start: '2026-06-01T00:00:00', end: '2026-06-30T23:59:59', timezone: 'Europe/Paris' },
    // May, site zone (UTC): ×1.5.
    { id: 'b-may', multiplier: 1.5, start: '2026-05-01T00:00', end: '2026-05-31T23:59' },
    // VIPs in June: ×3, which beats the ×2 for them (never ×6).
    { id: 'b-vip', name: 'VIP week', multiplier: 3, start: '2026-06-01T00:00:00', end: '2026-06-30T23:59:59', groups: ['g-vip'] },
  ],
};

describe.each(configurations)('boosts in the action path (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let client: string;
  let admin: string;

  const log = async (user: string, body: Record<string, unknown>, query = '', token = client) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/users/${user}/actions${query}`,
      headers: { authorization: `Bearer ${token}` },
      payload: body,
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<{ response: ActionOutcome }>().response;
  };
  const balance = async (user: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/users/${user}/point-balance`, headers: { authorization: `Bearer ${client}` } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ response: { balance: number; lifetimeBalance: number } }>().response;
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock });
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program });
    expect(put.statusCode, put.body).toBe(200);
    const member = await t.app.inject({ method: 'PUT', url: '/admin/groups/g-vip/members/vip', headers: { authorization: `Bearer ${admin}` }, payload: {} });
    expect(member.statusCode, member.body).toBeLessThan(300);
  });
  afterAll(async () => t.close());

  it('says which boost applied in the dry run, the response, the stored outcome and the webhook', async () => {
    const boost = { id: 'b-june', name: 'Double June', multiplier: 2, requestedBefore: 10 };
    const dry = await log('ann', { action: 'play' }, '?dryRun=true');
    expect(dry.pointsAwarded).toEqual([{ category: 'Points', requested: 20, credited: 20, boost }]);
    const completed = dry.webhooks?.find((hook) => hook.eventType === 'mission.completed');
    expect((completed?.payload.data as { points: unknown }).points).toEqual([{ category: 'Points', amount: 20, boost }]);
    expect((await balance('ann')).balance).toBe(0);

    const logged = await log('ann', { action: 'play', eventId: 'ann-1' });
    expect(logged.pointsAwarded).toEqual([{ category: 'Points', requested: 20, credited: 20, boost }]);
    expect(await balance('ann')).toMatchObject({ balance: 20, lifetimeBalance: 20 });
    // A repeat answers the stored outcome, boost and all.
    const again = await log('ann', { action: 'play', eventId: 'ann-1' });
    expect(again).toMatchObject({ duplicate: true, pointsAwarded: logged.pointsAwarded });
    const rows = await t.database.db.selectFrom('outbox').select('payload').where('site_id', '=', site.siteId).where('party_id', '=', 'ann').execute();
    const data = rows.map((row) => (JSON.parse(row.payload) as { data: { points?: unknown } }).data);
    expect(data.map((d) => d.points)).toEqual([[{ category: 'Points', amount: 20, boost }]]);
    // The ledger entry holds the boosted request.
    const entry = await t.database.db
      .selectFrom('points_ledger')
      .select(['requested', 'credited'])
      .where('site_id', '=', site.siteId)
      .where('party_id', '=', 'ann')
      .executeTakeFirstOrThrow();
    expect([Number(entry.requested), Number(entry.credited)]).toEqual([20, 20]);
  });

  it('gives a backdated event the boost in force at its timestamp, and none outside every window', async () => {
    const may = await log('bob', { action: 'play', eventId: 'bob-may', timestamp: '2026-05-20T10:00:00Z' });
    expect(may.pointsAwarded).toEqual([{ category: 'Points', requested: 15, credited: 15, boost: { id: 'b-may', multiplier: 1.5, requestedBefore: 10 } }]);
    // 31 May 22:30 UTC is already 1 June 00:30 in Paris: June's boost (its zone), not May's (UTC, still in force until 23:59 UTC: the larger multiplier wins).
    const edge = await log('bob', { action: 'play', eventId: 'bob-edge', timestamp: '2026-05-31T22:30:00Z' });
    expect(edge.pointsAwarded[0]?.boost?.id).toBe('b-june');
    // 30 June 22:00 UTC is 1 July 00:00 in Paris: the June boost has ended.
    const july = await log('bob', { action: 'play', eventId: 'bob-july', timestamp: '2026-06-30T22:00:00Z' });
    expect(july.pointsAwarded).toEqual([{ category: 'Points', requested: 10, credited: 10 }]);
    const april = await log('bob', { action: 'play', eventId: 'bob-april', timestamp: '2026-04-20T10:00:00Z' });
    expect(april.pointsAwarded).toEqual([{ category: 'Points', requested: 10, credited: 10 }]);
    expect((await balance('bob')).balance).toBe(15 + 20 + 10 + 10);
  });

  it('applies a group boost to members only, the largest multiplier alone', async () => {
    const vip = await log('vip', { action: 'play' });
    expect(vip.pointsAwarded).toEqual([
      { category: 'Points', requested: 30, credited: 30, boost: { id: 'b-vip', name: 'VIP week', multiplier: 3, requestedBefore: 10 } },
    ]);
    const other = await log('cat', { action: 'play' });
    expect(other.pointsAwarded[0]?.boost?.id).toBe('b-june');
    // A user-level token's answer says the same.
    const own = await log('vip', { action: 'play' }, '', await t.token(site.app, 'vip'));
    expect(own.pointsAwarded[0]).toMatchObject({ credited: 30, boost: { id: 'b-vip' } });
  });

  it('claws back exactly the boosted credit when the action is reversed', async () => {
    await log('dan', { action: 'play', eventId: 'dan-1' });
    expect((await balance('dan')).balance).toBe(20);
    const reversed = await t.app.inject({ method: 'DELETE', url: '/users/dan/actions/dan-1', headers: { authorization: `Bearer ${admin}` } });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(await balance('dan')).toMatchObject({ balance: 0, lifetimeBalance: 0 });
  });

  it('stops applying a boost the admin deletes', async () => {
    for (const id of ['b-june', 'b-vip']) {
      const removed = await t.app.inject({ method: 'DELETE', url: `/admin/boosts/${id}`, headers: { authorization: `Bearer ${admin}` } });
      expect(removed.statusCode, removed.body).toBeLessThan(300);
    }
    expect((await log('eve', { action: 'play' })).pointsAwarded).toEqual([{ category: 'Points', requested: 10, credited: 10 }]);
  });
});
