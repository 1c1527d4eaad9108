// What an admin can see before doing it, on both stores: a dry run's answer adds the badges the
// action would award and the webhook events it would send (type, destinations, payload), writing
// nothing; DELETE /users/{u}/actions/{eventId}?dryRun=true answers what reversing would take back
// (the same answer the reversal then gives, with the badges and board scores it moves), changing
// nothing. Both are refused as their real twins are.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reversal } from '../../../src/modules/actions/reversal.js';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';
import { expectProblem } from '../../helpers/problem.js';

// Noon in New York on 2026-06-15, then real time: inside every mission's dates, far from midnight.
const START = Date.parse('2026-06-15T16:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);
const HOOKS = 'http://127.0.0.1:9/hooks';

interface Ctx {
  site: TestSite;
  admin: string;
  app: string;
}

describe.each(configurations)('previews (%s)', (configuration) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock, config: { webhookAllowPrivateNetworks: true, clientRate: { rate: 100_000, burst: 100_000 } } });
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: token !== undefined ? { authorization: `Bearer ${token}` } : {}, ...(payload !== undefined ? { payload } : {}) });
  const body = <T>(response: LightMyRequestResponse, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return (response.json() as { response: T }).response;
  };
  /** A site with the example program: mission events to the site's callback URL, level and badge events to an endpoint. */
  const setUp = async (): Promise<Ctx & { endpointId: string }> => {
    const site = await t.createSite();
    const c = { site, admin: await t.token(site.admin), app: await t.token(site.app) };
    const program = exampleProgram<{ site: Record<string, unknown>; actions: Array<Record<string, unknown>> }>();
    // read_article may be logged by the user's own app (a user-level token).
    for (const action of program.actions) if (action.name === 'read_article') action.clientLoggable = true;
    body(await call('PUT', '/admin/program', c.admin, { ...program, site: { ...program.site, achievementCallbackUrl: `${HOOKS}/missions` } }));
    const endpoint = body<{ id: string }>(
      await call('POST', '/admin/webhook-endpoints', c.admin, { url: HOOKS, eventTypes: ['badge.earned', 'level.changed'] }),
      201,
    );
    return { ...c, endpointId: endpoint.id };
  };
  const count = async (c: Ctx, table: 'points_ledger' | 'mission_completions' | 'outbox' | 'action_events' | 'trophies') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('site_id', '=', c.site.siteId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const written = async (c: Ctx) =>
    Promise.all((['points_ledger', 'mission_completions', 'outbox', 'action_events', 'trophies'] as const).map((table) => count(c, table)));
  const balances = async (c: Ctx, user: string) =>
    body<{ categories: Array<{ name: string; balance: number }> }>(await call('GET', `/users/${user}/point-balance`, c.app)).categories.map((category) => [
      category.name,
      category.balance,
    ]);

  describe('a dry run', () => {
    it('answers the badges and the webhooks the action would bring, with caps applied, writing nothing', async () => {
      const c = await setUp();
      body(await call('PUT', '/admin/groups/g-sales/members/ann', c.admin), 201);
      // 90 Points from an admin; 200 Coins from a purchase: the day's limit of Coins is reached.
      body(await call('POST', '/admin/users/ann/points', c.admin, { category: 'Points', amount: 90, reason: 'welcome' }), 201);
      body(await call('POST', '/users/ann/actions', c.app, { action: 'purchase', value: 100 }), 201);
      const before = await written(c);
      const balancesBefore = await balances(c, 'ann');

      const dry = body<ActionOutcome>(
        await call('POST', '/users/ann/actions?dryRun=true', c.app, { action: 'read_article', metadata: { topic: 'recipe' } }),
        201,
      );
      expect(dry.missionsCompleted.map((m) => m.id)).toEqual(['m-first-read']);
      expect(dry.pointsAwarded).toEqual([{ category: 'Points', requested: 10, credited: 10 }]);
      expect(dry.levelChanged).toEqual({ from: { id: 'l-1', name: 'Rookie' }, to: { id: 'l-2', name: 'Regular' }, direction: 'up' });
      expect(dry.badgesEarned).toEqual([{ id: 'b-reader', name: 'Reader', iconUrl: 'https://cdn.acme.example/badges/reader.png', userId: 'ann' }]);
      const completionId = dry.missionsCompleted[0]?.completionId;
      expect(dry.webhooks?.map((hook) => [hook.eventType, hook.destinations])).toEqual([
        ['badge.earned', [{ destination: `endpoint:${c.endpointId}`, url: HOOKS }]],
        ['mission.completed', [{ destination: 'site:achievementCallbackUrl', url: `${HOOKS}/missions` }]],
        ['level.changed', [{ destination: `endpoint:${c.endpointId}`, url: HOOKS }]],
      ]);
      expect(dry.webhooks?.[0]?.payload).toMatchObject({
        eventType: 'badge.earned',
        context: { siteId: c.site.siteId },
        data: { user: { userId: 'ann' }, badge: { id: 'b-reader', name: 'Reader' }, completionId, actionEventId: dry.eventId },
      });
      expect(dry.webhooks?.[1]?.payload).toMatchObject({ data: { mission: { id: 'm-first-read' }, points: [{ category: 'Points', amount: 10 }] } });

      // Nothing was written: no event, entry, completion, trophy or outbox row; the balances are as they were.
      expect(await written(c)).toEqual(before);
      expect(await balances(c, 'ann')).toEqual(balancesBefore);

      // A capped reward says so: Coins are at today's limit.
      const capped = body<ActionOutcome>(await call('POST', '/users/ann/actions?dryRun=true', c.app, { action: 'purchase', value: 5 }), 201);
      expect(capped.pointsAwarded).toEqual([{ category: 'Coins', requested: 10, credited: 0 }]);
      expect(capped.badgesEarned).toEqual([]);
      expect(capped.webhooks).toEqual([
        {
          eventType: 'mission.completed',
          destinations: [expect.objectContaining({ destination: 'site:achievementCallbackUrl' })],
          payload: expect.any(Object),
        },
      ]);

      // Logged for real, the action does what the dry run said (the same badges), without the webhooks.
      const real = body<ActionOutcome>(await call('POST', '/users/ann/actions', c.app, { action: 'read_article', metadata: { topic: 'recipe' } }), 201);
      expect(real.badgesEarned).toEqual(dry.badgesEarned);
      expect(real).not.toHaveProperty('webhooks');
      const { webhooks: _webhooks, ...decided } = dry;
      const comparable = (outcome: ActionOutcome) => ({
        ...outcome,
        eventId: '',
        timestamp: '',
        missionsCompleted: outcome.missionsCompleted.map((m) => m.id),
      });
      expect(comparable(real)).toEqual(comparable(decided));
      const outbox = await t.database.db
        .selectFrom('outbox')
        .select('event_type')
        .where('site_id', '=', c.site.siteId)
        .where('party_id', '=', 'ann')
        .orderBy('sequence')
        .execute();
      expect(outbox.map((row) => row.event_type).slice(-3)).toEqual(['badge.earned', 'mission.completed', 'level.changed']);
    });

    it("leaves the webhooks out of a user-level token's answer, and lists none the site has no destination for", async () => {
      const c = await setUp();
      const user = await t.token(c.site.app, 'bob');
      const own = body<ActionOutcome>(await call('POST', '/users/bob/actions?dryRun=true', user, { action: 'read_article' }), 201);
      expect(own.badgesEarned).toEqual([{ id: 'b-reader', name: 'Reader', iconUrl: 'https://cdn.acme.example/badges/reader.png', userId: 'bob' }]);
      expect(own).not.toHaveProperty('webhooks');
      // Another user's action is refused to a user-level token, dry run or not.
      expectProblem(await call('POST', '/users/ann/actions?dryRun=true', user, { action: 'read_article' }), 403, 'forbidden');

      expect((await call('DELETE', `/admin/webhook-endpoints/${c.endpointId}`, c.admin)).statusCode).toBe(204);
      const none = body<ActionOutcome>(await call('POST', '/users/bob/actions?dryRun=true', c.app, { action: 'read_article' }), 201);
      expect(none.webhooks?.map((hook) => hook.eventType)).toEqual(['mission.completed']);
      expect(await count(c, 'action_events')).toBe(0);
    });
  });

  describe('a reversal preview', () => {
    it('answers what reversing would take back, changing nothing, and the reversal then does exactly that', async () => {
      const c = await setUp();
      body(await call('POST', '/admin/users/ann/points', c.admin, { category: 'Points', amount: 95, reason: 'welcome' }), 201);
      const logged = body<ActionOutcome>(await call('POST', '/users/ann/actions', c.app, { action: 'read_article', eventId: 'ev-read' }), 201);
      const completionId = logged.missionsCompleted[0]?.completionId as string;
      const before = await written(c);

      const preview = body<Reversal>(await call('DELETE', '/users/ann/actions/ev-read?dryRun=true', c.admin));
      expect(preview).toMatchObject({
        eventId: 'ev-read',
        alreadyReversed: false,
        completionsRemoved: [{ id: 'm-first-read', name: 'First read', completionId, userId: 'ann', points: [{ category: 'Points', amount: 10 }] }],
        pointsDebited: [{ category: 'Points', amount: 10 }],
        balances: [{ category: 'Points', balance: 95 }],
        negativeBalances: [],
        levelChanged: { from: { id: 'l-2', name: 'Regular' }, to: { id: 'l-1', name: 'Rookie' }, direction: 'down' },
        badgesTakenBack: [{ id: 'b-reader', name: 'Reader', left: 0, userId: 'ann' }],
      });
      expect(preview.boardScores).toEqual(
        expect.arrayContaining([expect.objectContaining({ leaderboardId: 'lb-all-time', name: 'All-time points', partyId: 'ann', change: -10, score: 95 })]),
      );

      // Nothing changed: the same rows, the badge and the balance are still there, and the event is not reversed.
      expect(await written(c)).toEqual(before);
      expect(await balances(c, 'ann')).toEqual([
        ['Points', 105],
        ['Coins', 0],
        ['Award', 0],
      ]);
      expect(body<Array<{ id: string }>>(await call('GET', '/users/ann/badges', c.app)).map((b) => b.id)).toEqual(['b-reader']);
      const history = body<Array<{ eventId: string; reversedAt?: string }>>(await call('GET', '/users/ann/actions', c.admin));
      expect(history.find((action) => action.eventId === 'ev-read')?.reversedAt).toBeUndefined();
      const { lbAllTime } = { lbAllTime: body<{ score: number }>(await call('GET', '/leaderboards/lb-all-time/leaders/ann', c.app)).score };
      expect(lbAllTime).toBe(105);

      // The reversal itself answers what the preview said.
      const { badgesTakenBack: _badges, boardScores: _scores, ...same } = preview;
      expect(body<Reversal>(await call('DELETE', '/users/ann/actions/ev-read', c.admin))).toEqual(same);
      expect(await balances(c, 'ann')).toContainEqual(['Points', 95]);
      // Previewed again once reversed: it was, and nothing would change.
      expect(body<Reversal>(await call('DELETE', '/users/ann/actions/ev-read?dryRun=true', c.admin))).toEqual({ ...same, alreadyReversed: true });
    });

    it('is refused as the reversal is: unknown events, bad parameters, and every token but the site admin’s', async () => {
      const c = await setUp();
      body(await call('POST', '/users/ann/actions', c.app, { action: 'read_article', eventId: 'ev-ann' }), 201);
      const other = await setUp();
      const url = '/users/ann/actions/ev-ann?dryRun=true';

      expectProblem(await call('DELETE', '/users/ann/actions/nope?dryRun=true', c.admin), 404, 'not_found');
      // Another user's event reads as absent.
      expectProblem(await call('DELETE', '/users/bob/actions/ev-ann?dryRun=true', c.admin), 404, 'not_found');
      expectProblem(await call('DELETE', '/users/ann/actions/ev-ann?dryRun=perhaps', c.admin), 400, 'validation_failed');
      expectProblem(await call('DELETE', url), 401, 'missing_token');
      expectProblem(await call('DELETE', url, 'not-a-token'), 401, 'invalid_token');
      expectProblem(await call('DELETE', url, c.app), 403, 'forbidden');
      expectProblem(await call('DELETE', url, await t.token(c.site.app, 'ann')), 403, 'forbidden');
      // Another site's admin finds no such event on its own site.
      expectProblem(await call('DELETE', url, other.admin), 404, 'not_found');
      expect(await balances(c, 'ann')).toContainEqual(['Points', 10]);
    });
  });
});
