// What a decision made under lock changes of earlier decisions' rows (a reversal's removals, supply
// given back, progress reset, trophies recounted, its event marked reversed) and award account
// movements, as write set rows (src/modules/ledger/write-set.ts), written by both stores; and the
// checks a write set gets before anything of it is stored.
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/index.js';
import type { AwardLedgerTable, PointsLedgerTable } from '../../../src/db/schema.js';
import { LedgerRepository } from '../../../src/modules/ledger/repository.js';
import { unwritable, WriteSet, type PartyKey } from '../../../src/modules/ledger/write-set.js';
import { configurations, freshDatabase } from '../../helpers/app.js';
import { actionEventRow } from '../../helpers/ledger.js';

const site = 's-amend';
const ann: PartyKey = { siteId: site, type: 'user', id: 'ann' };
const bob: PartyKey = { siteId: site, type: 'user', id: 'bob' };
const crew: PartyKey = { siteId: site, type: 'group', id: 'crew' };

const completion = (id: string, party: PartyKey, badge: string | null, completedAt: number) => ({
  site_id: site,
  completion_id: id,
  party_type: party.type,
  party_id: party.id,
  mission_id: 'm-1',
  window_start: 0,
  event_id: `ev-${id}`,
  completed_at: completedAt,
  recorded_at: completedAt,
  removed_at: null,
  badge_id: badge,
});
const progress = (party: PartyKey, missionId: string, ruleId: string, current: number) => ({
  site_id: site,
  party_type: party.type,
  party_id: party.id,
  mission_id: missionId,
  rule_id: ruleId,
  window_start: 0,
  current,
  updated_at: 1,
});
const event = (id: string) => actionEventRow(site, id, 'ann');
const award = (userId: string, amount: number, id: string): Omit<AwardLedgerTable, 'balance_after'> => ({
  site_id: site,
  entry_id: id,
  user_id: userId,
  kind: 'adjustment',
  amount,
  category: null,
  reference: `ref-${id}`,
  description: null,
  available_at: 100,
  posted_at: 100 + amount,
});

describe.each(configurations)('write set amendments (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  let ledger: LedgerRepository;
  const rows = {
    mission_completions: () => database.db.selectFrom('mission_completions').selectAll().where('site_id', '=', site).execute(),
    mission_supply: () => database.db.selectFrom('mission_supply').selectAll().where('site_id', '=', site).execute(),
    mission_progress: () => database.db.selectFrom('mission_progress').selectAll().where('site_id', '=', site).execute(),
    trophies: () => database.db.selectFrom('trophies').selectAll().where('site_id', '=', site).execute(),
    action_events: () => database.db.selectFrom('action_events').selectAll().where('site_id', '=', site).execute(),
    award_accounts: () => database.db.selectFrom('award_accounts').selectAll().where('site_id', '=', site).execute(),
    award_ledger: () => database.db.selectFrom('award_ledger').selectAll().where('site_id', '=', site).execute(),
    streak_days: () => database.db.selectFrom('streak_days').selectAll().where('site_id', '=', site).execute(),
    streak_notices: () => database.db.selectFrom('streak_notices').selectAll().where('site_id', '=', site).execute(),
  };
  const apply = (writes: WriteSet) => database.transaction((trx) => ledger.apply(trx, writes));

  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
    ledger = new LedgerRepository(database.dialect);
    await database.db.insertInto('sites').values({ site_id: site, name: 'Amend', timezone: 'UTC', created_at: 0 }).execute();
  });
  beforeEach(async () => {
    for (const table of [
      'mission_completions',
      'mission_supply',
      'mission_progress',
      'trophies',
      'action_events',
      'award_accounts',
      'award_ledger',
      'streak_days',
      'streak_notices',
    ] as const) {
      await database.db.deleteFrom(table).where('site_id', '=', site).execute();
    }
  });
  afterAll(async () => fresh.drop());

  it.each([
    {
      name: 'marks the completions named removed, and no other',
      seed: async () =>
        database.db
          .insertInto('mission_completions')
          .values([completion('c-1', ann, null, 10), completion('c-2', ann, null, 20), completion('c-3', bob, null, 30)])
          .execute(),
      write: (w: WriteSet) => {
        w.removeCompletion(site, 'c-1', 500);
        w.removeCompletion(site, 'c-3', 500);
      },
      read: async () => (await rows.mission_completions()).map((r) => [r.completion_id, r.removed_at === null ? null : Number(r.removed_at)]).sort(),
      expected: [
        ['c-1', 500],
        ['c-2', null],
        ['c-3', 500],
      ],
    },
    {
      name: 'gives supply back a unit per return, never below none used, and leaves missions without a row alone',
      seed: async () =>
        database.db
          .insertInto('mission_supply')
          .values([
            { site_id: site, mission_id: 'm-a', used: 5 },
            { site_id: site, mission_id: 'm-b', used: 1 },
            { site_id: site, mission_id: 'm-c', used: 0 },
          ])
          .execute(),
      write: (w: WriteSet) => {
        for (const mission of ['m-a', 'm-a', 'm-b', 'm-b', 'm-b', 'm-c', 'm-none']) w.returnSupply(site, mission);
      },
      read: async () => (await rows.mission_supply()).map((r) => [r.mission_id, Number(r.used)]).sort(),
      expected: [
        ['m-a', 3],
        ['m-b', 0],
        ['m-c', 0],
      ],
    },
    {
      name: "resets a party's progress in a mission: every rule's row goes, other missions and parties keep theirs",
      seed: async () =>
        database.db
          .insertInto('mission_progress')
          .values([progress(ann, 'm-1', 'r-1', 2), progress(ann, 'm-1', 'r-2', 3), progress(ann, 'm-2', 'r-1', 4), progress(crew, 'm-1', 'r-1', 5)])
          .execute(),
      write: (w: WriteSet) => w.resetProgress(ann, 'm-1'),
      read: async () => (await rows.mission_progress()).map((r) => [r.party_id, r.mission_id, r.rule_id, r.current]).sort(),
      expected: [
        ['ann', 'm-2', 'r-1', 4],
        ['crew', 'm-1', 'r-1', 5],
      ],
    },
    {
      name: 'sets recounted trophy case entries, drops those with none left, and the last count given wins',
      seed: async () =>
        database.db
          .insertInto('trophies')
          .values([
            { site_id: site, party_type: 'user', party_id: 'ann', badge_id: 'b-1', earned_count: 3, first_earned_at: 10, last_earned_at: 30 },
            { site_id: site, party_type: 'user', party_id: 'ann', badge_id: 'b-2', earned_count: 1, first_earned_at: 10, last_earned_at: 10 },
            { site_id: site, party_type: 'group', party_id: 'crew', badge_id: 'b-1', earned_count: 1, first_earned_at: 5, last_earned_at: 5 },
          ])
          .execute(),
      write: (w: WriteSet) => {
        w.recountTrophy(ann, 'b-1', { count: 2, first: 10, last: 20 });
        w.recountTrophy(ann, 'b-1', { count: 1, first: 10, last: 10 });
        w.recountTrophy(ann, 'b-2', { count: 0, first: 0, last: 0 });
      },
      read: async () =>
        (await rows.trophies()).map((r) => [r.party_id, r.badge_id, r.earned_count, Number(r.first_earned_at), Number(r.last_earned_at)]).sort(),
      expected: [
        ['ann', 'b-1', 1, 10, 10],
        ['crew', 'b-1', 1, 5, 5],
      ],
    },
    {
      name: 'marks action events reversed with what the reversal did',
      seed: async () =>
        database.db
          .insertInto('action_events')
          .values([event('ev-1'), event('ev-2')])
          .execute(),
      write: (w: WriteSet) => w.markReversed(site, 'ev-2', 700, '{"completionsRemoved":[]}'),
      read: async () => (await rows.action_events()).map((r) => [r.event_id, r.reversed_at === null ? null : Number(r.reversed_at), r.reversal]).sort(),
      expected: [
        ['ev-1', null, null],
        ['ev-2', 700, '{"completionsRemoved":[]}'],
      ],
    },
    {
      name: 'appends award entries with the running balance after each, and moves (or opens) each account by their sum',
      seed: async () =>
        database.db
          .insertInto('award_accounts')
          .values({ site_id: site, user_id: 'ann', country_code: 'NL', verified: 1, balance: 10, updated_at: 1 })
          .execute(),
      write: (w: WriteSet) => {
        w.awardAccount(site, 'ann', 10);
        w.awardAccount(site, 'bob', 0);
        w.awardAccount(site, 'cat', 0);
        expect(w.postAward(award('ann', 5, 'a-1')).balance_after).toBe(15);
        expect(w.postAward(award('ann', -3, 'a-2')).balance_after).toBe(12);
        expect(w.postAward(award('bob', 7, 'a-3')).balance_after).toBe(7);
        expect(w.awardBalance(site, 'ann')).toBe(12);
      },
      read: async () => [
        (await rows.award_accounts()).map((r) => [r.user_id, Number(r.balance), Number(r.updated_at), r.country_code, r.verified]).sort(),
        (await rows.award_ledger()).map((r) => [r.entry_id, Number(r.amount), Number(r.balance_after), r.reference]).sort(),
      ],
      expected: [
        [
          ['ann', 12, 97, 'NL', 1],
          ['bob', 7, 107, null, 0],
        ],
        [
          ['a-1', 5, 15, 'ref-a-1'],
          ['a-2', -3, 12, 'ref-a-2'],
          ['a-3', 7, 7, 'ref-a-3'],
        ],
      ],
    },
    {
      name: 'takes streak days back an action at a time, never below none, leaving days without a row alone',
      seed: async () =>
        database.db
          .insertInto('streak_days')
          .values([
            { site_id: site, user_id: 'ann', streak_id: 's-1', day: 100, actions: 3 },
            { site_id: site, user_id: 'ann', streak_id: 's-1', day: 101, actions: 1 },
            { site_id: site, user_id: 'bob', streak_id: 's-1', day: 100, actions: 2 },
          ])
          .execute(),
      write: (w: WriteSet) => {
        w.uncountStreakDay(ann, 's-1', 100);
        w.uncountStreakDay(ann, 's-1', 100);
        w.uncountStreakDay(ann, 's-1', 101);
        w.uncountStreakDay(ann, 's-1', 101);
        w.uncountStreakDay(ann, 's-1', 102);
      },
      read: async () => (await rows.streak_days()).map((r) => [r.user_id, Number(r.day), Number(r.actions)]).sort(),
      expected: [
        ['ann', 100, 1],
        ['ann', 101, 0],
        ['bob', 100, 2],
      ],
    },
    {
      name: "records the streak sweep's notices, leaving one recorded already as it was",
      seed: async () =>
        database.db
          .insertInto('streak_notices')
          .values({ site_id: site, user_id: 'ann', streak_id: 's-1', kind: 'frozen', period: 100, created_at: 1 })
          .execute(),
      write: (w: WriteSet) => {
        w.addStreakNotice({ site_id: site, user_id: 'ann', streak_id: 's-1', kind: 'frozen', period: 100, created_at: 2 });
        w.addStreakNotice({ site_id: site, user_id: 'ann', streak_id: 's-1', kind: 'broken', period: 101, created_at: 2 });
      },
      read: async () => (await rows.streak_notices()).map((r) => [r.kind, Number(r.period), Number(r.created_at)]).sort(),
      expected: [
        ['broken', 101, 2],
        ['frozen', 100, 1],
      ],
    },
  ])('$name', async ({ seed, write, read, expected }) => {
    await seed();
    const writes = new WriteSet();
    write(writes);
    expect(writes.hasAmendments).toBe(true);
    await apply(writes);
    expect(await read()).toEqual(expected);
  });

  it('writes amendments with the rest of the set, and nothing of it when a party is stale', async () => {
    await database.db
      .insertInto('parties')
      .values({ site_id: site, party_type: 'user', party_id: 'dee', created_at: 0, last_recorded: null, level_id: null, sequence: 0, version: 3 })
      .execute();
    await database.db
      .insertInto('mission_completions')
      .values(completion('c-dee', { siteId: site, type: 'user', id: 'dee' }, null, 10))
      .execute();
    const removal = (version: number) => {
      const writes = new WriteSet();
      writes.party({ siteId: site, type: 'user', id: 'dee' }, { version, lastRecorded: null, sequence: 0 }, false);
      writes.removeCompletion(site, 'c-dee', 900);
      return writes;
    };
    await expect(apply(removal(2))).rejects.toThrow(/changed since/);
    expect((await rows.mission_completions()).map((r) => r.removed_at)).toEqual([null]);
    await apply(removal(3));
    expect((await rows.mission_completions()).map((r) => Number(r.removed_at))).toEqual([900]);
  });

  if (configuration === 'scale-out') {
    it('finds each row it amends by its key, not by reading the whole table', async () => {
      // Tables of 10,000 rows, as the planner knows them: a join with the set's rows, which it
      // takes for 100, would scan each table whole.
      const tables = ['mission_completions', 'mission_supply', 'mission_progress', 'trophies', 'action_events', 'streak_days'] as const;
      const scans = await database.transaction(async (trx) => {
        await sql`insert into mission_completions select ${site}, 'c-' || n, 'user', 'u-' || n, 'm-1', 0, 'ev-' || n, n, n, null, 'b-1' from generate_series(1, 10000) as n`.execute(
          trx.db,
        );
        await sql`insert into mission_supply select ${site}, 'm-' || n, 3 from generate_series(1, 10000) as n`.execute(trx.db);
        await sql`insert into mission_progress select ${site}, 'user', 'u-' || n, 'm-1', 'r-1', 0, 1, 1 from generate_series(1, 10000) as n`.execute(trx.db);
        await sql`insert into trophies select ${site}, 'user', 'u-' || n, 'b-1', 2, 1, 2 from generate_series(1, 10000) as n`.execute(trx.db);
        await sql`insert into action_events select ${site}, 'ev-' || n, 'user', 'u-' || n, 'act', 1, '{}', n, n, 1, null, '{}', null, null, null from generate_series(1, 10000) as n`.execute(
          trx.db,
        );
        await sql`insert into streak_days select ${site}, 'u-' || n, 's-1', n, 1 from generate_series(1, 10000) as n`.execute(trx.db);
        for (const table of tables) await sql`analyze ${sql.table(table)}`.execute(trx.db);
        const seqScans = async () => {
          const { rows: counts } = await sql<{
            n: string;
          }>`select coalesce(sum(seq_scan), 0) as n from pg_stat_xact_user_tables where relname in (${sql.join([...tables])})`.execute(trx.db);
          return Number(counts[0]?.n ?? 0);
        };
        const before = await seqScans();
        // Eight times: a prepared statement is planned generically from the sixth execution on.
        for (let n = 1; n <= 8; n++) {
          const writes = new WriteSet();
          const user: PartyKey = { siteId: site, type: 'user', id: `u-${n}` };
          writes.removeCompletion(site, `c-${n}`, 900);
          writes.returnSupply(site, `m-${n}`);
          writes.resetProgress(user, 'm-1');
          writes.recountTrophy(user, 'b-1', { count: n % 2, first: 1, last: 1 });
          writes.markReversed(site, `ev-${n}`, 900, '{}');
          writes.uncountStreakDay(user, 's-1', n);
          await ledger.apply(trx, writes);
        }
        return (await seqScans()) - before;
      });
      expect(scans).toBe(0);
    });
  }

  it('refuses to commit a set with amendments outside a lock (group commit)', async () => {
    const writes = new WriteSet();
    writes.returnSupply(site, 'm-a');
    await expect(ledger.commit({ db: database.db }, writes)).rejects.toThrow(/under lock/);
  });
});

describe('write set rows that cannot go together', () => {
  it.each([
    [
      'progress set for a mission the set resets',
      (w: WriteSet) => (w.resetProgress(ann, 'm-1'), w.setProgress(ann, 'm-1', 0, [{ ruleId: 'r-1', current: 1 }], 1)),
      /reset/,
    ],
    [
      'a reset of a mission the set has progress in',
      (w: WriteSet) => (w.setProgress(ann, 'm-1', 0, [{ ruleId: 'r-1', current: 1 }], 1), w.resetProgress(ann, 'm-1')),
      /has progress/,
    ],
    [
      'a badge earned that the set recounts',
      (w: WriteSet) => (w.recountTrophy(ann, 'b-1', { count: 1, first: 1, last: 1 }), w.addTrophy(ann, 'b-1', 5)),
      /recounted/,
    ],
    [
      'a recount of a badge the set earns',
      (w: WriteSet) => (w.addTrophy(ann, 'b-1', 5), w.recountTrophy(ann, 'b-1', { count: 1, first: 1, last: 1 })),
      /earned/,
    ],
    ['an award entry of an account the set has not read', (w: WriteSet) => w.postAward(award('ann', 1, 'a-x')), /not in the write set/],
  ])('refuses %s', (_name, write, message) => {
    expect(() => write(new WriteSet())).toThrow(message);
  });

  it('lets one set reset a mission of one party and set progress of another, or of another mission', () => {
    const writes = new WriteSet();
    writes.resetProgress(ann, 'm-1');
    writes.setProgress(crew, 'm-1', 0, [{ ruleId: 'r-1', current: 1 }], 1);
    writes.setProgress(ann, 'm-2', 0, [{ ruleId: 'r-1', current: 1 }], 1);
    expect([writes.progressResets.size, writes.progress.size]).toEqual([1, 2]);
  });
});

describe('WriteSet.empty', () => {
  const state = { version: 4, lastRecorded: null, sequence: 2 };
  it.each([
    ['a set naming parties it leaves as they are', () => {}, true],
    ['a party whose version it raises', (w: WriteSet) => w.party(bob, state), false],
    [
      'a level change',
      (w: WriteSet) =>
        w.changeLevel(ann, {
          site_id: site,
          change_id: 'lc',
          party_id: 'ann',
          from_level: null,
          to_level: 'l-1',
          direction: 'up',
          event_id: null,
          changed_at: 1,
        }),
      false,
    ],
    ['a supply given back', (w: WriteSet) => w.returnSupply(site, 'm-1'), false],
    ['an event marked reversed', (w: WriteSet) => w.markReversed(site, 'ev', 1, '{}'), false],
    ['a board score', (w: WriteSet) => w.addScores(site, 'ann', [{ boardId: 'lb', windowStart: 0, delta: 1, at: 1 }]), false],
    ['an award account read but not moved', (w: WriteSet) => w.awardAccount(site, 'ann', 3), true],
    ['a streak day counted', (w: WriteSet) => w.countStreakDay(ann, 's-1', 100, 1), false],
    ['a streak day taken back', (w: WriteSet) => w.uncountStreakDay(ann, 's-1', 100), false],
    [
      'a streak milestone paid',
      (w: WriteSet) =>
        w.payStreakMilestone({
          site_id: site,
          user_id: 'ann',
          streak_id: 's-1',
          length: 3,
          run_start: 98,
          reached: 100,
          event_id: 'ev',
          badge_id: null,
          earned_at: 1,
          paid_at: 1,
        }),
      false,
    ],
    [
      'a streak notice',
      (w: WriteSet) => w.addStreakNotice({ site_id: site, user_id: 'ann', streak_id: 's-1', kind: 'broken', period: 100, created_at: 1 }),
      false,
    ],
  ])('%s: %s', (_name, write, empty) => {
    const writes = new WriteSet();
    writes.party(ann, state, false);
    writes.party(crew, state, false);
    write(writes);
    expect(writes.empty).toBe(empty);
  });
});

describe('unwritable', () => {
  const entry = (credited: number): PointsLedgerTable => ({
    site_id: site,
    entry_id: `e-${credited}`,
    party_type: 'user',
    party_id: 'ann',
    category: 'Points',
    requested: credited,
    credited,
    cause: 'adjustment',
    cause_id: 'x',
    event_id: null,
    reason: null,
    occurred_at: 1,
    recorded_at: 1,
  });
  it.each([
    ['nothing', () => {}, undefined],
    ['whole entries within the ledger range', (w: WriteSet) => (w.post(entry(1_000_000_000_000), 1_000_000_000_000), w.post(entry(-5), 0)), undefined],
    ['an entry that is not whole', (w: WriteSet) => w.post(entry(1.5), 1.5), /Points entry of 1.5/],
    ['an entry past the largest one entry holds', (w: WriteSet) => w.post(entry(1_000_000_000_001), 0), /Points entry/],
    ['cap totals that are not a number', (w: WriteSet) => w.addEarnings(ann, 'Points', 'day', 0, Number.NaN), /whole numbers/],
    [
      'an award entry past the exact integers',
      (w: WriteSet) => (w.awardAccount(site, 'ann', Number.MAX_SAFE_INTEGER), w.postAward(award('ann', 1, 'a-big'))),
      /whole numbers/,
    ],
    ['progress that is not finite', (w: WriteSet) => w.setProgress(ann, 'm-1', 0, [{ ruleId: 'r-1', current: Number.POSITIVE_INFINITY }], 1), /finite/],
    ['a board score that is not finite', (w: WriteSet) => w.addScores(site, 'ann', [{ boardId: 'lb', windowStart: 0, delta: Number.NaN, at: 1 }]), /finite/],
  ])('%s', (_name, write, problem) => {
    const writes = new WriteSet();
    write(writes);
    if (problem === undefined) expect(unwritable(writes)).toBeUndefined();
    else expect(unwritable(writes)).toMatch(problem);
  });
});
