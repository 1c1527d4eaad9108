// A decision's write set (src/modules/ledger/): collected, merged where rows share a key, and
// written at once, in both dialects (on PostgreSQL as one statement). What it writes is compared
// row by row (streak days and milestones too); a balance past the exact integers refuses the
// transaction; an event the site has no destination for is left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Database } from '../../../src/db/index.js';
import type { PointsLedgerTable } from '../../../src/db/schema.js';
import { AppError } from '../../../src/errors.js';
import { ActionsRepository } from '../../../src/modules/actions/repository.js';
import { LedgerRepository } from '../../../src/modules/ledger/repository.js';
import { StaleWrite } from '../../../src/modules/ledger/written.js';
import { WriteSet } from '../../../src/modules/ledger/write-set.js';
import { initialProgram } from '../../../src/modules/program/service.js';
import { SUBSCRIBABLE_TYPES, type SiteDestinations } from '../../../src/modules/program/event-routing.js';
import { configurations, freshDatabase } from '../../helpers/app.js';
import { actionEventRow } from '../../helpers/ledger.js';

/** A site every event type has a destination on. */
const everywhere: SiteDestinations = {
  site: { ...initialProgram('Writes').site, achievementCallbackUrl: 'https://hooks.example.com/q' },
  // (Except points.earned, which a write adds by itself for each credit: test/modules/webhooks/points-earned.test.ts.)
  subscribedTypes: new Set(SUBSCRIBABLE_TYPES.filter((type) => type !== 'points.earned')),
};

describe.each(configurations)('write sets (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  let ledger: LedgerRepository;
  const site = 's-writes';
  const ann = { siteId: site, type: 'user' as const, id: 'ann' };
  const bob = { siteId: site, type: 'user' as const, id: 'bob' };
  const crew = { siteId: site, type: 'group' as const, id: 'crew' };
  const entry = (party: typeof ann, category: string, credited: number, id: string): PointsLedgerTable => ({
    site_id: site,
    entry_id: id,
    party_type: party.type,
    party_id: party.id,
    category,
    requested: credited,
    credited,
    cause: 'mission',
    cause_id: `cmp-${id}`,
    event_id: 'ev-1',
    reason: null,
    occurred_at: 5,
    recorded_at: 6,
  });
  const select = (
    table:
      | 'mission_progress'
      | 'point_balances'
      | 'point_earnings'
      | 'trophies'
      | 'parties'
      | 'outbox'
      | 'level_changes'
      | 'points_ledger'
      | 'daily_active_users'
      | 'action_events',
  ) => database.db.selectFrom(table).selectAll().where('site_id', '=', site).execute();

  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
    ledger = new LedgerRepository(database.dialect);
    for (const party of [ann, bob, crew]) {
      await database.db
        .insertInto('parties')
        .values({ site_id: site, party_type: party.type, party_id: party.id, created_at: 0, last_recorded: null, level_id: 'lvl-0', sequence: 4, version: 7 })
        .execute();
    }
  });
  afterAll(async () => fresh.drop());

  it('writes progress, one row per party, mission and rule, the last value given winning', async () => {
    const first = new WriteSet();
    first.setProgress(
      ann,
      'm-1',
      0,
      [
        { ruleId: 'r-1', current: 1 },
        { ruleId: 'r-2', current: 5 },
      ],
      10,
    );
    first.setProgress(ann, 'm-2', 100, [{ ruleId: 'r-1', current: 2 }], 10);
    await database.transaction((trx) => ledger.apply(trx, first));
    const second = new WriteSet();
    second.setProgress(ann, 'm-2', 200, [{ ruleId: 'r-1', current: 1 }], 20);
    second.setProgress(ann, 'm-3', 0, [{ ruleId: 'r-1', current: 7 }], 20);
    second.setProgress(ann, 'm-3', 0, [{ ruleId: 'r-1', current: 8 }], 20);
    second.setProgress(bob, 'm-1', 0, [{ ruleId: 'r-1', current: 3 }], 40);
    await database.transaction((trx) => ledger.apply(trx, second));
    await database.transaction((trx) => ledger.apply(trx, new WriteSet()));
    const rows = (await select('mission_progress')).map((r) => [r.party_id, r.mission_id, r.rule_id, Number(r.window_start), r.current, Number(r.updated_at)]);
    expect(rows.sort()).toEqual([
      ['ann', 'm-1', 'r-1', 0, 1, 10],
      ['ann', 'm-1', 'r-2', 0, 5, 10],
      ['ann', 'm-2', 'r-1', 200, 1, 20],
      ['ann', 'm-3', 'r-1', 0, 8, 20],
      ['bob', 'm-1', 'r-1', 0, 3, 40],
    ]);
  });

  it('merges what moves one balance, earning total or trophy twice, and adds to what is stored', async () => {
    const writes = new WriteSet();
    writes.post(entry(ann, 'Points', 10, 'e-1'), 10);
    writes.post(entry(ann, 'Points', 15, 'e-2'), 15);
    writes.post(entry(ann, 'Coins', -3, 'e-3'), 0);
    writes.post(entry(bob, 'Points', 7, 'e-4'), 7);
    writes.addEarnings(ann, 'Points', 'day', 1000, 10);
    writes.addEarnings(ann, 'Points', 'day', 1000, 15);
    writes.addEarnings(ann, 'Points', 'year', 900, 25);
    writes.addTrophy(ann, 'b-1', 50);
    writes.addTrophy(ann, 'b-1', 30);
    await database.transaction((trx) => ledger.apply(trx, writes));
    const again = new WriteSet();
    again.post(entry(ann, 'Points', 5, 'e-5'), 5);
    again.addEarnings(ann, 'Points', 'day', 1000, 5);
    again.addTrophy(ann, 'b-1', 60);
    await database.transaction((trx) => ledger.apply(trx, again));

    expect((await select('points_ledger')).map((r) => r.entry_id).sort()).toEqual(['e-1', 'e-2', 'e-3', 'e-4', 'e-5']);
    expect((await select('point_balances')).map((r) => [r.party_id, r.category, Number(r.balance), Number(r.lifetime)]).sort()).toEqual([
      ['ann', 'Coins', -3, 0],
      ['ann', 'Points', 30, 30],
      ['bob', 'Points', 7, 7],
    ]);
    expect((await select('point_earnings')).map((r) => [r.period, Number(r.period_start), Number(r.earned)]).sort()).toEqual([
      ['day', 1000, 30],
      ['year', 900, 25],
    ]);
    expect((await select('trophies')).map((r) => [r.badge_id, r.earned_count, Number(r.first_earned_at), Number(r.last_earned_at)])).toEqual([
      ['b-1', 3, 30, 60],
    ]);
  });

  it('counts streak days, merging one day counted twice and adding to what is stored, and pays a milestone once per key', async () => {
    const milestone = (eventId: string) => ({
      site_id: site,
      user_id: 'ann',
      streak_id: 's-1',
      length: 3,
      run_start: 98,
      reached: 100,
      event_id: eventId,
      badge_id: 'b-1',
      earned_at: 5,
      paid_at: 6,
    });
    const writes = new WriteSet();
    writes.countStreakDay(ann, 's-1', 100, 1);
    writes.countStreakDay(ann, 's-1', 100, 2);
    writes.countStreakDay(ann, 's-2', 100, 1);
    writes.countStreakDay(bob, 's-1', 99, 1);
    writes.payStreakMilestone(milestone('ev-m1'));
    await database.transaction((trx) => ledger.apply(trx, writes));
    const again = new WriteSet();
    again.countStreakDay(ann, 's-1', 100, 1);
    again.countStreakDay(ann, 's-1', 101, 1);
    await database.transaction((trx) => ledger.apply(trx, again));
    const days = await database.db.selectFrom('streak_days').selectAll().where('site_id', '=', site).execute();
    expect(days.map((r) => [r.user_id, r.streak_id, Number(r.day), Number(r.actions)]).sort()).toEqual([
      ['ann', 's-1', 100, 4],
      ['ann', 's-1', 101, 1],
      ['ann', 's-2', 100, 1],
      ['bob', 's-1', 99, 1],
    ]);
    const paid = await database.db.selectFrom('streak_milestones').selectAll().where('site_id', '=', site).execute();
    expect(paid.map((r) => [r.user_id, r.streak_id, Number(r.length), Number(r.run_start), Number(r.reached), r.event_id, r.badge_id])).toEqual([
      ['ann', 's-1', 3, 98, 100, 'ev-m1', 'b-1'],
    ]);
    // The milestone's key refuses a second payment of the run: nothing of that set is written.
    const twice = new WriteSet();
    twice.countStreakDay(ann, 's-1', 102, 1);
    twice.payStreakMilestone(milestone('ev-m2'));
    await expect(database.transaction((trx) => ledger.apply(trx, twice))).rejects.toThrow(/unique|duplicate/i);
    expect((await database.db.selectFrom('streak_days').select('day').where('site_id', '=', site).where('day', '=', 102).execute()).length).toBe(0);
  });

  it('numbers outbox events after the sequence the party row had, and saves version, last action and level', async () => {
    const writes = new WriteSet(everywhere);
    writes.party(ann, { version: 7, lastRecorded: null, sequence: 4 });
    writes.party(crew, { version: 7, lastRecorded: '{"action":"old"}', sequence: 4 });
    writes.enqueue(ann, { type: 'mission.completed', occurredAt: 1_000, data: { n: 1 } }, 2_000);
    writes.enqueue(crew, { type: 'mission.completed', occurredAt: 1_000, data: { n: 2 } }, 2_000);
    writes.enqueue(ann, { type: 'badge.earned', occurredAt: 1_000, data: { n: 3 } }, 2_000);
    writes.changeLevel(ann, {
      site_id: site,
      change_id: 'lc-1',
      party_id: 'ann',
      from_level: 'lvl-0',
      to_level: 'lvl-1',
      direction: 'up',
      event_id: 'ev-1',
      changed_at: 1_000,
    });
    writes.lastRecorded(ann, '{"action":"read"}');
    writes.markActive(site, '2026-11-25', 'ann');
    writes.markActive(site, '2026-11-25', 'ann');
    expect(() => writes.party(ann, { version: 7, lastRecorded: null, sequence: 4 })).toThrow(/already/);
    expect(() => writes.enqueue(bob, { type: 'x', occurredAt: 0, data: {} }, 0)).toThrow(/not in the write set/);
    await database.transaction((trx) => ledger.apply(trx, writes));

    const outbox = (await select('outbox')).map((r) => ({
      party: r.party_id,
      type: r.event_type,
      sequence: Number(r.sequence),
      payload: JSON.parse(r.payload) as { sequence: number; data: Record<string, unknown> },
    }));
    expect(outbox.map(({ party, type, sequence }) => [party, type, sequence]).sort()).toEqual([
      ['ann', 'badge.earned', 6],
      ['ann', 'mission.completed', 5],
      ['crew', 'mission.completed', 5],
    ]);
    for (const { party, sequence, payload } of outbox) {
      expect(payload.sequence).toBe(sequence);
      expect(payload.data).toMatchObject(party === 'crew' ? { group: { groupId: 'crew' } } : { user: { userId: 'ann' } });
    }
    const parties = Object.fromEntries(
      (await select('parties')).map((r) => [r.party_id, [Number(r.version), r.last_recorded, Number(r.sequence), r.level_id]]),
    );
    expect(parties).toEqual({ ann: [8, '{"action":"read"}', 6, 'lvl-1'], crew: [8, '{"action":"old"}', 5, 'lvl-0'], bob: [7, null, 4, 'lvl-0'] });
    expect((await select('level_changes')).map((r) => [r.change_id, r.to_level])).toEqual([['lc-1', 'lvl-1']]);
    expect((await select('daily_active_users')).map((r) => [r.day, r.user_id])).toEqual([['2026-11-25', 'ann']]);
  });

  it('leaves out an event the site has no destination for, which takes no sequence number, and writes the rest', async () => {
    const fay = { siteId: site, type: 'user' as const, id: 'fay' };
    // mission.completed has the site's URL; nothing subscribes to badges or level changes.
    const writes = new WriteSet({ site: everywhere.site, subscribedTypes: new Set() });
    writes.party(fay, { version: 0, lastRecorded: null, sequence: 0 }, true, 1_000);
    writes.enqueue(fay, { type: 'badge.earned', occurredAt: 1_000, data: {} }, 1_000);
    writes.enqueue(fay, { type: 'mission.completed', occurredAt: 1_000, data: {} }, 1_000);
    writes.changeLevel(fay, {
      site_id: site,
      change_id: 'lc-fay',
      party_id: 'fay',
      from_level: null,
      to_level: 'lvl-1',
      direction: 'up',
      event_id: 'ev-fay',
      changed_at: 1_000,
    });
    writes.enqueue(fay, { type: 'level.changed', occurredAt: 1_000, data: {} }, 1_000);
    writes.enqueue(fay, { type: 'mission.completed', occurredAt: 1_000, data: {} }, 1_000);
    await database.transaction((trx) => ledger.apply(trx, writes));
    const outbox = (await select('outbox'))
      .filter((r) => r.party_id === 'fay')
      .map((r) => [r.event_type, Number(r.sequence), (JSON.parse(r.payload) as { sequence: number }).sequence]);
    expect(outbox.sort()).toEqual([
      ['mission.completed', 1, 1],
      ['mission.completed', 2, 2],
    ]);
    const row = (await select('parties')).find((r) => r.party_id === 'fay');
    expect([Number(row?.sequence), row?.level_id]).toEqual([2, 'lvl-1']);
    expect((await select('level_changes')).filter((r) => r.party_id === 'fay').map((r) => r.change_id)).toEqual(['lc-fay']);

    // A write set made without the site's destinations cannot tell, and refuses to enqueue.
    const blind = new WriteSet();
    blind.party(fay, { version: 1, lastRecorded: null, sequence: 2 });
    expect(() => blind.enqueue(fay, { type: 'mission.completed', occurredAt: 2_000, data: {} }, 2_000)).toThrow(/destinations/);
  });

  it('moves leaderboard scores, merging deltas of one board and window, and returns them as stored', async () => {
    const first = new WriteSet();
    first.addScores(site, 'ann', [{ boardId: 'lb-1', windowStart: 0, delta: 10, at: 100 }]);
    expect(await database.transaction((trx) => ledger.apply(trx, first))).toEqual([
      { party_id: 'ann', board_id: 'lb-1', window_start: 0, score: 10, reached_at: 100, version: 1 },
    ]);
    const second = new WriteSet();
    second.addScores(site, 'ann', [
      { boardId: 'lb-1', windowStart: 0, delta: 5, at: 200 },
      { boardId: 'lb-2', windowStart: 7, delta: 1, at: 200 },
    ]);
    second.addScores(site, 'ann', [{ boardId: 'lb-1', windowStart: 0, delta: 2, at: 300 }]);
    second.addScores(site, 'crew', [{ boardId: 'lb-1', windowStart: 0, delta: 4, at: 300 }]);
    const stored = (await database.transaction((trx) => ledger.apply(trx, second))).map((r) => [
      r.party_id,
      r.board_id,
      Number(r.window_start),
      Number(r.score),
      Number(r.reached_at),
      Number(r.version),
    ]);
    expect(stored.sort()).toEqual([
      ['ann', 'lb-1', 0, 17, 300, 2],
      ['ann', 'lb-2', 7, 1, 200, 1],
      ['crew', 'lb-1', 0, 4, 300, 1],
    ]);
  });

  it('writes nothing when a party no longer has the version read (on PostgreSQL even outside a transaction)', async () => {
    const [row] = await database.db.selectFrom('parties').select('version').where('site_id', '=', site).where('party_id', '=', 'bob').execute();
    const version = Number(row?.version);
    const stale = new WriteSet(everywhere);
    stale.party(bob, { version: version - 1, lastRecorded: null, sequence: 4 });
    stale.post(entry(bob, 'Points', 1, 'e-stale'), 1);
    stale.enqueue(bob, { type: 'mission.completed', occurredAt: 1, data: {} }, 1);
    stale.countStreakDay(bob, 's-stale', 100, 1);
    stale.payStreakMilestone({
      site_id: site,
      user_id: 'bob',
      streak_id: 's-stale',
      length: 1,
      run_start: 100,
      reached: 100,
      event_id: 'ev-stale',
      badge_id: null,
      earned_at: 1,
      paid_at: 1,
    });
    // SQLite writes a set only in a transaction (the one write lock); PostgreSQL also without one.
    const apply = (writes: WriteSet) =>
      configuration === 'scale-out' ? ledger.apply({ db: database.db }, writes) : database.transaction((trx) => ledger.apply(trx, writes));
    await expect(apply(stale)).rejects.toBeInstanceOf(StaleWrite);
    expect((await select('points_ledger')).map((r) => r.entry_id)).not.toContain('e-stale');
    expect((await select('outbox')).filter((r) => r.party_id === 'bob')).toEqual([]);
    for (const table of ['streak_days', 'streak_milestones'] as const) {
      expect(await database.db.selectFrom(table).select('user_id').where('site_id', '=', site).where('streak_id', '=', 's-stale').execute()).toEqual([]);
    }
    const current = new WriteSet();
    current.party(bob, { version, lastRecorded: null, sequence: 4 });
    current.post(entry(bob, 'Points', 1, 'e-current'), 1);
    await apply(current);
    expect((await select('points_ledger')).map((r) => r.entry_id)).toContain('e-current');
  });

  it("writes nothing when a user's groups are no longer the ones the decision took", async () => {
    await database.db.insertInto('sites').values({ site_id: site, name: 'Writes', timezone: 'UTC', created_at: 0 }).execute();
    await database.db.insertInto('group_members').values({ site_id: site, group_id: 'g-b', user_id: 'ann', joined_at: 1 }).execute();
    await database.db.insertInto('group_members').values({ site_id: site, group_id: 'g-a', user_id: 'ann', joined_at: 1 }).execute();
    const apply = (writes: WriteSet) =>
      configuration === 'scale-out' ? ledger.apply({ db: database.db }, writes) : database.transaction((trx) => ledger.apply(trx, writes));
    const expecting = (groups: string[], entryId: string) => {
      const writes = new WriteSet();
      writes.expectGroups(site, 'ann', groups);
      writes.post(entry(ann, 'Points', 1, entryId), 1);
      return writes;
    };
    await expect(apply(expecting(['g-a'], 'e-groups-1'))).rejects.toBeInstanceOf(StaleWrite);
    await expect(apply(expecting(['g-a', 'g-b', 'g-c'], 'e-groups-2'))).rejects.toBeInstanceOf(StaleWrite);
    await apply(expecting(['g-b', 'g-a'], 'e-groups-3'));
    const entries = (await select('points_ledger')).map((r) => r.entry_id).filter((id) => id.startsWith('e-groups'));
    expect(entries).toEqual(['e-groups-3']);
  });

  it("inserts a new party's row with its first write set, and writes nothing when the row exists already", async () => {
    const dana = { siteId: site, type: 'user' as const, id: 'dana' };
    const apply = (writes: WriteSet) =>
      configuration === 'scale-out' ? ledger.apply({ db: database.db }, writes) : database.transaction((trx) => ledger.apply(trx, writes));
    const first = (entryId: string) => {
      const writes = new WriteSet(everywhere);
      writes.party(dana, { version: 0, lastRecorded: null, sequence: 0 }, true, 1_000);
      writes.lastRecorded(dana, '{"action":"join"}');
      writes.post(entry(dana, 'Points', 3, entryId), 3);
      writes.enqueue(dana, { type: 'mission.completed', occurredAt: 1_000, data: {} }, 1_000);
      return writes;
    };
    await apply(first('e-dana-1'));
    const row = await database.db.selectFrom('parties').selectAll().where('site_id', '=', site).where('party_id', '=', 'dana').executeTakeFirstOrThrow();
    expect([Number(row.created_at), Number(row.version), row.last_recorded, Number(row.sequence), row.level_id]).toEqual([
      1_000,
      1,
      '{"action":"join"}',
      1,
      null,
    ]);
    // Taken for new again (another node's guess): the row exists, and nothing of the set is written.
    await expect(apply(first('e-dana-2'))).rejects.toBeInstanceOf(StaleWrite);
    expect((await select('points_ledger')).map((r) => r.entry_id).filter((id) => id.startsWith('e-dana'))).toEqual(['e-dana-1']);
    expect((await select('outbox')).filter((r) => r.party_id === 'dana')).toHaveLength(1);
  });

  it('refuses, and writes nothing of, a write set that would take a balance past the exact integers', async () => {
    const before = await select('point_balances');
    const writes = new WriteSet();
    writes.post(entry(bob, 'Points', Number.MAX_SAFE_INTEGER, 'e-big'), Number.MAX_SAFE_INTEGER);
    writes.setProgress(bob, 'm-9', 0, [{ ruleId: 'r-1', current: 1 }], 50);
    const refused = await database.transaction((trx) => ledger.apply(trx, writes)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('amount_out_of_range');
    expect(await select('point_balances')).toEqual(before);
    expect((await select('points_ledger')).map((r) => r.entry_id)).not.toContain('e-big');
    expect((await select('mission_progress')).map((r) => r.mission_id)).not.toContain('m-9');
  });

  it('refuses it as well when written outside a transaction (PostgreSQL: the statement itself refuses)', async () => {
    const before = { balances: await select('point_balances'), parties: await select('parties') };
    const [row] = await database.db.selectFrom('parties').select('version').where('site_id', '=', site).where('party_id', '=', 'bob').execute();
    const writes = new WriteSet();
    writes.party(bob, { version: Number(row?.version), lastRecorded: null, sequence: 4 });
    writes.post(entry(bob, 'Points', Number.MAX_SAFE_INTEGER, 'e-big-2'), Number.MAX_SAFE_INTEGER);
    writes.setProgress(bob, 'm-10', 0, [{ ruleId: 'r-1', current: 1 }], 50);
    const apply = (set: WriteSet) =>
      configuration === 'scale-out' ? ledger.apply({ db: database.db }, set) : database.transaction((trx) => ledger.apply(trx, set));
    const refused = await apply(writes).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('amount_out_of_range');
    expect({ balances: await select('point_balances'), parties: await select('parties') }).toEqual(before);
    expect((await select('points_ledger')).map((r) => r.entry_id)).not.toContain('e-big-2');
    expect((await select('mission_progress')).map((r) => r.mission_id)).not.toContain('m-10');
  });

  if (configuration === 'scale-out') {
    describe('group commit (PostgreSQL, outside transactions)', () => {
      const users = Array.from({ length: 12 }, (_, i) => ({ siteId: site, type: 'user' as const, id: `gc-${i}` }));
      /** A write set crediting the user, from the version its row has now. */
      const credit = (party: typeof ann, version: number, entryId: string, eventId = `ev-${entryId}`) => {
        const writes = new WriteSet();
        writes.party(party, { version, lastRecorded: null, sequence: 0 });
        writes.post({ ...entry(party, 'Points', 2, entryId), event_id: eventId }, 2);
        writes.events.push(actionEventRow(site, eventId, party.id));
        return writes;
      };
      const versions = async () =>
        new Map(
          (await database.db.selectFrom('parties').select(['party_id', 'version']).where('site_id', '=', site).where('party_id', 'like', 'gc-%').execute()).map(
            (r) => [r.party_id, Number(r.version)],
          ),
        );
      const balances = async () =>
        new Map(
          (
            await database.db
              .selectFrom('point_balances')
              .select(['party_id', 'balance'])
              .where('site_id', '=', site)
              .where('party_id', 'like', 'gc-%')
              .execute()
          ).map((r) => [r.party_id, Number(r.balance)]),
        );

      beforeAll(async () => {
        for (const user of users) {
          await database.db
            .insertInto('parties')
            .values({ site_id: site, party_type: 'user', party_id: user.id, created_at: 0, last_recorded: null, level_id: null, sequence: 0, version: 0 })
            .execute();
        }
      });

      it("writes concurrent callers' sets in a few statements, each answered once its statement has committed", async () => {
        let statements = 0;
        const counted = database.db.withPlugin({
          transformQuery: (args) => args.node,
          transformResult: async (args) => {
            statements += 1;
            return args.result;
          },
        });
        const results = await Promise.all(users.map((user, i) => ledger.commit({ db: counted }, credit(user, 0, `gc-a-${i}`))));
        expect(results).toHaveLength(12);
        // Two statements start at once; the ten sets that came meanwhile go in the next one.
        expect(statements).toBe(3);
        expect([...(await versions()).values()]).toEqual(users.map(() => 1));
        expect([...(await balances()).values()]).toEqual(users.map(() => 2));
      });

      it('refuses a stale set and a set whose event id is taken on their own, and writes the others', async () => {
        const before = await versions();
        const sets = users.map((user, i) => credit(user, before.get(user.id) as number, `gc-b-${i}`));
        sets[3] = credit(users[3] as typeof ann, 0, 'gc-b-3'); // read before the first test's write: stale
        sets[7] = credit(users[7] as typeof ann, before.get('gc-7') as number, 'gc-b-7', 'ev-gc-a-0'); // an event id stored already
        const settled = await Promise.allSettled(sets.map((writes) => ledger.commit({ db: database.db }, writes)));
        expect(settled.map((s) => s.status)).toEqual(users.map((_, i) => (i === 3 || i === 7 ? 'rejected' : 'fulfilled')));
        expect((settled[3] as PromiseRejectedResult).reason).toBeInstanceOf(StaleWrite);
        expect(String((settled[7] as PromiseRejectedResult).reason)).toMatch(/duplicate key|unique/i);
        const after = await balances();
        expect(users.map((user) => after.get(user.id))).toEqual(users.map((_, i) => (i === 3 || i === 7 ? 2 : 4)));
        const entries = (await select('points_ledger')).map((r) => r.entry_id);
        expect(entries).not.toContain('gc-b-3');
        expect(entries).not.toContain('gc-b-7');
        expect(entries).toContain('gc-b-8');
      });

      it("writes one party's sets one after the other, in the order they came", async () => {
        const user = users[0] as typeof ann;
        const version = (await versions()).get(user.id) as number;
        // The second set starts from the version the first leaves: it is written only after it.
        const [first, second] = await Promise.allSettled([
          ledger.commit({ db: database.db }, credit(user, version, 'gc-c-1')),
          ledger.commit({ db: database.db }, credit(user, version + 1, 'gc-c-2')),
        ]);
        expect([first?.status, second?.status]).toEqual(['fulfilled', 'fulfilled']);
        expect((await versions()).get(user.id)).toBe(version + 2);
      });

      it("finds each party by its key, not by reading every party's row (the write, and the action path's read)", async () => {
        // A site of 10,000 parties (the bench's), as the planner knows it: a join with the batch's
        // rows, which it takes for 100, would scan them all for each statement (up to some 25,000
        // parties, where looking 100 up by key becomes cheaper in its eyes).
        const scans = await database.transaction(async (trx) => {
          await sql`insert into parties (site_id, party_type, party_id, created_at, last_recorded, level_id, sequence, version)
            select 's-many', 'user', 'u-' || n, 0, null, null, 0, 0 from generate_series(1, 10000) as n`.execute(trx.db);
          await sql`analyze parties`.execute(trx.db);
          const seqScans = async () =>
            Number(
              (await sql<{ n: string }>`select seq_scan as n from pg_stat_xact_user_tables where relid = 'parties'::regclass`.execute(trx.db)).rows[0]?.n ?? 0,
            );
          const before = await seqScans();
          const user = users[1] as typeof ann;
          const version = Number(
            (await trx.db.selectFrom('parties').select('version').where('site_id', '=', site).where('party_id', '=', user.id).executeTakeFirstOrThrow())
              .version,
          );
          await ledger.apply(trx, credit(user, version, 'gc-d-1'));
          const read = await new ActionsRepository().partyState(trx, user, {
            missionIds: ['m-1'],
            categories: ['Points'],
            dayStart: 0,
            yearStart: 0,
            lifetimeCategory: 'Points',
            rates: [],
            groups: true,
            streakIds: [],
          });
          expect(read.row?.version).toBe(version + 1);
          return (await seqScans()) - before;
        });
        expect(scans).toBe(0);
      });
    });
  }
});
