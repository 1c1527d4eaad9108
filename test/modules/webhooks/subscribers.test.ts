// Only what a subscriber needs is written (issue 24): an event goes to the outbox only when, as it
// happens, its site has a destination for its type (achievementCallbackUrl for mission.completed,
// an endpoint subscribed to it for badge.earned and level.changed). Everything else of the change
// is written as before, and a party's sequence numbers count only the events written. Through the
// HTTP stack, with a real receiver; an endpoint change reaches another node with its program snapshot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { repeatableMission } from '../../helpers/fixtures.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';

/** Every play completes m-play (10 Points and the badge b-player) and so moves the level up one. */
const program = (site: Record<string, unknown>) => ({
  site: { name: 'Subscribers', timezone: 'UTC', ...site },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'play' }],
  badges: [{ id: 'b-player', name: 'Player' }],
  levels: Array.from({ length: 10 }, (_, i) => ({ id: `l-${i}`, name: `Level ${i}`, threshold: i * 10 })),
  missions: [{ ...repeatableMission('m-play', 'play', 10), rewards: { points: [{ category: 'Points', amount: 10 }], badge: 'b-player' } }],
});

interface Ctx {
  site: TestSite;
  admin: string;
  app: string;
}

describe.each(configurations)('outbox rows only for events with a destination (%s)', (configuration) => {
  let t: TestApp;
  let receiver: Receiver;
  let now = Date.parse('2026-06-15T12:00:00Z');
  const clock = () => now;

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock, config: { webhookAllowPrivateNetworks: true } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const call = async (method: 'POST' | 'PUT' | 'DELETE', url: string, token: string, status: number, payload?: Record<string, unknown>) => {
    const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload !== undefined ? { payload } : {}) });
    expect(response.statusCode, response.body).toBe(status);
    return response.body === '' ? undefined : (response.json() as { response: unknown }).response;
  };
  const setUp = async (site: Record<string, unknown>): Promise<Ctx> => {
    const created = await t.createSite();
    const c = { site: created, admin: await t.token(created.admin), app: await t.token(created.app) };
    await call('PUT', '/admin/program', c.admin, 200, program(site));
    return c;
  };
  const play = async (c: Ctx, user: string, eventId: string, app: TestApp['app'] = t.app) => {
    const response = await app.inject({
      method: 'POST',
      url: `/users/${user}/actions`,
      headers: { authorization: `Bearer ${c.app}` },
      payload: { action: 'play', eventId },
    });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { response: ActionOutcome }).response;
  };
  const subscribe = async (c: Ctx, eventTypes: string[]) =>
    ((await call('POST', '/admin/webhook-endpoints', c.admin, 201, { url: `${receiver.url}/endpoint`, eventTypes })) as { id: string }).id;
  /** The site's outbox rows: [party, type, sequence], in the order written. */
  const outbox = async (c: Ctx) =>
    (
      await t.database.db
        .selectFrom('outbox')
        .select(['party_id', 'event_type', 'sequence'])
        .where('site_id', '=', c.site.siteId)
        .orderBy('party_id')
        .orderBy('sequence')
        .execute()
    ).map((row) => [row.party_id, row.event_type, Number(row.sequence)]);
  const rowsOf = async (c: Ctx, table: 'level_changes' | 'trophies' | 'mission_completions' | 'points_ledger') =>
    (await t.database.db.selectFrom(table).select('party_id').where('site_id', '=', c.site.siteId).execute()).length;
  const partySequence = async (c: Ctx, user: string) =>
    Number(
      (await t.database.db.selectFrom('parties').select('sequence').where('site_id', '=', c.site.siteId).where('party_id', '=', user).executeTakeFirstOrThrow())
        .sequence,
    );
  /** Runs the dispatcher; what the receiver got for this site: [path, type, sequence]. */
  const delivered = async (c: Ctx) => {
    const before = receiver.received.length;
    await t.app.services.webhooks.runOnce();
    return receiver.received
      .slice(before)
      .map((r) => ({ path: r.path, event: JSON.parse(r.body) as { eventType: string; sequence: number; context: { siteId: string } } }))
      .filter(({ event }) => event.context.siteId === c.site.siteId)
      .map(({ path, event }) => [path, event.eventType, event.sequence])
      .sort();
  };

  it('writes no outbox row for an action that completes a mission with a badge and moves the level, when the site has no URL and no endpoint', async () => {
    const c = await setUp({});
    const outcome = await play(c, 'ann', 'ev-nowhere');
    expect(outcome.missionsCompleted.map((m) => m.id)).toEqual(['m-play']);
    expect(outcome.levelChanged?.to).toEqual({ id: 'l-1', name: 'Level 1' });
    expect(await outbox(c)).toEqual([]);
    expect(await partySequence(c, 'ann')).toBe(0);
    // Only the outbox rows are left out: the completion, its points, the badge and the level history are written.
    for (const table of ['mission_completions', 'points_ledger', 'trophies', 'level_changes'] as const) expect(await rowsOf(c, table), table).toBe(1);
    expect(await delivered(c)).toEqual([]);
  });

  it('writes each event type from when a destination for it exists, to when it is gone, numbering only the events written', async () => {
    const c = await setUp({ achievementCallbackUrl: receiver.url });
    await play(c, 'ann', 'ev-1');
    expect(await outbox(c)).toEqual([['ann', 'mission.completed', 1]]);
    expect(await delivered(c)).toEqual([['/hooks', 'mission.completed', 1]]);

    const endpoint = await subscribe(c, ['badge.earned']);
    await play(c, 'ann', 'ev-2');
    expect((await outbox(c)).slice(1)).toEqual([
      ['ann', 'badge.earned', 2],
      ['ann', 'mission.completed', 3],
    ]);
    expect(await delivered(c)).toEqual([
      ['/hooks', 'mission.completed', 3],
      ['/hooks/endpoint', 'badge.earned', 2],
    ]);

    // The endpoint now wants level changes instead.
    await call('PUT', `/admin/webhook-endpoints/${endpoint}`, c.admin, 200, { url: `${receiver.url}/endpoint`, eventTypes: ['level.changed'] });
    await play(c, 'ann', 'ev-3');
    expect((await outbox(c)).slice(3)).toEqual([
      ['ann', 'mission.completed', 4],
      ['ann', 'level.changed', 5],
    ]);
    expect(await delivered(c)).toEqual([
      ['/hooks', 'mission.completed', 4],
      ['/hooks/endpoint', 'level.changed', 5],
    ]);

    await call('DELETE', `/admin/webhook-endpoints/${endpoint}`, c.admin, 204);
    await play(c, 'ann', 'ev-4');
    expect((await outbox(c)).slice(5)).toEqual([['ann', 'mission.completed', 6]]);
    expect(await delivered(c)).toEqual([['/hooks', 'mission.completed', 6]]);
    expect(await partySequence(c, 'ann')).toBe(6);
    // Every play moved the level and earned the badge; only the subscribed ones were written.
    expect(await rowsOf(c, 'level_changes')).toBe(4);
    expect(await rowsOf(c, 'mission_completions')).toBe(4);
  });

  it('applies the same rule to the writers outside the action path: an adjustment’s level change and a reversal’s removal', async () => {
    const c = await setUp({});
    await call('POST', '/admin/users/bob/points', c.admin, 201, { category: 'Points', amount: 10, reason: 'welcome' });
    await play(c, 'bob', 'ev-bob-1');
    await call('DELETE', '/users/bob/actions/ev-bob-1', c.admin, 200);
    expect(await outbox(c)).toEqual([]);
    expect(await rowsOf(c, 'level_changes')).toBe(3);

    await subscribe(c, ['level.changed']);
    await call('POST', '/admin/users/bob/points', c.admin, 201, { category: 'Points', amount: 10, reason: 'bonus' });
    await play(c, 'bob', 'ev-bob-2');
    await call('DELETE', '/users/bob/actions/ev-bob-2', c.admin, 200);
    // The removal (mission.completed) still has no destination: only the three level changes are written, numbered from 1.
    expect(await outbox(c)).toEqual([
      ['bob', 'level.changed', 1],
      ['bob', 'level.changed', 2],
      ['bob', 'level.changed', 3],
    ]);
    expect(await delivered(c)).toEqual([
      ['/hooks/endpoint', 'level.changed', 1],
      ['/hooks/endpoint', 'level.changed', 2],
      ['/hooks/endpoint', 'level.changed', 3],
    ]);
  });

  it('has another node write the events of a new endpoint once its program snapshot sees the endpoint', async () => {
    const other = await buildApp(t.config, { database: t.database, clock });
    try {
      const c = await setUp({});
      // The other node caches the site's program, with no subscriber.
      await play(c, 'cy', 'ev-cy-1', other);
      await subscribe(c, ['badge.earned']);
      // Past the longest interval at which a node checks its cached program against the stored version (30 s, with Redis).
      now += 31_000;
      c.app = await t.token(c.site.app);
      await play(c, 'cy', 'ev-cy-2', other);
      expect(await outbox(c)).toEqual([['cy', 'badge.earned', 1]]);
      expect(await delivered(c)).toEqual([['/hooks/endpoint', 'badge.earned', 1]]);
    } finally {
      await other.close();
    }
  });
});
