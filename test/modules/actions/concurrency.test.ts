// Concurrent action logging through the HTTP stack (SPEC §5: one user's decisions are serialized,
// supply is an atomic conditional decrement): one eventId sent many times at once is one event; a
// daily cap holds under a burst; a non-repeatable mission completes once; a supply of 5 gives 5
// completions site-wide; every balance equals its ledger afterwards. Run on both dialects.
import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ActionsRepository } from '../../../src/modules/actions/repository.js';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { EXAMPLE_PROGRAM_PATH as examplePath } from '../../helpers/fixtures.js';
import { expectBalancesMatchLedger } from '../../helpers/ledger.js';

const example = JSON.parse(readFileSync(examplePath, 'utf8')) as Record<string, unknown>;

// Noon in New York on 2026-06-15: every burst falls in one day of the Coins cap.
const START = Date.parse('2026-06-15T16:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

describe.each(configurations)('concurrent actions (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;

  const post = (url: string, payload: Record<string, unknown>, token = client) =>
    t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload });
  const put = async (url: string, payload: Record<string, unknown>) => {
    const response = await t.app.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${admin}` }, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
  };
  const outcomeOf = (response: LightMyRequestResponse) => (response.json() as { response: ActionOutcome }).response;
  const statuses = (responses: LightMyRequestResponse[]) => responses.map((r) => r.statusCode).sort();

  const db = () => t.database.db;
  const count = async (table: 'action_events' | 'parties' | 'outbox', party: string | string[]) => {
    const row = await db()
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('site_id', '=', site.siteId)
      .where('party_id', 'in', ([] as string[]).concat(party))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const completions = async (mission: string, party?: string) => {
    let query = db().selectFrom('mission_completions').where('site_id', '=', site.siteId).where('mission_id', '=', mission);
    if (party !== undefined) query = query.where('party_id', '=', party);
    return Number((await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  };
  const ledger = (party: string, category: string) =>
    db()
      .selectFrom('points_ledger')
      .select([
        (eb) => eb.fn.sum<number>('requested').as('requested'),
        (eb) => eb.fn.sum<number>('credited').as('credited'),
        (eb) => eb.fn.countAll<number>().as('entries'),
      ])
      .where('site_id', '=', site.siteId)
      .where('party_id', '=', party)
      .where('category', '=', category)
      .executeTakeFirstOrThrow()
      .then((row) => ({ requested: Number(row.requested ?? 0), credited: Number(row.credited ?? 0), entries: Number(row.entries) }));
  const balance = async (party: string, category: string) =>
    Number(
      (
        await db()
          .selectFrom('point_balances')
          .select('balance')
          .where('site_id', '=', site.siteId)
          .where('party_id', '=', party)
          .where('category', '=', category)
          .executeTakeFirst()
      )?.balance ?? 0,
    );

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock, config: { clientRate: { rate: 100000, burst: 100000 } } });
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    await put('/admin/program', example);
    // Badges get outbox rows only with a subscriber (mission.completed goes to the example's achievementCallbackUrl).
    const endpoint = await post('/admin/webhook-endpoints', { url: 'https://hooks.example.com/badges', eventTypes: ['badge.earned'] }, admin);
    expect(endpoint.statusCode, endpoint.body).toBe(201);
  });
  afterAll(async () => t.close());

  it('processes one eventId sent 20 times at once exactly once: one event, completion and award, 19 duplicates', async () => {
    // The user exists already, so creating the party row does not serialize the requests by itself.
    expect((await post('/users/c-idem/actions', { action: 'watch_video' })).statusCode).toBe(201);
    const responses = await Promise.all(times(20, () => post('/users/c-idem/actions', { action: 'read_article', eventId: 'same-20' })));
    expect(statuses(responses)).toEqual([...times(19, () => 200), 201]);
    const original = outcomeOf(responses.find((r) => r.statusCode === 201) as LightMyRequestResponse);
    expect(original.missionsCompleted.map((m) => m.id)).toEqual(['m-first-read']);
    for (const response of responses.filter((r) => r.statusCode === 200)) expect(outcomeOf(response)).toEqual({ ...original, duplicate: true });

    expect(await count('action_events', 'c-idem')).toBe(2);
    expect(await completions('m-first-read', 'c-idem')).toBe(1);
    expect(await ledger('c-idem', 'Points')).toEqual({ requested: 10, credited: 10, entries: 1 });
    expect(await balance('c-idem', 'Points')).toBe(10);
    expect(await count('outbox', 'c-idem')).toBe(2);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it('gives one eventId sent at once for 20 different users to exactly one of them; the rest get 409', async () => {
    const users = times(20, (i) => `race-${i}`);
    const responses = await Promise.all(users.map((user) => post(`/users/${user}/actions`, { action: 'watch_video', eventId: 'race-evt' })));
    expect(statuses(responses)).toEqual([201, ...times(19, () => 409)]);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json()).toMatchObject({ status: 409, code: 'event_id_conflict' });
      expect(response.body).not.toMatch(/race-|watch_video/);
    }
    expect(await count('action_events', users)).toBe(1);
    expect(await count('parties', users)).toBe(1);
  });

  it('credits exactly the Coins daily cap of 200 under 200 concurrent purchases (2 coins requested each)', async () => {
    await put('/admin/groups/g-sales/members/buyer', {});
    expect((await post('/users/buyer/actions', { action: 'watch_video' })).statusCode).toBe(201);
    const responses = await Promise.all(times(200, () => post('/users/buyer/actions', { action: 'purchase', value: 1 })));
    expect(statuses(responses)).toEqual(times(200, () => 201));
    const outcomes = responses.map(outcomeOf);
    expect(outcomes.every((o) => o.recorded && o.missionsCompleted.length === 1 && o.missionsCompleted[0]?.id === 'm-shopper')).toBe(true);
    const credited = outcomes.flatMap((o) => o.pointsAwarded).reduce((sum, award) => sum + award.credited, 0);
    expect(credited).toBe(200);
    expect(outcomes.filter((o) => o.pointsAwarded[0]?.credited === 2)).toHaveLength(100);

    expect(await ledger('buyer', 'Coins')).toEqual({ requested: 400, credited: 200, entries: 200 });
    expect(await balance('buyer', 'Coins')).toBe(200);
    expect(await completions('m-shopper', 'buyer')).toBe(200);
    expect(await count('action_events', 'buyer')).toBe(201);
    const earned = await db()
      .selectFrom('point_earnings')
      .select(['period', 'earned'])
      .where('site_id', '=', site.siteId)
      .where('party_id', '=', 'buyer')
      .orderBy('period')
      .execute();
    expect(earned.map((row) => [row.period, Number(row.earned)])).toEqual([
      ['day', 200],
      ['year', 200],
    ]);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  }, 60_000);

  it('completes the non-repeatable m-first-read exactly once under 20 concurrent read_article actions', async () => {
    expect((await post('/users/c-reader/actions', { action: 'watch_video' })).statusCode).toBe(201);
    const responses = await Promise.all(times(20, () => post('/users/c-reader/actions', { action: 'read_article' })));
    expect(statuses(responses)).toEqual(times(20, () => 201));
    const outcomes = responses.map(outcomeOf);
    expect(new Set(outcomes.map((o) => o.eventId)).size).toBe(20);
    expect(outcomes.filter((o) => o.missionsCompleted.some((m) => m.id === 'm-first-read'))).toHaveLength(1);

    expect(await count('action_events', 'c-reader')).toBe(21);
    expect(await completions('m-first-read', 'c-reader')).toBe(1);
    expect(await ledger('c-reader', 'Points')).toEqual({ requested: 10, credited: 10, entries: 1 });
    const trophy = await db().selectFrom('trophies').selectAll().where('site_id', '=', site.siteId).where('party_id', '=', 'c-reader').execute();
    expect(trophy.map((row) => [row.badge_id, row.earned_count])).toEqual([['b-reader', 1]]);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it('caps a mission with supply 5 at 5 completions site-wide when 20 users log it at once', async () => {
    await put('/admin/actions/claim_prize', { name: 'claim_prize' });
    await put('/admin/challenges/m-limited', {
      name: 'Limited edition',
      startDate: '2026-01-01T00:00:00',
      endDate: '2027-12-31T23:59:59',
      timezone: 'America/New_York',
      rules: [{ id: 'r-1', action: 'claim_prize', type: 'count', goal: 1, metadata: [] }],
      rewards: { points: [{ category: 'Points', amount: 5 }] },
      supply: 5,
    });
    const users = times(20, (i) => `claimer-${i}`);
    const responses = await Promise.all(users.map((user) => post(`/users/${user}/actions`, { action: 'claim_prize' })));
    expect(statuses(responses)).toEqual(times(20, () => 201));
    const winners = responses.map(outcomeOf).filter((o) => o.missionsCompleted.some((m) => m.id === 'm-limited'));
    expect(winners).toHaveLength(5);
    for (const winner of winners) expect(winner.pointsAwarded).toEqual([{ category: 'Points', requested: 5, credited: 5 }]);
    // A user who lost the race for the last unit completed nothing: the response must not say 100%.
    const losers = responses.map(outcomeOf).filter((o) => o.missionsCompleted.length === 0);
    expect(losers.flatMap((o) => o.progress).filter((p) => p.percentComplete === 100)).toEqual([]);

    expect(await completions('m-limited')).toBe(5);
    expect(await count('action_events', users)).toBe(20);
    const supply = await db()
      .selectFrom('mission_supply')
      .select('used')
      .where('site_id', '=', site.siteId)
      .where('mission_id', '=', 'm-limited')
      .executeTakeFirstOrThrow();
    expect(Number(supply.used)).toBe(5);
    const credited = await Promise.all(users.map((user) => balance(user, 'Points')));
    expect(credited.filter((points) => points === 5)).toHaveLength(5);
    expect(credited.filter((points) => points === 0)).toHaveLength(15);

    const late = outcomeOf(await post('/users/claimer-late/actions', { action: 'claim_prize' }));
    expect(late).toMatchObject({ recorded: true, missionsCompleted: [], pointsAwarded: [] });
    expect(await completions('m-limited')).toBe(5);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it('decides again, and completes nothing, when the last unit of a supply was taken after the decision read it', async () => {
    await put('/admin/actions/claim_single', { name: 'claim_single' });
    await put('/admin/challenges/m-single', {
      name: 'One of a kind',
      startDate: '2026-01-01T00:00:00',
      endDate: '2027-12-31T23:59:59',
      timezone: 'America/New_York',
      rules: [{ id: 'r-1', action: 'claim_single', type: 'count', goal: 1, metadata: [] }],
      rewards: { points: [{ category: 'Points', amount: 5 }] },
      supply: 1,
    });
    expect(outcomeOf(await post('/users/single-first/actions', { action: 'claim_single' })).missionsCompleted.map((m) => m.id)).toEqual(['m-single']);
    // The next decision reads the supply as it was before that completion (as a decision of
    // another node, made at the same moment, would): its write set is refused, nothing of it is
    // written, and it is made again from the supply as it is.
    const reads = vi.spyOn(ActionsRepository.prototype, 'supplyUsed').mockResolvedValueOnce(new Map());
    try {
      const response = await post('/users/single-second/actions', { action: 'claim_single' });
      expect(response.statusCode, response.body).toBe(201);
      expect(outcomeOf(response)).toMatchObject({ recorded: true, missionsCompleted: [], pointsAwarded: [] });
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
    expect(await completions('m-single')).toBe(1);
    expect(await count('action_events', ['single-second'])).toBe(1);
    expect(await balance('single-second', 'Points')).toBe(0);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });
});
