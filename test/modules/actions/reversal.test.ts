// Reversals (SPEC §12): DELETE /users/{u}/actions/{eventId} takes back a recorded action with
// everything it caused (progress, completions, points, badge, level, caps, board scores, a
// `removed` webhook); DELETE /users/{u}/challenges/{c}/completions/latest removes one completion.
// Both are admin only, idempotent, and leave the ledger and the derived state consistent.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reversal } from '../../../src/modules/actions/reversal.js';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import { VerifyService } from '../../../src/modules/verify/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';
import { expectBalancesMatchLedger } from '../../helpers/ledger.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';

// Noon in New York on 2026-06-15, then real time: inside every mission's dates, far from midnight.
const START = Date.parse('2026-06-15T16:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);

const repeatable = { period: 'none', maxPerPeriod: 1000 };
/** A small program: repeatable `play` (10 Points), `step` ×3 (30 Points), capped `earn` (10 Coins, 10 a day), group missions on `team`, and two boards. */
const custom = {
  site: { name: 'Reversals', timezone: 'UTC' },
  pointCategories: [
    { name: 'Points', isDefault: true },
    { name: 'Coins', isDefault: false, dailyLimit: 10 },
  ],
  actions: [{ name: 'play' }, { name: 'step' }, { name: 'earn' }, { name: 'team' }],
  groups: [{ id: 'g-sales', name: 'Sales' }],
  missions: [
    {
      id: 'm-play',
      name: 'Play',
      rules: [{ id: 'r-1', action: 'play', type: 'count', goal: 1 }],
      rewards: { points: [{ category: 'Points', amount: 10 }] },
      repeatableWindow: repeatable,
    },
    {
      id: 'm-steps',
      name: 'Three steps',
      rules: [{ id: 'r-1', action: 'step', type: 'count', goal: 3 }],
      rewards: { points: [{ category: 'Points', amount: 30 }] },
    },
    {
      id: 'm-earn',
      name: 'Earn',
      rules: [{ id: 'r-1', action: 'earn', type: 'count', goal: 1 }],
      rewards: { points: [{ category: 'Coins', amount: 10 }] },
      repeatableWindow: repeatable,
    },
    {
      id: 'm-team',
      name: 'Team',
      party: 'group',
      rules: [{ id: 'r-1', action: 'team', type: 'count', goal: 1 }],
      rewards: { points: [{ category: 'Points', amount: 50 }] },
      repeatableWindow: { period: 'none' },
    },
    {
      id: 'm-team-3',
      name: 'Team ×3',
      party: 'group',
      rules: [{ id: 'r-1', action: 'team', type: 'count', goal: 3 }],
      rewards: { points: [{ category: 'Points', amount: 100 }] },
      repeatableWindow: { period: 'none' },
    },
  ],
  leaderboards: [
    { id: 'lb-points', name: 'Points', metric: { type: 'points', category: 'Points' }, period: 'allTime', party: 'user' },
    { id: 'lb-missions', name: 'Missions', metric: { type: 'missionsCompleted' }, period: 'allTime', party: 'user' },
  ],
};

/** The example program without its (unreachable) notification URLs, so that dispatch rounds only reach the test receiver. */
function example(): Record<string, unknown> {
  const program = exampleProgram<{ site: Record<string, unknown> }>();
  for (const key of ['achievementCallbackUrl', 'giftNotifyUrl', 'itemPurchaseNotifyUrl']) delete program.site[key];
  return program;
}

interface Ctx {
  site: TestSite;
  admin: string;
  app: string;
}

describe.each(configurations)('reversals (%s)', (configuration) => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock, config: { webhookAllowPrivateNetworks: true, clientRate: { rate: 100_000, burst: 100_000 } } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: token !== undefined ? { authorization: `Bearer ${token}` } : {}, ...(payload !== undefined ? { payload } : {}) });
  const body = <T>(response: LightMyRequestResponse, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return (response.json() as { response: T }).response;
  };
  const setUp = async (program: Record<string, unknown>): Promise<Ctx> => {
    const site = await t.createSite();
    const ctx = { site, admin: await t.token(site.admin), app: await t.token(site.app) };
    body(await call('PUT', '/admin/program', ctx.admin, program));
    return ctx;
  };
  const log = async (c: Ctx, user: string, action: string, eventId: string, path = `/users/${user}/actions`) =>
    body<ActionOutcome>(await call('POST', path, c.app, { action, eventId }), 201);
  const reverse = (c: Ctx, user: string, eventId: string, token = c.admin) => call('DELETE', `/users/${user}/actions/${encodeURIComponent(eventId)}`, token);
  const reversed = async (c: Ctx, user: string, eventId: string) => body<Reversal>(await reverse(c, user, eventId));
  const adjust = async (c: Ctx, user: string, amount: number) =>
    body(await call('POST', `/admin/users/${user}/points`, c.admin, { category: 'Points', amount, reason: 'test' }), 201);
  const balance = async (c: Ctx, user: string) => body<{ balance: number; lifetimeBalance: number }>(await call('GET', `/users/${user}/point-balance`, c.app));
  const missions = async (c: Ctx, party: string, type: 'eligible' | 'completed') =>
    body<Array<{ id: string; completionCount?: number }>>(await call('GET', `/${party}/challenges?type=${type}&limit=100`, c.app));
  const current = async (c: Ctx, party: string, mission: string) =>
    body<{ rules: Array<{ current: number }> }>(await call('GET', `/${party}/challenges/${mission}/progress`, c.app)).rules[0]?.current;
  const score = async (c: Ctx, board: string, user: string) =>
    body<{ score: number | null }>(await call('GET', `/leaderboards/${board}/leaders/${user}`, c.app)).score;
  const count = async (c: Ctx, table: 'points_ledger' | 'mission_completions' | 'outbox') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('site_id', '=', c.site.siteId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const groupBalance = async (c: Ctx, group: string) =>
    Number(
      (
        await t.database.db
          .selectFrom('point_balances')
          .select('balance')
          .where('site_id', '=', c.site.siteId)
          .where('party_type', '=', 'group')
          .where('party_id', '=', group)
          .where('category', '=', 'Points')
          .executeTakeFirst()
      )?.balance ?? 0,
    );
  const expectProblem = (response: LightMyRequestResponse, status: number, code: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toMatchObject({ status, code });
  };
  /** A site with the example program whose mission and level events go to the test receiver, and so are written to the outbox. */
  const setUpWithHooks = async (): Promise<Ctx> => {
    const program = example();
    const c = await setUp({ ...program, site: { ...(program.site as Record<string, unknown>), achievementCallbackUrl: receiver.url } });
    body(await call('POST', '/admin/webhook-endpoints', c.admin, { url: `${receiver.url}/levels`, eventTypes: ['level.changed'] }), 201);
    return c;
  };
  /** The ledger and every derived total agree (questline verify finds no drift). */
  const expectConsistent = async (c: Ctx) => {
    await expectBalancesMatchLedger(t.database.db, c.site.siteId);
    expect((await new VerifyService(t.database.db, t.app.services.programs).verify([c.site.siteId])).drift).toEqual([]);
  };

  it('reverses a completion with its points, badge and level, and writes the removal to the outbox', async () => {
    const c = await setUpWithHooks();
    await adjust(c, 'ann', 95);
    const logged = await log(c, 'ann', 'read_article', 'ev-read');
    const completionId = logged.missionsCompleted[0]?.completionId as string;
    expect(logged.levelChanged?.to).toEqual({ id: 'l-2', name: 'Regular' });

    expect(await reversed(c, 'ann', 'ev-read')).toEqual({
      eventId: 'ev-read',
      alreadyReversed: false,
      completionsRemoved: [{ id: 'm-first-read', name: 'First read', completionId, userId: 'ann', points: [{ category: 'Points', amount: 10 }] }],
      pointsDebited: [{ category: 'Points', amount: 10 }],
      balances: [{ category: 'Points', balance: 95 }],
      negativeBalances: [],
      levelChanged: { from: { id: 'l-2', name: 'Regular' }, to: { id: 'l-1', name: 'Rookie' }, direction: 'down' },
    });

    expect(await balance(c, 'ann')).toMatchObject({ balance: 95, lifetimeBalance: 95 });
    expect(body<Array<{ id: string }>>(await call('GET', '/users/ann/badges', c.app)).map((b) => b.id)).not.toContain('b-reader');
    expect(body<{ current: { name: string } }>(await call('GET', '/users/ann/levels', c.app)).current.name).toBe('Rookie');
    expect((await missions(c, 'users/ann', 'completed')).map((m) => m.id)).not.toContain('m-first-read');
    expect((await missions(c, 'users/ann', 'eligible')).map((m) => m.id)).toContain('m-first-read');

    const rows = await t.database.db
      .selectFrom('outbox')
      .select('payload')
      .where('site_id', '=', c.site.siteId)
      .where('party_id', '=', 'ann')
      .orderBy('sequence')
      .execute();
    const events = rows.map((row) => JSON.parse(row.payload) as { eventType: string; data: Record<string, unknown> });
    const completions = events.filter((e) => e.eventType === 'mission.completed').map((e) => e.data);
    expect(completions.map((d) => [d.completionStatus, d.completionId])).toEqual([
      ['completed', completionId],
      ['removed', completionId],
    ]);
    expect(completions[1]).toMatchObject({
      mission: { id: 'm-first-read', name: 'First read' },
      points: [{ category: 'Points', amount: 10 }],
      actionEventId: 'ev-read',
    });
    // The level goes down after the removal, as a consequence of it.
    const removedAt = events.findIndex((e) => e.data.completionStatus === 'removed');
    const levelDown = events.findIndex((e) => e.eventType === 'level.changed' && e.data.direction === 'down');
    expect(levelDown).toBeGreaterThan(removedAt);
    expect(events[levelDown]?.data).toMatchObject({ user: { userId: 'ann' }, from: { id: 'l-2', name: 'Regular' }, to: { id: 'l-1', name: 'Rookie' } });
    // Eligible again means completable again: its tracking restarted.
    expect((await log(c, 'ann', 'read_article', 'ev-read-again')).missionsCompleted.map((m) => m.id)).toEqual(['m-first-read']);
    await expectConsistent(c);
  });

  it('is idempotent: a second reversal changes nothing and answers alreadyReversed', async () => {
    const c = await setUpWithHooks();
    await log(c, 'ann', 'read_article', 'ev-twice');
    const first = await reversed(c, 'ann', 'ev-twice');
    expect(first.completionsRemoved).toHaveLength(1);
    const ledger = await count(c, 'points_ledger');
    const outbox = await count(c, 'outbox');

    const second = await reversed(c, 'ann', 'ev-twice');
    expect(second).toEqual({ ...first, alreadyReversed: true });
    expect(await count(c, 'points_ledger')).toBe(ledger);
    expect(await count(c, 'outbox')).toBe(outbox);
    expect(await balance(c, 'ann')).toMatchObject({ balance: 0 });
    await expectConsistent(c);
  });

  it("takes back an action's contribution to a mission it advanced without completing", async () => {
    const c = await setUp(custom);
    await log(c, 'ann', 'step', 'ev-step-1');
    await log(c, 'ann', 'step', 'ev-step-2');
    expect(await current(c, 'users/ann', 'm-steps')).toBe(2);

    const result = await reversed(c, 'ann', 'ev-step-1');
    expect(result).toMatchObject({ alreadyReversed: false, completionsRemoved: [], pointsDebited: [], balances: [] });
    expect(await current(c, 'users/ann', 'm-steps')).toBe(1);
    // Two more steps complete it: the reversed one no longer counts.
    await log(c, 'ann', 'step', 'ev-step-3');
    expect((await log(c, 'ann', 'step', 'ev-step-4')).missionsCompleted.map((m) => m.id)).toEqual(['m-steps']);
    await expectConsistent(c);
  });

  it('debits in full when the balance goes below zero, and reports it', async () => {
    const c = await setUp(example());
    await log(c, 'ann', 'read_article', 'ev-spent');
    await adjust(c, 'ann', -8);
    expect(await balance(c, 'ann')).toMatchObject({ balance: 2 });

    const result = await reversed(c, 'ann', 'ev-spent');
    expect(result).toMatchObject({
      pointsDebited: [{ category: 'Points', amount: 10 }],
      balances: [{ category: 'Points', balance: -8 }],
      negativeBalances: ['Points'],
    });
    expect(result.completionsRemoved.map((r) => r.id)).toEqual(['m-first-read']);
    expect(await balance(c, 'ann')).toMatchObject({ balance: -8 });
    await expectConsistent(c);
  });

  it("gives a cap's allowance back", async () => {
    const c = await setUp(custom);
    const coins = (outcome: ActionOutcome) => outcome.pointsAwarded.find((p) => p.category === 'Coins')?.credited;
    expect(coins(await log(c, 'ann', 'earn', 'ev-earn-1'))).toBe(10);
    expect(coins(await log(c, 'ann', 'earn', 'ev-earn-2'))).toBe(0);

    expect(await reversed(c, 'ann', 'ev-earn-1')).toMatchObject({
      pointsDebited: [{ category: 'Coins', amount: 10 }],
      balances: [{ category: 'Coins', balance: 0 }],
      negativeBalances: [],
    });
    expect(coins(await log(c, 'ann', 'earn', 'ev-earn-3'))).toBe(10);
    expect(coins(await log(c, 'ann', 'earn', 'ev-earn-4'))).toBe(0);
    await expectConsistent(c);
  });

  it('takes the points and the completion off the leaderboards', async () => {
    const c = await setUp(custom);
    await log(c, 'ann', 'play', 'ev-play-1');
    await log(c, 'ann', 'play', 'ev-play-2');
    await log(c, 'bob', 'play', 'ev-play-bob');
    expect(await score(c, 'lb-points', 'ann')).toBe(20);
    expect(await score(c, 'lb-missions', 'ann')).toBe(2);

    await reversed(c, 'ann', 'ev-play-2');
    expect(await score(c, 'lb-points', 'ann')).toBe(10);
    expect(await score(c, 'lb-missions', 'ann')).toBe(1);
    expect(await score(c, 'lb-points', 'bob')).toBe(10);
    const leaders = body<Array<{ userId: string; score: number }>>(await call('GET', '/leaderboards/lb-points/leaders', c.app));
    expect(leaders.map((e) => [e.userId, e.score]).sort()).toEqual([
      ['ann', 10],
      ['bob', 10],
    ]);
    await expectConsistent(c);
  });

  it('posts completed, then removed, for the same completion', async () => {
    const c = await setUp({ ...custom, site: { ...custom.site, achievementCallbackUrl: receiver.url } });
    const completionId = (await log(c, 'ann', 'play', 'ev-hook')).missionsCompleted[0]?.completionId as string;
    await t.app.services.webhooks.runOnce();
    await reversed(c, 'ann', 'ev-hook');
    await t.app.services.webhooks.runOnce();

    const posted = receiver.received
      .map(
        (r) =>
          JSON.parse(r.body) as { eventType: string; sequence: number; context: { siteId: string }; data: { completionStatus: string; completionId: string } },
      )
      .filter((e) => e.context.siteId === c.site.siteId);
    expect(posted.map((e) => [e.eventType, e.data.completionStatus, e.data.completionId])).toEqual([
      ['mission.completed', 'completed', completionId],
      ['mission.completed', 'removed', completionId],
    ]);
    expect(posted[1]?.sequence).toBeGreaterThan(posted[0]?.sequence as number);
    await expectConsistent(c);
  });

  it("removes a mission's latest completion, exactly once with completionId, and 404s without one", async () => {
    const c = await setUp(custom);
    await log(c, 'ann', 'play', 'ev-latest-1');
    const second = (await log(c, 'ann', 'play', 'ev-latest-2')).missionsCompleted[0]?.completionId as string;
    const latest = (query = '') => call('DELETE', `/users/ann/challenges/m-play/completions/latest${query}`, c.admin);

    const removed = body<Reversal>(await latest());
    expect(removed.alreadyReversed).toBe(false);
    expect(removed.completionsRemoved).toEqual([
      { id: 'm-play', name: 'Play', completionId: second, userId: 'ann', points: [{ category: 'Points', amount: 10 }] },
    ]);
    expect(removed).toMatchObject({ pointsDebited: [{ category: 'Points', amount: 10 }], balances: [{ category: 'Points', balance: 10 }] });

    const ledger = await count(c, 'points_ledger');
    const again = body<Reversal>(await latest(`?completionId=${second}`));
    expect(again).toMatchObject({ alreadyReversed: true, completionsRemoved: [] });
    expect(await count(c, 'points_ledger')).toBe(ledger);
    expect((await missions(c, 'users/ann', 'completed')).find((m) => m.id === 'm-play')?.completionCount).toBe(1);
    expect(await balance(c, 'ann')).toMatchObject({ balance: 10 });

    expectProblem(await call('DELETE', '/users/zed/challenges/m-play/completions/latest', c.admin), 404, 'not_found');
    expectProblem(await latest('?completionId=no-such-completion'), 404, 'not_found');
    await expectConsistent(c);
  });

  it("removes a group's completion and takes back the group's progress", async () => {
    const c = await setUp(custom);
    expect((await call('PUT', '/admin/groups/g-sales/members/ann', c.admin)).statusCode).toBe(201);
    const logged = await log(c, 'ann', 'team', 'ev-team');
    expect(logged.missionsCompleted.map((m) => m.id)).toEqual(['m-team']);
    expect(await groupBalance(c, 'g-sales')).toBe(50);
    expect(await current(c, 'groups/g-sales', 'm-team-3')).toBe(1);

    const result = await reversed(c, 'ann', 'ev-team');
    expect(result.completionsRemoved).toEqual([
      { id: 'm-team', name: 'Team', completionId: logged.missionsCompleted[0]?.completionId, groupId: 'g-sales', points: [{ category: 'Points', amount: 50 }] },
    ]);
    // The group's points are not the user's debits.
    expect(result.pointsDebited).toEqual([]);
    expect(await groupBalance(c, 'g-sales')).toBe(0);
    expect(await current(c, 'groups/g-sales', 'm-team-3')).toBe(0);
    expect(await missions(c, 'groups/g-sales', 'completed')).toEqual([]);
    await expectConsistent(c);
  });

  it('refuses unknown, foreign and other sites’ events, and non-admin tokens; takes any event id', async () => {
    const c = await setUp(example());
    await log(c, 'ann', 'read_article', 'ev-ann');
    const ledger = await count(c, 'points_ledger');

    expectProblem(await reverse(c, 'ann', 'no-such-event'), 404, 'not_found');
    expectProblem(await reverse(c, 'bob', 'ev-ann'), 404, 'not_found');
    const other = await t.createSite();
    expectProblem(await reverse(c, 'ann', 'ev-ann', await t.token(other.admin)), 404, 'not_found');
    expectProblem(await reverse(c, 'ann', 'ev-ann', c.app), 403, 'forbidden');
    expectProblem(await reverse(c, 'ann', 'ev-ann', await t.token(c.site.app, 'ann')), 403, 'forbidden');
    expect((await call('DELETE', '/users/ann/actions/ev-ann')).statusCode).toBe(401);
    expect(await count(c, 'points_ledger')).toBe(ledger);
    expect(await balance(c, 'ann')).toMatchObject({ balance: 10 });

    // Still there to reverse, once.
    expect((await reversed(c, 'ann', 'ev-ann')).alreadyReversed).toBe(false);

    await log(c, 'cat', 'read_article', 'my event/1');
    const odd = await reversed(c, 'cat', 'my event/1');
    expect(odd).toMatchObject({ eventId: 'my event/1', alreadyReversed: false, pointsDebited: [{ category: 'Points', amount: 10 }] });
    expect(await balance(c, 'cat')).toMatchObject({ balance: 0 });
    await expectConsistent(c);
  });

  it('reverses an action that was not recorded with nothing to remove', async () => {
    const c = await setUp(example());
    expect((await log(c, 'ann', 'share', 'ev-share-1')).recorded).toBe(true);
    const repeat = await log(c, 'ann', 'share', 'ev-share-2');
    expect(repeat).toMatchObject({ recorded: false, reason: 'repeat_suppressed' });
    const ledger = await count(c, 'points_ledger');

    expect(await reversed(c, 'ann', 'ev-share-2')).toEqual({
      eventId: 'ev-share-2',
      alreadyReversed: false,
      completionsRemoved: [],
      pointsDebited: [],
      balances: [],
      negativeBalances: [],
    });
    expect((await reversed(c, 'ann', 'ev-share-2')).alreadyReversed).toBe(true);
    expect(await count(c, 'points_ledger')).toBe(ledger);
    await expectConsistent(c);
  });
});
