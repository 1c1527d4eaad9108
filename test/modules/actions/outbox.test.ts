// Every mission completion, badge and level change the site has a destination for writes an outbox
// row in the same transaction, already in the envelope webhooks carry (SPEC §12), with a per-party
// sequence. The example program sends mission.completed to its achievementCallbackUrl; an endpoint
// subscribes to the badges and level changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';

describe.each(configurations)('outbox (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    const admin = await t.token(site.admin);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: exampleProgram() })).statusCode,
    ).toBe(200);
    const endpoint = { url: 'https://hooks.example.com/levels-and-badges', eventTypes: ['badge.earned', 'level.changed'] };
    expect(
      (await t.app.inject({ method: 'POST', url: '/admin/webhook-endpoints', headers: { authorization: `Bearer ${admin}` }, payload: endpoint })).statusCode,
    ).toBe(201);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/admin/users/ann/points',
          headers: { authorization: `Bearer ${admin}` },
          payload: { category: 'Points', amount: 95, reason: 'legacy' },
        })
      ).statusCode,
    ).toBe(201);
  });
  afterAll(async () => t.close());

  it('writes mission.completed, badge.earned and level.changed with the party, the cause and increasing sequences', async () => {
    const app = await t.token(site.app);
    const logged = await t.app.inject({
      method: 'POST',
      url: '/users/ann/actions',
      headers: { authorization: `Bearer ${app}` },
      payload: { action: 'read_article', eventId: 'ev-1' },
    });
    expect(logged.statusCode).toBe(201);
    const completionId = logged.json().response.missionsCompleted[0].completionId as string;

    const rows = await t.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('site_id', '=', site.siteId)
      .where('party_id', '=', 'ann')
      .orderBy('sequence')
      .execute();
    const events = rows.map((row) => JSON.parse(row.payload) as Record<string, unknown> & { data: Record<string, unknown> });
    // The adjustment's level change first (95 points: still Rookie, so none), then this action's events.
    expect(events.map((e) => e.eventType)).toEqual(['badge.earned', 'mission.completed', 'level.changed']);
    expect(events.map((e) => e.sequence)).toEqual([1, 2, 3]);
    for (const [i, event] of events.entries()) {
      expect(event.eventId).toBe(rows[i]?.event_id);
      expect(event.context).toEqual({ siteId: site.siteId });
      expect(event.occurredAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(events[1]?.data).toEqual({
      user: { userId: 'ann' },
      mission: { id: 'm-first-read', name: 'First read' },
      completionStatus: 'completed',
      completionId,
      points: [{ category: 'Points', amount: 10 }],
      actionEventId: 'ev-1',
      timestamp: logged.json().response.timestamp,
    });
    expect(events[0]?.data).toEqual({ user: { userId: 'ann' }, badge: { id: 'b-reader', name: 'Reader' }, completionId, actionEventId: 'ev-1' });
    expect(events[2]?.data).toEqual({
      user: { userId: 'ann' },
      from: { id: 'l-1', name: 'Rookie' },
      to: { id: 'l-2', name: 'Regular' },
      direction: 'up',
      actionEventId: 'ev-1',
    });
  });

  it('writes nothing for a dry run', async () => {
    const app = await t.token(site.app);
    const before = (await t.database.db.selectFrom('outbox').select('event_id').where('site_id', '=', site.siteId).execute()).length;
    const response = await t.app.inject({
      method: 'POST',
      url: '/users/bob/actions?dryRun=true',
      headers: { authorization: `Bearer ${app}` },
      payload: { action: 'read_article' },
    });
    expect(response.json().response.missionsCompleted).toHaveLength(1);
    expect((await t.database.db.selectFrom('outbox').select('event_id').where('site_id', '=', site.siteId).execute()).length).toBe(before);
  });
});
