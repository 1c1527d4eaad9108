// The reads of recognitions (SPEC §2 paging and deprecations, §9): a user's exchanges (open in
// the exchange's own time zone, and only those they may give in), one exchange, its categories,
// the giver's budget for the current calendar period, the recipients they may choose (known users
// of the site, never themselves, searched by name or user id, paged, the deprecated `preferences`
// parameter answered with deprecation headers), and the recognitions a user gave and received,
// newest first. User-level tokens read only their own user; nothing crosses sites.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Budget, GivenRecognition, Interaction, PresentedExchange } from '../../../src/modules/recognitions/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

// Noon in New York (16:00 UTC) on Monday 2026-06-15; the app's clock stays where a test puts it.
const START = Date.parse('2026-06-15T16:00:00Z');
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const thanks = [{ id: 'c-thanks', name: 'Thanks' }];
/** A site in New York time; exchanges open or closed at START by their dates read in their own zone. */
const program = {
  site: { name: 'Recognitions', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }, { name: 'Kudos' }],
  actions: [{ name: 'play' }],
  groups: [
    { id: 'g-givers', name: 'Givers' },
    { id: 'g-team', name: 'Team' },
    { id: 'g-other', name: 'Other' },
  ],
  exchanges: [
    {
      id: 'x-kudos',
      name: 'Kudos',
      description: 'Thank a colleague',
      pointCategory: 'Points',
      budget: { amount: 100, period: 'month' },
      maxPoints: 50,
      maxRecipients: 5,
      categories: [
        { id: 'c-teamwork', name: 'Teamwork' },
        { id: 'c-help', name: 'Helpfulness', iconUrl: 'https://cdn.example/help.png' },
      ],
    },
    // Only members of g-givers give here; a quarterly budget in Paris time.
    {
      id: 'x-paris',
      name: 'Givers only',
      timezone: 'Europe/Paris',
      givers: { groups: ['g-givers'] },
      pointCategory: 'Kudos',
      budget: { amount: 30, period: 'quarter' },
      categories: thanks,
    },
    // Only members of g-team receive here; a budget that never resets.
    { id: 'x-team', name: 'Team', recipients: { groups: ['g-team'] }, pointCategory: 'Points', budget: { amount: 1000, period: 'none' }, categories: thanks },
    {
      id: 'x-future',
      name: 'Next month',
      timezone: 'UTC',
      startDate: '2026-07-01T00:00:00',
      pointCategory: 'Points',
      budget: { amount: 10, period: 'year' },
      categories: thanks,
    },
    { id: 'x-past', name: 'Last month', endDate: '2026-06-01T00:00:00', pointCategory: 'Points', budget: { amount: 10, period: 'month' } },
    // 00:30 on the 16th in Tokyo is 15:30 UTC on the 15th: open at START only read in Tokyo time.
    { id: 'x-tokyo', name: 'Tokyo', timezone: 'Asia/Tokyo', startDate: '2026-06-16T00:30', pointCategory: 'Points', budget: { amount: 10, period: 'month' } },
    // Until 09:30 in Los Angeles (16:30 UTC): open at START, closed at 17:00 UTC.
    {
      id: 'x-la',
      name: 'Los Angeles',
      timezone: 'America/Los_Angeles',
      endDate: '2026-06-15T09:30:00',
      pointCategory: 'Points',
      budget: { amount: 10, period: 'month' },
    },
    // From 13:00 in the site's zone (17:00 UTC): closed at START, though 13:00 UTC has passed.
    { id: 'x-afternoon', name: 'Afternoon', startDate: '2026-06-15T13:00:00', pointCategory: 'Points', budget: { amount: 10, period: 'month' } },
  ],
};

type Person = { userId: string; firstName: string | null; lastName: string | null; iconUrl: string | null };
const person = (userId: string, firstName: string | null = null, lastName: string | null = null, iconUrl: string | null = null): Person => ({
  userId,
  firstName,
  lastName,
  iconUrl,
});

interface Ctx {
  site: TestSite;
  admin: string;
  app: string;
}

describe.each(configurations)('recognition reads (%s)', (configuration) => {
  let t: TestApp;
  let now = START;

  beforeAll(async () => {
    t = await buildTestApp(configuration, {
      clock: () => now,
      config: { clientRate: { rate: 100_000, burst: 100_000 }, userRate: { rate: 100_000, burst: 100_000 } },
    });
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    now = START;
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: token !== undefined ? { authorization: `Bearer ${token}` } : {}, ...(payload !== undefined ? { payload } : {}) });
  const body = <T>(response: LightMyRequestResponse, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return (response.json() as { response: T }).response;
  };
  const expectProblem = (response: LightMyRequestResponse, status: number, code: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status, code });
  };
  const setUp = async (document: Record<string, unknown> = program): Promise<Ctx> => {
    const site = await t.createSite();
    const ctx = { site, admin: await t.token(site.admin), app: await t.token(site.app) };
    body(await call('PUT', '/admin/program', ctx.admin, document));
    return ctx;
  };
  const join = async (c: Ctx, group: string, user: string) =>
    expect((await call('PUT', `/admin/groups/${group}/members/${user}`, c.admin)).statusCode).toBe(201);
  const name = async (c: Ctx, user: string, preferences: Record<string, string>) => body(await call('PUT', `/users/${user}/preferences`, c.app, preferences));
  const act = async (c: Ctx, user: string) => body(await call('POST', `/users/${user}/actions`, c.app, { action: 'play' }), 201);
  const give = async (c: Ctx, giver: string, gift: Record<string, unknown>) =>
    body<GivenRecognition>(await call('POST', `/users/${giver}/interactions-collection`, c.app, gift), 201);

  const exchanges = async (c: Ctx, user: string, token = c.app) => body<PresentedExchange[]>(await call('GET', `/users/${user}/exchanges`, token));
  const exchange = async (c: Ctx, user: string, id: string) => body<PresentedExchange>(await call('GET', `/users/${user}/exchanges/${id}`, c.app));
  const budget = async (c: Ctx, user: string, id: string, token = c.app) => body<Budget>(await call('GET', `/users/${user}/exchanges/${id}/points`, token));
  /** GET …/recipients with the query; the people and X-Total-Count. */
  const recipients = async (c: Ctx, user: string, id: string, query = '', token = c.app) => {
    const response = await call('GET', `/users/${user}/exchanges/${id}/recipients${query === '' ? '' : `?${query}`}`, token);
    return { items: body<Person[]>(response), total: Number(response.headers['x-total-count']), response };
  };
  const ids = (items: Array<{ userId: string }>) => items.map((item) => item.userId);
  const interactions = async (c: Ctx, user: string, query = '', token = c.app) => {
    const response = await call('GET', `/users/${user}/interactions-collection${query === '' ? '' : `?${query}`}`, token);
    return { items: body<Interaction[]>(response), total: Number(response.headers['x-total-count']) };
  };

  describe('exchanges', () => {
    it('lists the exchanges the user may give in now, their dates read in their own time zone', async () => {
      const c = await setUp();
      const listed = await exchanges(c, 'ann');
      expect(listed.map((x) => x.id)).toEqual(['x-kudos', 'x-team', 'x-tokyo', 'x-la']);
      for (const x of listed) expect(x).toMatchObject({ active: true, canGive: true });
      // The exchange as configured (defaults filled in), its zone (the site's when it has none), and the flags.
      expect(listed[0]).toEqual({
        id: 'x-kudos',
        name: 'Kudos',
        description: 'Thank a colleague',
        givers: { groups: [] },
        recipients: { groups: [] },
        pointCategory: 'Points',
        budget: { amount: 100, period: 'month' },
        minPoints: 1,
        maxPoints: 50,
        maxRecipients: 5,
        categories: [
          { id: 'c-teamwork', name: 'Teamwork' },
          { id: 'c-help', name: 'Helpfulness', iconUrl: 'https://cdn.example/help.png' },
        ],
        timezone: 'America/New_York',
        active: true,
        canGive: true,
      });
      expect(listed.map((x) => [x.id, x.timezone])).toEqual([
        ['x-kudos', 'America/New_York'],
        ['x-team', 'America/New_York'],
        ['x-tokyo', 'Asia/Tokyo'],
        ['x-la', 'America/Los_Angeles'],
      ]);
      // The dates are returned as given (local date-times).
      expect(listed.find((x) => x.id === 'x-tokyo')?.startDate).toBe('2026-06-16T00:30');

      // An hour later: Los Angeles has closed, the afternoon one (13:00 New York) has opened.
      now = START + 60 * MINUTE;
      expect((await exchanges(c, 'ann')).map((x) => x.id)).toEqual(['x-kudos', 'x-team', 'x-tokyo', 'x-afternoon']);
      // Just before and at the boundaries: x-la is open through 09:30:00.999 in Los Angeles.
      now = Date.parse('2026-06-15T16:30:00.999Z');
      expect((await exchanges(c, 'ann')).map((x) => x.id)).toContain('x-la');
      now = Date.parse('2026-06-15T16:30:01Z');
      expect((await exchanges(c, 'ann')).map((x) => x.id)).not.toContain('x-la');
      now = Date.parse('2026-06-15T16:59:59.999Z');
      expect((await exchanges(c, 'ann')).map((x) => x.id)).not.toContain('x-afternoon');
      now = Date.parse('2026-06-15T17:00:00Z');
      expect((await exchanges(c, 'ann')).map((x) => x.id)).toContain('x-afternoon');
      // x-future opens at midnight UTC on 1 July.
      now = Date.parse('2026-07-01T00:00:00Z');
      expect((await exchanges(c, 'ann', await t.token(c.site.app))).map((x) => x.id)).toContain('x-future');
    });

    it('lists an exchange limited to some givers only for their members', async () => {
      const c = await setUp();
      expect((await exchanges(c, 'ann')).map((x) => x.id)).not.toContain('x-paris');
      // Membership of another group does not make a giver.
      await join(c, 'g-other', 'ann');
      expect((await exchanges(c, 'ann')).map((x) => x.id)).not.toContain('x-paris');
      await join(c, 'g-givers', 'ann');
      const listed = await exchanges(c, 'ann');
      expect(listed.map((x) => x.id)).toEqual(['x-kudos', 'x-paris', 'x-team', 'x-tokyo', 'x-la']);
      expect(listed[1]).toMatchObject({ id: 'x-paris', timezone: 'Europe/Paris', givers: { groups: ['g-givers'] }, active: true, canGive: true });
      // Bob is still not a giver there; leaving the group takes it away again.
      expect((await exchanges(c, 'bob')).map((x) => x.id)).not.toContain('x-paris');
      expect((await call('DELETE', '/admin/groups/g-givers/members/ann', c.admin)).statusCode).toBe(204);
      expect((await exchanges(c, 'ann')).map((x) => x.id)).not.toContain('x-paris');
    });

    it('reads one exchange, open or not, saying whether the user may give in it; 404 for an unknown one', async () => {
      const c = await setUp();
      expect(await exchange(c, 'ann', 'x-kudos')).toMatchObject({ id: 'x-kudos', timezone: 'America/New_York', active: true, canGive: true });
      expect(await exchange(c, 'ann', 'x-future')).toMatchObject({
        id: 'x-future',
        timezone: 'UTC',
        startDate: '2026-07-01T00:00:00',
        active: false,
        canGive: false,
      });
      expect(await exchange(c, 'ann', 'x-past')).toMatchObject({ id: 'x-past', endDate: '2026-06-01T00:00:00', active: false, canGive: false });
      expect(await exchange(c, 'ann', 'x-afternoon')).toMatchObject({ active: false, canGive: false });
      // Open, but ann is not a giver there.
      expect(await exchange(c, 'ann', 'x-paris')).toMatchObject({ id: 'x-paris', timezone: 'Europe/Paris', active: true, canGive: false });
      await join(c, 'g-givers', 'ann');
      expect(await exchange(c, 'ann', 'x-paris')).toMatchObject({ active: true, canGive: true });
      // The list and the single read agree.
      const listed = await exchanges(c, 'ann');
      for (const x of listed) expect(await exchange(c, 'ann', x.id)).toEqual(x);

      expectProblem(await call('GET', '/users/ann/exchanges/x-nope', c.app), 404, 'not_found');
      expectProblem(await call('GET', '/users/ann/exchanges/bad%20id', c.app), 400, 'validation_failed');
    });

    it('lists nothing on a site without exchanges', async () => {
      const c = await setUp({ site: { name: 'Bare', timezone: 'UTC' }, pointCategories: [{ name: 'Points', isDefault: true }] });
      expect(await exchanges(c, 'ann')).toEqual([]);
      expectProblem(await call('GET', '/users/ann/exchanges/x-kudos', c.app), 404, 'not_found');
    });
  });

  describe('categories and budgets', () => {
    it("lists an exchange's categories, open or not; 404 for an unknown exchange", async () => {
      const c = await setUp();
      expect(body(await call('GET', '/users/ann/exchanges/x-kudos/categories', c.app))).toEqual([
        { id: 'c-teamwork', name: 'Teamwork' },
        { id: 'c-help', name: 'Helpfulness', iconUrl: 'https://cdn.example/help.png' },
      ]);
      expect(body(await call('GET', '/users/ann/exchanges/x-future/categories', c.app))).toEqual(thanks);
      expect(body(await call('GET', '/users/ann/exchanges/x-tokyo/categories', c.app))).toEqual([]);
      expectProblem(await call('GET', '/users/ann/exchanges/x-nope/categories', c.app), 404, 'not_found');
    });

    it('answers the budget of the current calendar period in the exchange’s time zone', async () => {
      const c = await setUp();
      // Monthly in New York: June ends at midnight New York time (04:00 UTC).
      expect(await budget(c, 'ann', 'x-kudos')).toEqual({ amount: 100, used: 0, remaining: 100, period: 'month', resetsAt: '2026-07-01T04:00:00.000Z' });
      // Quarterly in Paris: the third quarter starts at midnight Paris time (22:00 UTC the day before).
      expect(await budget(c, 'ann', 'x-paris')).toEqual({ amount: 30, used: 0, remaining: 30, period: 'quarter', resetsAt: '2026-06-30T22:00:00.000Z' });
      // Never resets.
      expect(await budget(c, 'ann', 'x-team')).toEqual({ amount: 1000, used: 0, remaining: 1000, period: 'none', resetsAt: null });
      // Yearly in UTC, for an exchange not open yet.
      expect(await budget(c, 'ann', 'x-future')).toEqual({ amount: 10, used: 0, remaining: 10, period: 'year', resetsAt: '2027-01-01T00:00:00.000Z' });
      expectProblem(await call('GET', '/users/ann/exchanges/x-nope/points', c.app), 404, 'not_found');
    });

    it('counts what the giver gave in the period, until the period ends', async () => {
      const c = await setUp();
      await name(c, 'bob', { firstName: 'Bob' });
      await name(c, 'carol', { firstName: 'Carol' });
      const gift = await give(c, 'ann', { exchangeId: 'x-kudos', categoryId: 'c-teamwork', recipients: ['bob', 'carol'], points: 10 });
      const after = await budget(c, 'ann', 'x-kudos');
      expect(after).toEqual({ amount: 100, used: 20, remaining: 80, period: 'month', resetsAt: '2026-07-01T04:00:00.000Z' });
      expect(gift.budget).toEqual(after);
      now += MINUTE;
      await give(c, 'ann', { exchangeId: 'x-kudos', categoryId: 'c-help', recipientPoints: { bob: 7 } });
      expect(await budget(c, 'ann', 'x-kudos')).toMatchObject({ used: 27, remaining: 73 });
      // Another giver's budget, and another exchange's, are their own.
      expect(await budget(c, 'bob', 'x-kudos')).toMatchObject({ used: 0, remaining: 100 });
      expect(await budget(c, 'ann', 'x-team')).toMatchObject({ used: 0, remaining: 1000 });

      // The last millisecond of June in New York still counts the gifts; July starts afresh.
      now = Date.parse('2026-07-01T03:59:59.999Z');
      expect(await budget(c, 'ann', 'x-kudos', await t.token(c.site.app))).toMatchObject({ used: 27, remaining: 73, resetsAt: '2026-07-01T04:00:00.000Z' });
      now = Date.parse('2026-07-01T04:00:00Z');
      expect(await budget(c, 'ann', 'x-kudos', await t.token(c.site.app))).toEqual({
        amount: 100,
        used: 0,
        remaining: 100,
        period: 'month',
        resetsAt: '2026-08-01T04:00:00.000Z',
      });
    });

    it('never answers a negative remainder when the budget was lowered below what was used', async () => {
      const c = await setUp();
      await name(c, 'bob', { firstName: 'Bob' });
      await give(c, 'ann', { exchangeId: 'x-kudos', categoryId: 'c-teamwork', recipients: ['bob'], points: 40 });
      const lowered = { ...program, exchanges: program.exchanges.map((x) => (x.id === 'x-kudos' ? { ...x, budget: { amount: 25, period: 'month' } } : x)) };
      body(await call('PUT', '/admin/program', c.admin, lowered));
      expect(await budget(c, 'ann', 'x-kudos')).toEqual({ amount: 25, used: 40, remaining: 0, period: 'month', resetsAt: '2026-07-01T04:00:00.000Z' });
    });
  });

  describe('recipients', () => {
    /**
     * Known users of a site: profiles with names (and one with only an icon), a group member and a
     * user with only a logged action (no names), and names with LIKE's wildcards in them.
     */
    const people = async (): Promise<Ctx> => {
      const c = await setUp();
      await name(c, 'ann', { firstName: 'Ann', lastName: 'Lee' });
      await name(c, 'bob', { firstName: 'Bob', lastName: 'Marley', team: 'blue' });
      await name(c, 'carol', { firstName: 'Carol', lastName: 'Anders' });
      await name(c, 'joanna', { firstName: 'Joanna', lastName: 'Smith', iconUrl: 'https://cdn.example/joanna.png' });
      await name(c, 'pct', { firstName: 'Fifty', lastName: '50%_off' });
      await name(c, 'under', { firstName: 'Under', lastName: 'Score' });
      await name(c, 'zed', { iconUrl: 'https://cdn.example/zed.png' });
      await join(c, 'g-other', 'anna.k');
      await join(c, 'g-team', 'dave');
      await join(c, 'g-team', 'bob');
      await act(c, 'eve');
      return c;
    };
    const everyone = [
      person('bob', 'Bob', 'Marley'),
      person('carol', 'Carol', 'Anders'),
      person('pct', 'Fifty', '50%_off'),
      person('joanna', 'Joanna', 'Smith', 'https://cdn.example/joanna.png'),
      person('under', 'Under', 'Score'),
      person('anna.k'),
      person('dave'),
      person('eve'),
      person('zed', null, null, 'https://cdn.example/zed.png'),
    ];
    let c: Ctx;
    beforeAll(async () => {
      now = START;
      c = await people();
    });

    it('lists every known user but the giver: named ones by name, then the others by user id', async () => {
      const { items, total, response } = await recipients(c, 'ann', 'x-kudos');
      expect(items).toEqual(everyone);
      expect(total).toBe(everyone.length);
      expect(response.headers.deprecation).toBeUndefined();
      expect(response.headers.sunset).toBeUndefined();
      expect(response.headers.link).toBeUndefined();
      // Another giver sees ann, not themselves.
      const forBob = await recipients(c, 'bob', 'x-kudos');
      expect(ids(forBob.items)).toEqual(['ann', 'carol', 'pct', 'joanna', 'under', 'anna.k', 'dave', 'eve', 'zed']);
      expect(forBob.items[0]).toEqual(person('ann', 'Ann', 'Lee'));
      // A giver the site does not know yet sees everyone.
      expect(ids((await recipients(c, 'newcomer', 'x-kudos')).items)).toEqual(['ann', ...ids(everyone)]);
    });

    it('finds a user who set a name later under it, and one who removed it among the unnamed', async () => {
      const d = await people();
      await name(d, 'eve', { firstName: 'Eve', lastName: 'Adams' });
      await name(d, 'bob', { firstName: '', lastName: '' });
      expect(ids((await recipients(d, 'ann', 'x-kudos')).items)).toEqual(['carol', 'eve', 'pct', 'joanna', 'under', 'anna.k', 'bob', 'dave', 'zed']);
      expect(ids((await recipients(d, 'ann', 'x-kudos', 'q=adams')).items)).toEqual(['eve']);
      expect(ids((await recipients(d, 'ann', 'x-kudos', 'q=marley')).items)).toEqual([]);
      // Users of the same name, by user id.
      await name(d, 'bobby', { firstName: 'carol', lastName: 'ANDERS' });
      expect(ids((await recipients(d, 'ann', 'x-kudos', 'q=anders')).items)).toEqual(['bobby', 'carol']);
    });

    it.each<[string, string[]]>([
      ['ann', ['joanna', 'anna.k']],
      ['MARLEY', ['bob']],
      ['ob mar', ['bob']],
      ['%20bob%20', ['bob']],
      ['a', ['bob', 'carol', 'joanna', 'anna.k']],
      ['e', ['bob', 'carol', 'under', 'eve']],
      ['Eve', ['eve']],
      ['zed', ['zed']],
      ['anna.', ['anna.k']],
      // A user id matches from its start only; a name anywhere.
      ['ve', []],
      ['ed', []],
      ['ith', ['joanna']],
      ['lee', []],
      // LIKE's wildcards and escape character match themselves.
      ['%25', ['pct']],
      ['_', ['pct']],
      ['50%25_', ['pct']],
      ['b%25y', []],
      ['_nder', []],
      ['%5C', []],
      ['%5C%25', []],
      ['nobody', []],
    ])('q=%s', async (q, expected) => {
      const { items, total } = await recipients(c, 'ann', 'x-kudos', `q=${q}`);
      expect(ids(items)).toEqual(expected);
      expect(total).toBe(expected.length);
    });

    it('treats an empty q as no search, and refuses one longer than 255 characters', async () => {
      expect((await recipients(c, 'ann', 'x-kudos', 'q=')).items).toEqual(everyone);
      expect(await recipients(c, 'ann', 'x-kudos', `q=${'a'.repeat(255)}`)).toMatchObject({ items: [], total: 0 });
      expectProblem(await call('GET', `/users/ann/exchanges/x-kudos/recipients?q=${'a'.repeat(256)}`, c.app), 400, 'validation_failed');
    });

    it('matches user ids case-insensitively', async () => {
      const d = await setUp();
      await act(d, 'Quinn');
      await act(d, 'quentin');
      expect(ids((await recipients(d, 'ann', 'x-kudos', 'q=QUI')).items)).toEqual(['Quinn']);
      expect(ids((await recipients(d, 'ann', 'x-kudos', 'q=qu')).items).sort()).toEqual(['Quinn', 'quentin']);
    });

    it('pages with limit and offset, the total in X-Total-Count', async () => {
      const page = async (query: string) => {
        const { items, total } = await recipients(c, 'ann', 'x-kudos', query);
        expect(total).toBe(everyone.length);
        return ids(items);
      };
      expect(await page('limit=2')).toEqual(['bob', 'carol']);
      expect(await page('limit=2&offset=2')).toEqual(['pct', 'joanna']);
      expect(await page('limit=3&offset=4')).toEqual(['under', 'anna.k', 'dave']);
      expect(await page('offset=8')).toEqual(['zed']);
      expect(await page('offset=9')).toEqual([]);
      expect(await page('offset=100&limit=500')).toEqual([]);
      expect(await page('limit=500')).toEqual(ids(everyone));
      // Paging a search: its own total.
      const searched = await recipients(c, 'ann', 'x-kudos', 'q=a&limit=2&offset=1');
      expect(ids(searched.items)).toEqual(['carol', 'joanna']);
      expect(searched.total).toBe(4);

      for (const query of ['limit=0', 'limit=501', 'offset=-1', 'limit=abc']) {
        expectProblem(await call('GET', `/users/ann/exchanges/x-kudos/recipients?${query}`, c.app), 400, 'validation_failed');
      }
    });

    it('accepts and ignores the deprecated preferences parameter, with deprecation headers', async () => {
      for (const query of ['', 'q=a', 'limit=2&offset=1']) {
        const plain = await recipients(c, 'ann', 'x-kudos', query);
        for (const value of ['anything', 'firstName,lastName', '']) {
          const deprecated = await recipients(c, 'ann', 'x-kudos', `${query}${query === '' ? '' : '&'}preferences=${value}`);
          expect(deprecated.items).toEqual(plain.items);
          expect(deprecated.total).toBe(plain.total);
          const headers = deprecated.response.headers;
          expect(headers.deprecation).toBe('@1687910400');
          expect(headers.sunset).toBe('Thu, 30 Nov 2023 00:00:00 GMT');
          expect(headers.link).toContain('rel="successor-version"');
          expect(headers.link).toContain('</users/ann/exchanges/x-kudos/recipients>');
        }
      }
    });

    it("lists only members of the exchange's recipient groups", async () => {
      expect((await recipients(c, 'ann', 'x-team')).items).toEqual([person('bob', 'Bob', 'Marley'), person('dave')]);
      expect(ids((await recipients(c, 'ann', 'x-team', 'q=dav')).items)).toEqual(['dave']);
      expect(ids((await recipients(c, 'ann', 'x-team', 'q=carol')).items)).toEqual([]);
      // A member giving does not see themselves.
      expect((await recipients(c, 'bob', 'x-team')).items).toEqual([person('dave')]);
      const d = await people();
      await join(d, 'g-team', 'ann');
      await join(d, 'g-team', 'carol');
      const { items, total } = await recipients(d, 'bob', 'x-team');
      expect(ids(items)).toEqual(['ann', 'carol', 'dave']);
      expect(total).toBe(3);
      expect(ids((await recipients(d, 'ann', 'x-team', 'limit=1&offset=1')).items)).toEqual(['carol']);
    });

    it('answers 404 for an unknown exchange', async () => {
      expectProblem(await call('GET', '/users/ann/exchanges/x-nope/recipients', c.app), 404, 'not_found');
    });

    it("never lists another site's users, nor its names", async () => {
      const other = await setUp();
      await name(other, 'mallory', { firstName: 'Mallory', lastName: 'Evil' });
      await name(other, 'bob', { firstName: 'Robert', lastName: 'Other' });
      await act(other, 'sam');
      await join(other, 'g-team', 'trent');
      expect((await recipients(c, 'ann', 'x-kudos')).items).toEqual(everyone);
      for (const q of ['mallory', 'evil', 'robert', 'sam', 'trent']) expect((await recipients(c, 'ann', 'x-kudos', `q=${q}`)).items, q).toEqual([]);
      expect((await recipients(c, 'ann', 'x-team')).items).toEqual([person('bob', 'Bob', 'Marley'), person('dave')]);
      // And the other site sees only its own.
      expect((await recipients(other, 'ann', 'x-kudos')).items).toEqual([
        person('mallory', 'Mallory', 'Evil'),
        person('bob', 'Robert', 'Other'),
        person('sam'),
        person('trent'),
      ]);
    });
  });

  describe('interactions', () => {
    let c: Ctx;
    const gifts: Record<'g1' | 'g2' | 'g3' | 'g4', GivenRecognition> = {} as never;
    const ann = person('ann', 'Ann', 'Lee');
    const bob = person('bob', 'Bob', 'Marley', 'https://cdn.example/bob.png');
    const carol = person('carol', 'Carol', null);

    beforeAll(async () => {
      now = START;
      c = await setUp();
      await name(c, 'ann', { firstName: 'Ann', lastName: 'Lee' });
      await name(c, 'bob', { firstName: 'Bob', lastName: 'Marley', iconUrl: 'https://cdn.example/bob.png' });
      await name(c, 'carol', { firstName: 'Carol' });
      await act(c, 'dave');
      await join(c, 'g-team', 'bob');
      gifts.g1 = await give(c, 'ann', { exchangeId: 'x-kudos', categoryId: 'c-teamwork', recipients: ['carol', 'bob'], points: 5, comment: 'Great sprint 🎉' });
      now = START + MINUTE;
      gifts.g2 = await give(c, 'bob', { exchangeId: 'x-kudos', categoryId: 'c-help', recipients: ['ann'], points: 10 });
      now = START + 2 * MINUTE;
      gifts.g3 = await give(c, 'carol', { exchangeId: 'x-team', categoryId: 'c-thanks', recipientPoints: { bob: 3 }, comment: 'ty' });
      // A giver without a profile.
      now = START + 3 * MINUTE;
      gifts.g4 = await give(c, 'stranger', { exchangeId: 'x-kudos', categoryId: 'c-teamwork', recipientPoints: 'carol:2,ann:4' });
    });

    const g1Given: Interaction = {
      id: '',
      type: 'given',
      exchangeId: 'x-kudos',
      category: { id: 'c-teamwork', name: 'Teamwork' },
      comment: 'Great sprint 🎉',
      giver: ann,
      recipients: [
        { ...bob, points: 5 },
        { ...carol, points: 5 },
      ],
      points: 10,
      givenAt: iso(START),
    };

    it('lists what the user gave and received, newest first, with names, categories and amounts', async () => {
      const { items, total } = await interactions(c, 'ann');
      expect(total).toBe(3);
      expect(items).toEqual([
        {
          id: gifts.g4.id,
          type: 'received',
          exchangeId: 'x-kudos',
          category: { id: 'c-teamwork', name: 'Teamwork' },
          comment: '',
          giver: person('stranger'),
          recipients: [
            { ...ann, points: 4 },
            { ...carol, points: 2 },
          ],
          points: 6,
          pointsReceived: 4,
          givenAt: iso(START + 3 * MINUTE),
        },
        {
          id: gifts.g2.id,
          type: 'received',
          exchangeId: 'x-kudos',
          category: { id: 'c-help', name: 'Helpfulness' },
          comment: '',
          giver: bob,
          recipients: [{ ...ann, points: 10 }],
          points: 10,
          pointsReceived: 10,
          givenAt: iso(START + MINUTE),
        },
        { ...g1Given, id: gifts.g1.id },
      ]);
      // A given one says nothing of points received.
      expect(items[2]).not.toHaveProperty('pointsReceived');
      // type=all is the default.
      expect((await interactions(c, 'ann', 'type=all')).items).toEqual(items);
    });

    it('filters by type', async () => {
      const given = await interactions(c, 'ann', 'type=given');
      expect(given.items).toEqual([{ ...g1Given, id: gifts.g1.id }]);
      expect(given.total).toBe(1);
      const received = await interactions(c, 'ann', 'type=received');
      expect(received.items.map((i) => [i.id, i.type, i.pointsReceived])).toEqual([
        [gifts.g4.id, 'received', 4],
        [gifts.g2.id, 'received', 10],
      ]);
      expect(received.total).toBe(2);

      const bobs = await interactions(c, 'bob');
      expect(bobs.items.map((i) => [i.id, i.type, i.pointsReceived])).toEqual([
        [gifts.g3.id, 'received', 3],
        [gifts.g2.id, 'given', undefined],
        [gifts.g1.id, 'received', 5],
      ]);
      expect(bobs.items[0]).toMatchObject({ exchangeId: 'x-team', category: { id: 'c-thanks', name: 'Thanks' }, comment: 'ty', giver: carol, points: 3 });
      expect((await interactions(c, 'bob', 'type=given')).items.map((i) => i.id)).toEqual([gifts.g2.id]);
      expect((await interactions(c, 'bob', 'type=received')).items.map((i) => i.id)).toEqual([gifts.g3.id, gifts.g1.id]);
      expect((await interactions(c, 'stranger', 'type=given')).items.map((i) => i.id)).toEqual([gifts.g4.id]);
      expect((await interactions(c, 'stranger', 'type=received')).items).toEqual([]);
    });

    it('answers an empty list for a user with no recognitions', async () => {
      for (const user of ['dave', 'nobody']) {
        for (const type of ['all', 'given', 'received']) expect(await interactions(c, user, `type=${type}`)).toEqual({ items: [], total: 0 });
      }
    });

    it('pages with limit and offset, the total in X-Total-Count', async () => {
      const page = async (user: string, query: string) => {
        const { items, total } = await interactions(c, user, query);
        return { ids: items.map((i) => i.id), total };
      };
      expect(await page('bob', 'limit=1')).toEqual({ ids: [gifts.g3.id], total: 3 });
      expect(await page('bob', 'limit=1&offset=1')).toEqual({ ids: [gifts.g2.id], total: 3 });
      expect(await page('bob', 'limit=2&offset=1')).toEqual({ ids: [gifts.g2.id, gifts.g1.id], total: 3 });
      expect(await page('bob', 'offset=3')).toEqual({ ids: [], total: 3 });
      expect(await page('bob', 'type=received&limit=1&offset=1')).toEqual({ ids: [gifts.g1.id], total: 2 });
      expect(await page('carol', 'type=received&limit=1')).toEqual({ ids: [gifts.g4.id], total: 2 });
      for (const query of ['limit=0', 'limit=501', 'offset=-1'])
        expectProblem(await call('GET', `/users/bob/interactions-collection?${query}`, c.app), 400, 'validation_failed');
    });

    it('refuses an unknown type', async () => {
      for (const type of ['bogus', 'GIVEN', ''])
        expectProblem(await call('GET', `/users/ann/interactions-collection?type=${type}`, c.app), 400, 'validation_failed');
    });

    it('orders gifts given in the same millisecond newest first, and shows a removed category by its id', async () => {
      const d = await setUp();
      await name(d, 'bob', { firstName: 'Bob' });
      now = START + 10 * MINUTE;
      const first = await give(d, 'ann', { exchangeId: 'x-kudos', categoryId: 'c-help', recipients: ['bob'], points: 1 });
      const second = await give(d, 'ann', { exchangeId: 'x-kudos', categoryId: 'c-teamwork', recipients: ['bob'], points: 2 });
      expect((await interactions(d, 'ann')).items.map((i) => i.id)).toEqual([second.id, first.id]);
      expect((await interactions(d, 'bob', 'type=received')).items.map((i) => i.id)).toEqual([second.id, first.id]);

      const withoutHelp = {
        ...program,
        exchanges: program.exchanges.map((x) => (x.id === 'x-kudos' ? { ...x, categories: [{ id: 'c-teamwork', name: 'Team work' }] } : x)),
      };
      body(await call('PUT', '/admin/program', d.admin, withoutHelp));
      expect((await interactions(d, 'ann')).items.map((i) => i.category)).toEqual([
        { id: 'c-teamwork', name: 'Team work' },
        { id: 'c-help', name: 'c-help' },
      ]);
    });

    it('shows names changed after the gift as they are now', async () => {
      const d = await setUp();
      await name(d, 'bob', { firstName: 'Bob' });
      await give(d, 'ann', { exchangeId: 'x-kudos', categoryId: 'c-help', recipients: ['bob'], points: 1 });
      expect((await interactions(d, 'ann')).items[0]?.recipients).toEqual([{ ...person('bob', 'Bob'), points: 1 }]);
      await name(d, 'bob', { firstName: 'Robert', lastName: 'B' });
      await name(d, 'ann', { firstName: 'Ann' });
      const [item] = (await interactions(d, 'ann')).items;
      expect(item?.recipients).toEqual([{ ...person('bob', 'Robert', 'B'), points: 1 }]);
      expect(item?.giver).toEqual(person('ann', 'Ann'));
    });
  });

  describe('who may read', () => {
    let c: Ctx;
    beforeAll(async () => {
      now = START;
      c = await setUp();
      await name(c, 'bob', { firstName: 'Bob' });
      await give(c, 'ann', { exchangeId: 'x-kudos', categoryId: 'c-help', recipients: ['bob'], points: 1 });
    });
    const paths = (user: string) => [
      `/users/${user}/exchanges`,
      `/users/${user}/exchanges/x-kudos`,
      `/users/${user}/exchanges/x-kudos/categories`,
      `/users/${user}/exchanges/x-kudos/points`,
      `/users/${user}/exchanges/x-kudos/recipients`,
      `/users/${user}/exchanges/x-kudos/recipients?preferences=x`,
      `/users/${user}/interactions-collection`,
      `/users/${user}/interactions-collection?type=received`,
    ];

    it("lets a user-level token read its own user's recognitions, and nobody else's", async () => {
      const annToken = await t.token(c.site.app, 'ann');
      for (const path of paths('ann')) expect((await call('GET', path, annToken)).statusCode, path).toBe(200);
      expect(ids((await recipients(c, 'ann', 'x-kudos', '', annToken)).items)).toEqual(['bob']);
      expect((await interactions(c, 'ann', '', annToken)).total).toBe(1);
      for (const path of paths('bob')) expectProblem(await call('GET', path, annToken), 403, 'forbidden');
    });

    it('answers 401 without a token, and 401 for a token that is not one', async () => {
      for (const path of paths('ann')) {
        const response = await call('GET', path);
        expect(response.statusCode, path).toBe(401);
        expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
        expect((await call('GET', path, 'not-a-token')).statusCode, path).toBe(401);
      }
    });

    it("shows another site's token nothing of this site", async () => {
      const other = await t.createSite();
      const token = await t.token(other.app);
      expect(await exchanges(c, 'ann', token)).toEqual([]);
      for (const path of paths('ann').filter((p) => p.includes('x-kudos'))) expectProblem(await call('GET', path, token), 404, 'not_found');
      expect(await interactions(c, 'ann', '', token)).toEqual({ items: [], total: 0 });
      expect(await interactions(c, 'bob', '', token)).toEqual({ items: [], total: 0 });

      // With the same program installed, it sees its own exchange and nothing of this site's gifts or users.
      const same = await setUp();
      expect(await budget(same, 'ann', 'x-kudos')).toMatchObject({ used: 0, remaining: 100 });
      expect((await recipients(same, 'ann', 'x-kudos')).items).toEqual([]);
      expect(await interactions(same, 'ann')).toEqual({ items: [], total: 0 });
      expect(await budget(c, 'ann', 'x-kudos')).toMatchObject({ used: 1, remaining: 99 });
    });
  });
});
