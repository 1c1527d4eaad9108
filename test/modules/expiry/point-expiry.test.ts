// Point expiry through the real HTTP stack, on both stores (docs/points.md): the next expiry on
// GET /users/{u}/point-balance and at-a-glance, oldest points spent first, the sweep's ledger entry
// (cause `expiry`) lowering the balance but not lifetime points nor the level, the points.expired
// webhook only when subscribed, a reversal taking back its own credit, two sweeps at once writing
// one expiry, a sweep racing a spend leaving the ledger exact (questline verify finds no drift).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExpiryService } from '../../../src/modules/expiry/service.js';
import { VerifyService } from '../../../src/modules/verify/service.js';
import type { CategoryBalance } from '../../../src/modules/profile/service.js';
import type { PointEntry } from '../../../src/modules/points/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';
import { body, caller } from '../../helpers/http.js';
import { expectProblem } from '../../helpers/problem.js';

const DAY = 86_400_000;
// Noon in New York (the example program's zone), June 15.
const START = Date.parse('2026-06-15T16:00:00Z');
// Points earned June 15 (New York) last through July 15: they expire at midnight starting July 16.
const FIRST_EXPIRY = '2026-07-16T04:00:00.000Z';

type Program = { pointCategories: Array<Record<string, unknown>> };

function expiringProgram(): Program {
  const program = exampleProgram<Program>();
  program.pointCategories = program.pointCategories.map((c) => (c.name === 'Points' ? { ...c, expiry: { afterDays: 30 } } : c));
  return program;
}

describe.each(configurations)('point expiry (%s)', (configuration) => {
  let t: TestApp;
  let now = START;
  let site: TestSite;

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => now, config: { clientRate: { rate: 100_000, burst: 100_000 } } });
    site = await t.createSite();
    body(await call('PUT', '/admin/program', await admin(), expiringProgram()));
    body(await call('POST', '/admin/webhook-endpoints', await admin(), { url: 'https://hooks.example.com/x', eventTypes: ['points.expired'] }), 201);
  });
  afterAll(async () => {
    await t.close();
  });

  const admin = (s: TestSite = site) => t.token(s.admin);
  const call = caller(() => t);
  async function adjust(user: string, amount: number, category = 'Points', s: TestSite = site) {
    return body(await call('POST', `/admin/users/${user}/points`, await admin(s), { category, amount, reason: 'test' }), 201);
  }
  async function balance(user: string, s: TestSite = site) {
    return body<{ balance: number; lifetimeBalance: number; categories: CategoryBalance[] }>(
      await call('GET', `/users/${user}/point-balance`, await t.token(s.app, user)),
    );
  }
  async function expiries(user: string, s: TestSite = site) {
    const entries = body<PointEntry[]>(await call('GET', `/admin/users/${user}/point-history`, await admin(s)));
    return entries.filter((e) => e.cause === 'expiry');
  }
  const expiredEvents = (s: TestSite = site) =>
    t.database.db.selectFrom('outbox').select(['party_id', 'payload']).where('site_id', '=', s.siteId).where('event_type', '=', 'points.expired').execute();
  // Another node's sweeper: its memory of swept cutoffs is its own (the tests move the clock back).
  const node = () =>
    new ExpiryService(t.database.db, t.app.services.programs, t.app.services.actions, { clock: () => now, sweepIntervalMs: 60_000, onError: () => {} });
  const verify = async (s: TestSite = site) => (await new VerifyService(t.database.db, t.app.services.programs).verify([s.siteId])).drift;

  it('shows the next expiry, spends the oldest points first, expires what remains, keeps lifetime points and the level', async () => {
    now = START;
    await adjust('ann', 150);
    await adjust('ann', 5, 'Coins');
    now = START + 10 * DAY;
    await adjust('ann', 40);
    now = START + 12 * DAY;
    await adjust('ann', -30);

    const before = await balance('ann');
    const points = before.categories.find((c) => c.name === 'Points');
    expect(points).toMatchObject({ balance: 160, lifetimeBalance: 190, expiringSoon: { amount: 120, date: FIRST_EXPIRY } });
    // A category without a rule carries no expiringSoon.
    expect(before.categories.find((c) => c.name === 'Coins')).not.toHaveProperty('expiringSoon');
    const glance = body<{ points: unknown }>(await call('GET', '/users/ann/at-a-glance', await t.token(site.app, 'ann')));
    expect(glance.points).toMatchObject({ balance: 160, expiringSoon: { amount: 120, date: FIRST_EXPIRY } });

    // One millisecond before: nothing is due.
    expect(await t.app.services.expiry.sweep(Date.parse(FIRST_EXPIRY) - 1)).toBe(0);
    now = Date.parse(FIRST_EXPIRY) + 60_000;
    expect(await t.app.services.expiry.sweep(now)).toBe(1);
    expect(await t.app.services.expiry.sweep(now)).toBe(0);

    const after = await balance('ann');
    expect(after.categories.find((c) => c.name === 'Points')).toMatchObject({
      balance: 40,
      lifetimeBalance: 190,
      expiringSoon: { amount: 40, date: '2026-07-26T04:00:00.000Z' },
    });
    const [entry] = await expiries('ann');
    expect(entry).toMatchObject({ category: 'Points', amount: -120, occurredAt: FIRST_EXPIRY, causeId: '2026-06-16T04:00:00.000Z', reason: null });
    // Levels follow lifetime points: Regular (100) stays although the balance is 40.
    const levels = body<{ current: { id: string }; points: number }>(await call('GET', '/users/ann/levels', await t.token(site.app, 'ann')));
    expect(levels).toMatchObject({ current: { id: 'l-2' }, points: 190 });

    const events = (await expiredEvents()).filter((e) => e.party_id === 'ann');
    expect(events).toHaveLength(1);
    const payload = JSON.parse(events[0]!.payload) as { eventType: string; occurredAt: string; data: unknown };
    expect(payload).toMatchObject({
      eventType: 'points.expired',
      occurredAt: FIRST_EXPIRY,
      data: { user: { userId: 'ann' }, category: 'Points', amount: 120, balance: 40, expiredAt: FIRST_EXPIRY },
    });
    expect(await verify()).toEqual([]);
  });

  it('a reversal takes back its own credit, not the oldest points', async () => {
    now = START;
    await adjust('eve', 7);
    now = START + DAY;
    body(await call('POST', '/users/eve/actions', await t.token(site.app), { action: 'read_article', eventId: 'eve-read' }), 201);
    const credited = (await balance('eve')).categories.find((c) => c.name === 'Points')!;
    expect(credited.balance).toBeGreaterThan(7);
    now = START + 2 * DAY;
    body(await call('DELETE', '/users/eve/actions/eve-read', await admin()));
    // Only the adjustment of June 15 remains, and it is what expires first.
    expect((await balance('eve')).categories.find((c) => c.name === 'Points')).toMatchObject({ balance: 7, expiringSoon: { amount: 7, date: FIRST_EXPIRY } });
    // Two days later, what the reversal left of June 15 and 16 has expired: the 7, exactly.
    now = Date.parse(FIRST_EXPIRY) + 2 * DAY;
    await node().sweepSite(site.siteId, now);
    expect((await expiries('eve')).map((e) => e.amount)).toEqual([-7]);
    expect((await balance('eve')).balance).toBe(0);
    expect(await verify()).toEqual([]);
  });

  it('a reversal does not take back points of its credit that already expired', async () => {
    now = START;
    body(await call('POST', '/users/rex/actions', await t.token(site.app), { action: 'read_article', eventId: 'rex-read' }), 201);
    const earned = (await balance('rex')).balance;
    expect(earned).toBeGreaterThan(3);
    await adjust('rex', -3);
    now = Date.parse(FIRST_EXPIRY) + DAY;
    await node().sweepSite(site.siteId, now);
    expect((await expiries('rex')).map((e) => e.amount)).toEqual([-(earned - 3)]);
    expect((await balance('rex')).balance).toBe(0);
    // The 3 spent are taken back (as without expiry); the expired rest is not taken a second time.
    const reversal = body<{ pointsDebited: Array<{ category: string; amount: number }> }>(await call('DELETE', '/users/rex/actions/rex-read', await admin()));
    expect(reversal.pointsDebited).toEqual([{ category: 'Points', amount: 3 }]);
    // Lifetime points (and the level) lose the whole credit: the action never earned anything.
    expect(await balance('rex')).toMatchObject({ balance: -3, lifetimeBalance: 0 });
    const history = body<PointEntry[]>(await call('GET', '/admin/users/rex/point-history', await admin()));
    expect(history.filter((e) => e.cause === 'reversal').map((e) => e.amount)).toEqual([-3]);
    expect(await verify()).toEqual([]);
  });

  it('a reversal of a credit that expired whole takes back nothing, and lowers lifetime points by it', async () => {
    now = START;
    body(await call('POST', '/users/uma/actions', await t.token(site.app), { action: 'read_article', eventId: 'uma-read' }), 201);
    const earned = (await balance('uma')).balance;
    now = Date.parse(FIRST_EXPIRY) + DAY;
    await node().sweepSite(site.siteId, now);
    const reversal = body<{ pointsDebited: Array<{ category: string; amount: number }> }>(await call('DELETE', '/users/uma/actions/uma-read', await admin()));
    expect(reversal.pointsDebited).toEqual([{ category: 'Points', amount: 0 }]);
    expect(await balance('uma')).toMatchObject({ balance: 0, lifetimeBalance: 0 });
    // The reversal entry asked for the credit and took nothing.
    const history = body<PointEntry[]>(await call('GET', '/admin/users/uma/point-history', await admin()));
    expect(history.filter((e) => e.cause === 'reversal').map((e) => [e.requested, e.amount])).toEqual([[-earned, 0]]);
    expect(await verify()).toEqual([]);
  });

  it('a reversal gives the whole credit back to the day’s cap total, expired or not', async () => {
    const other = await t.createSite();
    const program = expiringProgram();
    // Points earned before noon (New York) on June 15 expire at it.
    program.pointCategories = program.pointCategories.map((c) => (c.name === 'Points' ? { ...c, expiry: { date: '2026-06-15T12:00:00' } } : c));
    body(await call('PUT', '/admin/program', await admin(other), program));
    now = START - 3_600_000;
    body(await call('POST', '/users/vic/actions', await t.token(other.app), { action: 'read_article', eventId: 'vic-read' }), 201);
    const earned = (await balance('vic', other)).categories.find((c) => c.name === 'Points')!;
    expect(earned.earnedToday).toBeGreaterThan(0);
    now = START + 5 * 60_000;
    await node().sweepSite(other.siteId, now);
    body(await call('DELETE', '/users/vic/actions/vic-read', await admin(other)));
    expect((await balance('vic', other)).categories.find((c) => c.name === 'Points')).toMatchObject({ balance: 0, earnedToday: 0 });
    expect(await verify(other)).toEqual([]);
  });

  it('questline verify reports a reversal that took back points that had expired', async () => {
    const other = await t.createSite();
    body(await call('PUT', '/admin/program', await admin(other), expiringProgram()));
    now = START;
    body(await call('POST', '/users/sam/actions', await t.token(other.app), { action: 'read_article', eventId: 'sam-read' }), 201);
    const earned = (await balance('sam', other)).balance;
    await adjust('sam', -3, 'Points', other);
    now = Date.parse(FIRST_EXPIRY) + DAY;
    await node().sweepSite(other.siteId, now);
    body(await call('DELETE', '/users/sam/actions/sam-read', await admin(other)));
    expect(await verify(other)).toEqual([]);
    // Make the reversal what it was before the rule: the credit in full, the balance agreeing with the ledger.
    await t.database.db
      .updateTable('points_ledger')
      .set({ credited: -earned, requested: -earned })
      .where('site_id', '=', other.siteId)
      .where('cause', '=', 'reversal')
      .execute();
    await t.database.db
      .updateTable('point_balances')
      .set({ balance: -earned })
      .where('site_id', '=', other.siteId)
      .where('party_id', '=', 'sam')
      .where('category', '=', 'Points')
      .execute();
    // (Lifetime and cap totals follow the tampered entry too; the reversal itself is the finding.)
    expect(await verify(other)).toContainEqual(expect.objectContaining({ check: 'completion_points', subject: 'user:sam', expected: -3, actual: -earned }));
  });

  it('a negative balance expires nothing, and says nothing expires', async () => {
    now = START;
    await adjust('neg', 10);
    await adjust('neg', -25);
    expect((await balance('neg')).categories.find((c) => c.name === 'Points')).toMatchObject({ balance: -15, expiringSoon: null });
    await node().sweepSite(site.siteId, Date.parse(FIRST_EXPIRY) + 5 * DAY);
    expect(await expiries('neg')).toEqual([]);
  });

  it('two sweeps at once write one expiry', async () => {
    const other = await t.createSite();
    body(await call('PUT', '/admin/program', await admin(other), expiringProgram()));
    now = START;
    for (const user of ['c1', 'c2', 'c3']) await adjust(user, 50, 'Points', other);
    const at = Date.parse(FIRST_EXPIRY) + 1000;
    // Two nodes: two services, each with its own memory of what it swept.
    const results = await Promise.all([node().sweepSite(other.siteId, at), node().sweepSite(other.siteId, at)]);
    expect(results[0]! + results[1]!).toBe(3);
    for (const user of ['c1', 'c2', 'c3']) {
      expect((await expiries(user, other)).map((e) => e.amount)).toEqual([-50]);
      expect((await balance(user, other)).balance).toBe(0);
    }
    // No endpoint subscribes on this site: no event is written.
    expect(await expiredEvents(other)).toEqual([]);
    expect(await verify(other)).toEqual([]);
  });

  it('a sweep racing a spend leaves the balance as the oldest-first rule says', async () => {
    now = START;
    await adjust('dan', 30);
    now = START + 20 * DAY;
    await adjust('dan', 20);
    now = Date.parse(FIRST_EXPIRY) + 1000;
    const [, spent] = await Promise.all([
      node().sweepSite(site.siteId, now),
      call('POST', '/admin/users/dan/points', await admin(), { category: 'Points', amount: -25, reason: 'spend' }),
    ]);
    expect(spent.statusCode).toBe(201);
    const [expiry] = await expiries('dan');
    const final = (await balance('dan')).balance;
    // Spent first: 25 of the oldest 30, 5 expire, 20 remain. Swept first: 30 expire, 20 − 25 = −5.
    expect([
      [-5, 20],
      [-30, -5],
    ]).toContainEqual([expiry?.amount, final]);
    expect(await verify()).toEqual([]);
  });

  it('questline verify reports an expiry that took more than what remained', async () => {
    const other = await t.createSite();
    body(await call('PUT', '/admin/program', await admin(other), expiringProgram()));
    now = START;
    await adjust('fay', 50, 'Points', other);
    now = START + 5 * DAY;
    await adjust('fay', 10, 'Points', other);
    await node().sweepSite(other.siteId, Date.parse(FIRST_EXPIRY));
    expect(await verify(other)).toEqual([]);
    // The expiry took 50; make it 55 (and the balance agree with the ledger): 5 of June 20's points.
    const where = { site: other.siteId };
    await t.database.db
      .updateTable('points_ledger')
      .set({ credited: -55, requested: -55 })
      .where('site_id', '=', where.site)
      .where('cause', '=', 'expiry')
      .execute();
    await t.database.db
      .updateTable('point_balances')
      .set({ balance: 5 })
      .where('site_id', '=', where.site)
      .where('party_id', '=', 'fay')
      .where('category', '=', 'Points')
      .execute();
    expect(await verify(other)).toEqual([
      {
        siteId: other.siteId,
        check: 'expiry',
        subject: 'user:fay',
        detail: 'Points expiry of the points earned before 2026-06-16T04:00:00.000Z',
        expected: 50,
        actual: 55,
      },
    ]);
  });

  it('refuses an expiry rule on the award category, whichever side is written', async () => {
    const other = await t.createSite();
    const program = expiringProgram();
    const award = program.pointCategories.findIndex((c) => c.name === 'Award');
    program.pointCategories[award] = { ...program.pointCategories[award], expiry: { afterDays: 30 } };
    const whole = expectProblem(await call('PUT', '/admin/program', await admin(other), program), 422, 'program_invalid');
    expect(whole.errors.map((e: { path: string }) => e.path)).toEqual([`pointCategories.${award}.expiry`, 'awardSettings.pointCategory']);
    body(await call('PUT', '/admin/program', await admin(other), expiringProgram()));
    // The category written alone, then award settings naming a category that expires.
    const category = expectProblem(
      await call('PUT', '/admin/point-categories/Award', await admin(other), { name: 'Award', expiry: { afterDays: 30 } }),
      422,
      'program_invalid',
    );
    expect(category.errors.map((e: { path: string }) => e.path)).toContain('expiry');
    const settings = body<Record<string, unknown>>(await call('GET', '/admin/award-settings', await admin(other)));
    const moved = expectProblem(
      await call('PUT', '/admin/award-settings', await admin(other), { ...settings, pointCategory: 'Points' }),
      422,
      'program_invalid',
    );
    expect(moved.errors.map((e: { path: string }) => e.path)).toContain('pointCategory');
  });

  it('a program stored before the rule, with expiry on the award category, expires nothing of it', async () => {
    const other = await t.createSite();
    const program = expiringProgram();
    body(await call('PUT', '/admin/program', await admin(other), program));
    now = START;
    await adjust('ivy', 100, 'Award', other);
    body(await call('POST', '/admin/users/ivy/award-debits', await admin(other), { kind: 'purchase', amount: 100, reference: 'order-1' }), 201);
    // The stored program as it could be written before the rule: Award with an expiry.
    const stored = await t.app.services.programs.snapshot(other.siteId);
    const conflicting = structuredClone(stored);
    conflicting.program.pointCategories = conflicting.program.pointCategories.map((c) => (c.name === 'Award' ? { ...c, expiry: { afterDays: 30 } } : c));
    const sweeper = new ExpiryService(t.database.db, { snapshot: () => Promise.resolve(conflicting) }, t.app.services.actions, {
      clock: () => now,
      sweepIntervalMs: 60_000,
      onError: () => {},
    });
    now = START + 40 * DAY;
    expect(await sweeper.sweepSite(other.siteId, now)).toBe(0);
    const account = body<{ available: number }>(await call('GET', '/users/ivy/award-balance', await t.token(other.app, 'ivy')));
    expect(account.available).toBe(0);
    expect(await expiries('ivy', other)).toEqual([]);
  });

  it('a fixed date waits out the grace: a credit written just after it by a node whose clock is behind still expires', async () => {
    const other = await t.createSite();
    const program = expiringProgram();
    // Points earned before 2026-06-30 00:00 New York (04:00Z) expire at it.
    const date = Date.parse('2026-06-30T04:00:00Z');
    program.pointCategories = program.pointCategories.map((c) => (c.name === 'Points' ? { ...c, expiry: { date: '2026-06-30T00:00:00' } } : c));
    body(await call('PUT', '/admin/program', await admin(other), program));
    const graced = (clock: number) =>
      new ExpiryService(t.database.db, t.app.services.programs, t.app.services.actions, {
        clock: () => clock,
        sweepIntervalMs: 60_000,
        graceMs: 60_000,
        onError: () => {},
      });
    now = date - 3_600_000;
    await adjust('kim', 10, 'Points', other);
    // A node with the right clock sweeps 1 s after the date: within the grace, it expires nothing yet.
    expect(await graced(date + 1000).sweepSite(other.siteId, date + 1000)).toBe(0);
    // This node's clock is 2 s behind: its credit is recorded before the date, committed after that sweep.
    now = date - 1000;
    await adjust('kim', 20, 'Points', other);
    // Due and not yet swept: the balance says it expires now, never at an instant in the past.
    now = date + 1000;
    expect((await balance('kim', other)).categories.find((c) => c.name === 'Points')).toMatchObject({
      balance: 30,
      expiringSoon: { amount: 30, date: new Date(now).toISOString() },
    });
    // Past the grace, every point earned before the date expires, the late credit too.
    now = date + 61_000;
    expect(await graced(now).sweepSite(other.siteId, now)).toBe(1);
    expect((await expiries('kim', other)).map((e) => e.amount)).toEqual([-30]);
    expect((await balance('kim', other)).categories.find((c) => c.name === 'Points')).toMatchObject({ balance: 0, expiringSoon: null });
    expect(await verify(other)).toEqual([]);
  });

  it('questline verify replays a category whose expiry rule was removed after points expired, credits and all', async () => {
    const other = await t.createSite();
    body(await call('PUT', '/admin/program', await admin(other), expiringProgram()));
    now = START;
    await adjust('lee', 40, 'Points', other);
    now = Date.parse(FIRST_EXPIRY) + DAY;
    expect(await node().sweepSite(other.siteId, now)).toBe(1);
    expect(await verify(other)).toEqual([]);
    // The rule removed: what expired stays expired, and verify still finds nothing wrong with it.
    now += DAY;
    body(await call('PUT', '/admin/program', await admin(other), exampleProgram()));
    await adjust('lee', 5, 'Points', other);
    expect(await verify(other)).toEqual([]);
  });

  it('a party whose expiry fails is reported and skipped; the others expire, and it is retried the next round', async () => {
    const other = await t.createSite();
    body(await call('PUT', '/admin/program', await admin(other), expiringProgram()));
    now = START;
    for (const user of ['p1', 'p2-poison', 'p3']) await adjust(user, 10, 'Points', other);
    const errors: unknown[] = [];
    let poisoned = true;
    const actions = t.app.services.actions;
    const sweeper = new ExpiryService(
      t.database.db,
      t.app.services.programs,
      {
        transaction: (snapshot, at, work) => actions.transaction(snapshot, at, work),
        writeWithin: (within, parties, decide) => {
          if (poisoned && parties.some((p) => p.id.endsWith('poison'))) throw new Error('poisoned party');
          return actions.writeWithin(within, parties, decide);
        },
      },
      { clock: () => now, sweepIntervalMs: 60_000, onError: (error) => errors.push(error) },
    );
    now = Date.parse(FIRST_EXPIRY) + DAY;
    expect(await sweeper.sweepSite(other.siteId, now)).toBe(2);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/poisoned party/);
    for (const user of ['p1', 'p3']) expect((await expiries(user, other)).map((e) => e.amount)).toEqual([-10]);
    expect(await expiries('p2-poison', other)).toEqual([]);
    // Fixed: the next round of the same node comes back for it.
    poisoned = false;
    expect(await sweeper.sweepSite(other.siteId, now + 60_000)).toBe(1);
    expect((await expiries('p2-poison', other)).map((e) => e.amount)).toEqual([-10]);
  });

  it('pages the candidates by party (keyset): more failing parties than a page do not hold up those after them', async () => {
    const other = await t.createSite();
    body(await call('PUT', '/admin/program', await admin(other), expiringProgram()));
    now = START;
    const poisonedUsers = Array.from({ length: 105 }, (_, i) => `a-${String(i).padStart(3, '0')}-poison`);
    for (const user of [...poisonedUsers, 'z-last']) await adjust(user, 10, 'Points', other);
    const errors: unknown[] = [];
    const actions = t.app.services.actions;
    const sweeper = new ExpiryService(
      t.database.db,
      t.app.services.programs,
      {
        transaction: (snapshot, at, work) => actions.transaction(snapshot, at, work),
        writeWithin: (within, parties, decide) => {
          if (parties.some((p) => p.id.endsWith('poison'))) throw new Error('poisoned party');
          return actions.writeWithin(within, parties, decide);
        },
      },
      { clock: () => now, sweepIntervalMs: 60_000, onError: (error) => errors.push(error) },
    );
    now = Date.parse(FIRST_EXPIRY) + DAY;
    // Each party is read once a round: the 105 failing ones once each, then the one after them.
    expect(await sweeper.sweepSite(other.siteId, now)).toBe(1);
    expect(errors).toHaveLength(105);
    expect((await expiries('z-last', other)).map((e) => e.amount)).toEqual([-10]);
  }, 60_000);

  it('refuses another user’s balance to a user-level token', async () => {
    expectProblem(await call('GET', '/users/ann/point-balance', await t.token(site.app, 'bob')), 403, 'forbidden');
  });
});
