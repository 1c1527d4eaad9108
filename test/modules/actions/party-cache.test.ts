// The action path keeps each party's state in memory between decisions (src/modules/actions/
// party-cache.ts). These tests change that state behind its back and check that the next decision
// sees the change: another node on the same database logging for the same user, an admin points
// adjustment on the other node, a dry run, a rule edit. Run on both dialects.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { openDatabase, type Database } from '../../../src/db/index.js';
import { ActionsRepository } from '../../../src/modules/actions/repository.js';
import { LedgerRepository } from '../../../src/modules/ledger/repository.js';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { expectBalancesMatchLedger } from '../../helpers/ledger.js';

const START = Date.parse('2026-06-15T16:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);

const mission = (
  id: string,
  rules: Array<{ id: string; action: string; goal: number }>,
  points: Array<{ category: string; amount: number }>,
  repeatable = false,
) => ({
  id,
  name: id,
  startDate: '2026-01-01T00:00:00',
  endDate: '2027-12-31T23:59:59',
  timezone: 'America/New_York',
  rules: rules.map((rule) => ({ ...rule, type: 'count', metadata: [] })),
  rewards: { points },
  ...(repeatable ? { repeatableWindow: { period: 'day', maxPerPeriod: 100 } } : {}),
});

const program = (stepRules: Array<{ id: string; action: string; goal: number }>) => ({
  site: { name: 'Cache', timezone: 'America/New_York', levelType: 'points' },
  pointCategories: [
    { name: 'Points', isDefault: true },
    { name: 'Coins', dailyLimit: 10 },
    { name: 'Gems', dailyLimit: 10 },
  ],
  actions: [
    { name: 'step' },
    { name: 'bonus' },
    { name: 'other' },
    { name: 'vip' },
    { name: 'coin' },
    { name: 'gem' },
    { name: 'limited', rateLimit: { max: 2, period: 'day' } },
  ],
  levels: [
    { id: 'l-1', name: 'Rookie', threshold: 0 },
    { id: 'l-2', name: 'Regular', threshold: 100 },
  ],
  missions: [
    mission('m-steps', stepRules, [{ category: 'Coins', amount: 4 }], true),
    mission('m-bonus', [{ id: 'r-1', action: 'bonus', goal: 1 }], [{ category: 'Points', amount: 10 }], true),
    mission('m-coin', [{ id: 'r-1', action: 'coin', goal: 1 }], [{ category: 'Coins', amount: 4 }], true),
    mission(
      'm-gem',
      [{ id: 'r-1', action: 'gem', goal: 1 }],
      [
        { category: 'Coins', amount: 4 },
        { category: 'Gems', amount: 4 },
      ],
      true,
    ),
    { ...mission('m-vip', [{ id: 'r-1', action: 'vip', goal: 1 }], [{ category: 'Points', amount: 1 }], true), prerequisites: { groups: ['g-vip'] } },
  ],
  groups: [{ id: 'g-vip', name: 'VIP' }],
  leaderboards: [{ id: 'lb-coins', name: 'Coins', metric: { type: 'points', category: 'Coins' }, period: 'allTime' }],
});

describe.each(configurations)('cached party state (%s)', (configuration) => {
  let t: TestApp;
  let second: { app: Awaited<ReturnType<typeof buildApp>>; database: Database };
  let site: TestSite;
  let admin: string;
  let client: string;

  type Node = TestApp['app'];
  const post = (node: Node, url: string, payload: Record<string, unknown>, token = client) =>
    node.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload });
  const outcomeOf = (response: LightMyRequestResponse) => (response.json() as { response: ActionOutcome }).response;
  const log = async (node: Node, user: string, action: string, query = '') => {
    const response = await post(node, `/users/${user}/actions${query}`, { action });
    expect(response.statusCode, response.body).toBe(201);
    return outcomeOf(response);
  };
  const putProgram = async (body: Record<string, unknown>) => {
    const response = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: body });
    expect(response.statusCode, response.body).toBeLessThan(300);
  };
  const stepProgress = (outcome: ActionOutcome) => outcome.progress.find((entry) => entry.challengeId === 'm-steps')?.percentComplete;

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock, config: { clientRate: { rate: 100000, burst: 100000 } } });
    // A second node: its own app, its own connection (pool) to the same database.
    const database = openDatabase(t.config.database);
    second = { app: await buildApp(t.config, { database, clock }), database };
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    await putProgram(program([{ id: 'r-1', action: 'step', goal: 3 }]));
  });
  afterAll(async () => {
    await second.app.close();
    await second.database.close();
    await t.close();
  });

  it('sees progress, completions and cap totals made by another node', async () => {
    const nodes = [t.app, second.app];
    const outcomes: ActionOutcome[] = [];
    // Nine steps, alternating nodes: a completion every third step, the third one cut by the cap of 10 Coins.
    for (let i = 0; i < 9; i++) outcomes.push(await log(nodes[i % 2] as Node, 'alternating', 'step'));
    expect(outcomes.map(stepProgress)).toEqual([33, 66, 100, 33, 66, 100, 33, 66, 100]);
    expect(outcomes.flatMap((outcome) => outcome.pointsAwarded)).toEqual([
      { category: 'Coins', requested: 4, credited: 4 },
      { category: 'Coins', requested: 4, credited: 4 },
      { category: 'Coins', requested: 4, credited: 2 },
    ]);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it("reads nothing but a new user's row for their first decision, and sees it all afterwards, on either node", async () => {
    const reads = [
      ...(['missionState', 'earnings', 'countRecorded'] as const).map((name) => vi.spyOn(ActionsRepository.prototype, name)),
      vi.spyOn(LedgerRepository.prototype, 'lifetime'),
    ];
    const called = () => reads.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    // On PostgreSQL (unlocked) what a decision lacks is read with the row in one statement; on
    // SQLite (locked) query by query.
    const together = vi.spyOn(ActionsRepository.prototype, 'partyState');
    const onPostgres = configuration === 'scale-out';
    try {
      // Its first action creates the user: there is nothing else of theirs to read.
      expect((await log(t.app, 'newcomer', 'bonus')).pointsAwarded).toEqual([{ category: 'Points', requested: 10, credited: 10 }]);
      expect([together.mock.calls.length, called()]).toEqual(onPostgres ? [1, 0] : [0, 0]);
      // The next one reads what its node has not loaded yet (the step mission's state).
      expect(stepProgress(await log(t.app, 'newcomer', 'step'))).toBe(33);
      if (onPostgres) expect([together.mock.calls.length, called()]).toEqual([2, 0]);
      else expect(called()).toBeGreaterThan(0);
      // On PostgreSQL that read took all the user's state, not only what a step needs: an action of
      // another kind (another mission, another capped category) reads nothing either.
      expect((await log(t.app, 'newcomer', 'gem')).pointsAwarded).toEqual([
        { category: 'Coins', requested: 4, credited: 4 },
        { category: 'Gems', requested: 4, credited: 4 },
      ]);
      if (onPostgres) expect([together.mock.calls.length, called()]).toEqual([2, 0]);
      // And the one after reads nothing: its node has it all.
      for (const spy of [...reads, together]) spy.mockClear();
      expect(stepProgress(await log(t.app, 'newcomer', 'step'))).toBe(66);
      expect([together.mock.calls.length, called()]).toEqual([0, 0]);
      // The other node knows nothing of them yet: it reads what the first decisions wrote.
      const outcomes = [await log(second.app, 'newcomer', 'step'), await log(second.app, 'newcomer', 'step')];
      if (onPostgres) expect([together.mock.calls.length, called()]).toEqual([1, 0]);
      else expect(called()).toBeGreaterThan(0);
      expect(outcomes.map(stepProgress)).toEqual([100, 33]);
      expect(outcomes[0]?.pointsAwarded).toEqual([{ category: 'Coins', requested: 4, credited: 4 }]);
    } finally {
      for (const spy of [...reads, together]) spy.mockRestore();
    }
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it('on PostgreSQL decides without locking, from the cached state or the stored one when the party changed meanwhile', async () => {
    const locks = vi.spyOn(LedgerRepository.prototype, 'write');
    const rowReads = vi.spyOn(ActionsRepository.prototype, 'partyState');
    const onPostgres = configuration === 'scale-out';
    try {
      // PostgreSQL: a user this node never saw has their row read without a lock; there is none,
      // and it is inserted with the first decision, in one statement. SQLite holds the only write
      // lock anyway, and always reads (here: creates) the row under it.
      expect(stepProgress(await log(t.app, 'unlocked', 'step'))).toBe(33);
      expect([locks.mock.calls.length, rowReads.mock.calls.length]).toEqual(onPostgres ? [0, 1] : [1, 0]);
      // Known to the node: decided from its cache, written guarded by the party's version, no read.
      expect(stepProgress(await log(t.app, 'unlocked', 'step'))).toBe(66);
      expect([locks.mock.calls.length, rowReads.mock.calls.length]).toEqual(onPostgres ? [0, 1] : [2, 0]);
      // The other node never saw the user: it reads the row and the state it needs, no lock.
      expect(stepProgress(await log(second.app, 'unlocked', 'step'))).toBe(100);
      expect([locks.mock.calls.length, rowReads.mock.calls.length]).toEqual(onPostgres ? [0, 2] : [3, 0]);
      // This node's cached version is now stale: its guarded write writes nothing, and the
      // decision is made again from the stored state, still without a lock.
      const after = await log(t.app, 'unlocked', 'step');
      expect(stepProgress(after)).toBe(33);
      expect([locks.mock.calls.length, rowReads.mock.calls.length]).toEqual(onPostgres ? [0, 3] : [4, 0]);
      // Another node serves the user too: this one no longer trusts its cache of them, and reads
      // their state for each decision (one statement), rather than have a decision made twice.
      expect(stepProgress(await log(t.app, 'unlocked', 'step'))).toBe(66);
      expect([locks.mock.calls.length, rowReads.mock.calls.length]).toEqual(onPostgres ? [0, 4] : [5, 0]);
      // A repeated event id is answered as the first answer, from either path.
      const first = await post(t.app, '/users/unlocked/actions', { action: 'step', eventId: 'unlocked-1' });
      const repeat = await post(t.app, '/users/unlocked/actions', { action: 'step', eventId: 'unlocked-1' });
      expect(outcomeOf(repeat)).toEqual({ ...outcomeOf(first), duplicate: true });
      const last = await log(t.app, 'unlocked', 'step');
      expect(stepProgress(last)).toBe(33);
      expect(last.pointsAwarded).toEqual([]);
      // The repeat's decision was written nowhere (its event id is taken): that state is not kept,
      // and the next action reads the party again, locked.
      expect(locks).toHaveBeenCalledTimes(onPostgres ? 1 : 8);
    } finally {
      locks.mockRestore();
      rowReads.mockRestore();
    }
    // The board moved with the decisions written without a lock, and shows it at once.
    const standing = await t.app.inject({ method: 'GET', url: '/leaderboards/lb-coins/leaders/unlocked', headers: { authorization: `Bearer ${client}` } });
    expect(standing.statusCode, standing.body).toBe(200);
    expect(JSON.stringify(standing.json())).toMatch(/"score":8\b/);
    const events = await t.database.db
      .selectFrom('action_events')
      .select('event_id')
      .where('site_id', '=', site.siteId)
      .where('party_id', '=', 'unlocked')
      .execute();
    expect(events).toHaveLength(7);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it("refuses, and stores nothing of, an action that would take a known user's balance past the exact integers", async () => {
    await log(t.app, 'brimful', 'bonus'); // known to the node: PostgreSQL decides the next one unlocked
    const points = () =>
      t.database.db
        .selectFrom('point_balances')
        .select('balance')
        .where('site_id', '=', site.siteId)
        .where('party_id', '=', 'brimful')
        .where('category', '=', 'Points')
        .executeTakeFirstOrThrow();
    const events = () =>
      t.database.db.selectFrom('action_events').select('event_id').where('site_id', '=', site.siteId).where('party_id', '=', 'brimful').execute();
    await t.database.db
      .updateTable('point_balances')
      .set({ balance: Number.MAX_SAFE_INTEGER - 5 })
      .where('site_id', '=', site.siteId)
      .where('party_id', '=', 'brimful')
      .where('category', '=', 'Points')
      .execute();
    const response = await post(t.app, '/users/brimful/actions', { action: 'bonus' });
    expect(response.statusCode, response.body).toBe(422);
    expect((response.json() as { code: string }).code).toBe('amount_out_of_range');
    expect(Number((await points()).balance)).toBe(Number.MAX_SAFE_INTEGER - 5);
    expect(await events()).toHaveLength(1);
    // Back to what the ledger says, for the checks of the tests after this one.
    await t.database.db
      .updateTable('point_balances')
      .set({ balance: 10 })
      .where('site_id', '=', site.siteId)
      .where('party_id', '=', 'brimful')
      .where('category', '=', 'Points')
      .execute();
  });

  it('sees an admin adjustment made on another node: the level follows the new lifetime points', async () => {
    expect((await log(t.app, 'adjusted', 'bonus')).levelChanged).toBeUndefined(); // 10 points, cached
    const adjustment = await post(second.app, '/admin/users/adjusted/points', { category: 'Points', amount: 85, reason: 'migration' }, admin);
    expect(adjustment.statusCode, adjustment.body).toBe(201);
    const outcome = await log(t.app, 'adjusted', 'bonus'); // 10 + 85 + 10 = 105: Regular
    expect(outcome.levelChanged).toEqual({ from: { id: 'l-1', name: 'Rookie' }, to: { id: 'l-2', name: 'Regular' }, direction: 'up' });
  });

  it("sees a user's groups change, which does not move their row", async () => {
    const membership = (method: 'PUT' | 'DELETE') =>
      second.app.inject({
        method,
        url: '/admin/groups/g-vip/members/joiner',
        headers: { authorization: `Bearer ${admin}` },
        ...(method === 'PUT' ? { payload: {} } : {}),
      });
    const credited = async () => (await log(t.app, 'joiner', 'vip')).pointsAwarded.map((award) => award.credited);
    // Known to the node, with no groups: on PostgreSQL the next decisions take the groups from its
    // cache, and their writes check that they still are the user's.
    expect(await credited()).toEqual([]);
    expect(await credited()).toEqual([]);
    expect((await membership('PUT')).statusCode).toBe(201);
    expect(await credited()).toEqual([1]);
    expect(await credited()).toEqual([1]);
    expect((await membership('DELETE')).statusCode).toBe(204);
    expect(await credited()).toEqual([]);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it("keeps a day's cap exact when the entry drops its oldest cap windows", async () => {
    // 8 Coins today; then Coins earned on 30 past days fill the entry's 32 cap windows.
    for (let i = 0; i < 2; i++) await log(t.app, 'capped', 'coin');
    const day = 24 * 60 * 60 * 1000;
    for (let i = 1; i <= 30; i++) expect((await post(t.app, '/users/capped/actions', { action: 'coin', timestamp: clock() - i * day })).statusCode).toBe(201);
    // An action rewarding Coins and Gems needs Gems' totals too: the oldest windows are dropped,
    // and today's Coins must still count (10 - 8 = 2 left).
    expect((await log(t.app, 'capped', 'gem')).pointsAwarded).toEqual([
      { category: 'Coins', requested: 4, credited: 2 },
      { category: 'Gems', requested: 4, credited: 4 },
    ]);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it('forgets what a dry run decided', async () => {
    for (let i = 0; i < 5; i++) expect(stepProgress(await log(t.app, 'dry', 'step', '?dryRun=true'))).toBe(33);
    const outcomes = [await log(t.app, 'dry', 'step'), await log(t.app, 'dry', 'step'), await log(t.app, 'dry', 'step')];
    expect(outcomes.map(stepProgress)).toEqual([33, 66, 100]);
    expect(outcomes.map((outcome) => outcome.missionsCompleted.length)).toEqual([0, 0, 1]);
  });

  it('forgets progress that a rule edit archived', async () => {
    expect(stepProgress(await log(t.app, 'edited', 'step'))).toBe(33);
    expect(stepProgress(await log(t.app, 'edited', 'step'))).toBe(66);
    // The rule goes away (its progress is archived), then comes back: it starts again from zero.
    await putProgram(program([{ id: 'r-2', action: 'other', goal: 3 }]));
    await putProgram(program([{ id: 'r-1', action: 'step', goal: 3 }]));
    const outcome = await log(t.app, 'edited', 'step');
    expect(stepProgress(outcome)).toBe(33);
    expect(outcome.missionsCompleted).toEqual([]);
  });

  it("counts a rate-limited action's window with the rest of the party's state, exactly, on either node", async () => {
    const together = vi.spyOn(ActionsRepository.prototype, 'partyState');
    const counts = vi.spyOn(ActionsRepository.prototype, 'countRecorded');
    const onPostgres = configuration === 'scale-out';
    try {
      await log(t.app, 'rated', 'bonus');
      await log(second.app, 'rated', 'step');
      // This node's entry is stale (the other node wrote): it reads the user's whole state again,
      // the window of the rate-limited action with it, and the next decision reads nothing.
      await log(t.app, 'rated', 'step');
      const read = together.mock.calls.length;
      expect((await log(t.app, 'rated', 'limited')).recorded).toBe(true);
      if (onPostgres) expect([together.mock.calls.length - read, counts.mock.calls.length]).toEqual([0, 0]);
      expect((await log(second.app, 'rated', 'limited')).recorded).toBe(true);
      const third = await log(t.app, 'rated', 'limited');
      expect([third.recorded, third.reason]).toEqual([false, 'rate_limited']);
    } finally {
      together.mockRestore();
      counts.mockRestore();
    }
    const recorded = await t.database.db
      .selectFrom('action_events')
      .select('recorded')
      .where('site_id', '=', site.siteId)
      .where('party_id', '=', 'rated')
      .where('action', '=', 'limited')
      .execute();
    expect(recorded.map((row) => Number(row.recorded)).sort()).toEqual([0, 1, 1]);
  });

  it('does not let two decisions of one node for one user share the state they change', async () => {
    // A known user (PostgreSQL decides from cached state, unlocked), two concurrent actions that
    // both read state the node has not loaded yet, held up so that both take the cached state
    // before either writes: one of them must not change what the other then keeps as stored.
    await log(t.app, 'pair', 'step');
    // The first decision reads first and writes last: the second decides (from the state the
    // first changed) and writes while the first is still writing.
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const read = ActionsRepository.prototype.missionState;
    const write = LedgerRepository.prototype.apply;
    let readsSeen = 0;
    let writesSeen = 0;
    const reads = vi.spyOn(ActionsRepository.prototype, 'missionState').mockImplementation(async function (this: ActionsRepository, ...args) {
      await sleep(++readsSeen === 1 ? 10 : 40);
      return read.apply(this, args);
    });
    // The first write is held up, in a transaction (apply) or in a group commit (commit) alike.
    const writes = vi.spyOn(LedgerRepository.prototype, 'apply').mockImplementation(async function (this: LedgerRepository, ...args) {
      if (++writesSeen === 1) await sleep(80);
      return write.apply(this, args);
    });
    const commit = LedgerRepository.prototype.commit;
    const commits = vi.spyOn(LedgerRepository.prototype, 'commit').mockImplementation(async function (this: LedgerRepository, ...args) {
      if (++writesSeen === 1) await sleep(80);
      return commit.apply(this, args);
    });
    let pair: LightMyRequestResponse[];
    try {
      pair = await Promise.all([post(t.app, '/users/pair/actions', { action: 'bonus' }), post(t.app, '/users/pair/actions', { action: 'bonus' })]);
    } finally {
      reads.mockRestore();
      writes.mockRestore();
      commits.mockRestore();
    }
    expect(pair.map((response) => response.statusCode)).toEqual([201, 201]);
    // 20 points; seven more bonuses make 90 (no level yet), the eighth 100 (Regular).
    const levels: Array<string | undefined> = [];
    for (let i = 0; i < 8; i++) levels.push((await log(t.app, 'pair', 'bonus')).levelChanged?.to?.id ?? undefined);
    expect(levels).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined, 'l-2']);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it('keeps exact caps when both nodes log for one user at once', async () => {
    // Two SQLite connections in one process would wait on each other's write lock while holding
    // the event loop; separate processes do not. Embedded: one node, all at once.
    const nodes = configuration === 'scale-out' ? [t.app, second.app] : [t.app];
    // 30 steps at once: 10 completions requesting 40 Coins, of which the day's cap leaves 10.
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post(nodes[i % nodes.length] as Node, '/users/burst/actions', { action: 'step' })),
    );
    expect(responses.every((response) => response.statusCode === 201)).toBe(true);
    const awards = responses.flatMap((response) => outcomeOf(response).pointsAwarded);
    expect(awards).toHaveLength(10);
    expect(awards.reduce((sum, award) => sum + award.credited, 0)).toBe(10);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });
});
