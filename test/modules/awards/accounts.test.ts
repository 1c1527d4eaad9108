// Award accounts (SPEC §11, issue 10) through the HTTP API: credits mirrored from the award point
// category (missions, adjustments, recognitions; never groups, never other categories) in the
// transaction that moves the points, their reversal, holdDays, the balance in the site's currency,
// the statement, access, admin debits with award.debited and refunds, `questline verify`, and who
// may call what.
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import type { AwardBalance, Posted, StatementEntry } from '../../../src/modules/awards/service.js';
import { VerifyService } from '../../../src/modules/verify/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { expectBalancesMatchLedger } from '../../helpers/ledger.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';

// Noon in New York on 2026-06-15; the clock stays there unless a test moves it.
const NOON = Date.parse('2026-06-15T16:00:00Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

const SETTINGS = {
  pointCategory: 'Award',
  currency: 'USD',
  conversionRate: 0.01,
  marketplaces: [{ type: 'shop', urlTemplate: 'https://market.example/sso?token={token}' }],
};
const repeatable = { period: 'none', maxPerPeriod: 1000 };
/** `earn` pays 100 Award, `play` 10 Points, the group mission on `team` 50 Award; an Award exchange and a Points one. */
const PROGRAM = {
  site: { name: 'Awards', timezone: 'UTC' },
  pointCategories: [
    { name: 'Points', isDefault: true },
    { name: 'Award', isDefault: false },
  ],
  actions: [{ name: 'earn' }, { name: 'play' }, { name: 'team' }],
  groups: [{ id: 'g-team', name: 'Team' }],
  missions: [
    {
      id: 'm-earn',
      name: 'Earn',
      rules: [{ id: 'r-1', action: 'earn', type: 'count', goal: 1 }],
      rewards: { points: [{ category: 'Award', amount: 100 }] },
      repeatableWindow: repeatable,
    },
    {
      id: 'm-play',
      name: 'Play',
      rules: [{ id: 'r-1', action: 'play', type: 'count', goal: 1 }],
      rewards: { points: [{ category: 'Points', amount: 10 }] },
      repeatableWindow: repeatable,
    },
    {
      id: 'm-team',
      name: 'Team',
      party: 'group',
      rules: [{ id: 'r-1', action: 'team', type: 'count', goal: 1 }],
      rewards: { points: [{ category: 'Award', amount: 50 }] },
      repeatableWindow: repeatable,
    },
  ],
  exchanges: [
    { id: 'x-award', name: 'Award kudos', pointCategory: 'Award', budget: { amount: 1000, period: 'none' }, categories: [{ id: 'c-thanks', name: 'Thanks' }] },
    {
      id: 'x-points',
      name: 'Points kudos',
      pointCategory: 'Points',
      budget: { amount: 1000, period: 'none' },
      categories: [{ id: 'c-thanks', name: 'Thanks' }],
    },
  ],
};
/** PROGRAM with these award settings (none for null) and these site settings. */
const program = (settings: Record<string, unknown> | null = {}, site: Record<string, unknown> = {}) => ({
  ...PROGRAM,
  site: { ...PROGRAM.site, ...site },
  ...(settings === null ? {} : { awardSettings: { ...SETTINGS, ...settings } }),
});

/**
 * Notification URLs for sites whose award.debited events are looked at in the outbox only (an event
 * with no URL is not written): nothing listens there, so a dispatch round's attempt fails at once.
 */
const UNHEARD = { itemPurchaseNotifyUrl: 'http://127.0.0.1:9/purchase', giftNotifyUrl: 'http://127.0.0.1:9/gift' };

interface Ctx {
  site: TestSite;
  admin: string;
  app: string;
}
type Access = { marketplaceAccess: boolean; otsAccess: boolean; countryCode: string | null; verified: boolean; browseOnly: boolean };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

describe.each(configurations)('award accounts (%s)', (configuration) => {
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

  const call = (method: Method, url: string, token?: string, payload?: Record<string, unknown>) =>
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

  /** A site with the program; ann, bob and cat are known to it (profiles). */
  const setUp = async (p: Record<string, unknown> = program()): Promise<Ctx> => {
    const site = await t.createSite();
    const c = { site, admin: await t.token(site.admin), app: await t.token(site.app) };
    body(await call('PUT', '/admin/program', c.admin, p));
    for (const user of ['ann', 'bob', 'cat']) body(await call('PUT', `/users/${user}/preferences`, c.app, { firstName: user, lastName: 'Test' }));
    return c;
  };
  /** Moves the clock, with fresh tokens (they last a day). */
  const moveTo = async (c: Ctx, at: number) => {
    now = at;
    c.admin = await t.token(c.site.admin);
    c.app = await t.token(c.site.app);
  };
  const log = async (c: Ctx, user: string, action: string, eventId: string) =>
    body<ActionOutcome>(await call('POST', `/users/${user}/actions`, c.app, { action, eventId }), 201);
  /** Logs `earn` (100 Award): the completion id. */
  const earn = async (c: Ctx, user: string, eventId: string) => {
    const outcome = await log(c, user, 'earn', eventId);
    expect(outcome.missionsCompleted.map((m) => m.id)).toEqual(['m-earn']);
    return outcome.missionsCompleted[0]?.completionId as string;
  };
  const adjust = async (c: Ctx, user: string, amount: number, category = 'Award', reason = 'Correction') =>
    body<{ entryId: string }>(await call('POST', `/admin/users/${user}/points`, c.admin, { category, amount, reason }), 201).entryId;
  const reverse = async (c: Ctx, user: string, eventId: string) => body(await call('DELETE', `/users/${user}/actions/${eventId}`, c.admin));
  const points = async (c: Ctx, user: string, category = 'Award') =>
    body<{ categories: Array<{ id: string; balance: number }> }>(await call('GET', `/users/${user}/point-balance`, c.app)).categories.find(
      (x) => x.id === category,
    )?.balance ?? 0;
  const balance = async (c: Ctx, user: string, token = c.app) => body<AwardBalance>(await call('GET', `/users/${user}/award-balance`, token));
  const statement = async (c: Ctx, user: string, query = '', token = c.app) => {
    const response = await call('GET', `/users/${user}/award-statement${query}`, token);
    return { entries: body<StatementEntry[]>(response), total: Number(response.headers['x-total-count']) };
  };
  const access = async (c: Ctx, user: string, token = c.app) => body<Access>(await call('GET', `/users/${user}/award-access`, token));
  const patchAccess = (c: Ctx, user: string, change: Record<string, unknown>, token = c.admin) =>
    call('PATCH', `/admin/users/${user}/award-access`, token, change);
  const debit = (c: Ctx, user: string, payload: Record<string, unknown>, token = c.admin) => call('POST', `/admin/users/${user}/award-debits`, token, payload);
  const refund = (c: Ctx, user: string, entryId: string, token = c.admin) => call('POST', `/admin/users/${user}/award-debits/${entryId}/refund`, token);
  const settings = async (c: Ctx, change: Record<string, unknown>) => body(await call('PUT', '/admin/award-settings', c.admin, { ...SETTINGS, ...change }));
  const give = async (c: Ctx, giver: string, exchangeId: string, recipient: string, amount: number) =>
    body<{ id: string }>(
      await call('POST', `/users/${giver}/interactions-collection`, c.app, { exchangeId, categoryId: 'c-thanks', recipients: [recipient], points: amount }),
      201,
    ).id;
  /** The site's award rows and outbox events, and ann's access: everything a refused call must leave alone. */
  const state = async (c: Ctx) => ({
    ledger: await t.database.db.selectFrom('award_ledger').selectAll().where('site_id', '=', c.site.siteId).orderBy('entry_id').execute(),
    accounts: await t.database.db.selectFrom('award_accounts').selectAll().where('site_id', '=', c.site.siteId).orderBy('user_id').execute(),
    outbox: (await t.database.db.selectFrom('outbox').select('event_id').where('site_id', '=', c.site.siteId).execute()).length,
  });
  const debitedEvents = async (c: Ctx) =>
    (
      await t.database.db
        .selectFrom('outbox')
        .select('payload')
        .where('site_id', '=', c.site.siteId)
        .where('event_type', '=', 'award.debited')
        .orderBy('sequence')
        .execute()
    ).map((row) => JSON.parse(row.payload as string) as { eventType: string; data: Record<string, unknown> });
  const drift = async (c: Ctx) => (await new VerifyService(t.database.db, t.app.services.programs).verify([c.site.siteId])).drift;
  const expectConsistent = async (c: Ctx) => {
    await expectBalancesMatchLedger(t.database.db, c.site.siteId);
    expect(await drift(c)).toEqual([]);
  };
  /** Each entry's balance is the sum of the amounts up to it (the statement is newest first). */
  const expectRunning = (entries: StatementEntry[]) => {
    let running = 0;
    for (const entry of [...entries].reverse()) {
      running += entry.amount;
      expect(entry.balance, entry.entryId).toBe(running);
    }
  };

  describe('credits from points', () => {
    it('a mission paying Award points credits the account, referring to the completion, as the points balance moves', async () => {
      const c = await setUp();
      const dry = await call('POST', '/users/ann/actions?dryRun=true', c.app, { action: 'earn', eventId: 'e-dry' });
      expect(dry.statusCode, dry.body).toBeLessThan(300);
      expect((await statement(c, 'ann')).total).toBe(0);

      const completionId = await earn(c, 'ann', 'e-1');
      expect(await points(c, 'ann')).toBe(100);
      expect(await balance(c, 'ann')).toEqual({ available: 100, pending: 0, currency: 'USD', conversionRate: 0.01, availableValue: 1 });
      const { entries, total } = await statement(c, 'ann');
      expect(total).toBe(1);
      expect(entries).toEqual([
        {
          entryId: expect.stringMatching(/^awd_/),
          kind: 'mission',
          amount: 100,
          balance: 100,
          reference: completionId,
          description: null,
          postedAt: iso(NOON),
          availableAt: iso(NOON),
        },
      ]);

      // Points in another category do nothing to the account.
      expect((await log(c, 'ann', 'play', 'p-1')).missionsCompleted.map((m) => m.id)).toEqual(['m-play']);
      await adjust(c, 'ann', 25, 'Points');
      expect(await points(c, 'ann', 'Points')).toBe(35);
      expect((await statement(c, 'ann')).total).toBe(1);
      expect((await balance(c, 'ann')).available).toBe(await points(c, 'ann'));
      await expectConsistent(c);
    });

    it('an admin adjustment in the award category is mirrored, credit or debit, referring to the adjustment', async () => {
      const c = await setUp();
      const credit = await adjust(c, 'ann', 40, 'award', 'Launch bonus');
      const correction = await adjust(c, 'ann', -15, 'Award', 'Too much');
      expect(await points(c, 'ann')).toBe(25);
      const { entries } = await statement(c, 'ann');
      expect(entries.map((e) => [e.kind, e.amount, e.balance, e.reference, e.description])).toEqual([
        ['adjustment', -15, 25, correction, 'Too much'],
        ['adjustment', 40, 40, credit, 'Launch bonus'],
      ]);
      expect(await balance(c, 'ann')).toMatchObject({ available: 25, pending: 0, availableValue: 0.25 });
      await expectConsistent(c);
    });

    it('a recognition received in the award exchange credits the recipient; one in another category does nothing', async () => {
      const c = await setUp();
      const gift = await give(c, 'ann', 'x-award', 'bob', 30);
      expect(await points(c, 'bob')).toBe(30);
      expect((await statement(c, 'bob')).entries).toEqual([expect.objectContaining({ kind: 'recognition', amount: 30, balance: 30, reference: gift })]);
      expect(await balance(c, 'bob')).toMatchObject({ available: 30, pending: 0 });
      // The giver's budget pays, not their account.
      expect((await statement(c, 'ann')).total).toBe(0);

      await give(c, 'ann', 'x-points', 'cat', 20);
      expect(await points(c, 'cat', 'Points')).toBe(20);
      expect((await statement(c, 'cat')).total).toBe(0);
      expect(await balance(c, 'cat')).toMatchObject({ available: 0, pending: 0 });
      await expectConsistent(c);
    });

    it('a group mission in the award category credits the group points but no award account', async () => {
      const c = await setUp();
      body(await call('PUT', '/admin/groups/g-team/members/ann', c.admin), 201);
      expect((await log(c, 'ann', 'team', 't-1')).missionsCompleted.map((m) => m.id)).toEqual(['m-team']);
      const groupCredits = await t.database.db
        .selectFrom('points_ledger')
        .select(['party_type', 'party_id', 'category', 'credited'])
        .where('site_id', '=', c.site.siteId)
        .execute();
      expect(groupCredits.map((r) => [r.party_type, r.party_id, r.category, Number(r.credited)])).toEqual([['group', 'g-team', 'Award', 50]]);
      expect((await state(c)).ledger).toEqual([]);
      expect(await balance(c, 'ann')).toMatchObject({ available: 0, pending: 0 });
      await expectConsistent(c);
    });
  });

  describe('reversals', () => {
    it('reversing the action that completed an award mission takes the credit back', async () => {
      const c = await setUp();
      const first = await earn(c, 'ann', 'e-1');
      now += 60_000;
      await earn(c, 'ann', 'e-2');
      now += 60_000;
      await reverse(c, 'ann', 'e-1');
      expect(await points(c, 'ann')).toBe(100);
      expect(await balance(c, 'ann')).toMatchObject({ available: 100, pending: 0 });
      const { entries } = await statement(c, 'ann');
      expect(entries[0]).toMatchObject({ kind: 'reversal', amount: -100, balance: 100, reference: first, postedAt: iso(now), availableAt: iso(now) });
      expect(entries.map((e) => e.kind)).toEqual(['reversal', 'mission', 'mission']);
      // Reversing again changes nothing.
      await reverse(c, 'ann', 'e-1');
      expect((await statement(c, 'ann')).total).toBe(3);
      await expectConsistent(c);
    });

    it('a completion made before the award settings existed takes nothing from the account when reversed after', async () => {
      const c = await setUp(program(null));
      await earn(c, 'ann', 'e-before');
      expect(await balance(c, 'ann')).toEqual({ available: 0, pending: 0, currency: null, conversionRate: null, availableValue: null });
      await settings(c, {});
      await earn(c, 'ann', 'e-after');
      await reverse(c, 'ann', 'e-before');
      expect(await points(c, 'ann')).toBe(100);
      expect(await balance(c, 'ann')).toMatchObject({ available: 100, pending: 0 });
      expect((await statement(c, 'ann')).entries.map((e) => [e.kind, e.amount])).toEqual([['mission', 100]]);
      await expectConsistent(c);
    });
    it('a reversal of a credit already spent takes the account below zero, which then spends nothing', async () => {
      const c = await setUp();
      await earn(c, 'ann', 'e-1');
      body(await debit(c, 'ann', { kind: 'purchase', amount: 100, reference: 'o-1' }), 201);
      await reverse(c, 'ann', 'e-1');
      expect(await balance(c, 'ann')).toMatchObject({ available: -100, pending: 0, availableValue: -1 });
      const before = await state(c);
      expectProblem(await debit(c, 'ann', { kind: 'gift', amount: 1, reference: 'g-1' }), 422, 'insufficient_award_balance');
      expect(await state(c)).toEqual(before);
      await expectConsistent(c);
    });

    // A reversal follows what the account got, not the settings as they are by then.
    const reversedAfter = async (change: (c: Ctx) => Promise<void>) => {
      const c = await setUp();
      await earn(c, 'ann', 'e-1');
      await change(c);
      await reverse(c, 'ann', 'e-1');
      await settings(c, {});
      expect(await points(c, 'ann')).toBe(0);
      expect(await balance(c, 'ann')).toMatchObject({ available: 0, pending: 0 });
      expect((await statement(c, 'ann')).entries.map((e) => [e.kind, e.amount])).toEqual([
        ['reversal', -100],
        ['mission', 100],
      ]);
    };
    it('takes back a credit the account had when the award settings were removed before the reversal', () =>
      reversedAfter(async (c) => expect((await call('DELETE', '/admin/award-settings', c.admin)).statusCode).toBe(204)));
    it('takes back a credit the account had when the award category changed before the reversal', () =>
      reversedAfter(async (c) => void (await settings(c, { pointCategory: 'Points' }))));
  });

  describe('holdDays', () => {
    it('holds a credit for holdDays: pending, not spendable, then available', async () => {
      const c = await setUp(program({ holdDays: 3 }));
      await earn(c, 'ann', 'e-1');
      expect(await balance(c, 'ann')).toMatchObject({ available: 0, pending: 100, availableValue: 0 });
      expect((await statement(c, 'ann')).entries).toEqual([
        expect.objectContaining({ kind: 'mission', postedAt: iso(NOON), availableAt: iso(NOON + 3 * DAY) }),
      ]);

      const before = await state(c);
      expectProblem(await debit(c, 'ann', { kind: 'purchase', amount: 1, reference: 'o-early' }), 422, 'insufficient_award_balance');
      expect(await state(c)).toEqual(before);

      await moveTo(c, NOON + 3 * DAY - 1);
      expect(await balance(c, 'ann')).toMatchObject({ available: 0, pending: 100 });
      await moveTo(c, NOON + 3 * DAY + 1);
      expect(await balance(c, 'ann')).toMatchObject({ available: 100, pending: 0, availableValue: 1 });
      expect(body<Posted>(await debit(c, 'ann', { kind: 'purchase', amount: 60, reference: 'o-later' }), 201).balance).toMatchObject({
        available: 40,
        pending: 0,
      });
      await expectConsistent(c);
    });

    it('reversing a pending credit leaves available as it is and drops pending; an admin debit cannot spend pending points', async () => {
      const c = await setUp(program({ holdDays: 3 }));
      await earn(c, 'ann', 'e-1');
      await moveTo(c, NOON + 4 * DAY);
      await earn(c, 'ann', 'e-2');
      await adjust(c, 'ann', 30);
      expect(await balance(c, 'ann')).toMatchObject({ available: 100, pending: 130 });

      const before = await state(c);
      expectProblem(await debit(c, 'ann', { kind: 'gift', amount: 101, reference: 'g-1' }), 422, 'insufficient_award_balance');
      expect(await state(c)).toEqual(before);

      await moveTo(c, NOON + 5 * DAY);
      await reverse(c, 'ann', 'e-2');
      expect(await balance(c, 'ann')).toMatchObject({ available: 100, pending: 30 });
      const [reversal] = (await statement(c, 'ann')).entries;
      expect(reversal).toMatchObject({ kind: 'reversal', amount: -100, postedAt: iso(NOON + 5 * DAY), availableAt: iso(NOON + 7 * DAY) });
      // Once the hold is over, the credit and its reversal cancel out.
      await moveTo(c, NOON + 8 * DAY);
      expect(await balance(c, 'ann')).toMatchObject({ available: 130, pending: 0 });
      await expectConsistent(c);
    });
  });

  describe('balance and statement', () => {
    it('values the available points in the currency, to its minor unit; null without award settings', async () => {
      const usd = await setUp();
      await adjust(usd, 'ann', 1234);
      expect(await balance(usd, 'ann')).toEqual({ available: 1234, pending: 0, currency: 'USD', conversionRate: 0.01, availableValue: 12.34 });

      const yen = await setUp(program({ currency: 'JPY', conversionRate: 1.25 }));
      await adjust(yen, 'ann', 7);
      expect(await balance(yen, 'ann')).toEqual({ available: 7, pending: 0, currency: 'JPY', conversionRate: 1.25, availableValue: 9 });

      const none = await setUp(program(null));
      await adjust(none, 'ann', 50);
      expect(await balance(none, 'ann')).toEqual({ available: 0, pending: 0, currency: null, conversionRate: null, availableValue: null });
      expect(await statement(none, 'ann')).toEqual({ entries: [], total: 0 });
    });

    it('lists entries newest first with their running balance, paged, with X-Total-Count', async () => {
      const c = await setUp();
      await adjust(c, 'ann', 500);
      now += 60_000;
      await earn(c, 'ann', 'e-1');
      now += 60_000;
      const purchase = body<Posted>(await debit(c, 'ann', { kind: 'purchase', amount: 120, reference: 'o-1' }), 201).entry;
      now += 60_000;
      await adjust(c, 'ann', -30);
      now += 60_000;
      body(await refund(c, 'ann', purchase.entryId), 201);

      const all = await statement(c, 'ann');
      expect(all.total).toBe(5);
      expect(all.entries.map((e) => [e.kind, e.amount, e.balance])).toEqual([
        ['refund', 120, 570],
        ['adjustment', -30, 450],
        ['purchase', -120, 480],
        ['mission', 100, 600],
        ['adjustment', 500, 500],
      ]);
      expect(all.entries.map((e) => e.postedAt)).toEqual([4, 3, 2, 1, 0].map((m) => iso(NOON + m * 60_000)));
      expectRunning(all.entries);

      const page = await statement(c, 'ann', '?limit=2&offset=1');
      expect(page.total).toBe(5);
      expect(page.entries).toEqual(all.entries.slice(1, 3));
      expect(await statement(c, 'ann', '?offset=5')).toEqual({ entries: [], total: 5 });
      expect((await balance(c, 'ann')).available).toBe(570);
      await expectConsistent(c);
    });
    it('concurrent credits and debits keep the running balance exact and never overspend', async () => {
      const c = await setUp(program({}, UNHEARD));
      await adjust(c, 'ann', 300);
      const responses = await Promise.all([
        ...Array.from({ length: 6 }, (_, i) => call('POST', '/users/ann/actions', c.app, { action: 'earn', eventId: `c-${i}` })),
        ...Array.from({ length: 6 }, (_, i) => debit(c, 'ann', { kind: 'purchase', amount: 150, reference: `o-${i}` })),
      ]);
      expect(responses.slice(0, 6).map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201, 201]);
      const debits = responses.slice(6).map((r) => r.statusCode);
      const debited = debits.filter((s) => s === 201).length;
      expect(
        debits.every((s) => s === 201 || s === 422),
        JSON.stringify(debits),
      ).toBe(true);
      expect(debited).toBeGreaterThanOrEqual(2);
      const { entries, total } = await statement(c, 'ann', '?limit=500');
      expect(total).toBe(1 + 6 + debited);
      expectRunning(entries);
      expect(entries.every((e) => e.balance >= 0)).toBe(true);
      expect(await balance(c, 'ann')).toMatchObject({ available: 900 - 150 * debited, pending: 0 });
      expect(await debitedEvents(c)).toHaveLength(debited);
      await expectConsistent(c);
    });
  });

  describe('access', () => {
    it('PATCH sets the country and verification, keeping what is left out; null clears the country', async () => {
      const c = await setUp(program({ allowedCountries: ['US', 'CA'], verificationRequired: true }));
      expect(await access(c, 'ann')).toEqual({ marketplaceAccess: true, otsAccess: false, countryCode: null, verified: false, browseOnly: true });
      expect(body<Access>(await patchAccess(c, 'ann', { countryCode: 'US' }))).toEqual({
        marketplaceAccess: true,
        otsAccess: false,
        countryCode: 'US',
        verified: false,
        browseOnly: true,
      });
      expect(body<Access>(await patchAccess(c, 'ann', { verified: true }))).toEqual({
        marketplaceAccess: true,
        otsAccess: true,
        countryCode: 'US',
        verified: true,
        browseOnly: false,
      });
      expect(await access(c, 'ann')).toMatchObject({ countryCode: 'US', verified: true, otsAccess: true });
      // Not an allowed country; then no country while the list is set.
      expect(body<Access>(await patchAccess(c, 'ann', { countryCode: 'FR' }))).toMatchObject({
        countryCode: 'FR',
        verified: true,
        otsAccess: false,
        browseOnly: true,
      });
      expect(body<Access>(await patchAccess(c, 'ann', { countryCode: null }))).toMatchObject({
        countryCode: null,
        verified: true,
        otsAccess: false,
        browseOnly: true,
      });
      expect(body<Access>(await patchAccess(c, 'ann', {}))).toMatchObject({ countryCode: null, verified: true });

      for (const countryCode of ['us', 'USA']) {
        const before = await state(c);
        expectProblem(await patchAccess(c, 'ann', { countryCode }), 400, 'validation_failed');
        expect(await state(c)).toEqual(before);
      }
      // Access does not touch the balance.
      expect(await balance(c, 'ann')).toMatchObject({ available: 0, pending: 0 });
    });

    it('decides otsAccess and browseOnly from the settings and the standing', async () => {
      const c = await setUp();
      const check = async (
        change: Record<string, unknown>,
        standing: Record<string, unknown>,
        expected: Pick<Access, 'marketplaceAccess' | 'otsAccess' | 'browseOnly'>,
      ) => {
        await settings(c, change);
        body(await patchAccess(c, 'ann', standing));
        expect(await access(c, 'ann'), JSON.stringify([change, standing])).toMatchObject(expected);
      };
      // Not verified where verification is required.
      await check(
        { allowedCountries: ['US'], verificationRequired: true },
        { countryCode: 'US', verified: false },
        { marketplaceAccess: true, otsAccess: false, browseOnly: true },
      );
      await check(
        { allowedCountries: ['US'], verificationRequired: false },
        { countryCode: 'US', verified: false },
        { marketplaceAccess: true, otsAccess: true, browseOnly: false },
      );
      // A country that is not allowed; no country while some are.
      await check({ allowedCountries: ['US', 'GB'] }, { countryCode: 'DE', verified: true }, { marketplaceAccess: true, otsAccess: false, browseOnly: true });
      await check({ allowedCountries: ['US', 'GB'] }, { countryCode: null }, { marketplaceAccess: true, otsAccess: false, browseOnly: true });
      // No allowed countries: every country, and none.
      await check({ allowedCountries: [] }, { countryCode: null, verified: false }, { marketplaceAccess: true, otsAccess: true, browseOnly: false });
      await check({ allowedCountries: [] }, { countryCode: 'DE' }, { marketplaceAccess: true, otsAccess: true, browseOnly: false });
      // No marketplaces: nothing to browse, so never browse-only.
      await check({ marketplaces: [], allowedCountries: ['US'] }, { countryCode: 'DE' }, { marketplaceAccess: false, otsAccess: false, browseOnly: false });
      await check({ marketplaces: [], allowedCountries: [] }, {}, { marketplaceAccess: false, otsAccess: true, browseOnly: false });
      // No settings at all.
      expect((await call('DELETE', '/admin/award-settings', c.admin)).statusCode).toBe(204);
      expect(await access(c, 'ann')).toEqual({ marketplaceAccess: false, otsAccess: false, countryCode: 'DE', verified: false, browseOnly: false });
      expect(await access(c, 'bob')).toEqual({ marketplaceAccess: false, otsAccess: false, countryCode: null, verified: false, browseOnly: false });
    });
  });

  describe('admin debits and refunds', () => {
    it('debits a purchase and a gift, at most what is available, once per reference, with an award.debited event', async () => {
      const c = await setUp(program({}, UNHEARD));
      await adjust(c, 'ann', 500);
      const purchase = body<Posted>(await debit(c, 'ann', { kind: 'purchase', amount: 250, reference: 'order-1138', description: 'Headphones' }), 201);
      expect(purchase).toEqual({
        entry: {
          entryId: expect.stringMatching(/^awd_/),
          kind: 'purchase',
          amount: -250,
          balance: 250,
          reference: 'order-1138',
          description: 'Headphones',
          postedAt: iso(NOON),
          availableAt: iso(NOON),
        },
        balance: { available: 250, pending: 0, currency: 'USD', conversionRate: 0.01, availableValue: 2.5 },
        duplicate: false,
      });
      const gift = body<Posted>(await debit(c, 'ann', { kind: 'gift', amount: 50, reference: 'gift-7' }), 201);
      expect(gift.entry).toMatchObject({ kind: 'gift', amount: -50, balance: 200, description: null });

      const events = await debitedEvents(c);
      expect(events).toEqual([
        expect.objectContaining({
          eventType: 'award.debited',
          data: {
            user: { userId: 'ann' },
            kind: 'purchase',
            entryId: purchase.entry.entryId,
            amount: 250,
            reference: 'order-1138',
            description: 'Headphones',
            currency: 'USD',
            value: 2.5,
            balance: { available: 250, pending: 0 },
          },
        }),
        expect.objectContaining({
          data: {
            user: { userId: 'ann' },
            kind: 'gift',
            entryId: gift.entry.entryId,
            amount: 50,
            reference: 'gift-7',
            description: null,
            currency: 'USD',
            value: 0.5,
            balance: { available: 200, pending: 0 },
          },
        }),
      ]);

      // More than available, a retry, a retry with another amount: nothing changes.
      let before = await state(c);
      expectProblem(await debit(c, 'ann', { kind: 'purchase', amount: 201, reference: 'order-big' }), 422, 'insufficient_award_balance');
      expect(await state(c)).toEqual(before);
      // A retry is answered as the first debit even though 250 is no longer available.
      const again = body<Posted>(await debit(c, 'ann', { kind: 'purchase', amount: 250, reference: 'order-1138', description: 'Headphones' }), 200);
      expect(again).toEqual({ entry: purchase.entry, balance: { ...purchase.balance, available: 200, availableValue: 2 }, duplicate: true });
      expectProblem(await debit(c, 'ann', { kind: 'purchase', amount: 251, reference: 'order-1138' }), 409, 'conflict');
      expect(await state(c)).toEqual(before);
      expect(await debitedEvents(c)).toHaveLength(2);

      // Refunds: once, then the same entry again; only debits can be refunded.
      const refunded = body<Posted>(await refund(c, 'ann', purchase.entry.entryId), 201);
      expect(refunded).toMatchObject({
        entry: { kind: 'refund', amount: 250, balance: 450, reference: purchase.entry.entryId, description: 'Headphones' },
        balance: { available: 450 },
        duplicate: false,
      });
      expect(body<Posted>(await refund(c, 'ann', purchase.entry.entryId), 200)).toMatchObject({ entry: refunded.entry, duplicate: true });
      before = await state(c);
      const adjustment = (await statement(c, 'ann')).entries.find((e) => e.kind === 'adjustment')?.entryId as string;
      for (const entryId of [adjustment, refunded.entry.entryId, 'awd_nothing']) expectProblem(await refund(c, 'ann', entryId), 404, 'not_found');
      // Another user's debit is not this user's.
      expectProblem(await refund(c, 'bob', gift.entry.entryId), 404, 'not_found');
      expect(await state(c)).toEqual(before);
      expect(await balance(c, 'ann')).toMatchObject({ available: 450 });
      await expectConsistent(c);
    });

    it('says "1 point", not "1 points", when it refuses a debit', async () => {
      const c = await setUp();
      await adjust(c, 'ann', 2);
      body(await debit(c, 'ann', { kind: 'gift', amount: 1, reference: 'g-1' }), 201);
      const over = await debit(c, 'ann', { kind: 'gift', amount: 2, reference: 'g-2' });
      expectProblem(over, 422, 'insufficient_award_balance');
      expect(over.json()).toMatchObject({ detail: 'The debit of 2 exceeds the 1 point available' });
      const retried = await debit(c, 'ann', { kind: 'gift', amount: 3, reference: 'g-1' });
      expectProblem(retried, 409, 'conflict');
      expect(retried.json()).toMatchObject({ detail: 'A gift with reference "g-1" was posted already, for 1 point' });
    });

    it('delivers a purchase to itemPurchaseNotifyUrl and a gift to giftNotifyUrl', async () => {
      const c = await setUp(program({}, { itemPurchaseNotifyUrl: `${receiver.url}/purchase`, giftNotifyUrl: `${receiver.url}/gift` }));
      await adjust(c, 'ann', 100);
      const purchase = body<Posted>(await debit(c, 'ann', { kind: 'purchase', amount: 30, reference: 'o-9' }), 201);
      const gift = body<Posted>(await debit(c, 'ann', { kind: 'gift', amount: 20, reference: 'g-9' }), 201);
      const before = receiver.received.length;
      for (let round = 0; round < 3; round += 1) await t.app.services.webhooks.runOnce();
      const sent = receiver.received
        .slice(before)
        .map((r) => ({ path: r.path, body: JSON.parse(r.body) as { eventType: string; data: Record<string, unknown> } }));
      expect(sent.map((r) => r.path).sort()).toEqual(['/hooks/gift', '/hooks/purchase']);
      expect(sent.find((r) => r.path === '/hooks/purchase')?.body).toMatchObject({
        eventType: 'award.debited',
        data: { kind: 'purchase', entryId: purchase.entry.entryId, amount: 30, reference: 'o-9', value: 0.3 },
      });
      expect(sent.find((r) => r.path === '/hooks/gift')?.body).toMatchObject({
        eventType: 'award.debited',
        data: { kind: 'gift', entryId: gift.entry.entryId, amount: 20, reference: 'g-9', balance: { available: 50, pending: 0 } },
      });
    });
  });

  describe('verify', () => {
    it('finds no drift after every kind of entry, and reports a corrupted account balance', async () => {
      const c = await setUp(program({ holdDays: 2 }));
      body(await call('PUT', '/admin/groups/g-team/members/ann', c.admin), 201);
      await earn(c, 'ann', 'e-1');
      await earn(c, 'ann', 'e-2');
      await adjust(c, 'ann', 300);
      await give(c, 'bob', 'x-award', 'ann', 40);
      await log(c, 'ann', 'team', 't-1');
      await reverse(c, 'ann', 'e-2');
      await moveTo(c, NOON + 2 * DAY);
      body(await debit(c, 'ann', { kind: 'purchase', amount: 120, reference: 'o-1' }), 201);
      const gift = body<Posted>(await debit(c, 'ann', { kind: 'gift', amount: 80, reference: 'g-1' }), 201);
      body(await refund(c, 'ann', gift.entry.entryId), 201);
      await earn(c, 'cat', 'e-3');
      expect(await balance(c, 'ann')).toMatchObject({ available: 320, pending: 0 });
      expect(await balance(c, 'cat')).toMatchObject({ available: 0, pending: 100 });
      expectRunning((await statement(c, 'ann')).entries);
      await expectConsistent(c);

      await t.database.db
        .updateTable('award_accounts')
        .set({ balance: sql<number>`balance + 7` })
        .where('site_id', '=', c.site.siteId)
        .where('user_id', '=', 'ann')
        .execute();
      expect(await drift(c)).toEqual([expect.objectContaining({ check: 'award_balance', subject: 'user:ann', expected: 320, actual: 327 })]);
    });
  });

  describe('security', () => {
    const userEndpoints = ['award-access', 'award-balance', 'award-statement'];

    it('user endpoints: no token 401, another user 403, own user-level token 200; another site sees only its own accounts', async () => {
      const c = await setUp();
      await adjust(c, 'ann', 70);
      body(await patchAccess(c, 'ann', { countryCode: 'US', verified: true }));
      const bobToken = await t.token(c.site.app, 'bob');
      const annToken = await t.token(c.site.app, 'ann');
      for (const endpoint of userEndpoints) {
        expectProblem(await call('GET', `/users/ann/${endpoint}`), 401, 'missing_token');
        expectProblem(await call('GET', `/users/ann/${endpoint}`, bobToken), 403, 'forbidden');
        expect((await call('GET', `/users/ann/${endpoint}`, annToken)).statusCode).toBe(200);
      }
      expect(await balance(c, 'ann', annToken)).toMatchObject({ available: 70 });

      const other = await setUp();
      const otherAnn = await t.token(other.site.app, 'ann');
      for (const token of [other.app, otherAnn]) {
        expect(await balance(other, 'ann', token)).toMatchObject({ available: 0, pending: 0 });
        expect(await statement(other, 'ann', '', token)).toEqual({ entries: [], total: 0 });
        expect(await access(other, 'ann', token)).toMatchObject({ countryCode: null, verified: false });
      }
      // Site B's admin acts on its own ann only.
      body(await patchAccess(other, 'ann', { countryCode: 'GB' }));
      expect(await access(c, 'ann')).toMatchObject({ countryCode: 'US', verified: true });
      expectProblem(await debit(other, 'ann', { kind: 'purchase', amount: 1, reference: 'o-x' }), 422, 'insufficient_award_balance');
      expect(await balance(c, 'ann')).toMatchObject({ available: 70 });
      expect((await statement(c, 'ann')).total).toBe(1);
    });

    it('admin endpoints refuse app tokens and user-level tokens, changing nothing', async () => {
      const c = await setUp();
      await adjust(c, 'ann', 100);
      const purchase = body<Posted>(await debit(c, 'ann', { kind: 'purchase', amount: 10, reference: 'o-1' }), 201);
      const tokens = [c.app, await t.token(c.site.app, 'ann'), await t.token(c.site.admin, 'ann')];
      const before = { state: await state(c), access: await access(c, 'ann') };
      for (const token of tokens) {
        expectProblem(await patchAccess(c, 'ann', { countryCode: 'US', verified: true }, token), 403, 'forbidden');
        expectProblem(await debit(c, 'ann', { kind: 'purchase', amount: 10, reference: 'o-2' }, token), 403, 'forbidden');
        expectProblem(await refund(c, 'ann', purchase.entry.entryId, token), 403, 'forbidden');
      }
      expect({ state: await state(c), access: await access(c, 'ann') }).toEqual(before);
    });
  });
});
