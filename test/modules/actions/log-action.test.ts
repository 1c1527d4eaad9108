// POST /users/{u}/actions through the HTTP stack (SPEC §5), happy paths: the response says what
// happened and the database holds exactly that — event, ledger, balances, completions, trophies,
// levels and outbox rows — for single- and multi-action missions, group prerequisites with a
// multiplier cut by the daily cap, rate limits, repeat suppression, backdating, dry runs and
// system actions.
import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseSchema } from '../../../src/db/schema.js';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { EXAMPLE_PROGRAM_PATH as examplePath } from '../../helpers/fixtures.js';
import { expectBalancesMatchLedger } from '../../helpers/ledger.js';

const example = JSON.parse(readFileSync(examplePath, 'utf8')) as { missions: Array<Record<string, unknown>> };

// The app's clock runs from noon in New York on 2026-06-15 (inside every mission's dates), so
// day windows and caps never straddle midnight while a test runs.
const START = Date.parse('2026-06-15T16:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
type Body = string | Record<string, unknown>;
type Expected = Partial<Omit<ActionOutcome, 'missionsCompleted'>> & { missionsCompleted?: string[] };

describe.each(configurations)('logging actions (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;

  const call = (method: 'POST' | 'PUT', url: string, token: string, payload: Body) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...(typeof payload === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      payload,
    });
  const outcomeOf = (response: LightMyRequestResponse) => (response.json() as { response: ActionOutcome }).response;
  const log = async (user: string, body: Body, query = '') => {
    const response = await call('POST', `/users/${user}/actions${query}`, client, body);
    expect(response.statusCode, response.body).toBe(201);
    return outcomeOf(response);
  };
  /** Logs each body in turn and checks the outcome (missionsCompleted given as ids). */
  const run = async (user: string, steps: Array<[Body, Expected]>) => {
    const outcomes: ActionOutcome[] = [];
    for (const [index, [body, { missionsCompleted, ...expected }]] of steps.entries()) {
      const outcome = await log(user, body);
      expect(outcome, `step ${index}`).toMatchObject({ duplicate: false, ...expected });
      if (missionsCompleted !== undefined)
        expect(
          outcome.missionsCompleted.map((m) => m.id),
          `step ${index}`,
        ).toEqual(missionsCompleted);
      outcomes.push(outcome);
    }
    return outcomes;
  };
  const adminPut = async (url: string, payload: Body) => {
    const response = await call('PUT', url, admin, payload);
    expect(response.statusCode, response.body).toBeLessThan(300);
  };

  const db = () => t.database.db;
  type PartyTable = 'action_events' | 'points_ledger' | 'point_balances' | 'mission_completions' | 'trophies' | 'outbox' | 'level_changes';
  /** A user's rows of one table in this site (the cast only picks one table's type for the query builder). */
  const scoped = async <T extends PartyTable>(table: T, user: string) =>
    (await db()
      .selectFrom(table as 'outbox')
      .selectAll()
      .where('site_id', '=', site.siteId)
      .where('party_id', '=', user)
      .execute()) as unknown as Array<DatabaseSchema[T]>;
  const by =
    <R>(key: (row: R) => string | number) =>
    (a: R, b: R) =>
      key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
  const balances = async (user: string) => Object.fromEntries((await scoped('point_balances', user)).map((row) => [row.category, Number(row.balance)]));
  const completedIds = async (user: string) => (await scoped('mission_completions', user)).sort(by((row) => row.mission_id)).map((row) => row.mission_id);

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock });
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    await adminPut('/admin/program', example);
    // The example program sends mission.completed to its achievementCallbackUrl; badges and level
    // changes get outbox rows only with a subscriber.
    const endpoint = await call('POST', '/admin/webhook-endpoints', admin, {
      url: 'https://hooks.example.com/levels-and-badges',
      eventTypes: ['badge.earned', 'level.changed'],
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
  });
  afterAll(async () => t.close());

  it.each([
    ['a form body', 'ann', form({ action: 'read_article' })],
    ['a JSON body', 'amy', { action: 'Read_Article', eventId: 'amy-read-1' }],
  ])('logs read_article from %s: 201, m-first-read completed, and exactly that written', async (kind, user, body) => {
    const before = clock();
    const outcome = await log(user, body);
    const at = Date.parse(outcome.timestamp);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(clock());
    expect(outcome.eventId).toMatch(kind === 'a form body' ? UUID_V7 : /^amy-read-1$/);
    const completionId = outcome.missionsCompleted[0]?.completionId as string;
    expect(outcome).toEqual({
      eventId: outcome.eventId,
      recorded: true,
      duplicate: false,
      timestamp: new Date(at).toISOString(),
      pointsAwarded: [{ category: 'Points', requested: 10, credited: 10 }],
      missionsCompleted: [{ id: 'm-first-read', name: 'First read', completionId: expect.stringMatching(/^cmp_/) }],
      progress: [{ challengeId: 'm-first-read', percentComplete: 100 }],
      badgesEarned: [{ id: 'b-reader', name: 'Reader', iconUrl: 'https://cdn.acme.example/badges/reader.png', userId: user }],
    });

    const eventId = outcome.eventId;
    expect(await scoped('action_events', user)).toEqual([
      expect.objectContaining({
        event_id: eventId,
        party_type: 'user',
        action: 'read_article',
        value: 1,
        metadata: '{}',
        occurred_at: at,
        recorded: 1,
        reason: null,
      }),
    ]);
    expect(await scoped('mission_completions', user)).toEqual([
      expect.objectContaining({ completion_id: completionId, mission_id: 'm-first-read', event_id: eventId, completed_at: at, removed_at: null }),
    ]);
    expect(await scoped('points_ledger', user)).toEqual([
      expect.objectContaining({
        category: 'Points',
        requested: 10,
        credited: 10,
        cause: 'mission',
        cause_id: completionId,
        event_id: eventId,
        occurred_at: at,
      }),
    ]);
    expect(await scoped('point_balances', user)).toEqual([expect.objectContaining({ party_type: 'user', category: 'Points', balance: 10, lifetime: 10 })]);
    expect(await scoped('trophies', user)).toEqual([expect.objectContaining({ badge_id: 'b-reader', earned_count: 1, first_earned_at: at })]);
    const outbox = (await scoped('outbox', user)).sort(by((row) => Number(row.sequence)));
    expect(outbox.map((row) => row.event_type).sort()).toEqual(['badge.earned', 'mission.completed']);
    expect(outbox.map((row) => Number(row.sequence))).toEqual([1, 2]);
    const completed = JSON.parse(outbox.find((row) => row.event_type === 'mission.completed')?.payload ?? '{}') as Record<string, unknown>;
    expect(completed.data).toMatchObject({
      mission: { id: 'm-first-read', name: 'First read' },
      completionId,
      actionEventId: eventId,
      points: [{ category: 'Points', amount: 10 }],
    });
    expect(completed.sequence).toBe(Number(outbox.find((row) => row.event_type === 'mission.completed')?.sequence));
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it('completes the multi-action m-chef on its last action (metadata in any case, after m-first-read) with Points 50 and Coins 20', async () => {
    const outcomes = await run('chef', [
      [form({ action: 'watch_video', metadata: 'genre:cooking' }), { recorded: true, progress: [], missionsCompleted: [] }], // m-first-read not yet done
      [form({ action: 'read_article' }), { missionsCompleted: ['m-first-read'] }],
      [form({ action: 'watch_video', metadata: 'genre:Cooking' }), { progress: [{ challengeId: 'm-chef', percentComplete: 25 }], missionsCompleted: [] }],
      [
        { action: 'watch_video', metadata: { genre: 'drama' } },
        { recorded: true, progress: [], missionsCompleted: [] },
      ],
      [
        { action: 'watch_video', metadata: { GENRE: 'COOKING' } },
        { progress: [{ challengeId: 'm-chef', percentComplete: 50 }], pointsAwarded: [] },
      ],
      [
        { action: 'read_article', metadata: { topic: 'Recipe' } },
        { progress: [{ challengeId: 'm-chef', percentComplete: 100 }], missionsCompleted: ['m-chef'] },
      ],
    ]);
    expect(outcomes[5]?.missionsCompleted).toEqual([{ id: 'm-chef', name: 'Little chef', completionId: expect.stringMatching(/^cmp_/) }]);
    expect(outcomes[5]?.pointsAwarded).toEqual([
      { category: 'Points', requested: 50, credited: 50 },
      { category: 'Coins', requested: 20, credited: 20 },
    ]);
    expect(await completedIds('chef')).toEqual(['m-chef', 'm-first-read']);
    expect(await balances('chef')).toEqual({ Points: 60, Coins: 20 });
    expect((await scoped('trophies', 'chef')).sort(by((row) => row.badge_id)).map((row) => [row.badge_id, row.earned_count])).toEqual([
      ['b-chef', 1],
      ['b-reader', 1],
    ]);
    expect((await scoped('action_events', 'chef')).filter((row) => row.recorded === 1)).toHaveLength(6);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it('credits m-shopper (g-sales only) floor(1 × value × 2) Coins, cut by the daily cap of 200 on the action day', async () => {
    await run('shopper', [
      [
        { action: 'purchase', value: 150 },
        { recorded: true, missionsCompleted: [], pointsAwarded: [] },
      ],
    ]);
    await adminPut('/admin/groups/g-sales/members/shopper', {});
    const previousDay = '2026-06-14T12:00:00';
    await run('shopper', [
      [
        { action: 'purchase', value: 150 },
        { missionsCompleted: ['m-shopper'], pointsAwarded: [{ category: 'Coins', requested: 300, credited: 200 }] },
      ],
      [form({ action: 'purchase', value: '3' }), { missionsCompleted: ['m-shopper'], pointsAwarded: [{ category: 'Coins', requested: 6, credited: 0 }] }],
      [
        { action: 'purchase', value: 2.75, timestamp: previousDay },
        { missionsCompleted: ['m-shopper'], pointsAwarded: [{ category: 'Coins', requested: 5, credited: 5 }] },
      ],
    ]);
    const ledger = await scoped('points_ledger', 'shopper');
    expect(ledger.map((row) => [row.requested, row.credited]).sort((a, b) => Number(b[0]) - Number(a[0]))).toEqual([
      [300, 200],
      [6, 0],
      [5, 5],
    ]);
    expect(await balances('shopper')).toEqual({ Coins: 205 });
    expect(await completedIds('shopper')).toEqual(['m-shopper', 'm-shopper', 'm-shopper']);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it('rate-limits login to 3 recorded a day (site time zone): the 4th is not recorded, the next day is', async () => {
    const at = (time: string) => ({ action: 'login', timestamp: `2026-06-10T${time}` });
    await run('visitor', [
      [at('00:30:00'), { recorded: true, missionsCompleted: ['m-daily-login'], pointsAwarded: [{ category: 'Points', requested: 2, credited: 2 }] }],
      [at('09:00:00'), { recorded: true, missionsCompleted: [] }],
      [at('23:59:00'), { recorded: true, missionsCompleted: [] }],
      [at('12:00:00'), { recorded: false, reason: 'rate_limited', missionsCompleted: [], pointsAwarded: [], progress: [] }],
      [
        { action: 'login', timestamp: '2026-06-11T00:00:00-04:00' },
        { recorded: true, missionsCompleted: ['m-daily-login'] },
      ],
    ]);
    const events = await scoped('action_events', 'visitor');
    expect(events.map((row) => [row.recorded, row.reason]).sort()).toEqual([
      [0, 'rate_limited'],
      [1, null],
      [1, null],
      [1, null],
      [1, null],
    ]);
    expect(await completedIds('visitor')).toEqual(['m-daily-login', 'm-daily-login']);
    expect(await balances('visitor')).toEqual({ Points: 4 });
  });

  it('suppresses a share identical to the previous recorded action, and records one that differs', async () => {
    const share = (url: string, value?: number) => ({ action: 'share', metadata: { url }, ...(value !== undefined ? { value } : {}) });
    await run('sharer', [
      [share('a'), { recorded: true }],
      [share('a'), { recorded: false, reason: 'repeat_suppressed' }],
      [form({ action: 'share', metadata: 'url:a' }), { recorded: false, reason: 'repeat_suppressed' }],
      [share('b'), { recorded: true }],
      [share('b', 2), { recorded: true }],
      [{ action: 'watch_video' }, { recorded: true }],
      [share('b', 2), { recorded: true }],
    ]);
    const events = await scoped('action_events', 'sharer');
    expect(events.filter((row) => row.recorded === 0).map((row) => row.reason)).toEqual(['repeat_suppressed', 'repeat_suppressed']);
    expect(events.filter((row) => row.recorded === 1)).toHaveLength(5);
  });

  it.each([
    ['ISO 8601 with an offset', '2026-03-10T09:30:00+01:00', '2026-03-10T08:30:00.000Z'],
    ['ISO 8601 with a compact offset and fraction', '2026-03-10T09:30:00.250-0500', '2026-03-10T14:30:00.250Z'],
    ['ISO 8601 without an offset (New York, summer)', '2026-05-04T12:00:00', '2026-05-04T16:00:00.000Z'],
    ['ISO 8601 without an offset (New York, winter)', '2026-01-15T12:00', '2026-01-15T17:00:00.000Z'],
    ['epoch seconds', 1772000000, new Date(1772000000_000).toISOString()],
    ['epoch seconds as a string', '1772000000', new Date(1772000000_000).toISOString()],
    ['epoch milliseconds', 1772000000123, new Date(1772000000123).toISOString()],
  ])('takes a backdated timestamp as %s and echoes it', async (_kind, timestamp, expected) => {
    const user = `backdated-${typeof timestamp}-${String(timestamp).replace(/[^0-9]/g, '')}`;
    const outcome = await log(user, { action: 'watch_video', timestamp });
    expect(outcome).toMatchObject({ recorded: true, timestamp: expected });
    const [event] = await scoped('action_events', user);
    expect(event?.occurred_at).toBe(Date.parse(expected));
    expect(Number(event?.received_at)).toBeGreaterThan(Date.parse(expected));
  });

  it('records an action dated before the mission startDate without completing it; the start second itself counts', async () => {
    await run('early', [
      [
        { action: 'read_article', timestamp: '2025-12-31T23:59:59' },
        { recorded: true, timestamp: '2026-01-01T04:59:59.000Z', missionsCompleted: [], progress: [] },
      ],
      [
        { action: 'read_article', timestamp: '2026-01-01T00:00:00' },
        { recorded: true, missionsCompleted: ['m-first-read'] },
      ],
    ]);
    expect(await completedIds('early')).toEqual(['m-first-read']);
    expect((await scoped('mission_completions', 'early'))[0]?.completed_at).toBe(Date.parse('2026-01-01T05:00:00Z'));
  });

  it('moves the level up when lifetime Points pass threshold 100, records and emits the change', async () => {
    await adminPut('/admin/actions/finish_course', { name: 'finish_course' });
    const { id: _id, iconUrl: _icon, featuredStartDate: _fs, featuredEndDate: _fe, ...firstRead } = example.missions[0] as Record<string, unknown>;
    await adminPut('/admin/challenges/m-course', {
      ...firstRead,
      name: 'Course',
      rules: [{ id: 'r-1', action: 'finish_course', type: 'count', goal: 1, metadata: [] }],
      rewards: { points: [{ category: 'Points', amount: 95 }] },
    });
    const [first, second] = await run('climber', [
      [{ action: 'read_article' }, { missionsCompleted: ['m-first-read'] }],
      [{ action: 'finish_course' }, { missionsCompleted: ['m-course'], pointsAwarded: [{ category: 'Points', requested: 95, credited: 95 }] }],
    ]);
    expect(first?.levelChanged).toBeUndefined();
    expect(second?.levelChanged).toEqual({ from: { id: 'l-1', name: 'Rookie' }, to: { id: 'l-2', name: 'Regular' }, direction: 'up' });
    const party = await db().selectFrom('parties').selectAll().where('site_id', '=', site.siteId).where('party_id', '=', 'climber').executeTakeFirstOrThrow();
    expect(party.level_id).toBe('l-2');
    expect(await scoped('level_changes', 'climber')).toEqual([
      expect.objectContaining({ from_level: 'l-1', to_level: 'l-2', direction: 'up', event_id: second?.eventId }),
    ]);
    const outbox = (await scoped('outbox', 'climber')).sort(by((row) => Number(row.sequence)));
    expect(outbox.map((row) => Number(row.sequence))).toEqual([1, 2, 3, 4]);
    expect(outbox.at(-1)?.event_type).toBe('level.changed');
    expect(outbox.map((row) => row.event_type).sort()).toEqual(['badge.earned', 'level.changed', 'mission.completed', 'mission.completed']);
    expect(JSON.parse(outbox.at(-1)?.payload ?? '{}')).toMatchObject({
      sequence: 4,
      data: { user: { userId: 'climber' }, from: { id: 'l-1' }, to: { id: 'l-2' }, direction: 'up' },
    });
    expect(await balances('climber')).toEqual({ Points: 105 });
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it('answers ?dryRun=true with the decision and writes nothing; the same eventId is then new', async () => {
    const body = { action: 'read_article', eventId: 'dry-1' };
    const dry = await log('dreamer', body, '?dryRun=true');
    expect(dry).toMatchObject({ eventId: 'dry-1', recorded: true, duplicate: false, pointsAwarded: [{ category: 'Points', requested: 10, credited: 10 }] });
    expect(dry.missionsCompleted.map((m) => m.id)).toEqual(['m-first-read']);
    for (const table of ['action_events', 'points_ledger', 'point_balances', 'mission_completions', 'trophies', 'outbox'] as const) {
      expect(await scoped(table, 'dreamer'), table).toEqual([]);
    }
    expect(await db().selectFrom('parties').selectAll().where('site_id', '=', site.siteId).where('party_id', '=', 'dreamer').execute()).toEqual([]);

    const real = await log('dreamer', body);
    expect(real).toMatchObject({ eventId: 'dry-1', recorded: true, duplicate: false, pointsAwarded: dry.pointsAwarded, progress: dry.progress });
    expect(await completedIds('dreamer')).toEqual(['m-first-read']);
    expect(await balances('dreamer')).toEqual({ Points: 10 });
  });

  it('logs the system action QUIZ_COMPLETED: passed:true for q-safety completes m-quiz-safety with 100 Award points', async () => {
    await run('quizzer', [
      [
        { action: 'QUIZ_COMPLETED', metadata: { quiz_id: 'q-safety', passed: false } },
        { recorded: true, missionsCompleted: [], pointsAwarded: [] },
      ],
      [
        { action: 'QUIZ_COMPLETED', metadata: { quiz_id: 'q-other', passed: true } },
        { recorded: true, missionsCompleted: [] },
      ],
      [
        form({ action: 'quiz_completed', metadata: 'quiz_id:q-safety,passed:true' }),
        { missionsCompleted: ['m-quiz-safety'], pointsAwarded: [{ category: 'Award', requested: 100, credited: 100 }] },
      ],
    ]);
    expect((await scoped('action_events', 'quizzer')).map((row) => row.action)).toEqual(['QUIZ_COMPLETED', 'QUIZ_COMPLETED', 'QUIZ_COMPLETED']);
    expect(await balances('quizzer')).toEqual({ Award: 100 });
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });
});
