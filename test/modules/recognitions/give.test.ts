// POST /users/{u}/interactions-collection (SPEC §9): one recognition to one or many recipients,
// JSON and form bodies, one amount or one per recipient, a comment counted in code points. Every
// rule is checked before anything is written (each refusal is asserted against the database and
// the API); a gift charges the budget, credits the recipients in full through the ledger (past
// category caps; levels and boards follow), logs RECOGNITION_GIVEN/RECEIVED for missions and writes
// a recognition.given outbox event. Concurrent gifts never overspend; budgets reset on calendar
// boundaries in the exchange's time zone (the site's by default); tokens cannot give for others.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GivenRecognition, Interaction } from '../../../src/modules/recognitions/service.js';
import { VerifyService } from '../../../src/modules/verify/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { expectBalancesMatchLedger } from '../../helpers/ledger.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';

// Noon in New York on 2026-06-15 (16:00Z; 01:00 on the 16th in Tokyo, the site's time zone).
const NOON = Date.parse('2026-06-15T16:00:00Z');

const teamwork = { id: 'c-teamwork', name: 'Teamwork' };
const innovation = { id: 'c-innovation', name: 'Innovation' };
/** A small program: a default category (levels, a board) and a capped one, missions on the recognition actions, and exchanges for each rule. */
const PROGRAM = {
  site: { name: 'Recognitions', timezone: 'Asia/Tokyo' },
  pointCategories: [
    { name: 'Points', isDefault: true },
    { name: 'Coins', isDefault: false, dailyLimit: 10 },
  ],
  actions: [{ name: 'play' }],
  groups: [
    { id: 'g-managers', name: 'Managers' },
    { id: 'g-staff', name: 'Staff' },
  ],
  badges: [{ id: 'b-team', name: 'Team player' }],
  levels: [
    { id: 'l-1', name: 'Rookie', threshold: 0 },
    { id: 'l-2', name: 'Regular', threshold: 30 },
    { id: 'l-3', name: 'Expert', threshold: 1000 },
  ],
  missions: [
    {
      id: 'm-play',
      name: 'Play',
      rules: [{ id: 'r-1', action: 'play', type: 'count', goal: 1 }],
      rewards: { points: [{ category: 'Coins', amount: 10 }] },
      repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
    },
    {
      id: 'm-give-2',
      name: 'Give twice',
      rules: [{ id: 'r-1', action: 'RECOGNITION_GIVEN', type: 'count', goal: 2 }],
      rewards: { points: [{ category: 'Points', amount: 25 }] },
    },
    {
      id: 'm-teamwork',
      name: 'Recognized for teamwork',
      rules: [{ id: 'r-1', action: 'RECOGNITION_RECEIVED', type: 'count', goal: 1, metadata: [{ name: 'category_id', value: 'c-teamwork' }] }],
      rewards: { badge: 'b-team' },
    },
    {
      id: 'm-star',
      name: 'Star',
      rules: [{ id: 'r-1', action: 'RECOGNITION_RECEIVED', type: 'count', goal: 1, metadata: [{ name: 'category_id', value: 'c-star' }] }],
      rewards: { points: [{ category: 'Points', amount: 1000 }] },
    },
  ],
  leaderboards: [{ id: 'lb-points', name: 'Points', metric: { type: 'points', category: 'Points' }, period: 'allTime', party: 'user' }],
  exchanges: [
    {
      id: 'x-kudos',
      name: 'Kudos',
      timezone: 'America/New_York',
      pointCategory: 'Points',
      budget: { amount: 100, period: 'month' },
      minPoints: 1,
      maxPoints: 50,
      maxRecipients: 3,
      categories: [teamwork, innovation, { id: 'c-star', name: 'Star' }],
    },
    // No time zone of its own: the site's (Asia/Tokyo).
    {
      id: 'x-coins',
      name: 'Coins',
      pointCategory: 'Coins',
      budget: { amount: 200, period: 'quarter' },
      minPoints: 5,
      maxPoints: 100,
      maxRecipients: 5,
      categories: [{ id: 'c-thanks', name: 'Thanks' }],
    },
    {
      id: 'x-managers',
      name: 'Managers to staff',
      givers: { groups: ['g-managers'] },
      recipients: { groups: ['g-staff'] },
      pointCategory: 'Points',
      budget: { amount: 50, period: 'none' },
      categories: [teamwork],
    },
    {
      id: 'x-later',
      name: 'Opens at 13:00 New York',
      startDate: '2026-06-15T13:00:00',
      timezone: 'America/New_York',
      pointCategory: 'Points',
      budget: { amount: 100, period: 'month' },
      categories: [teamwork],
    },
    { id: 'x-ended', name: 'Ended', endDate: '2026-06-10T23:59:59', pointCategory: 'Points', budget: { amount: 100, period: 'month' }, categories: [teamwork] },
    { id: 'x-pool', name: 'Pool', pointCategory: 'Points', budget: { amount: 100, period: 'none' }, maxPoints: 50, categories: [innovation] },
  ],
};

const NAMES: Record<string, [string, string]> = {
  ann: ['Ann', 'Lee'],
  bob: ['Bob', 'Stone'],
  cat: ['Cat', 'Wu'],
  dan: ['Dan', 'Fox'],
  olga: ['Olga', 'Other'],
};
const COUNTED = [
  'recognitions',
  'recognition_recipients',
  'recognition_budgets',
  'points_ledger',
  'point_balances',
  'outbox',
  'action_events',
  'parties',
  'mission_progress',
  'mission_completions',
  'level_changes',
  'trophies',
] as const;

interface Ctx {
  site: TestSite;
  admin: string;
  app: string;
}
type Body = string | Record<string, unknown>;
type Balance = {
  balance: number;
  lifetimeBalance: number;
  categories: Array<{ id: string; balance: number; lifetimeBalance: number; earnedToday: number; remainingToday: number | null }>;
};
type Budget = GivenRecognition['budget'];
type LoggedAction = { eventId: string; action: string; value: number; metadata: Record<string, string>; timestamp: string };

const form = (fields: Array<[string, string]>) => new URLSearchParams(fields).toString();

describe.each(configurations)('giving recognitions (%s)', (configuration) => {
  let t: TestApp;
  let receiver: Receiver;
  let now = NOON;
  const clock = () => now;

  beforeAll(async () => {
    t = await buildTestApp(configuration, {
      clock,
      config: { webhookAllowPrivateNetworks: true, clientRate: { rate: 100_000, burst: 100_000 }, userRate: { rate: 100_000, burst: 100_000 } },
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  beforeEach(() => {
    now = NOON;
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: Body) =>
    t.app.inject({
      method,
      url,
      headers: {
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
        ...(typeof payload === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(payload !== undefined ? { payload } : {}),
    });
  const body = <T>(response: LightMyRequestResponse, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return (response.json() as { response: T }).response;
  };
  const expectProblem = (response: LightMyRequestResponse, status: number, code: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status, code });
    return response.json() as { code: string; errors?: Array<{ path: string; message: string }> };
  };

  /** A site with PROGRAM (or another), and users the site knows: ann, bob, cat, dan by a profile, mia (manager) and sam, eve (staff) by a group, leo by an action. */
  const setUp = async (program: Record<string, unknown> = PROGRAM): Promise<Ctx> => {
    const site = await t.createSite();
    const c = { site, admin: await t.token(site.admin), app: await t.token(site.app) };
    body(await call('PUT', '/admin/program', c.admin, program));
    for (const user of ['ann', 'bob', 'cat', 'dan']) {
      const [firstName, lastName] = NAMES[user] as [string, string];
      body(await call('PUT', `/users/${user}/preferences`, c.app, { firstName, lastName }));
    }
    for (const [group, user] of [
      ['g-managers', 'mia'],
      ['g-staff', 'sam'],
      ['g-staff', 'eve'],
    ] as const) {
      body(await call('PUT', `/admin/groups/${group}/members/${user}`, c.admin), 201);
    }
    body(await call('POST', '/users/leo/actions', c.app, { action: 'play', eventId: 'leo-1' }), 201);
    return c;
  };

  const give = (c: Ctx, giver: string, payload: Body, token = c.app) => call('POST', `/users/${giver}/interactions-collection`, token, payload);
  const given = async (c: Ctx, giver: string, payload: Body, token = c.app) => body<GivenRecognition>(await give(c, giver, payload, token), 201);
  const kudos = (recipients: string[], points: number, extra: Record<string, unknown> = {}) => ({
    exchangeId: 'x-kudos',
    categoryId: 'c-innovation',
    recipients,
    points,
    ...extra,
  });

  const balance = async (c: Ctx, user: string) => body<Balance>(await call('GET', `/users/${user}/point-balance`, c.app));
  const inCategory = async (c: Ctx, user: string, category: string) => (await balance(c, user)).categories.find((x) => x.id === category);
  const budget = async (c: Ctx, user: string, exchange: string) => body<Budget>(await call('GET', `/users/${user}/exchanges/${exchange}/points`, c.app));
  const interactions = async (c: Ctx, user: string, type = 'all') =>
    body<Interaction[]>(await call('GET', `/users/${user}/interactions-collection?type=${type}`, c.app));
  const actions = async (c: Ctx, user: string) => body<LoggedAction[]>(await call('GET', `/users/${user}/actions`, c.app));
  const counts = async (c: Ctx) => {
    const entries = await Promise.all(
      COUNTED.map(async (table) => {
        const row = await t.database.db
          .selectFrom(table as 'outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('site_id', '=', c.site.siteId)
          .executeTakeFirstOrThrow();
        return [table, Number(row.n)] as const;
      }),
    );
    return Object.fromEntries(entries);
  };
  /** Everything a gift would change: row counts, the giver's budget, balances and interactions of the users named. */
  const state = async (c: Ctx, giver: string, exchange: string, users: string[]) => ({
    counts: await counts(c),
    used: (await budget(c, giver, exchange)).used,
    balances: await Promise.all(users.map(async (user) => [user, await balance(c, user)])),
    interactions: await Promise.all([giver, ...users].map(async (user) => [user, await interactions(c, user)])),
  });
  /** Expects the request to be refused with `code`, and nothing to change. */
  const refused = async (c: Ctx, giver: string, payload: Body, status: number, code: string, users: string[], token = c.app) => {
    const exchange = typeof payload === 'string' ? (new URLSearchParams(payload).get('exchangeId') ?? 'x-kudos') : String(payload.exchangeId ?? 'x-kudos');
    const known = PROGRAM.exchanges.some((x) => x.id === exchange) ? exchange : 'x-kudos';
    const before = await state(c, giver, known, users);
    const problem = expectProblem(await give(c, giver, payload, token), status, code);
    expect(await state(c, giver, known, users), `${code}: ${JSON.stringify(payload)}`).toEqual(before);
    return problem;
  };
  /** The ledger and every derived total agree (questline verify finds no drift). */
  const expectConsistent = async (c: Ctx) => {
    await expectBalancesMatchLedger(t.database.db, c.site.siteId);
    expect((await new VerifyService(t.database.db, t.app.services.programs).verify([c.site.siteId])).drift).toEqual([]);
  };

  it('gives one amount to several recipients: the budget pays the total, each recipient is credited in full, with levels, boards, actions and interactions', async () => {
    const c = await setUp();
    const gift = await given(c, 'ann', kudos(['bob', 'cat'], 40, { comment: 'Great launch' }));
    expect(gift.id).toMatch(/^rec_/);
    const rookie = { id: 'l-1', name: 'Rookie' };
    const regular = { id: 'l-2', name: 'Regular' };
    expect(gift).toEqual({
      id: gift.id,
      exchangeId: 'x-kudos',
      category: innovation,
      comment: 'Great launch',
      giver: { userId: 'ann' },
      recipients: [
        { userId: 'bob', points: 40, levelChanged: { from: rookie, to: regular, direction: 'up' } },
        { userId: 'cat', points: 40, levelChanged: { from: rookie, to: regular, direction: 'up' } },
      ],
      points: 80,
      givenAt: new Date(NOON).toISOString(),
      // A monthly budget in New York: June ends at midnight EDT, 04:00Z.
      budget: { amount: 100, used: 80, remaining: 20, period: 'month', resetsAt: '2026-07-01T04:00:00.000Z' },
      missionsCompleted: [],
      badgesEarned: [],
    });
    expect(await budget(c, 'ann', 'x-kudos')).toEqual(gift.budget);
    // Only ann's budget is used, not her balance, and not another giver's budget.
    expect(await balance(c, 'ann')).toMatchObject({ balance: 0, lifetimeBalance: 0 });
    expect((await budget(c, 'bob', 'x-kudos')).used).toBe(0);

    for (const user of ['bob', 'cat']) {
      expect(await balance(c, user)).toMatchObject({ balance: 40, lifetimeBalance: 40 });
      expect(body<{ current: { id: string }; points: number }>(await call('GET', `/users/${user}/levels`, c.app))).toMatchObject({
        current: regular,
        points: 40,
      });
      expect(body<{ score: number | null; rank: number | null }>(await call('GET', `/leaderboards/lb-points/leaders/${user}`, c.app))).toMatchObject({
        score: 40,
        rank: 1,
      });
      const [received] = (await actions(c, user)).filter((a) => a.action === 'RECOGNITION_RECEIVED');
      expect(received).toMatchObject({
        value: 40,
        metadata: { giver_id: 'ann', exchange_id: 'x-kudos', category_id: 'c-innovation', recognition_id: gift.id },
        timestamp: gift.givenAt,
      });
    }
    const leaders = body<Array<{ userId: string; score: number }>>(await call('GET', '/leaderboards/lb-points/leaders', c.app));
    expect(leaders.map((l) => [l.userId, l.score]).sort()).toEqual([
      ['bob', 40],
      ['cat', 40],
    ]);
    expect((await actions(c, 'ann')).map((a) => [a.action, a.value, a.metadata])).toEqual([
      ['RECOGNITION_GIVEN', 80, { exchange_id: 'x-kudos', category_id: 'c-innovation', recognition_id: gift.id, recipients: '2' }],
    ]);

    // The ledger: one full credit per recipient, caused by the recognition.
    const ledger = await t.database.db
      .selectFrom('points_ledger')
      .selectAll()
      .where('site_id', '=', c.site.siteId)
      .where('cause', '=', 'recognition')
      .orderBy('party_id')
      .execute();
    expect(ledger.map((row) => [row.party_id, row.category, Number(row.requested), Number(row.credited), row.cause_id])).toEqual([
      ['bob', 'Points', 40, 40, gift.id],
      ['cat', 'Points', 40, 40, gift.id],
    ]);

    // Both sides see it, with names.
    const person = (user: string) => ({ userId: user, firstName: NAMES[user]?.[0], lastName: NAMES[user]?.[1], iconUrl: null });
    const shown = {
      id: gift.id,
      exchangeId: 'x-kudos',
      category: innovation,
      comment: 'Great launch',
      giver: person('ann'),
      recipients: [
        { ...person('bob'), points: 40 },
        { ...person('cat'), points: 40 },
      ],
      points: 80,
      givenAt: gift.givenAt,
    };
    expect(await interactions(c, 'ann', 'given')).toEqual([{ ...shown, type: 'given' }]);
    expect(await interactions(c, 'ann', 'received')).toEqual([]);
    expect(await interactions(c, 'bob', 'received')).toEqual([{ ...shown, type: 'received', pointsReceived: 40 }]);
    expect(await interactions(c, 'cat')).toEqual([{ ...shown, type: 'received', pointsReceived: 40 }]);
    await expectConsistent(c);
  });

  it('gives an amount per recipient with a recipientPoints map, with or without the recipients list', async () => {
    const c = await setUp();
    const first = await given(c, 'ann', { exchangeId: 'x-kudos', categoryId: 'c-teamwork', recipientPoints: { bob: 10, cat: 25 } });
    expect(first.recipients.map((r) => [r.userId, r.points])).toEqual([
      ['bob', 10],
      ['cat', 25],
    ]);
    expect(first).toMatchObject({ points: 35, category: teamwork, comment: '', budget: { used: 35, remaining: 65 } });
    const second = await given(c, 'ann', {
      exchangeId: 'x-kudos',
      categoryId: 'c-innovation',
      recipients: ['cat', 'dan'],
      recipientPoints: { dan: 5, cat: 15 },
    });
    expect(second.recipients.map((r) => [r.userId, r.points]).sort()).toEqual([
      ['cat', 15],
      ['dan', 5],
    ]);
    expect(second).toMatchObject({ points: 20, budget: { used: 55, remaining: 45 } });

    expect((await balance(c, 'bob')).balance).toBe(10);
    expect((await balance(c, 'cat')).balance).toBe(40);
    expect((await balance(c, 'dan')).balance).toBe(5);
    expect((await budget(c, 'ann', 'x-kudos')).used).toBe(55);
    expect((await interactions(c, 'cat', 'received')).map((i) => [i.id, i.pointsReceived])).toEqual([
      [second.id, 15],
      [first.id, 25],
    ]);
    // Each recipient's RECOGNITION_RECEIVED carries their own amount; the giver's the total.
    expect((await actions(c, 'cat')).map((a) => [a.action, a.value])).toEqual([
      ['RECOGNITION_RECEIVED', 15],
      ['RECOGNITION_RECEIVED', 25],
    ]);
    expect((await actions(c, 'ann')).map((a) => [a.action, a.value])).toEqual([
      ['RECOGNITION_GIVEN', 20],
      ['RECOGNITION_GIVEN', 35],
    ]);
    await expectConsistent(c);
  });

  it('accepts form bodies: a comma-separated list, repeated keys, and recipientPoints pairs', async () => {
    const c = await setUp();
    const base: Array<[string, string]> = [
      ['exchangeId', 'x-kudos'],
      ['categoryId', 'c-innovation'],
    ];
    const a = await given(c, 'ann', form([...base, ['recipients', 'bob,cat'], ['points', '5']]));
    expect(a.recipients).toEqual([
      { userId: 'bob', points: 5 },
      { userId: 'cat', points: 5 },
    ]);
    const b = await given(c, 'ann', form([...base, ['recipients', 'bob'], ['recipients', 'cat'], ['points', '6'], ['comment', 'Merci beaucoup, équipe 🎉']]));
    expect(b.recipients).toEqual([
      { userId: 'bob', points: 6 },
      { userId: 'cat', points: 6 },
    ]);
    expect(b.comment).toBe('Merci beaucoup, équipe 🎉');
    const d = await given(c, 'ann', form([...base, ['recipientPoints', 'bob:5,cat:15']]));
    expect(d.recipients).toEqual([
      { userId: 'bob', points: 5 },
      { userId: 'cat', points: 15 },
    ]);
    const e = await given(c, 'ann', form([...base, ['recipients', 'dan'], ['points', '3']]));
    expect(e.recipients).toEqual([{ userId: 'dan', points: 3 }]);

    expect((await balance(c, 'bob')).balance).toBe(16);
    expect((await balance(c, 'cat')).balance).toBe(26);
    expect((await balance(c, 'dan')).balance).toBe(3);
    expect(await budget(c, 'ann', 'x-kudos')).toMatchObject({ used: 45, remaining: 55 });
    expect((await interactions(c, 'ann', 'given')).map((i) => i.points)).toEqual([3, 20, 12, 10]);
    await expectConsistent(c);
  });

  it('refuses malformed recognitions with 400 validation_failed and writes nothing', async () => {
    const c = await setUp();
    const users = ['bob', 'cat'];
    const cases: Array<[string, Body, string]> = [
      ['points and recipientPoints', kudos(['bob'], 5, { recipientPoints: { bob: 5 } }), 'points'],
      ['neither points nor recipientPoints', { exchangeId: 'x-kudos', categoryId: 'c-innovation', recipients: ['bob'] }, 'points'],
      ['a recipient twice', kudos(['bob', 'bob'], 5), 'recipients'],
      [
        'recipients the map leaves out',
        { exchangeId: 'x-kudos', categoryId: 'c-innovation', recipients: ['bob', 'cat'], recipientPoints: { bob: 5 } },
        'recipientPoints',
      ],
      [
        'a map naming others',
        { exchangeId: 'x-kudos', categoryId: 'c-innovation', recipients: ['bob'], recipientPoints: { bob: 5, cat: 5 } },
        'recipientPoints',
      ],
      ['points 0', kudos(['bob'], 0), 'points'],
      ['points 2.5', kudos(['bob'], 2.5), 'points'],
      ['negative points', kudos(['bob'], -5), 'points'],
      ['points not a number', kudos(['bob'], 'many' as unknown as number), 'points'],
      ['a map amount of 0', { exchangeId: 'x-kudos', categoryId: 'c-innovation', recipientPoints: { bob: 0 } }, 'recipientPoints.bob'],
      ['a map amount of 2.5', { exchangeId: 'x-kudos', categoryId: 'c-innovation', recipientPoints: { bob: 2.5 } }, 'recipientPoints.bob'],
      ['no recipients', kudos([], 5), 'recipients'],
      ['points without recipients', { exchangeId: 'x-kudos', categoryId: 'c-innovation', points: 5 }, 'recipients'],
      ['an invalid user id', kudos(['bob', 'not valid!'], 5), 'recipients'],
      ['no exchangeId', { categoryId: 'c-innovation', recipients: ['bob'], points: 5 }, 'exchangeId'],
      ['no categoryId', { exchangeId: 'x-kudos', recipients: ['bob'], points: 5 }, 'categoryId'],
      ['a comment that is not text', kudos(['bob'], 5, { comment: { text: 'hi' } }), 'comment'],
      [
        'form: points and recipientPoints',
        form([
          ['exchangeId', 'x-kudos'],
          ['categoryId', 'c-innovation'],
          ['recipients', 'bob'],
          ['points', '5'],
          ['recipientPoints', 'bob:5'],
        ]),
        'points',
      ],
      [
        'form: neither',
        form([
          ['exchangeId', 'x-kudos'],
          ['categoryId', 'c-innovation'],
          ['recipients', 'bob,cat'],
        ]),
        'points',
      ],
      [
        'form: a repeated recipient',
        form([
          ['exchangeId', 'x-kudos'],
          ['categoryId', 'c-innovation'],
          ['recipients', 'bob'],
          ['recipients', 'bob'],
          ['points', '5'],
        ]),
        'recipients',
      ],
      [
        'form: a recipient twice in the map',
        form([
          ['exchangeId', 'x-kudos'],
          ['categoryId', 'c-innovation'],
          ['recipientPoints', 'bob:5,bob:6'],
        ]),
        'recipientPoints.bob',
      ],
      [
        'form: a pair without amount',
        form([
          ['exchangeId', 'x-kudos'],
          ['categoryId', 'c-innovation'],
          ['recipientPoints', 'bob5'],
        ]),
        'recipientPoints',
      ],
      [
        'form: points 2.5',
        form([
          ['exchangeId', 'x-kudos'],
          ['categoryId', 'c-innovation'],
          ['recipients', 'bob'],
          ['points', '2.5'],
        ]),
        'points',
      ],
      [
        'form: points 0',
        form([
          ['exchangeId', 'x-kudos'],
          ['categoryId', 'c-innovation'],
          ['recipients', 'bob'],
          ['points', '0'],
        ]),
        'points',
      ],
      [
        'form: map and list differ',
        form([
          ['exchangeId', 'x-kudos'],
          ['categoryId', 'c-innovation'],
          ['recipients', 'bob,cat'],
          ['recipientPoints', 'bob:5,dan:5'],
        ]),
        'recipientPoints',
      ],
    ];
    for (const [name, payload, path] of cases) {
      const problem = await refused(c, 'ann', payload, 400, 'validation_failed', users);
      expect(
        problem.errors?.map((e) => e.path),
        name,
      ).toContain(path);
    }
    // A body that is not an object at all.
    const before = await state(c, 'ann', 'x-kudos', users);
    const array = await t.app.inject({
      method: 'POST',
      url: '/users/ann/interactions-collection',
      headers: { authorization: `Bearer ${c.app}`, 'content-type': 'application/json' },
      payload: '[{"recipients":["bob"],"points":5}]',
    });
    expect(expectProblem(array, 400, 'validation_failed').errors).toEqual([{ path: '(body)', message: 'must be an object' }]);
    expect(await state(c, 'ann', 'x-kudos', users)).toEqual(before);
  });

  it('counts the comment in Unicode code points: 255 accepted with astral and accented characters, 256 refused', async () => {
    const c = await setUp();
    const party = '🎉'.repeat(255);
    expect(party.length).toBe(510);
    const a = await given(c, 'ann', kudos(['bob'], 1, { comment: party }));
    expect(a.comment).toBe(party);
    const accented = `${'é'.repeat(200)}${'日本'.repeat(27)}🎉`;
    expect([...accented].length).toBe(255);
    const b = await given(
      c,
      'ann',
      form([
        ['exchangeId', 'x-kudos'],
        ['categoryId', 'c-innovation'],
        ['recipients', 'cat'],
        ['points', '1'],
        ['comment', accented],
      ]),
    );
    expect(b.comment).toBe(accented);
    expect((await given(c, 'ann', kudos(['dan'], 1, { comment: 'a'.repeat(255) }))).comment).toBe('a'.repeat(255));

    // Stored and read back exactly.
    expect((await interactions(c, 'bob'))[0]?.comment).toBe(party);
    expect((await interactions(c, 'cat'))[0]?.comment).toBe(accented);
    const stored = await t.database.db.selectFrom('recognitions').select(['recognition_id', 'comment']).where('site_id', '=', c.site.siteId).execute();
    expect(new Map(stored.map((row) => [row.recognition_id, row.comment])).get(a.id)).toBe(party);

    for (const comment of ['🎉'.repeat(256), `${accented}x`, 'a'.repeat(256)]) {
      const problem = await refused(c, 'ann', kudos(['bob'], 1, { comment }), 400, 'validation_failed', ['bob']);
      expect(problem.errors?.map((e) => e.path)).toEqual(['comment']);
    }
    await refused(
      c,
      'ann',
      form([
        ['exchangeId', 'x-kudos'],
        ['categoryId', 'c-innovation'],
        ['recipients', 'bob'],
        ['points', '1'],
        ['comment', '🎉'.repeat(256)],
      ]),
      400,
      'validation_failed',
      ['bob'],
    );
    await expectConsistent(c);
  });

  it('refuses each broken rule with its 422 code and writes nothing', async () => {
    const c = await setUp();
    const users = ['bob', 'cat', 'dan', 'sam'];
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['unknown_exchange', 'ann', kudos(['bob'], 5, { exchangeId: 'x-nowhere' })],
      ['unknown_category', 'ann', kudos(['bob'], 5, { categoryId: 'c-nowhere' })],
      // A category of another exchange is not one of this exchange's.
      ['unknown_category', 'ann', kudos(['bob'], 5, { categoryId: 'c-thanks' })],
      // Opens at 13:00 in New York; it is 12:00 there (16:00Z, which is after 13:00 UTC).
      ['exchange_closed', 'ann', { exchangeId: 'x-later', categoryId: 'c-teamwork', recipients: ['bob'], points: 5 }],
      ['exchange_closed', 'ann', { exchangeId: 'x-ended', categoryId: 'c-teamwork', recipients: ['bob'], points: 5 }],
      ['giver_not_eligible', 'ann', { exchangeId: 'x-managers', categoryId: 'c-teamwork', recipients: ['sam'], points: 5 }],
      ['self_recognition', 'ann', kudos(['bob', 'ann'], 5)],
      ['self_recognition', 'ann', { exchangeId: 'x-kudos', categoryId: 'c-innovation', recipientPoints: { ann: 5 } }],
      ['too_many_recipients', 'ann', kudos(['bob', 'cat', 'dan', 'leo'], 5)],
      ['points_out_of_range', 'ann', kudos(['bob'], 51)],
      ['points_out_of_range', 'ann', { exchangeId: 'x-kudos', categoryId: 'c-innovation', recipientPoints: { bob: 10, cat: 60 } }],
      // x-coins: at least 5 each.
      ['points_out_of_range', 'ann', { exchangeId: 'x-coins', categoryId: 'c-thanks', recipients: ['bob'], points: 4 }],
      // Never seen in this site.
      ['recipient_not_eligible', 'ann', kudos(['bob', 'zed'], 5)],
      // x-managers gives only to staff: ann is known, but not staff.
      ['recipient_not_eligible', 'mia', { exchangeId: 'x-managers', categoryId: 'c-teamwork', recipients: ['sam', 'ann'], points: 5 }],
      ['budget_exceeded', 'ann', kudos(['bob', 'cat', 'dan'], 34)],
      ['budget_exceeded', 'ann', { exchangeId: 'x-kudos', categoryId: 'c-innovation', recipientPoints: { bob: 50, cat: 50, dan: 1 } }],
    ];
    for (const [code, giver, payload] of cases) {
      const problem = await refused(c, giver, payload, 422, code, [...users, 'zed', 'mia']);
      if (code === 'recipient_not_eligible') expect(problem.errors?.map((e) => e.path)).toEqual([giver === 'ann' ? 'recipients.zed' : 'recipients.ann']);
      if (code === 'points_out_of_range' && 'recipientPoints' in payload) expect(problem.errors?.map((e) => e.path)).toEqual(['recipients.cat']);
    }
    // The same gifts within the rules go through.
    await given(c, 'ann', kudos(['bob', 'cat', 'dan'], 33));
    await given(c, 'mia', { exchangeId: 'x-managers', categoryId: 'c-teamwork', recipients: ['sam', 'eve'], points: 5 });
    await given(c, 'ann', { exchangeId: 'x-coins', categoryId: 'c-thanks', recipients: ['bob'], points: 5 });
    now = Date.parse('2026-06-15T17:00:00Z'); // 13:00 in New York: x-later opens.
    expect(body<{ active: boolean; canGive: boolean; timezone: string }>(await call('GET', '/users/ann/exchanges/x-later', c.app))).toMatchObject({
      active: true,
      canGive: true,
      timezone: 'America/New_York',
    });
    await given(c, 'ann', { exchangeId: 'x-later', categoryId: 'c-teamwork', recipients: ['bob'], points: 5 });
    await expectConsistent(c);
  });

  it('opens and closes an exchange at its dates, read in its time zone (the site’s when it has none)', async () => {
    // x-ended ends 2026-06-10T23:59:59 in Tokyo (the site's zone): 14:59:59.999Z is its last instant.
    now = Date.parse('2026-06-10T14:59:59.999Z');
    const c = await setUp();
    const ended = { exchangeId: 'x-ended', categoryId: 'c-teamwork', recipients: ['bob'], points: 5 };
    await given(c, 'ann', ended);
    now += 1;
    await refused(c, 'ann', ended, 422, 'exchange_closed', ['bob']);
    expect(body<{ active: boolean; canGive: boolean }>(await call('GET', '/users/ann/exchanges/x-ended', c.app))).toMatchObject({
      active: false,
      canGive: false,
    });
    // x-later opens at 13:00 in New York (17:00Z).
    const later = { exchangeId: 'x-later', categoryId: 'c-teamwork', recipients: ['bob'], points: 5 };
    now = Date.parse('2026-06-15T16:59:59.999Z');
    c.app = await t.token(c.site.app); // days later: the first token has expired
    await refused(c, 'ann', later, 422, 'exchange_closed', ['bob']);
    now += 1;
    await given(c, 'ann', later);
    expect((await balance(c, 'bob')).balance).toBe(10);
    await expectConsistent(c);
  });

  it('lets givers of the giver groups give to members of the recipient groups, from a budget that never resets', async () => {
    const c = await setUp();
    const gift = await given(c, 'mia', { exchangeId: 'x-managers', categoryId: 'c-teamwork', recipients: ['sam', 'eve'], points: 20 });
    expect(gift.budget).toEqual({ amount: 50, used: 40, remaining: 10, period: 'none', resetsAt: null });
    expect(
      body<Array<{ userId: string }>>(await call('GET', '/users/mia/exchanges/x-managers/recipients', c.app))
        .map((p) => p.userId)
        .sort(),
    ).toEqual(['eve', 'sam']);
    // Receiving teamwork completes m-teamwork for each recipient (a badge).
    for (const user of ['sam', 'eve']) {
      expect(body<Array<{ id: string }>>(await call('GET', `/users/${user}/badges`, c.app)).map((b) => b.id)).toEqual(['b-team']);
    }
    await refused(c, 'mia', { exchangeId: 'x-managers', categoryId: 'c-teamwork', recipients: ['sam'], points: 11 }, 422, 'budget_exceeded', ['sam']);
    now += 400 * 24 * 60 * 60 * 1000; // a year later the budget is still spent
    const fresh = await t.token(c.site.app);
    expect(body<Budget>(await call('GET', '/users/mia/exchanges/x-managers/points', fresh))).toMatchObject({ used: 40, remaining: 10, resetsAt: null });
    await given(c, 'mia', { exchangeId: 'x-managers', categoryId: 'c-teamwork', recipients: ['eve'], points: 10 }, fresh);
    expect((await balance({ ...c, app: fresh }, 'eve')).balance).toBe(30);
    await expectConsistent(c);
  });

  it('users become recipients by a profile, a group membership or an action; a user known only in another site is not eligible', async () => {
    const c = await setUp();
    const other = await setUp();
    body(await call('PUT', '/users/olga/preferences', other.app, { firstName: 'Olga', lastName: 'Other' }));
    // bob (profile), eve (group), leo (action) may receive in x-kudos (no recipient groups).
    const gift = await given(c, 'ann', kudos(['bob', 'eve', 'leo'], 2));
    expect(gift.recipients.map((r) => r.userId)).toEqual(['bob', 'eve', 'leo']);
    // olga exists only in the other site.
    const problem = await refused(c, 'ann', kudos(['bob', 'olga'], 2), 422, 'recipient_not_eligible', ['bob', 'olga']);
    expect(problem.errors?.map((e) => e.path)).toEqual(['recipients.olga']);
    // The other site saw nothing of this one.
    expect((await counts(other)).recognitions).toBe(0);
    expect((await balance(other, 'bob')).balance).toBe(0);
    await expectConsistent(c);
  });

  it('charges the budget up to exactly its amount, then refuses with budget_exceeded', async () => {
    const c = await setUp();
    await given(c, 'ann', kudos(['bob', 'cat'], 45));
    const last = await given(c, 'ann', kudos(['dan'], 10));
    expect(last.budget).toMatchObject({ used: 100, remaining: 0 });
    const problem = await refused(c, 'ann', kudos(['dan'], 1), 422, 'budget_exceeded', ['bob', 'cat', 'dan']);
    expect(problem).toMatchObject({ code: 'budget_exceeded', detail: 'The recognition needs 1 point; 0 of the budget remain' });
    // Another giver's budget is their own.
    await given(c, 'bob', kudos(['cat'], 50));
    expect((await budget(c, 'bob', 'x-kudos')).used).toBe(50);
    expect((await budget(c, 'ann', 'x-kudos')).used).toBe(100);
    await expectConsistent(c);
  });

  it('never overspends the budget under 50 concurrent recognitions by one giver', async () => {
    const c = await setUp();
    const recipients = ['bob', 'cat', 'dan'];
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        give(c, 'ann', { exchangeId: 'x-pool', categoryId: 'c-innovation', recipients: [recipients[i % 3] as string], points: 7 }),
      ),
    );
    const ok = responses.filter((r) => r.statusCode === 201);
    const refusedOnes = responses.filter((r) => r.statusCode !== 201);
    expect(ok).toHaveLength(14);
    for (const r of refusedOnes) expectProblem(r, 422, 'budget_exceeded');
    // Each gift saw the budget the one before it left: used 7, 14, …, 98, each once.
    const used = ok.map((r) => (r.json() as { response: GivenRecognition }).response.budget.used).sort((a, b) => a - b);
    expect(used).toEqual(Array.from({ length: 14 }, (_, i) => 7 * (i + 1)));
    expect(await budget(c, 'ann', 'x-pool')).toMatchObject({ used: 98, remaining: 2 });
    let received = 0;
    for (const user of recipients) received += (await balance(c, user)).balance;
    expect(received).toBe(98);
    const rows = await t.database.db.selectFrom('recognitions').select('points').where('site_id', '=', c.site.siteId).execute();
    expect(rows.map((row) => Number(row.points))).toEqual(Array.from({ length: 14 }, () => 7));
    expect((await interactions(c, 'ann', 'given')).length).toBe(14);
    // Giving twice completed m-give-2 exactly once.
    expect(await inCategory(c, 'ann', 'Points')).toMatchObject({ balance: 25 });
    await expectConsistent(c);
  });

  it('completes a mission that rewards giving on the second gift, and one that rewards receiving in a category', async () => {
    const c = await setUp();
    const first = await given(c, 'ann', kudos(['bob'], 5, { categoryId: 'c-teamwork' }));
    expect(first.missionsCompleted).toEqual([]);
    const progress = body<{ rules: Array<{ current: number; goal: number }> }>(await call('GET', '/users/ann/challenges/m-give-2/progress', c.app));
    expect(progress.rules[0]).toMatchObject({ current: 1, goal: 2 });
    expect((await balance(c, 'ann')).balance).toBe(0);

    const second = await given(c, 'ann', kudos(['cat'], 5));
    expect(second.missionsCompleted).toEqual([{ id: 'm-give-2', name: 'Give twice', completionId: expect.any(String) }]);
    expect(await balance(c, 'ann')).toMatchObject({ balance: 25, lifetimeBalance: 25 });
    expect(body<Array<{ id: string }>>(await call('GET', '/users/ann/challenges?type=completed', c.app)).map((m) => m.id)).toEqual(['m-give-2']);
    // Once only (not repeatable).
    expect((await given(c, 'ann', kudos(['dan'], 5))).missionsCompleted).toEqual([]);
    expect((await balance(c, 'ann')).balance).toBe(25);

    // Receiving for teamwork completed m-teamwork for bob; cat received for innovation, which does not count.
    expect(body<Array<{ id: string }>>(await call('GET', '/users/bob/challenges?type=completed', c.app)).map((m) => m.id)).toEqual(['m-teamwork']);
    expect(body<Array<{ id: string }>>(await call('GET', '/users/bob/badges', c.app)).map((b) => b.id)).toEqual(['b-team']);
    expect(body<Array<{ id: string }>>(await call('GET', '/users/cat/challenges?type=completed', c.app))).toEqual([]);
    expect(body<Array<{ id: string }>>(await call('GET', '/users/cat/badges', c.app))).toEqual([]);
    const completions = await t.database.db
      .selectFrom('mission_completions')
      .select(['party_id', 'mission_id'])
      .where('site_id', '=', c.site.siteId)
      .where('mission_id', '<>', 'm-play') // leo's, from setUp
      .orderBy('party_id')
      .execute();
    expect(completions.map((row) => [row.party_id, row.mission_id])).toEqual([
      ['ann', 'm-give-2'],
      ['bob', 'm-teamwork'],
    ]);
    await expectConsistent(c);
  });

  it("reports a recipient's whole level change when a mission completed by receiving moves it further than the gift", async () => {
    const c = await setUp();
    body(await call('POST', '/admin/webhook-endpoints', c.admin, { url: `${receiver.url}/levels`, eventTypes: ['level.changed'] }), 201);
    // 40 points take bob from Rookie to Regular; m-star (receiving a Star) adds 1000: Expert.
    const gift = await given(c, 'ann', kudos(['bob'], 40, { categoryId: 'c-star' }));
    expect(await balance(c, 'bob')).toMatchObject({ balance: 1040, lifetimeBalance: 1040 });
    expect(body<{ current: { id: string } }>(await call('GET', '/users/bob/levels', c.app)).current).toMatchObject({ id: 'l-3', name: 'Expert' });
    // The history has both steps: the gift's, then the mission's.
    const changes = await t.database.db
      .selectFrom('outbox')
      .select('payload')
      .where('site_id', '=', c.site.siteId)
      .where('party_id', '=', 'bob')
      .where('event_type', '=', 'level.changed')
      .orderBy('sequence')
      .execute();
    expect(
      changes.map((row) => (JSON.parse(row.payload) as { data: { from: { id: string }; to: { id: string } } }).data).map((d) => [d.from.id, d.to.id]),
    ).toEqual([
      ['l-1', 'l-2'],
      ['l-2', 'l-3'],
    ]);
    expect(gift.recipients).toEqual([
      { userId: 'bob', points: 40, levelChanged: { from: { id: 'l-1', name: 'Rookie' }, to: { id: 'l-3', name: 'Expert' }, direction: 'up' } },
    ]);
    await expectConsistent(c);
  });

  it('credits gifts in full past the category daily limit, and they do not use the allowance', async () => {
    const c = await setUp();
    // bob reaches the Coins daily limit through a mission; cat has earned nothing today.
    body(await call('POST', '/users/bob/actions', c.app, { action: 'play', eventId: 'bob-1' }), 201);
    expect(await inCategory(c, 'bob', 'Coins')).toMatchObject({ balance: 10, earnedToday: 10, remainingToday: 0 });
    const gift = await given(c, 'ann', { exchangeId: 'x-coins', categoryId: 'c-thanks', recipients: ['bob', 'cat'], points: 40 });
    expect(gift.recipients).toEqual([
      { userId: 'bob', points: 40 },
      { userId: 'cat', points: 40 },
    ]);
    expect(await inCategory(c, 'bob', 'Coins')).toMatchObject({ balance: 50, lifetimeBalance: 50, earnedToday: 10, remainingToday: 0 });
    expect(await inCategory(c, 'cat', 'Coins')).toMatchObject({ balance: 40, earnedToday: 0, remainingToday: 10 });
    // Coins are not the default category: no level moves.
    expect(body<{ current: { id: string } | null; points: number }>(await call('GET', '/users/cat/levels', c.app)).points).toBe(0);
    // cat's allowance is whole: a mission credit still pays 10.
    const played = body<{ pointsAwarded: Array<{ category: string; requested: number; credited: number }> }>(
      await call('POST', '/users/cat/actions', c.app, { action: 'play', eventId: 'cat-1' }),
      201,
    );
    expect(played.pointsAwarded).toEqual([{ category: 'Coins', requested: 10, credited: 10 }]);
    expect(await inCategory(c, 'cat', 'Coins')).toMatchObject({ balance: 50, earnedToday: 10, remainingToday: 0 });
    await expectConsistent(c);
  });

  it("resets a budget at the period boundary in the exchange's time zone", async () => {
    // 23:30 on 30 June in New York (already 1 July in UTC).
    now = Date.parse('2026-07-01T03:30:00Z');
    const c = await setUp();
    const june = await given(c, 'ann', kudos(['bob', 'cat'], 30));
    expect(june.budget).toEqual({ amount: 100, used: 60, remaining: 40, period: 'month', resetsAt: '2026-07-01T04:00:00.000Z' });
    await refused(c, 'ann', kudos(['bob'], 41), 422, 'budget_exceeded', ['bob', 'cat']);

    now = Date.parse('2026-07-01T03:59:59.999Z');
    expect(await budget(c, 'ann', 'x-kudos')).toMatchObject({ used: 60, remaining: 40, resetsAt: '2026-07-01T04:00:00.000Z' });
    await given(c, 'ann', kudos(['dan'], 40));
    expect(await budget(c, 'ann', 'x-kudos')).toMatchObject({ used: 100, remaining: 0 });
    await refused(c, 'ann', kudos(['dan'], 1), 422, 'budget_exceeded', ['dan']);

    // Midnight in New York: July's budget is whole.
    now = Date.parse('2026-07-01T04:00:00Z');
    expect(await budget(c, 'ann', 'x-kudos')).toEqual({ amount: 100, used: 0, remaining: 100, period: 'month', resetsAt: '2026-08-01T04:00:00.000Z' });
    const july = await given(c, 'ann', kudos(['bob', 'cat'], 50));
    expect(july.budget).toMatchObject({ used: 100, remaining: 0, resetsAt: '2026-08-01T04:00:00.000Z' });
    expect((await balance(c, 'bob')).balance).toBe(80);

    // Each window keeps its own use.
    const windows = await t.database.db
      .selectFrom('recognition_budgets')
      .select(['window_start', 'used'])
      .where('site_id', '=', c.site.siteId)
      .orderBy('window_start')
      .execute();
    expect(windows.map((row) => [Number(row.window_start), Number(row.used)])).toEqual([
      [Date.parse('2026-06-01T04:00:00Z'), 100],
      [Date.parse('2026-07-01T04:00:00Z'), 100],
    ]);
    await expectConsistent(c);
  });

  it("resets a budget without a time zone of its own on the site's calendar", async () => {
    // 23:30 on 30 June in Tokyo, the site's time zone: the end of the second quarter there.
    now = Date.parse('2026-06-30T14:30:00Z');
    const c = await setUp();
    expect(body<{ timezone: string }>(await call('GET', '/users/ann/exchanges/x-coins', c.app)).timezone).toBe('Asia/Tokyo');
    const q2 = await given(c, 'ann', { exchangeId: 'x-coins', categoryId: 'c-thanks', recipients: ['bob', 'cat'], points: 100 });
    expect(q2.budget).toEqual({ amount: 200, used: 200, remaining: 0, period: 'quarter', resetsAt: '2026-06-30T15:00:00.000Z' });
    await refused(c, 'ann', { exchangeId: 'x-coins', categoryId: 'c-thanks', recipients: ['dan'], points: 5 }, 422, 'budget_exceeded', ['dan']);

    now = Date.parse('2026-06-30T15:00:00Z'); // midnight in Tokyo, still June in UTC and New York
    expect(await budget(c, 'ann', 'x-coins')).toEqual({ amount: 200, used: 0, remaining: 200, period: 'quarter', resetsAt: '2026-09-30T15:00:00.000Z' });
    const q3 = await given(c, 'ann', { exchangeId: 'x-coins', categoryId: 'c-thanks', recipients: ['dan'], points: 5 });
    expect(q3.budget).toMatchObject({ used: 5, remaining: 195 });
    // The New York exchange is still in June.
    expect((await budget(c, 'ann', 'x-kudos')).resetsAt).toBe('2026-07-01T04:00:00.000Z');
    await expectConsistent(c);
  });

  it('writes a recognition.given outbox event, delivered to a subscribed endpoint', async () => {
    const c = await setUp();
    body(await call('POST', '/admin/webhook-endpoints', c.admin, { url: `${receiver.url}/recognitions`, eventTypes: ['recognition.given'] }), 201);
    const gift = await given(c, 'ann', { exchangeId: 'x-kudos', categoryId: 'c-teamwork', recipientPoints: { bob: 10, cat: 20 }, comment: 'Thanks!' });

    const rows = await t.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('site_id', '=', c.site.siteId)
      .where('event_type', '=', 'recognition.given')
      .execute();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ party_type: 'user', party_id: 'ann', event_type: 'recognition.given' });
    expect(Number(row?.occurred_at)).toBe(NOON);
    const payload = JSON.parse(row?.payload as string) as { eventType: string; context: unknown; data: Record<string, unknown> };
    const data = {
      user: { userId: 'ann' },
      recognition: { id: gift.id, exchangeId: 'x-kudos', category: teamwork, comment: 'Thanks!', points: 30, pointCategory: 'Points' },
      recipients: [
        { userId: 'bob', points: 10 },
        { userId: 'cat', points: 20 },
      ],
      timestamp: new Date(NOON).toISOString(),
    };
    expect(payload).toMatchObject({ eventType: 'recognition.given', occurredAt: new Date(NOON).toISOString(), context: { siteId: c.site.siteId }, data });

    const before = receiver.received.length;
    await t.app.services.webhooks.runOnce();
    const delivered = receiver.received.slice(before).filter((r) => r.path === '/hooks/recognitions');
    expect(delivered).toHaveLength(1);
    const sent = JSON.parse(delivered[0]?.body as string) as {
      eventType: string;
      data: { user: Record<string, unknown>; recognition: { id: string }; recipients: unknown };
    };
    expect(sent.eventType).toBe('recognition.given');
    expect(sent.data).toMatchObject({ ...data, user: { userId: 'ann', firstName: 'Ann', lastName: 'Lee' } });
    await expectConsistent(c);
  });

  it('lets a user-level token give only as its own user; no token is 401; another site cannot use this one', async () => {
    const c = await setUp();
    const annToken = await t.token(c.site.app, 'ann');
    const users = ['bob', 'cat', 'ann'];
    // ann's token giving as bob (even to ann) is forbidden.
    await refused(c, 'bob', kudos(['ann'], 5), 403, 'forbidden', users, annToken);
    await refused(c, 'bob', kudos(['cat'], 5), 403, 'forbidden', users, annToken);
    await refused(
      c,
      'bob',
      form([
        ['exchangeId', 'x-kudos'],
        ['categoryId', 'c-innovation'],
        ['recipients', 'cat'],
        ['points', '5'],
      ]),
      403,
      'forbidden',
      users,
      annToken,
    );
    expect((await budget(c, 'bob', 'x-kudos')).used).toBe(0);
    // No token.
    const before = await state(c, 'ann', 'x-kudos', users);
    const anonymous = await call('POST', '/users/ann/interactions-collection', undefined, kudos(['bob'], 5));
    expectProblem(anonymous, 401, 'missing_token');
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
    expectProblem(await call('POST', '/users/ann/interactions-collection', 'not-a-token', kudos(['bob'], 5)), 401, 'invalid_token');
    expect(await state(c, 'ann', 'x-kudos', users)).toEqual(before);

    // Another site, with no exchanges, using its own app token: its program has no x-kudos, and this site is untouched.
    const other = await setUp({ ...PROGRAM, exchanges: [] });
    const otherBefore = await counts(other);
    await refused(c, 'ann', kudos(['bob'], 5), 422, 'unknown_exchange', users, other.app);
    await refused(c, 'ann', kudos(['bob'], 5), 422, 'unknown_exchange', users, await t.token(other.site.app, 'ann'));
    expect(await counts(other)).toEqual(otherBefore);

    // ann's own token gives as ann.
    const gift = await given(c, 'ann', kudos(['bob'], 5), annToken);
    expect(gift.giver).toEqual({ userId: 'ann' });
    expect((await balance(c, 'bob')).balance).toBe(5);
    await expectConsistent(c);
  });
});
