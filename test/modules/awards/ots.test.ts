// On-the-spot codes (SPEC §11, interface document §4 Award accounts): admins issue batches
// (POST /admin/ots-codes: the codes are shown once, only their SHA-256 is stored), users redeem
// them (POST /users/{u}/award-ots) into their award account, which logs OTS_REDEMPTION through the
// engine so missions can reward it. A code is redeemed at most once, even under concurrency; each
// refusal has its own code and changes nothing; failures are limited per user and window (a
// success does not count, nor does a user who may not redeem); codes belong to their site.
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AwardBalance, CodeBatch, Redemption, StatementEntry } from '../../../src/modules/awards/service.js';
import { VerifyService } from '../../../src/modules/verify/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';
import { expectBalancesMatchLedger } from '../../helpers/ledger.js';

// Noon in New York on Monday 2026-06-15.
const START = Date.parse('2026-06-15T16:00:00Z');
const EXPIRES = '2026-12-31T23:00:00.000Z';
const CODE_FORMAT = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;
const FAST = { rate: 100_000, burst: 100_000 };

/** Anyone may redeem (no country list, no verification); a mission pays 25 Points and the Redeemer badge per redemption. */
const PROGRAM = {
  site: { name: 'Codes', timezone: 'UTC' },
  pointCategories: [
    { name: 'Points', isDefault: true },
    { name: 'Award', isDefault: false },
  ],
  actions: [{ name: 'play' }],
  badges: [{ id: 'b-redeemer', name: 'Redeemer', iconUrl: 'https://cdn.acme.example/badges/redeemer.png' }],
  missions: [
    {
      id: 'm-redeem',
      name: 'Redeem a code',
      rules: [{ id: 'r-1', action: 'OTS_REDEMPTION', type: 'count', goal: 1 }],
      rewards: { points: [{ category: 'Points', amount: 25 }], badge: 'b-redeemer' },
      repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
    },
  ],
  awardSettings: {
    pointCategory: 'Award',
    currency: 'USD',
    conversionRate: 0.01,
    marketplaces: [{ type: 'shop', urlTemplate: 'https://shop.example/sso?token={token}' }],
    allowedCountries: [],
    verificationRequired: false,
  },
};

interface Ctx {
  t: TestApp;
  site: TestSite;
  admin: string;
  app: string;
}
type LoggedAction = { eventId: string; action: string; value: number; metadata: Record<string, string> };
type Problem = { status: number; code: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(configurations)('on-the-spot codes (%s)', (configuration) => {
  let t: TestApp;
  /** The same, with room for 100 failures: many concurrent attempts by one user. */
  let wide: TestApp;
  let now = START;
  const clock = () => now;

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock, config: { clientRate: FAST, userRate: FAST } });
    wide = await buildTestApp(configuration, { clock, config: { clientRate: FAST, userRate: FAST, otsFailureLimit: 100 } });
  });
  afterAll(async () => {
    await t.close();
    await wide.close();
  });
  beforeEach(() => {
    now = START;
  });

  const call = (c: Pick<Ctx, 't'>, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, token?: string, payload?: unknown) =>
    c.t.app.inject({
      method,
      url,
      headers: token !== undefined ? { authorization: `Bearer ${token}` } : {},
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const body = <T>(response: LightMyRequestResponse, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return (response.json() as { response: T }).response;
  };
  const expectProblem = (response: LightMyRequestResponse, status: number, code: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toMatchObject({ status, code });
  };
  const setUp = async (document: Record<string, unknown> = PROGRAM, app = t, siteId?: string): Promise<Ctx> => {
    const site = await app.createSite(siteId);
    const c = { t: app, site, admin: await app.token(site.admin), app: await app.token(site.app) };
    body(await call(c, 'PUT', '/admin/program', c.admin, document));
    return c;
  };
  const issue = async (c: Ctx, count: number, amount = 500, expiresAt = EXPIRES) =>
    body<CodeBatch>(await call(c, 'POST', '/admin/ots-codes', c.admin, { count, amount, expiresAt }), 201);
  const redeemCall = (c: Ctx, user: string, code: string, token = c.app) => call(c, 'POST', `/users/${user}/award-ots`, token, { code });
  const redeem = async (c: Ctx, user: string, code: string, token = c.app) => body<Redemption>(await redeemCall(c, user, code, token), 201);
  const balance = async (c: Ctx, user: string) => body<AwardBalance>(await call(c, 'GET', `/users/${user}/award-balance`, c.app));
  const statement = async (c: Ctx, user: string) => body<StatementEntry[]>(await call(c, 'GET', `/users/${user}/award-statement?limit=500`, c.app));
  const otsActions = async (c: Ctx, user: string) => body<LoggedAction[]>(await call(c, 'GET', `/users/${user}/actions?action=OTS_REDEMPTION`, c.app));
  const batch = async (c: Ctx, batchId: string) =>
    body<{ batchId: string; count: number; redeemed: number }>(await call(c, 'GET', `/admin/ots-codes/${batchId}`, c.admin));
  const codeRows = (c: Ctx) => c.t.database.db.selectFrom('ots_codes').selectAll().where('site_id', '=', c.site.siteId).orderBy('code_id').execute();
  const siteCount = async (c: Ctx, table: 'ots_codes' | 'award_ledger' | 'action_events', where?: ['kind' | 'action', string]) => {
    let query = c.t.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('site_id', '=', c.site.siteId);
    if (where !== undefined) query = query.where(where[0] as never, '=', where[1] as never);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  /** What a refused redemption must leave alone: the user's account and actions, and every code of the site. */
  const state = async (c: Ctx, user: string) => ({
    balance: await balance(c, user),
    statement: await statement(c, user),
    actions: await otsActions(c, user),
    events: await siteCount(c, 'action_events'),
    codes: (await codeRows(c)).map((row) => ({
      ...row,
      amount: Number(row.amount),
      expires_at: Number(row.expires_at),
      created_at: Number(row.created_at),
      redeemed_at: row.redeemed_at === null ? null : Number(row.redeemed_at),
    })),
  });
  /** The points ledger and the award accounts agree with their totals, and each redeemed code was credited once. */
  const expectConsistent = async (c: Ctx) => {
    await expectBalancesMatchLedger(c.t.database.db, c.site.siteId);
    expect((await new VerifyService(c.t.database.db, c.t.app.services.programs).verify([c.site.siteId])).drift).toEqual([]);
  };
  /** Fails `times` times with codes that do not exist. */
  const fail = async (c: Ctx, user: string, times: number) => {
    for (let i = 0; i < times; i++) expectProblem(await redeemCall(c, user, `ZZZZ-ZZZZ-ZZZZ-${String(1000 + i).slice(-4)}`), 422, 'ots_code_unknown');
  };

  describe('POST /admin/ots-codes and GET /admin/ots-codes/{batchId}', () => {
    it('issues count distinct codes in the documented format and stores only their hashes', async () => {
      const c = await setUp();
      const issued = await issue(c, 50, 750);
      expect(issued).toEqual({ batchId: expect.any(String) as string, amount: 750, expiresAt: EXPIRES, codes: expect.any(Array) as string[] });
      expect(issued.codes).toHaveLength(50);
      expect(new Set(issued.codes).size).toBe(50);
      for (const code of issued.codes) expect(code).toMatch(CODE_FORMAT);

      const rows = await codeRows(c);
      expect(rows).toHaveLength(50);
      for (const row of rows) {
        expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
        expect(row).toMatchObject({ batch_id: issued.batchId, redeemed_by: null, redeemed_at: null });
        expect(Number(row.amount)).toBe(750);
        expect(Number(row.expires_at)).toBe(Date.parse(EXPIRES));
      }
      // No column holds a code, in any case, with or without its dashes.
      const stored = JSON.stringify(rows.map((row) => Object.values(row).map(String))).toUpperCase();
      for (const code of issued.codes) {
        expect(stored).not.toContain(code);
        expect(stored).not.toContain(code.replace(/-/g, ''));
      }
      // The hashes are those of the normalized codes, one each.
      expect(rows.map((row) => row.code_hash).sort()).toEqual(issued.codes.map((code) => sha256(code.replace(/-/g, ''))).sort());
      expect(await batch(c, issued.batchId)).toEqual({ batchId: issued.batchId, count: 50, redeemed: 0 });

      // A second batch is another batch, with other codes.
      const second = await issue(c, 3, 10);
      expect(second.batchId).not.toBe(issued.batchId);
      expect(second.codes.filter((code) => issued.codes.includes(code))).toEqual([]);
      expect(await siteCount(c, 'ots_codes')).toBe(53);
    });

    it('issues the largest batch, 10,000 codes, all distinct', async () => {
      const c = await setUp();
      const issued = await issue(c, 10_000, 1);
      expect(new Set(issued.codes).size).toBe(10_000);
      expect(issued.codes.every((code) => CODE_FORMAT.test(code))).toBe(true);
      expect(await batch(c, issued.batchId)).toEqual({ batchId: issued.batchId, count: 10_000, redeemed: 0 });
    });

    it('refuses invalid batches with 400 validation_failed and stores nothing', async () => {
      const c = await setUp();
      const invalid: Array<[string, Record<string, unknown>]> = [
        ['count 0', { count: 0, amount: 10, expiresAt: EXPIRES }],
        ['count 10001', { count: 10_001, amount: 10, expiresAt: EXPIRES }],
        ['no count', { amount: 10, expiresAt: EXPIRES }],
        ['amount 0', { count: 1, amount: 0, expiresAt: EXPIRES }],
        ['no amount', { count: 1, expiresAt: EXPIRES }],
        ['expiresAt in the past', { count: 1, amount: 10, expiresAt: '2026-06-15T15:59:59Z' }],
        ['expiresAt now', { count: 1, amount: 10, expiresAt: new Date(START).toISOString() }],
        ['expiresAt not a date', { count: 1, amount: 10, expiresAt: 'next tuesday' }],
        ['no expiresAt', { count: 1, amount: 10 }],
      ];
      for (const [name, payload] of invalid) {
        const response = await call(c, 'POST', '/admin/ots-codes', c.admin, payload);
        expect(response.statusCode, name).toBe(400);
        expect(response.json(), name).toMatchObject({ status: 400, code: 'validation_failed' });
      }
      expect(await siteCount(c, 'ots_codes')).toBe(0);
    });

    it('counts redemptions per batch, and knows no other batch', async () => {
      const c = await setUp();
      const issued = await issue(c, 4);
      const other = await issue(c, 2);
      expect(await batch(c, issued.batchId)).toEqual({ batchId: issued.batchId, count: 4, redeemed: 0 });
      await redeem(c, 'ann', issued.codes[2] as string);
      expect(await batch(c, issued.batchId)).toEqual({ batchId: issued.batchId, count: 4, redeemed: 1 });
      expect(await batch(c, other.batchId)).toEqual({ batchId: other.batchId, count: 2, redeemed: 0 });
      expectProblem(await call(c, 'GET', '/admin/ots-codes/otsb_nope', c.admin), 404, 'not_found');
      // Another site's admin does not see it.
      const d = await setUp();
      expectProblem(await call(d, 'GET', `/admin/ots-codes/${issued.batchId}`, d.admin), 404, 'not_found');
    });
  });

  describe('POST /users/{u}/award-ots', () => {
    it('credits the award account, writes an ots statement entry, logs OTS_REDEMPTION and completes the mission on it', async () => {
      const c = await setUp();
      const issued = await issue(c, 2, 500);
      const redeemed = await redeem(c, 'ann', issued.codes[0] as string);
      const codeId = redeemed.codeId;
      const row = (await codeRows(c)).find((r) => r.code_id === codeId);
      expect(row).toMatchObject({ batch_id: issued.batchId, redeemed_by: 'ann' });
      expect(Number(row?.redeemed_at)).toBe(START);
      expect(redeemed).toMatchObject({
        amount: 500,
        entry: {
          kind: 'ots',
          amount: 500,
          balance: 500,
          reference: codeId,
          postedAt: new Date(START).toISOString(),
          availableAt: new Date(START).toISOString(),
        },
        balance: { available: 500, pending: 0, currency: 'USD', conversionRate: 0.01, availableValue: 5 },
        pointsAwarded: [{ category: 'Points', requested: 25, credited: 25 }],
        missionsCompleted: [{ id: 'm-redeem', name: 'Redeem a code', completionId: expect.any(String) as string }],
        badgesEarned: [{ id: 'b-redeemer', name: 'Redeemer', iconUrl: 'https://cdn.acme.example/badges/redeemer.png', userId: 'ann' }],
      });

      expect(await balance(c, 'ann')).toEqual({ available: 500, pending: 0, currency: 'USD', conversionRate: 0.01, availableValue: 5 });
      const entries = await statement(c, 'ann');
      expect(entries).toEqual([redeemed.entry]);
      const actions = await otsActions(c, 'ann');
      expect(actions).toHaveLength(1);
      expect(actions[0]).toMatchObject({
        eventId: redeemed.eventId,
        action: 'OTS_REDEMPTION',
        value: 500,
        metadata: { code_id: codeId, batch_id: issued.batchId },
      });
      expect(body<{ balance: number }>(await call(c, 'GET', '/users/ann/point-balance', c.app)).balance).toBe(25);

      // With a user-level token of that user: the balance grows again and the mission repeats.
      const userToken = await t.token(c.site.app, 'ann');
      const again = await redeem(c, 'ann', issued.codes[1] as string, userToken);
      expect(again).toMatchObject({
        amount: 500,
        entry: { kind: 'ots', balance: 1000 },
        balance: { available: 1000, availableValue: 10 },
        missionsCompleted: [{ id: 'm-redeem' }],
      });
      expect((await statement(c, 'ann')).map((e) => [e.kind, e.amount, e.balance, e.reference])).toEqual([
        ['ots', 500, 1000, again.codeId],
        ['ots', 500, 500, codeId],
      ]);
      expect((await otsActions(c, 'ann')).map((a) => a.metadata.code_id).sort()).toEqual([codeId, again.codeId].sort());
      expect(body<{ balance: number }>(await call(c, 'GET', '/users/ann/point-balance', c.app)).balance).toBe(50);
      // Nobody else was credited.
      expect(await balance(c, 'bob')).toMatchObject({ available: 0, pending: 0 });
      expect(await batch(c, issued.batchId)).toMatchObject({ count: 2, redeemed: 2 });
      await expectConsistent(c);
    });

    it('accepts codes typed in lower case, without dashes, with spaces, and with O for 0 and I or L for 1', async () => {
      const c = await setUp();
      const { codes, batchId } = await issue(c, 80, 7);
      const withZero = codes.filter((code) => code.includes('0'));
      const withOne = codes.filter((code) => code.includes('1') && !withZero.slice(0, 2).includes(code));
      expect(withZero.length).toBeGreaterThanOrEqual(2);
      expect(withOne.length).toBeGreaterThanOrEqual(2);
      const [zeroA, zeroB] = withZero as [string, string];
      const [oneA, oneB] = withOne as [string, string];
      const rest = codes.filter((code) => ![zeroA, zeroB, oneA, oneB].includes(code));
      const typed = [
        (rest[0] as string).toLowerCase(),
        (rest[1] as string).replace(/-/g, ''),
        (rest[2] as string).replace(/-/g, '').toLowerCase(),
        `  ${(rest[3] as string).replace(/-/g, ' ')} `,
        (rest[4] as string)
          .replace(/-/g, '')
          .replace(/(.{2})/g, '$1 ')
          .toLowerCase(),
        zeroA.replace(/0/g, 'O'),
        zeroB.replace(/0/g, 'o').toLowerCase(),
        oneA.replace(/1/g, 'I'),
        oneB.replace(/1/g, 'l').replace(/-/g, '').toLowerCase(),
      ];
      let total = 0;
      for (const code of typed) {
        total += 7;
        expect((await redeem(c, 'ann', code)).balance.available, code).toBe(total);
      }
      expect(await batch(c, batchId)).toMatchObject({ redeemed: typed.length });
      // Each of them, typed the canonical way now, is used.
      expectProblem(await redeemCall(c, 'ann', oneB), 409, 'ots_code_used');
      await expectConsistent(c);
    });

    it('answers each refusal with its own code and changes nothing', async () => {
      const c = await setUp();
      const soon = new Date(START + 3_600_000).toISOString();
      const { codes } = await issue(c, 1, 300);
      const expiring = await issue(c, 2, 40, soon);
      await redeem(c, 'ann', codes[0] as string);
      // The last millisecond before expiresAt still redeems.
      now = START + 3_600_000 - 1;
      await redeem(c, 'ann', expiring.codes[0] as string);
      const before = await state(c, 'ann');
      expect(before.balance.available).toBe(340);

      expectProblem(await redeemCall(c, 'ann', '0000-0000-0000-0000'), 422, 'ots_code_unknown');
      expectProblem(await redeemCall(c, 'ann', 'hello, world!'), 422, 'ots_code_unknown');
      expectProblem(await redeemCall(c, 'ann', codes[0] as string), 409, 'ots_code_used');
      now = START + 3_600_000;
      expectProblem(await redeemCall(c, 'ann', expiring.codes[1] as string), 422, 'ots_code_expired');
      now += 20 * 3_600_000; // still within the tokens' day
      expectProblem(await redeemCall(c, 'ann', expiring.codes[1] as string), 422, 'ots_code_expired');
      expect(await state(c, 'ann')).toEqual(before);
      expect(await batch(c, expiring.batchId)).toMatchObject({ count: 2, redeemed: 1 });
      await expectConsistent(c);
    });

    it('refuses empty and over-long codes with 400 validation_failed', async () => {
      const c = await setUp();
      for (const payload of [{}, { code: '' }, { code: 'A'.repeat(65) }, { code: null }]) {
        const response = await call(c, 'POST', '/users/ann/award-ots', c.app, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json(), JSON.stringify(payload)).toMatchObject({ status: 400, code: 'validation_failed' });
      }
      // 64 characters is within the schema: read, and unknown.
      expectProblem(await redeemCall(c, 'ann', 'A'.repeat(64)), 422, 'ots_code_unknown');
    });
  });

  describe('single use under concurrency', () => {
    it('lets one of 20 different users redeem a code at once; the 19 others get ots_code_used', async () => {
      const c = await setUp();
      const { codes, batchId } = await issue(c, 1, 800);
      const users = Array.from({ length: 20 }, (_, i) => `u${String(i).padStart(2, '0')}`);
      const responses = await Promise.all(users.map((user) => redeemCall(c, user, codes[0] as string)));
      const won = responses.flatMap((response, i) => (response.statusCode === 201 ? [users[i] as string] : []));
      expect(won).toHaveLength(1);
      for (const response of responses.filter((r) => r.statusCode !== 201)) expectProblem(response, 409, 'ots_code_used');
      const winner = won[0] as string;
      const balances = await Promise.all(users.map(async (user) => (await balance(c, user)).available));
      expect(balances.reduce((sum, value) => sum + value, 0)).toBe(800);
      expect((await balance(c, winner)).available).toBe(800);
      expect(await siteCount(c, 'award_ledger', ['kind', 'ots'])).toBe(1);
      expect(await siteCount(c, 'action_events', ['action', 'OTS_REDEMPTION'])).toBe(1);
      expect(await otsActions(c, winner)).toHaveLength(1);
      expect(await batch(c, batchId)).toMatchObject({ redeemed: 1 });
      expect((await codeRows(c))[0]?.redeemed_by).toBe(winner);
      await expectConsistent(c);
    });

    it('lets one of 20 concurrent redemptions of one code by the same user succeed', async () => {
      const c = await setUp(PROGRAM, wide);
      const { codes } = await issue(c, 1, 800);
      const userToken = await wide.token(c.site.app, 'ann');
      const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => redeemCall(c, 'ann', codes[0] as string, i % 2 === 0 ? c.app : userToken)));
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
      for (const response of responses.filter((r) => r.statusCode !== 201)) expectProblem(response, 409, 'ots_code_used');
      expect(await balance(c, 'ann')).toMatchObject({ available: 800, pending: 0 });
      expect(await statement(c, 'ann')).toHaveLength(1);
      expect(await siteCount(c, 'award_ledger', ['kind', 'ots'])).toBe(1);
      expect(await otsActions(c, 'ann')).toHaveLength(1);
      expect(body<{ balance: number }>(await call(c, 'GET', '/users/ann/point-balance', c.app)).balance).toBe(25);
      await expectConsistent(c);
    });

    it('credits 20 different codes redeemed at once by one user, each exactly once, with a running balance', async () => {
      const c = await setUp(PROGRAM, wide);
      const { codes } = await issue(c, 20, 15);
      const responses = await Promise.all(codes.map((code) => redeemCall(c, 'ann', code)));
      for (const response of responses) expect(response.statusCode, response.body).toBe(201);
      expect(await balance(c, 'ann')).toMatchObject({ available: 300 });
      const entries = await statement(c, 'ann');
      expect(entries.map((e) => e.balance).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => 15 * (i + 1)));
      expect(await otsActions(c, 'ann')).toHaveLength(20);
      await expectConsistent(c);
    });
  });

  describe('the failure limit (default 5 per hour)', () => {
    it('answers 429 ots_attempts_exceeded after five failures, even for a valid code, per user', async () => {
      const c = await setUp();
      const { codes, batchId } = await issue(c, 2, 100);
      await fail(c, 'ann', 5);
      const before = await state(c, 'ann');
      for (let i = 0; i < 2; i++) {
        const response = await redeemCall(c, 'ann', codes[0] as string);
        expectProblem(response, 429, 'ots_attempts_exceeded');
        const retryAfter = Number(response.headers['retry-after']);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(3600);
      }
      expect(await state(c, 'ann')).toEqual(before);
      expect(await batch(c, batchId)).toMatchObject({ redeemed: 0 });
      // A user-level token of the same user is the same user.
      expectProblem(await redeemCall(c, 'ann', codes[1] as string, await t.token(c.site.app, 'ann')), 429, 'ots_attempts_exceeded');
      // Another user still redeems, the very code refused to ann.
      expect((await redeem(c, 'bob', codes[0] as string)).balance.available).toBe(100);
      // ann on another site is another account.
      const d = await setUp();
      expect((await redeem(d, 'ann', (await issue(d, 1, 9)).codes[0] as string)).amount).toBe(9);
      await expectConsistent(c);
    });

    it('does not count successes: many redemptions between fewer than five failures keep going', async () => {
      const c = await setUp();
      const { codes } = await issue(c, 12, 10);
      for (const [i, code] of codes.slice(0, 10).entries()) {
        await redeem(c, 'ann', code);
        if (i % 3 === 1) await fail(c, 'ann', 1);
      }
      // 10 successes and 3 failures so far: two more failures are allowed, then no more attempts.
      await redeem(c, 'ann', codes[10] as string);
      await fail(c, 'ann', 2);
      expectProblem(await redeemCall(c, 'ann', codes[11] as string), 429, 'ots_attempts_exceeded');
      expect((await balance(c, 'ann')).available).toBe(110);
      // A code already used counts as a failure too.
      const e = await setUp();
      const used = (await issue(e, 2, 5)).codes;
      await redeem(e, 'bob', used[0] as string);
      for (let i = 0; i < 5; i++) expectProblem(await redeemCall(e, 'ann', used[0] as string), 409, 'ots_code_used');
      expectProblem(await redeemCall(e, 'ann', used[1] as string), 429, 'ots_attempts_exceeded');
      await expectConsistent(c);
    });

    it('lets the user redeem again once the window has passed', async () => {
      // Embedded: the in-memory store runs on the app clock, so the test clock crosses the default
      // hour exactly. Scale-out: the window is a Redis TTL in real seconds, so an app with a
      // 2-second window is used and the test waits.
      if (configuration === 'embedded') {
        const c = await setUp();
        const { codes } = await issue(c, 1, 60);
        await fail(c, 'ann', 5);
        now = START + 1_000;
        const refused = await redeemCall(c, 'ann', codes[0] as string);
        expectProblem(refused, 429, 'ots_attempts_exceeded');
        expect(refused.headers['retry-after']).toBe('3599');
        now = START + 3_600_000 - 1;
        expectProblem(await redeemCall(c, 'ann', codes[0] as string), 429, 'ots_attempts_exceeded');
        now = START + 3_600_000;
        expect((await redeem(c, 'ann', codes[0] as string)).balance.available).toBe(60);
        await expectConsistent(c);
        return;
      }
      const short = await buildTestApp(configuration, { clock, config: { clientRate: FAST, userRate: FAST, otsFailureWindowSeconds: 2 } });
      try {
        const c = await setUp(PROGRAM, short);
        const { codes } = await issue(c, 1, 60);
        await fail(c, 'ann', 5);
        const refused = await redeemCall(c, 'ann', codes[0] as string);
        expectProblem(refused, 429, 'ots_attempts_exceeded');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(2);
        await sleep(2_500);
        expect((await redeem(c, 'ann', codes[0] as string)).balance.available).toBe(60);
        await expectConsistent(c);
      } finally {
        await short.close();
      }
    });
  });

  describe('award_access_denied', () => {
    it('refuses users who may not redeem without using the code or counting a failure', async () => {
      const c = await setUp(exampleProgram());
      const { codes, batchId } = await issue(c, 3, 200);
      const patch = async (user: string, change: Record<string, unknown>) => body(await call(c, 'PATCH', `/admin/users/${user}/award-access`, c.admin, change));
      expect(await patch('fr', { countryCode: 'FR', verified: true })).toMatchObject({ otsAccess: false, browseOnly: true, countryCode: 'FR', verified: true });
      expect(await patch('unverified', { countryCode: 'US' })).toMatchObject({ otsAccess: false, browseOnly: true, countryCode: 'US', verified: false });
      // No country, a country not allowed, not verified: seven times each, more than the failure limit.
      for (const user of ['nobody', 'fr', 'unverified']) {
        for (let i = 0; i < 7; i++) expectProblem(await redeemCall(c, user, codes[i % 3] as string), 422, 'award_access_denied');
        expect(await balance(c, user)).toMatchObject({ available: 0, pending: 0 });
        expect(await otsActions(c, user)).toEqual([]);
      }
      expect(await batch(c, batchId)).toMatchObject({ redeemed: 0 });
      expect(await siteCount(c, 'award_ledger')).toBe(0);

      // Granted access, each redeems at once (no failures were counted), the codes denied before.
      await patch('nobody', { countryCode: 'US', verified: true });
      await patch('fr', { countryCode: 'CA' });
      expect(await patch('unverified', { verified: true })).toMatchObject({ otsAccess: true, browseOnly: false, countryCode: 'US', verified: true });
      // Four real failures still fit under the limit after seven denials.
      await fail(c, 'nobody', 4);
      for (const [i, user] of ['nobody', 'fr', 'unverified'].entries()) expect((await redeem(c, user, codes[i] as string)).balance.available).toBe(200);
      expect(await batch(c, batchId)).toMatchObject({ redeemed: 3 });
      await expectConsistent(c);
    });

    it('refuses every user of a site without award settings until it has them', async () => {
      const { awardSettings, ...withoutAwards } = PROGRAM;
      const c = await setUp(withoutAwards);
      const { codes } = await issue(c, 1, 90);
      for (let i = 0; i < 6; i++) expectProblem(await redeemCall(c, 'ann', codes[0] as string), 422, 'award_access_denied');
      expect(await siteCount(c, 'award_ledger')).toBe(0);
      body(await call(c, 'PUT', '/admin/program', c.admin, { ...withoutAwards, awardSettings }));
      expect((await redeem(c, 'ann', codes[0] as string)).balance).toMatchObject({ available: 90, availableValue: 0.9 });
      await expectConsistent(c);
    });
  });

  describe('security', () => {
    it('needs a token, and a user-level token only redeems for its own user', async () => {
      const c = await setUp();
      const { codes } = await issue(c, 1, 50);
      expectProblem(await call(c, 'POST', '/users/ann/award-ots', undefined, { code: codes[0] }), 401, 'missing_token');
      expectProblem(await redeemCall(c, 'ann', codes[0] as string, 'not-a-token'), 401, 'invalid_token');
      const bobToken = await t.token(c.site.app, 'bob');
      expectProblem(await redeemCall(c, 'ann', codes[0] as string, bobToken), 403, 'forbidden');
      expect(await siteCount(c, 'award_ledger')).toBe(0);
      expect((await redeem(c, 'bob', codes[0] as string, bobToken)).amount).toBe(50);
    });

    it('keeps the admin endpoints to admin client tokens', async () => {
      const c = await setUp();
      const issued = await issue(c, 1, 50);
      const tokens = { app: c.app, 'app user-level': await t.token(c.site.app, 'ann'), 'admin user-level': await t.token(c.site.admin, 'ann') };
      for (const [kind, token] of Object.entries(tokens)) {
        const posted = await call(c, 'POST', '/admin/ots-codes', token, { count: 1, amount: 10, expiresAt: EXPIRES });
        expect(posted.statusCode, kind).toBe(403);
        expect((posted.json() as Problem).code, kind).toBe('forbidden');
        const read = await call(c, 'GET', `/admin/ots-codes/${issued.batchId}`, token);
        expect(read.statusCode, kind).toBe(403);
        const granted = await call(c, 'PATCH', '/admin/users/ann/award-access', token, { verified: true });
        expect(granted.statusCode, kind).toBe(403);
      }
      expect((await call(c, 'POST', '/admin/ots-codes', undefined, { count: 1, amount: 10, expiresAt: EXPIRES })).statusCode).toBe(401);
      expect(await siteCount(c, 'ots_codes')).toBe(1);
    });

    it('does not know a code of site A on site B, where it stays redeemable on A', async () => {
      const a = await setUp();
      const b = await setUp();
      const { codes } = await issue(a, 1, 120);
      const before = await state(b, 'ann');
      expectProblem(await redeemCall(b, 'ann', codes[0] as string), 422, 'ots_code_unknown');
      expect(await state(b, 'ann')).toEqual(before);
      expect(await siteCount(b, 'award_ledger')).toBe(0);
      expect((await redeem(a, 'ann', codes[0] as string)).balance.available).toBe(120);
      // And once used on A it is still unknown on B, not "used".
      expectProblem(await redeemCall(b, 'ann', codes[0] as string), 422, 'ots_code_unknown');
      await expectConsistent(a);
      await expectConsistent(b);
    });

    // BUG (src/modules/awards/service.ts:195): the failure key `ots-failures:${siteId}:${userId}`
    // joins ids that may themselves contain ':' (ID_PATTERN allows it for sites and users), so user
    // "x:bob" of site "s" and user "bob" of site "s:x" share one counter: failures on one site lock
    // a user of another site out.
    it('keeps the failure counts of users of different sites apart, whatever their ids', async () => {
      const a = await setUp(PROGRAM, t, 'colon-site');
      const b = await setUp(PROGRAM, t, 'colon-site:x');
      await fail(a, 'x:bob', 5);
      expectProblem(await redeemCall(a, 'x:bob', (await issue(a, 1, 10)).codes[0] as string), 429, 'ots_attempts_exceeded');
      expect((await redeem(b, 'bob', (await issue(b, 1, 10)).codes[0] as string)).amount).toBe(10);
    });
  });
});
