// SQLite: a write set as one cached prepared statement per row, run synchronously on the
// connection of the caller's transaction (a statement costs no round trip there, and the
// transaction holds the only write lock), the parties first: one that no longer has the version
// its decision read stops the set before any other row is written.
import { sql } from 'kysely';
import type { Trx } from '../../db/index.js';
import { precompiled } from '../../db/precompiled.js';
import type * as Tables from '../../db/schema.js';
import { changesRow, type RemovedCompletionRow } from './analytics-row.js';
import type { WriteSet } from './write-set.js';
import { addScores, outOfRange, StaleWrite, type ScoreRow } from './written.js';

type P = { siteId: string; type: Tables.PartyType; id: string };
type Totals = { category: string; balance: number; lifetime: number };

const q = {
  insertEvent: precompiled<Tables.ActionEventsTable>((db, p) => db.insertInto('action_events').values({ ...p })),
  setProgress: precompiled<Tables.MissionProgressTable>((db, p) =>
    db
      .insertInto('mission_progress')
      .values({ ...p })
      .onConflict((oc) =>
        oc.columns(['site_id', 'party_type', 'party_id', 'mission_id', 'rule_id']).doUpdateSet((eb) => ({
          window_start: eb.ref('excluded.window_start'),
          current: eb.ref('excluded.current'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      ),
  ),
  insertCompletion: precompiled<Tables.MissionCompletionsTable>((db, p) => db.insertInto('mission_completions').values({ ...p })),
  insertLedger: precompiled<Tables.PointsLedgerTable>((db, p) => db.insertInto('points_ledger').values({ ...p })),
  addBalance: precompiled<P & { category: string; credited: number; lifetime: number }, Totals>((db, p) =>
    db
      .insertInto('point_balances')
      .values({ site_id: p.siteId, party_type: p.type, party_id: p.id, category: p.category, balance: p.credited, lifetime: p.lifetime })
      .onConflict((oc) =>
        oc.columns(['site_id', 'party_type', 'party_id', 'category']).doUpdateSet({
          balance: sql<number>`point_balances.balance + ${p.credited}`,
          lifetime: sql<number>`point_balances.lifetime + ${p.lifetime}`,
        }),
      )
      .returning(['category', 'balance', 'lifetime']),
  ),
  addEarnings: precompiled<P & { category: string; period: 'day' | 'year'; periodStart: number; amount: number }>((db, p) =>
    db
      .insertInto('point_earnings')
      .values({ site_id: p.siteId, party_type: p.type, party_id: p.id, category: p.category, period: p.period, period_start: p.periodStart, earned: p.amount })
      .onConflict((oc) =>
        oc
          .columns(['site_id', 'party_type', 'party_id', 'category', 'period', 'period_start'])
          .doUpdateSet({ earned: sql<number>`point_earnings.earned + ${p.amount}` }),
      ),
  ),
  addTrophy: precompiled<P & { badgeId: string; count: number; first: number; last: number }>((db, p) =>
    db
      .insertInto('trophies')
      .values({
        site_id: p.siteId,
        party_type: p.type,
        party_id: p.id,
        badge_id: p.badgeId,
        earned_count: p.count,
        first_earned_at: p.first,
        last_earned_at: p.last,
      })
      .onConflict((oc) =>
        // A backdated completion can be older than the ones before it: first and last are the earliest and latest.
        oc.columns(['site_id', 'party_type', 'party_id', 'badge_id']).doUpdateSet({
          earned_count: sql<number>`trophies.earned_count + ${p.count}`,
          first_earned_at: sql<number>`min(trophies.first_earned_at, ${p.first})`,
          last_earned_at: sql<number>`max(trophies.last_earned_at, ${p.last})`,
        }),
      ),
  ),
  insertLevelChange: precompiled<Tables.LevelChangesTable>((db, p) => db.insertInto('level_changes').values({ ...p })),
  insertOutbox: precompiled<Tables.OutboxTable>((db, p) => db.insertInto('outbox').values({ ...p })),
  countStreakDay: precompiled<Tables.StreakDaysTable>((db, p) =>
    db
      .insertInto('streak_days')
      .values({ ...p })
      .onConflict((oc) => oc.columns(['site_id', 'user_id', 'streak_id', 'day']).doUpdateSet({ actions: sql<number>`streak_days.actions + ${p.actions}` })),
  ),
  payMilestone: precompiled<Tables.StreakMilestonesTable>((db, p) => db.insertInto('streak_milestones').values({ ...p })),
  insertChanges: precompiled<Tables.AnalyticsChangesTable>((db, p) => db.insertInto('analytics_changes').values({ ...p })),
  createParty: precompiled<
    P & { createdAt: number; version: number; lastRecorded: string | null; sequence: number; levelId: string | null },
    { version: number }
  >((db, p) =>
    db
      .insertInto('parties')
      .values({
        site_id: p.siteId,
        party_type: p.type,
        party_id: p.id,
        created_at: p.createdAt,
        last_recorded: p.lastRecorded,
        level_id: p.levelId,
        sequence: p.sequence,
        version: p.version,
      })
      .onConflict((oc) => oc.columns(['site_id', 'party_type', 'party_id']).doNothing())
      .returning('version'),
  ),
  memberships: precompiled<{ siteId: string; userId: string }, { group_id: string }>((db, p) =>
    db.selectFrom('group_members').select('group_id').where('site_id', '=', p.siteId).where('user_id', '=', p.userId),
  ),
  markActive: precompiled<{ siteId: string; day: string; userId: string }>((db, p) =>
    db
      .insertInto('daily_active_users')
      .values({ site_id: p.siteId, day: p.day, user_id: p.userId })
      .onConflict((oc) => oc.columns(['site_id', 'day', 'user_id']).doNothing()),
  ),
  saveParty: precompiled<P & { expected: number; version: number; lastRecorded: string | null; sequence: number }, { version: number }>((db, p) =>
    db
      .updateTable('parties')
      .set({ version: p.version, last_recorded: p.lastRecorded, sequence: p.sequence })
      .where('site_id', '=', p.siteId)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id)
      .where('version', '=', p.expected)
      .returning('version'),
  ),
  savePartyAndLevel: precompiled<
    P & { expected: number; version: number; lastRecorded: string | null; sequence: number; levelId: string | null },
    { version: number }
  >((db, p) =>
    db
      .updateTable('parties')
      .set({ version: p.version, last_recorded: p.lastRecorded, sequence: p.sequence, level_id: p.levelId })
      .where('site_id', '=', p.siteId)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id)
      .where('version', '=', p.expected)
      .returning('version'),
  ),
};

// A write set's amendments, which only a decision made under lock writes (./write-set.ts): changes of
// earlier decisions' rows, award account entries, and the streak sweep's notices.
const amendment = {
  removeCompletion: precompiled<{ siteId: string; completionId: string; removedAt: number }, RemovedCompletionRow>((db, p) =>
    db
      .updateTable('mission_completions')
      .set({ removed_at: p.removedAt })
      .where('site_id', '=', p.siteId)
      .where('completion_id', '=', p.completionId)
      .where('removed_at', 'is', null)
      .returning(['site_id', 'mission_id', 'completed_at']),
  ),
  returnSupply: precompiled<{ siteId: string; missionId: string; units: number }>((db, p) =>
    db
      .updateTable('mission_supply')
      .set({ used: sql<number>`case when used > ${p.units} then used - ${p.units} else 0 end` })
      .where('site_id', '=', p.siteId)
      .where('mission_id', '=', p.missionId)
      .where('used', '>', 0),
  ),
  resetProgress: precompiled<P & { missionId: string }>((db, p) =>
    db
      .deleteFrom('mission_progress')
      .where('site_id', '=', p.siteId)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id)
      .where('mission_id', '=', p.missionId),
  ),
  dropTrophy: precompiled<P & { badgeId: string }>((db, p) =>
    db.deleteFrom('trophies').where('site_id', '=', p.siteId).where('party_type', '=', p.type).where('party_id', '=', p.id).where('badge_id', '=', p.badgeId),
  ),
  setTrophy: precompiled<P & { badgeId: string; count: number; first: number; last: number }>((db, p) =>
    db
      .updateTable('trophies')
      .set({ earned_count: p.count, first_earned_at: p.first, last_earned_at: p.last })
      .where('site_id', '=', p.siteId)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id)
      .where('badge_id', '=', p.badgeId),
  ),
  markReversed: precompiled<{ siteId: string; eventId: string; reversedAt: number; reversal: string }>((db, p) =>
    db.updateTable('action_events').set({ reversed_at: p.reversedAt, reversal: p.reversal }).where('site_id', '=', p.siteId).where('event_id', '=', p.eventId),
  ),
  moveAward: precompiled<{ siteId: string; userId: string; moved: number; updatedAt: number }>((db, p) =>
    db
      .insertInto('award_accounts')
      .values({ site_id: p.siteId, user_id: p.userId, country_code: null, verified: 0, balance: p.moved, updated_at: p.updatedAt })
      .onConflict((oc) =>
        oc.columns(['site_id', 'user_id']).doUpdateSet({ balance: sql<number>`award_accounts.balance + ${p.moved}`, updated_at: p.updatedAt }),
      ),
  ),
  insertAward: precompiled<Tables.AwardLedgerTable>((db, p) => db.insertInto('award_ledger').values({ ...p })),
  uncountStreakDay: precompiled<Tables.StreakDaysTable>((db, p) =>
    db
      .updateTable('streak_days')
      .set({ actions: sql<number>`max(actions - ${p.actions}, 0)` })
      .where('site_id', '=', p.site_id)
      .where('user_id', '=', p.user_id)
      .where('streak_id', '=', p.streak_id)
      .where('day', '=', p.day),
  ),
  addNotice: precompiled<Tables.StreakNoticesTable>((db, p) =>
    db
      .insertInto('streak_notices')
      .values({ ...p })
      .onConflict((oc) => oc.columns(['site_id', 'user_id', 'streak_id', 'kind', 'period']).doNothing()),
  ),
};

/** SQLite: each row its statement, run synchronously on the transaction's connection; the scores as stored. */
export function writeOnSqlite(trx: Trx, writes: WriteSet): ScoreRow[] {
  checkMemberships(trx, writes);
  // The parties first: one that no longer has the version read stops the set before its other rows.
  saveParties(trx, writes);
  for (const row of writes.progress.values()) run(q.setProgress(trx, row));
  for (const row of writes.completions) run(q.insertCompletion(trx, row));
  for (const row of writes.ledger) run(q.insertLedger(trx, row));
  addBalances(trx, writes);
  for (const e of writes.earnings.values())
    run(
      q.addEarnings(trx, {
        siteId: e.siteId,
        type: e.partyType,
        id: e.partyId,
        category: e.category,
        period: e.period,
        periodStart: e.periodStart,
        amount: e.amount,
      }),
    );
  for (const t of writes.trophies.values())
    run(q.addTrophy(trx, { siteId: t.siteId, type: t.partyType, id: t.partyId, badgeId: t.badgeId, count: t.count, first: t.first, last: t.last }));
  for (const row of writes.levelChanges) run(q.insertLevelChange(trx, row));
  for (const row of writes.outbox) run(q.insertOutbox(trx, row));
  for (const a of writes.activeDays.values()) run(q.markActive(trx, a));
  for (const row of writes.streakDays.values()) run(q.countStreakDay(trx, row));
  for (const row of writes.streakMilestones) run(q.payMilestone(trx, row));
  const scores: ScoreRow[] = [];
  for (const s of writes.scores.values()) {
    scores.push(
      ...run(addScores(trx, { siteId: s.siteId, boardIds: [s.boardId], windowStarts: [s.windowStart], partyId: s.partyId, deltas: [s.delta], ats: [s.at] })),
    );
  }
  for (const row of writes.events) run(q.insertEvent(trx, row));
  const removed = writes.hasAmendments ? writeAmendments(trx, writes) : [];
  // What the set changed in the overview's figures, for the analytics fold (./analytics-row.ts).
  const changes = changesRow(writes, removed);
  if (changes !== undefined) run(q.insertChanges(trx, changes));
  return scores;
}

/** A precompiled statement's rows: inside a transaction it runs synchronously, on the transaction's connection. */
function run<R>(result: R[] | Promise<R[]>): R[] {
  if (result instanceof Promise) throw new Error('a write set is written on SQLite only inside a transaction');
  return result;
}

/** The users whose groups the set was decided with (taken from a cache) still have those groups. */
function checkMemberships(trx: Trx, writes: WriteSet): void {
  for (const m of writes.memberships.values()) {
    const stored = run(q.memberships(trx, { siteId: m.siteId, userId: m.userId })).map((row) => row.group_id);
    if (stored.length !== m.groups.length || stored.some((id) => !m.groups.includes(id))) throw new StaleWrite();
  }
}

/** Saves (or creates) the parties' rows, each only at the version its decision read. */
function saveParties(trx: Trx, writes: WriteSet): void {
  for (const w of writes.parties.values()) {
    const party = {
      siteId: w.party.siteId,
      type: w.party.type,
      id: w.party.id,
      expected: w.expected,
      version: w.version,
      lastRecorded: w.lastRecorded,
      sequence: w.sequence,
    };
    const saved =
      w.createdAt !== undefined
        ? run(q.createParty(trx, { ...party, createdAt: w.createdAt, levelId: w.levelId ?? null }))
        : run(w.levelId === undefined ? q.saveParty(trx, party) : q.savePartyAndLevel(trx, { ...party, levelId: w.levelId }));
    if (saved.length === 0) throw new StaleWrite();
  }
}

function addBalances(trx: Trx, writes: WriteSet): void {
  for (const b of writes.balances.values()) {
    // Every entry fits the ledger's range (src/engine/amounts.ts); a balance that many of them
    // would take past the integers a double holds exactly refuses the set (the caller's
    // transaction rolls back), as the statement on PostgreSQL refuses itself.
    for (const total of run(
      q.addBalance(trx, { siteId: b.siteId, type: b.partyType, id: b.partyId, category: b.category, credited: b.credited, lifetime: b.lifetime }),
    )) {
      if (!(Number.isSafeInteger(Number(total.balance)) && Number.isSafeInteger(Number(total.lifetime)))) throw outOfRange(total.category);
    }
  }
}

/** Writes the set's amendments; the completions they removed, as stored. */
function writeAmendments(trx: Trx, writes: WriteSet): RemovedCompletionRow[] {
  const removed: RemovedCompletionRow[] = [];
  for (const row of writes.removedCompletions.values()) removed.push(...run(amendment.removeCompletion(trx, row)));
  for (const row of writes.suppliesReturned.values()) run(amendment.returnSupply(trx, row));
  for (const r of writes.progressResets.values())
    run(amendment.resetProgress(trx, { siteId: r.siteId, type: r.partyType, id: r.partyId, missionId: r.missionId }));
  for (const t of writes.trophyCounts.values()) {
    const trophy = { siteId: t.siteId, type: t.partyType, id: t.partyId, badgeId: t.badgeId };
    run(t.count === 0 ? amendment.dropTrophy(trx, trophy) : amendment.setTrophy(trx, { ...trophy, count: t.count, first: t.first, last: t.last }));
  }
  for (const row of writes.reversedEvents.values()) run(amendment.markReversed(trx, row));
  for (const a of writes.awardAccounts.values())
    if (a.updatedAt !== undefined) run(amendment.moveAward(trx, { siteId: a.siteId, userId: a.userId, moved: a.moved, updatedAt: a.updatedAt }));
  for (const row of writes.awardEntries) run(amendment.insertAward(trx, row));
  for (const row of writes.streakDaysTaken.values()) run(amendment.uncountStreakDay(trx, row));
  for (const row of writes.streakNotices) run(amendment.addNotice(trx, row));
  return removed;
}
