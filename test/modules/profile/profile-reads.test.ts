// GET /users/{u}/point-balance, /levels and /badges through the HTTP stack (SPEC §7, §3), on the
// example program: zeros for a user never referenced, balances per category with today's cap
// (action credits only, in the site time zone), levels from lifetime default-category points,
// the trophy case with paging, and who may read what.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import type { CategoryBalance } from '../../../src/modules/profile/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';

// The app's clock runs from noon in New York on 2026-06-15 (inside every mission's dates), so
// "today" (site time zone America/New_York) is 2026-06-15 while the tests run.
const START = Date.parse('2026-06-15T16:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);

const category = (name: string, isDefault: boolean, dailyLimit: number | null, figures: Partial<CategoryBalance> = {}): CategoryBalance => ({
  id: name,
  name,
  isDefault,
  balance: 0,
  lifetimeBalance: 0,
  dailyLimit,
  earnedToday: 0,
  remainingToday: dailyLimit,
  ...figures,
});
type Figures = Partial<CategoryBalance>;
/** The expected balance: every program category in program order, zeros unless given. */
const balanceOf = (points: Figures = {}, coins: Figures = {}, award: Figures = {}) => ({
  balance: points.balance ?? 0,
  lifetimeBalance: points.lifetimeBalance ?? 0,
  categories: [category('Points', true, null, points), category('Coins', false, 200, coins), category('Award', false, null, award)],
});

const L1 = { id: 'l-1', name: 'Rookie', threshold: 0 };
const L2 = { id: 'l-2', name: 'Regular', threshold: 100 };
const L3 = { id: 'l-3', name: 'Expert', threshold: 1000 };
const READER = { id: 'b-reader', name: 'Reader', description: 'Read your first article', iconUrl: 'https://cdn.acme.example/badges/reader.png' };
const CHEF = { id: 'b-chef', name: 'Chef', description: 'Watched a cooking video' };
const ENDPOINTS = ['point-balance', 'levels', 'badges'] as const;

describe.each(configurations)('profile reads (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;

  const get = (url: string, token?: string) => t.app.inject({ method: 'GET', url, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  const send = (method: 'POST' | 'PUT', url: string, token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload });
  const ok = (response: LightMyRequestResponse, status = 200) => {
    expect(response.statusCode, response.body).toBe(status);
    return (response.json() as { response: unknown }).response;
  };
  const read = async (user: string, endpoint: (typeof ENDPOINTS)[number], token = client) => ok(await get(`/users/${user}/${endpoint}`, token));
  const log = async (user: string, body: Record<string, unknown>) => ok(await send('POST', `/users/${user}/actions`, client, body), 201) as ActionOutcome;
  const adjust = async (user: string, categoryName: string, amount: number) =>
    ok(await send('POST', `/admin/users/${user}/points`, admin, { category: categoryName, amount, reason: 'test adjustment' }), 201);
  const joinSales = async (user: string) => expect((await send('PUT', `/admin/groups/g-sales/members/${user}`, admin, {})).statusCode).toBeLessThan(300);
  const install = async (token: string) => expect((await send('PUT', '/admin/program', token, exampleProgram())).statusCode).toBe(200);

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock });
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    await install(admin);
  });
  afterAll(async () => t.close());

  describe('point-balance', () => {
    it('reads a never-referenced user as zeros, every program category listed with its daily limit', async () => {
      expect(await read('nobody', 'point-balance')).toEqual(balanceOf());
    });

    it('shows action credits, Coins cut to the daily limit of 200 (remainingToday 0); the top level is the default category', async () => {
      expect((await log('buyer', { action: 'read_article' })).pointsAwarded).toEqual([{ category: 'Points', requested: 10, credited: 10 }]);
      await joinSales('buyer');
      expect((await log('buyer', { action: 'purchase', value: 150 })).pointsAwarded).toEqual([{ category: 'Coins', requested: 300, credited: 200 }]);
      expect(await read('buyer', 'point-balance')).toEqual(
        balanceOf({ balance: 10, lifetimeBalance: 10, earnedToday: 10 }, { balance: 200, lifetimeBalance: 200, earnedToday: 200, remainingToday: 0 }),
      );
    });

    it('lowers balance, not lifetimeBalance, on an admin debit; admin adjustments never count as earned today', async () => {
      await log('debited', { action: 'read_article' });
      await joinSales('debited');
      await log('debited', { action: 'purchase', value: 50 }); // 100 Coins
      await adjust('debited', 'Coins', -30);
      await adjust('debited', 'Points', -4);
      const coinsToday = { earnedToday: 100, remainingToday: 100 };
      expect(await read('debited', 'point-balance')).toEqual(
        balanceOf({ balance: 6, lifetimeBalance: 10, earnedToday: 10 }, { balance: 70, lifetimeBalance: 100, ...coinsToday }),
      );
      await adjust('debited', 'Coins', 500);
      expect(await read('debited', 'point-balance')).toEqual(
        balanceOf({ balance: 6, lifetimeBalance: 10, earnedToday: 10 }, { balance: 570, lifetimeBalance: 600, ...coinsToday }),
      );
    });

    it('counts in earnedToday only credits of actions dated today (site time zone), not backdated ones', async () => {
      await joinSales('backdated');
      const steps: Array<[timestamp: string | undefined, value: number, balance: number, earnedToday: number]> = [
        ['2026-06-14T12:00:00', 40, 80, 0], // yesterday: credited on its own day
        ['2026-06-14T23:59:59', 5, 90, 0], // the last second of yesterday in New York
        [undefined, 10, 110, 20], // now
        ['2026-06-15T00:00:00', 5, 120, 30], // the first second of today in New York
      ];
      for (const [index, [timestamp, value, balance, earnedToday]] of steps.entries()) {
        await log('backdated', { action: 'purchase', value, ...(timestamp !== undefined ? { timestamp } : {}) });
        const coins = { balance, lifetimeBalance: balance, earnedToday, remainingToday: 200 - earnedToday };
        expect(await read('backdated', 'point-balance'), `step ${index}`).toEqual(balanceOf({}, coins));
      }
    });
  });

  describe('levels', () => {
    it.each<[string, Array<[string, number]>, Record<string, unknown>]>([
      ['a new user is at the first level', [], { current: L1, next: L2, points: 0, pointsToNext: 100, percentToNext: 0 }],
      ['50 lifetime points: half way', [['Points', 50]], { current: L1, next: L2, points: 50, pointsToNext: 50, percentToNext: 50 }],
      ['29 lifetime points: 29 %', [['Points', 29]], { current: L1, next: L2, points: 29, pointsToNext: 71, percentToNext: 29 }],
      [
        'exactly at the threshold 100',
        [
          ['Points', 60],
          ['Points', 40],
        ],
        { current: L2, next: L3, points: 100, pointsToNext: 900, percentToNext: 0 },
      ],
      [
        '361 lifetime points: 29 % of the way from 100 to 1000',
        [['Points', 361]],
        { current: L2, next: L3, points: 361, pointsToNext: 639, percentToNext: 29 },
      ],
      [
        'a debit does not lower lifetime points',
        [
          ['Points', 150],
          ['Points', -100],
        ],
        { current: L2, next: L3, points: 150, pointsToNext: 850, percentToNext: 5 },
      ],
      ['another category does not count', [['Coins', 5000]], { current: L1, next: L2, points: 0, pointsToNext: 100, percentToNext: 0 }],
      ['past the last level', [['Points', 1500]], { current: L3, next: null, points: 1500, pointsToNext: null, percentToNext: null }],
    ])('%s', async (name, adjustments, expected) => {
      const user = `lvl-${name.replace(/[^a-z0-9]+/gi, '-')}`;
      for (const [categoryName, amount] of adjustments) await adjust(user, categoryName, amount);
      expect(await read(user, 'levels')).toEqual(expected);
    });

    it('follows points earned through actions', async () => {
      await log('leveller', { action: 'read_article' });
      expect(await read('leveller', 'levels')).toEqual({ current: L1, next: L2, points: 10, pointsToNext: 90, percentToNext: 10 });
    });
  });

  describe('badges', () => {
    beforeAll(async () => {
      await log('reader', { action: 'read_article', timestamp: '2026-06-15T09:00:00' });
      await log('chef', { action: 'read_article', timestamp: '2026-06-15T09:00:00' });
      for (const minute of ['00', '01']) await log('chef', { action: 'watch_video', metadata: { genre: 'cooking' }, timestamp: `2026-06-15T10:${minute}:00` });
      expect(
        (await log('chef', { action: 'read_article', metadata: { topic: 'recipe' }, timestamp: '2026-06-15T10:02:00' })).missionsCompleted.map((m) => m.id),
      ).toEqual(['m-chef']);
    });
    const earned = (badge: object, at: string) => ({ ...badge, earnedCount: 1, firstEarnedAt: at, lastEarnedAt: at });

    it.each<[string, string, string, unknown[], string]>([
      ['a new user has an empty trophy case', 'nobody', '', [], '0'],
      ['m-first-read puts b-reader in the trophy case', 'reader', '', [earned(READER, '2026-06-15T13:00:00.000Z')], '1'],
      ['most recently earned first', 'chef', '', [earned(CHEF, '2026-06-15T14:02:00.000Z'), earned(READER, '2026-06-15T13:00:00.000Z')], '2'],
      ['limit', 'chef', '?limit=1', [earned(CHEF, '2026-06-15T14:02:00.000Z')], '2'],
      ['limit and offset', 'chef', '?limit=1&offset=1', [earned(READER, '2026-06-15T13:00:00.000Z')], '2'],
      ['an offset past the end', 'chef', '?offset=2', [], '2'],
    ])('%s', async (_name, user, query, expected, total) => {
      const response = await get(`/users/${user}/badges${query}`, client);
      expect(ok(response)).toEqual(expected);
      expect(response.headers['x-total-count']).toBe(total);
    });

    it.each(['?limit=0', '?limit=501', '?offset=-1', '?limit=two'])('refuses paging %s with 400', async (query) => {
      const response = await get(`/users/chef/badges${query}`, client);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: 400, code: 'validation_failed' });
    });
  });

  describe('security', () => {
    it("lets a user-level token read its own profile (its site's data) and nobody else's", async () => {
      await log('ann', { action: 'read_article' });
      const ann = await t.token(site.app, 'ann');
      expect(await read('ann', 'point-balance', ann)).toEqual(balanceOf({ balance: 10, lifetimeBalance: 10, earnedToday: 10 }));
      expect(await read('ann', 'levels', ann)).toMatchObject({ current: L1, points: 10 });
      expect(await read('ann', 'badges', ann)).toEqual([expect.objectContaining({ id: 'b-reader', earnedCount: 1 })]);
      for (const endpoint of ENDPOINTS) {
        const response = await get(`/users/buyer/${endpoint}`, ann);
        expect(response.statusCode, endpoint).toBe(403);
        expect(response.json(), endpoint).toMatchObject({ code: 'forbidden' });
        expect(response.body, endpoint).not.toContain('"balance"');
      }
    });

    it.each(ENDPOINTS)('answers %s without a token with 401 and WWW-Authenticate', async (endpoint) => {
      const response = await get(`/users/ann/${endpoint}`);
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.json()).toMatchObject({ code: 'missing_token' });
    });

    it("shows a client of another site only its own site's data: the same user id reads as empty", async () => {
      await log('dora', { action: 'read_article' });
      expect(await read('dora', 'point-balance')).toMatchObject({ balance: 10 });
      const other = await t.createSite();
      await install(await t.token(other.admin));
      const otherClient = await t.token(other.app);
      expect(await read('dora', 'point-balance', otherClient)).toEqual(balanceOf());
      expect(await read('dora', 'levels', otherClient)).toEqual({ current: L1, next: L2, points: 0, pointsToNext: 100, percentToNext: 0 });
      const badges = await get('/users/dora/badges', otherClient);
      expect(ok(badges)).toEqual([]);
      expect(badges.headers['x-total-count']).toBe('0');
      // Nor does the other site's user-level token for dora.
      expect(await read('dora', 'point-balance', await t.token(other.app, 'dora'))).toEqual(balanceOf());
    });

    const invalidIds = {
      'a "!"': 'bad!id',
      'a space': 'a%20b',
      'non-ASCII letters': '%C3%A9t%C3%A9',
      'an encoded "/"': 'a%2Fb',
      '256 characters': 'x'.repeat(256),
    };
    it.each(ENDPOINTS.flatMap((endpoint) => Object.entries(invalidIds).map(([kind, id]) => [endpoint, kind, id] as const)))(
      'answers %s for a user id with %s with 400',
      async (endpoint, _kind, id) => {
        const response = await get(`/users/${id}/${endpoint}`, client);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(response.json()).toMatchObject({ status: 400, code: 'validation_failed' });
      },
    );
  });
});
