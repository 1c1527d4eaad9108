// Writes a write set (./write-set.ts) in the caller's transaction, after which the balances it
// moved are checked to stay within the integers the ledger holds exactly (a failed check throws,
// and the transaction rolls back). On PostgreSQL the whole set is one statement (one round trip:
// each table's rows travel as one JSON parameter, unpacked by jsonb_to_recordset, in one
// data-modifying WITH), guarded by the versions of the parties it names: unless every one still
// has the version its decision read, it writes nothing (StaleWrite). Being one statement, it is
// atomic even outside a transaction, which is how the action path writes a decision made from
// cached state without locking (src/modules/actions/service.ts). On SQLite, where a statement
// costs no round trip and the caller holds the only write lock, each row is one cached prepared
// statement run synchronously on the transaction's connection, the parties' first (with the same
// version guard: a stale one throws before any other row is written).
import { sql } from 'kysely';
import type { DialectName, Trx } from '../../db/index.js';
import { Batcher } from '../../db/batcher.js';
import { precompiled } from '../../db/precompiled.js';
import type { ActionEventsTable, LevelChangesTable, MissionCompletionsTable, MissionProgressTable, OutboxTable, PartyType, PointsLedgerTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { ScoreDelta } from '../../engine/elements/leaderboards.js';
import type { LevelChange } from '../../engine/types.js';
import { mirrorPoints, type AwardSettingsDocument } from '../awards/ledger.js';
import { hasDestination, type SiteDestinations } from '../webhooks/routing.js';
import { levelChangeEvent, levelChangeRow, presentLevelChange, type LevelCause, type PresentedLevelChange } from './level-changes.js';
import { lockParties, nextSequence, readParty, setLevel, type PartyRow } from './parties.js';
import { lifetimeDelta, outboxRow, WriteSet, type OutboxEvent, type PartyKey } from './write-set.js';

type Totals = { category: string; balance: number; lifetime: number };

/** A leaderboard score as stored after a write: the ranking structures take it after the commit. */
export interface ScoreRow {
  party_id: string;
  board_id: string;
  window_start: number;
  score: number;
  reached_at: number;
  version: number;
}

/** Moves every board a change of the party touches in one statement (one row per board and window; array lengths compile once each). */
const addScores = precompiled<{ siteId: string; boardIds: string[]; windowStarts: number[]; partyId: string; deltas: number[]; ats: number[] }, ScoreRow>((db, p) =>
  db
    .insertInto('leaderboard_scores')
    .values(p.boardIds.map((boardId, i) => ({ site_id: p.siteId, board_id: boardId, window_start: p.windowStarts[i] as number, party_id: p.partyId, score: p.deltas[i] as number, reached_at: p.ats[i] as number, version: 1 })))
    .onConflict((oc) =>
      oc.columns(['site_id', 'board_id', 'window_start', 'party_id']).doUpdateSet((eb) => ({
        score: eb('leaderboard_scores.score', '+', eb.ref('excluded.score')),
        reached_at: eb.ref('excluded.reached_at'),
        version: eb('leaderboard_scores.version', '+', 1),
      })),
    )
    .returning(['party_id', 'board_id', 'window_start', 'score', 'reached_at', 'version']),
);

/** Moves the party's scores by the deltas (each board and window once), in the caller's transaction; the rows as stored. */
export async function moveScores(trx: Trx, siteId: string, partyId: string, deltas: readonly ScoreDelta[]): Promise<ScoreRow[]> {
  if (deltas.length === 0) return [];
  return addScores(trx, {
    siteId,
    boardIds: deltas.map((d) => d.boardId),
    windowStarts: deltas.map((d) => d.windowStart),
    partyId,
    deltas: deltas.map((d) => d.delta),
    ats: deltas.map((d) => d.at),
  });
}

/** What the statement on PostgreSQL fails with when a balance would leave the exact integers. */
const REFUSED = 'ql_amount_out_of_range:';

/** A write set's parties no longer all have the versions its decision read: nothing was written. */
export class StaleWrite extends Error {
  constructor() {
    super('a party changed since its state was read');
  }
}
type P = { siteId: string; type: PartyType; id: string };

const key = (party: PartyKey): P => ({ siteId: party.siteId, type: party.type, id: party.id });

// A party's balance and lifetime points in a category.
const points = precompiled<P & { category: string }, { balance: number; lifetime: number }>((db, p) =>
  db
    .selectFrom('point_balances')
    .select(['balance', 'lifetime'])
    .where('site_id', '=', p.siteId)
    .where('party_type', '=', p.type)
    .where('party_id', '=', p.id)
    .where('category', '=', p.category),
);

// SQLite: one statement per row.
const q = {
  insertEvent: precompiled<ActionEventsTable>((db, p) => db.insertInto('action_events').values({ ...p })),
  setProgress: precompiled<MissionProgressTable>((db, p) =>
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
  insertCompletion: precompiled<MissionCompletionsTable>((db, p) => db.insertInto('mission_completions').values({ ...p })),
  insertLedger: precompiled<PointsLedgerTable>((db, p) => db.insertInto('points_ledger').values({ ...p })),
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
      .onConflict((oc) => oc.columns(['site_id', 'party_type', 'party_id', 'category', 'period', 'period_start']).doUpdateSet({ earned: sql<number>`point_earnings.earned + ${p.amount}` })),
  ),
  addTrophy: precompiled<P & { badgeId: string; count: number; first: number; last: number }>((db, p) =>
    db
      .insertInto('trophies')
      .values({ site_id: p.siteId, party_type: p.type, party_id: p.id, badge_id: p.badgeId, earned_count: p.count, first_earned_at: p.first, last_earned_at: p.last })
      .onConflict((oc) =>
        // A backdated completion can be older than the ones before it: first and last are the earliest and latest.
        oc.columns(['site_id', 'party_type', 'party_id', 'badge_id']).doUpdateSet({
          earned_count: sql<number>`trophies.earned_count + ${p.count}`,
          first_earned_at: sql<number>`min(trophies.first_earned_at, ${p.first})`,
          last_earned_at: sql<number>`max(trophies.last_earned_at, ${p.last})`,
        }),
      ),
  ),
  insertLevelChange: precompiled<LevelChangesTable>((db, p) => db.insertInto('level_changes').values({ ...p })),
  insertOutbox: precompiled<OutboxTable>((db, p) => db.insertInto('outbox').values({ ...p })),
  createParty: precompiled<P & { createdAt: number; version: number; lastRecorded: string | null; sequence: number; levelId: string | null }, { version: number }>((db, p) =>
    db
      .insertInto('parties')
      .values({ site_id: p.siteId, party_type: p.type, party_id: p.id, created_at: p.createdAt, last_recorded: p.lastRecorded, level_id: p.levelId, sequence: p.sequence, version: p.version })
      .onConflict((oc) => oc.columns(['site_id', 'party_type', 'party_id']).doNothing())
      .returning('version'),
  ),
  memberships: precompiled<{ siteId: string; userId: string }, { group_id: string }>((db, p) =>
    db.selectFrom('group_members').select('group_id').where('site_id', '=', p.siteId).where('user_id', '=', p.userId),
  ),
  markActive: precompiled<{ siteId: string; day: string; userId: string }>((db, p) =>
    db.insertInto('daily_active_users').values({ site_id: p.siteId, day: p.day, user_id: p.userId }).onConflict((oc) => oc.columns(['site_id', 'day', 'user_id']).doNothing()),
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
  savePartyAndLevel: precompiled<P & { expected: number; version: number; lastRecorded: string | null; sequence: number; levelId: string | null }, { version: number }>((db, p) =>
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

/** Each table's rows of a batch of write sets, as jsonb parameters (./write-set.ts names the columns). */
interface Batches {
  events: string;
  progress: string;
  completions: string;
  ledger: string;
  balances: string;
  earnings: string;
  trophies: string;
  levelChanges: string;
  outbox: string;
  activeDays: string;
  scores: string;
  parties: string;
  created: string;
  /** Each set's number and how many parties it names. */
  sets: string;
  memberships: string;
}

// PostgreSQL: write sets, one or many, in one statement. Every row carries the number of its write
// set (`set`); a set is written only if each party it names still has the version its decision
// read (`ok`): a stale set writes nothing and the others are written. Sub-statements of one WITH see
// the same snapshot and none of each other's rows: no row key may come twice (a write set merges
// its own rows, and a batch holds a party's write set once).
const applyOnPostgres = precompiled<Batches, { saved: number[] | null; scores: Array<ScoreRow & { set: number }> }>((db, p) => {
  const statement = sql<{ saved: number[] | null; scores: Array<ScoreRow & { set: number }> }>`
with
  saved as (
    update parties set
      version = r.version,
      last_recorded = r.last_recorded,
      sequence = r.sequence,
      level_id = case when r.set_level then r.level_id else parties.level_id end
    from jsonb_to_recordset(${p.parties}::jsonb) as r(set integer, site_id text, party_type text, party_id text, expected bigint, version bigint, last_recorded text, sequence bigint, set_level boolean, level_id text)
    where parties.site_id = r.site_id and parties.party_type = r.party_type and parties.party_id = r.party_id and parties.version = r.expected
    returning r.set
  ),
  new_parties as (
    select * from jsonb_to_recordset(${p.created}::jsonb) as r(set integer, site_id text, party_type text, party_id text, created_at bigint, last_recorded text, level_id text, sequence bigint, version bigint)
  ),
  created as (
    insert into parties (site_id, party_type, party_id, created_at, last_recorded, level_id, sequence, version)
    select site_id, party_type, party_id, created_at, last_recorded, level_id, sequence, version from new_parties
    on conflict (site_id, party_type, party_id) do nothing
    returning site_id, party_type, party_id
  ),
  -- The sets whose every party was saved or created (a set naming no party is written as it is).
  ok as (
    select s.set from jsonb_to_recordset(${p.sets}::jsonb) as s(set integer, parties integer)
    left join (
      select set, count(*) as n from (select set from saved union all select n.set from created c join new_parties n using (site_id, party_type, party_id)) as written group by set
    ) as g on g.set = s.set
    where coalesce(g.n, 0) = s.parties
      -- and the users whose groups it took from a cache still have those groups.
      and s.set not in (
        select m.set from jsonb_to_recordset(${p.memberships}::jsonb) as m(set integer, site_id text, user_id text, groups jsonb)
        where array(select g.group_id from group_members g where g.site_id = m.site_id and g.user_id = m.user_id order by g.group_id collate "C")
          <> array(select x from jsonb_array_elements_text(m.groups) as x order by x collate "C")
      )
  ),
  events as (
    insert into action_events (site_id, event_id, party_type, party_id, action, value, metadata, occurred_at, received_at, recorded, reason, outcome, reversed_at, reversal, groups)
    select site_id, event_id, party_type, party_id, action, value, metadata, occurred_at, received_at, recorded, reason, outcome, reversed_at, reversal, groups
    from jsonb_to_recordset(${p.events}::jsonb) as r(set integer, site_id text, event_id text, party_type text, party_id text, action text, value double precision, metadata text, occurred_at bigint, received_at bigint, recorded integer, reason text, outcome text, reversed_at bigint, reversal text, groups text)
    where r.set in (select set from ok)
  ),
  progress as (
    insert into mission_progress (site_id, party_type, party_id, mission_id, rule_id, window_start, current, updated_at)
    select site_id, party_type, party_id, mission_id, rule_id, window_start, current, updated_at
    from jsonb_to_recordset(${p.progress}::jsonb) as r(set integer, site_id text, party_type text, party_id text, mission_id text, rule_id text, window_start bigint, current double precision, updated_at bigint)
    where r.set in (select set from ok)
    on conflict (site_id, party_type, party_id, mission_id, rule_id) do update set window_start = excluded.window_start, current = excluded.current, updated_at = excluded.updated_at
  ),
  completions as (
    insert into mission_completions (site_id, completion_id, party_type, party_id, mission_id, window_start, event_id, completed_at, recorded_at, removed_at, badge_id)
    select site_id, completion_id, party_type, party_id, mission_id, window_start, event_id, completed_at, recorded_at, removed_at, badge_id
    from jsonb_to_recordset(${p.completions}::jsonb) as r(set integer, site_id text, completion_id text, party_type text, party_id text, mission_id text, window_start bigint, event_id text, completed_at bigint, recorded_at bigint, removed_at bigint, badge_id text)
    where r.set in (select set from ok)
  ),
  ledger as (
    insert into points_ledger (site_id, entry_id, party_type, party_id, category, requested, credited, cause, cause_id, event_id, reason, occurred_at, recorded_at)
    select site_id, entry_id, party_type, party_id, category, requested, credited, cause, cause_id, event_id, reason, occurred_at, recorded_at
    from jsonb_to_recordset(${p.ledger}::jsonb) as r(set integer, site_id text, entry_id text, party_type text, party_id text, category text, requested bigint, credited bigint, cause text, cause_id text, event_id text, reason text, occurred_at bigint, recorded_at bigint)
    where r.set in (select set from ok)
  ),
  balances as (
    insert into point_balances (site_id, party_type, party_id, category, balance, lifetime)
    select site_id, party_type, party_id, category, credited, lifetime
    from jsonb_to_recordset(${p.balances}::jsonb) as r(set integer, site_id text, party_type text, party_id text, category text, credited bigint, lifetime bigint)
    where r.set in (select set from ok)
    on conflict (site_id, party_type, party_id, category) do update set balance = point_balances.balance + excluded.balance, lifetime = point_balances.lifetime + excluded.lifetime
    returning category, balance, lifetime
  ),
  earnings as (
    insert into point_earnings (site_id, party_type, party_id, category, period, period_start, earned)
    select site_id, party_type, party_id, category, period, period_start, earned
    from jsonb_to_recordset(${p.earnings}::jsonb) as r(set integer, site_id text, party_type text, party_id text, category text, period text, period_start bigint, earned bigint)
    where r.set in (select set from ok)
    on conflict (site_id, party_type, party_id, category, period, period_start) do update set earned = point_earnings.earned + excluded.earned
  ),
  trophies as (
    insert into trophies (site_id, party_type, party_id, badge_id, earned_count, first_earned_at, last_earned_at)
    select site_id, party_type, party_id, badge_id, earned_count, first_earned_at, last_earned_at
    from jsonb_to_recordset(${p.trophies}::jsonb) as r(set integer, site_id text, party_type text, party_id text, badge_id text, earned_count integer, first_earned_at bigint, last_earned_at bigint)
    where r.set in (select set from ok)
    on conflict (site_id, party_type, party_id, badge_id) do update set
      earned_count = trophies.earned_count + excluded.earned_count,
      first_earned_at = least(trophies.first_earned_at, excluded.first_earned_at),
      last_earned_at = greatest(trophies.last_earned_at, excluded.last_earned_at)
  ),
  level_changes as (
    insert into level_changes (site_id, change_id, party_id, from_level, to_level, direction, event_id, changed_at)
    select site_id, change_id, party_id, from_level, to_level, direction, event_id, changed_at
    from jsonb_to_recordset(${p.levelChanges}::jsonb) as r(set integer, site_id text, change_id text, party_id text, from_level text, to_level text, direction text, event_id text, changed_at bigint)
    where r.set in (select set from ok)
  ),
  outbox as (
    insert into outbox (site_id, event_id, event_type, party_type, party_id, sequence, payload, occurred_at, created_at, routed_at)
    select site_id, event_id, event_type, party_type, party_id, sequence, payload, occurred_at, created_at, routed_at
    from jsonb_to_recordset(${p.outbox}::jsonb) as r(set integer, site_id text, event_id text, event_type text, party_type text, party_id text, sequence bigint, payload text, occurred_at bigint, created_at bigint, routed_at bigint)
    where r.set in (select set from ok)
  ),
  score_rows as (
    select * from jsonb_to_recordset(${p.scores}::jsonb) as r(set integer, site_id text, board_id text, window_start bigint, party_id text, delta double precision, reached_at bigint)
    where r.set in (select set from ok)
  ),
  scores as (
    insert into leaderboard_scores (site_id, board_id, window_start, party_id, score, reached_at, version)
    select site_id, board_id, window_start, party_id, delta, reached_at, 1 from score_rows
    on conflict (site_id, board_id, window_start, party_id) do update set
      score = leaderboard_scores.score + excluded.score,
      reached_at = excluded.reached_at,
      version = leaderboard_scores.version + 1
    returning site_id, party_id, board_id, window_start, score, reached_at, version
  ),
  active_days as (
    insert into daily_active_users (site_id, day, user_id)
    select site_id, day, user_id from jsonb_to_recordset(${p.activeDays}::jsonb) as r(set integer, site_id text, day text, user_id text)
    where r.set in (select set from ok)
    on conflict (site_id, day, user_id) do nothing
  )
select
  (select json_agg(set) from ok) as saved,
  -- A balance past the exact integers fails the whole statement, so that nothing of it is
  -- written even outside a transaction. The failing cast depends on the row: it is evaluated only
  -- then (a constant one could be folded, and fail, while the statement is planned).
  (select count(*) from balances where (case when abs(balance) > ${Number.MAX_SAFE_INTEGER} or abs(lifetime) > ${Number.MAX_SAFE_INTEGER} then cast(${REFUSED} || category as integer) else 0 end) <> 0) as refused,
  coalesce((
    select json_agg(json_build_object('set', r.set, 'party_id', s.party_id, 'board_id', s.board_id, 'window_start', s.window_start, 'score', s.score, 'reached_at', s.reached_at, 'version', s.version))
    from scores s join score_rows r using (site_id, board_id, window_start, party_id)
  ), '[]') as scores`;
  return { compile: () => statement.compile(db) };
});

/** Batch statements in flight at once (PostgreSQL): while they run, the next write sets gather. */
const IN_FLIGHT = 2;
/** Write sets in one batch statement at most. */
const BATCH = 64;

export class LedgerRepository {
  /** PostgreSQL's group commit: a party is in one batch at a time, so that its sets are written in the order they came. */
  readonly #batches: Batcher<{ trx: Trx; writes: WriteSet }, ScoreRow[]>;

  constructor(private readonly dialect: DialectName) {
    this.#batches = new Batcher(async (items) => this.#write((items[0] as { trx: Trx }).trx, items.map((item) => item.writes)), {
      inFlight: IN_FLIGHT,
      max: BATCH,
      keys: ({ writes }) => [...writes.parties.values()].map(({ party }) => `${party.siteId}\u0000${party.type}\u0000${party.id}`),
    });
  }

  /**
   * Writes the write set in the caller's transaction; throws StaleWrite when a party's version
   * moved since its decision read it, and AppError (so rolling the transaction back) when a
   * balance would leave the exact integers. Returns the leaderboard scores as stored.
   */
  async apply(trx: Trx, writes: WriteSet): Promise<ScoreRow[]> {
    if (this.dialect !== 'postgres') return writeRows(trx, writes);
    const [written] = await this.#write(trx, [writes]);
    if (written instanceof StaleWrite) throw written;
    return written as ScoreRow[];
  }

  /**
   * PostgreSQL, outside any transaction: writes the write set together with those other callers
   * commit meanwhile (group commit: one statement and one commit for a batch), and resolves once
   * the statement that wrote it has committed. Each set is written or refused on its own: a stale
   * one throws StaleWrite here and the others are written; a set that fails the statement (an
   * event id used before, a balance out of range) makes the batch's sets be written again one
   * by one, so that only it fails.
   */
  commit(trx: Trx, writes: WriteSet): Promise<ScoreRow[]> {
    return this.#batches.submit({ trx, writes });
  }

  /** One statement writing the sets: for each, its scores as stored, or StaleWrite. */
  async #write(trx: Trx, sets: WriteSet[]): Promise<Array<ScoreRow[] | StaleWrite>> {
    let result: Awaited<ReturnType<typeof applyOnPostgres>>[number] | undefined;
    try {
      [result] = await applyOnPostgres(trx, batches(sets));
    } catch (error) {
      const category = error instanceof Error ? error.message.split(REFUSED)[1]?.replace(/"$/, '') : undefined;
      throw category === undefined ? error : outOfRange(category);
    }
    const saved = new Set(result?.saved ?? []);
    const scores = sets.map((): ScoreRow[] => []);
    for (const { set, ...row } of result?.scores ?? []) scores[set]?.push(row);
    return sets.map((_, i) => (saved.has(i) ? (scores[i] as ScoreRow[]) : new StaleWrite()));
  }

  /**
   * For writers other than the action path: locks the parties named (in any order, duplicates
   * allowed) in the one order every writer uses (lockOrder, ./parties.ts), creating those that do
   * not exist yet and raising their versions so that the action path's cached state of them is
   * not used again.
   */
  async lock(trx: Trx, parties: readonly PartyKey[], now: number): Promise<void> {
    await lockParties(trx, parties, now);
  }

  /** The party's row; it must be locked by the caller's transaction. */
  async party(trx: Trx, party: PartyKey): Promise<PartyRow> {
    const row = await readParty(trx, party);
    if (row === undefined) throw new Error(`party ${party.type}:${party.id} is not locked`);
    return row;
  }

  async lifetime(trx: Trx, party: PartyKey, category: string): Promise<number> {
    const [row] = await points(trx, { ...key(party), category });
    return Number(row?.lifetime ?? 0);
  }

  async balance(trx: Trx, party: PartyKey, category: string): Promise<number> {
    const [row] = await points(trx, { ...key(party), category });
    return Number(row?.balance ?? 0);
  }

  /**
   * Appends a ledger entry and moves the balance beside it, and lifetime points: credits raise them,
   * a reversal (a credit taken back) lowers them, other debits leave them. A user's entry in the
   * award point category moves their award account too, in the same transaction.
   */
  async post(trx: Trx, entry: PointsLedgerTable, awards: AwardSettingsDocument | undefined): Promise<void> {
    const writes = new WriteSet();
    writes.post(entry, lifetimeDelta(entry));
    await this.apply(trx, writes);
    await mirrorPoints(trx, awards, entry);
  }

  async addEarnings(trx: Trx, party: PartyKey, category: string, period: 'day' | 'year', periodStart: number, amount: number): Promise<void> {
    const writes = new WriteSet();
    writes.addEarnings(party, category, period, periodStart, amount);
    await this.apply(trx, writes);
  }

  /** Sets the user's level, keeps the change in its history and tells webhooks (when the site has a destination for it); returns it as the API shows it. */
  async recordLevelChange(trx: Trx, destinations: SiteDestinations, party: PartyKey, change: LevelChange, cause: LevelCause, at: number, now: number): Promise<PresentedLevelChange> {
    await setLevel(trx, party, change.to?.id ?? null);
    const writes = new WriteSet();
    writes.levelChanges.push(levelChangeRow(party, change, cause, at));
    const event = levelChangeEvent(change, cause, at);
    if (hasDestination({ eventType: event.type, data: event.data }, destinations)) writes.outbox.push(outboxRow(party, await nextSequence(trx, party), event, now));
    await this.apply(trx, writes);
    return presentLevelChange(change);
  }

  /**
   * Appends an outbox event with the party's next sequence number (a decision's write set numbers
   * its own), when the site has a destination for it: otherwise nothing, and no number is taken.
   */
  async enqueue(trx: Trx, destinations: SiteDestinations, party: PartyKey, event: OutboxEvent, now: number): Promise<void> {
    if (!hasDestination({ eventType: event.type, data: event.data }, destinations)) return;
    const writes = new WriteSet();
    writes.outbox.push(outboxRow(party, await nextSequence(trx, party), event, now));
    await this.apply(trx, writes);
  }
}

function outOfRange(category: string): AppError {
  return new AppError('amount_out_of_range', `The ${category} balance would leave the range of whole numbers the ledger holds exactly (±${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')})`);
}

/** Each table's rows of the sets, numbered by set, as jsonb parameters. */
function batches(sets: WriteSet[]): Batches {
  const rows = <T, R extends object>(pick: (writes: WriteSet) => Iterable<T>, shape: (row: T) => R) =>
    JSON.stringify(sets.flatMap((writes, set) => Array.from(pick(writes), (row) => ({ set, ...shape(row) }))));
  const same = <T,>(row: T) => row as T & object;
  return {
    sets: JSON.stringify(sets.map((writes, set) => ({ set, parties: writes.parties.size }))),
    events: rows((w) => w.events, same),
    progress: rows((w) => w.progress.values(), same),
    completions: rows((w) => w.completions, same),
    ledger: rows((w) => w.ledger, same),
    balances: rows(
      (w) => w.balances.values(),
      (b) => ({ site_id: b.siteId, party_type: b.partyType, party_id: b.partyId, category: b.category, credited: b.credited, lifetime: b.lifetime }),
    ),
    earnings: rows(
      (w) => w.earnings.values(),
      (e) => ({ site_id: e.siteId, party_type: e.partyType, party_id: e.partyId, category: e.category, period: e.period, period_start: e.periodStart, earned: e.amount }),
    ),
    trophies: rows(
      (w) => w.trophies.values(),
      (t) => ({ site_id: t.siteId, party_type: t.partyType, party_id: t.partyId, badge_id: t.badgeId, earned_count: t.count, first_earned_at: t.first, last_earned_at: t.last }),
    ),
    levelChanges: rows((w) => w.levelChanges, same),
    outbox: rows((w) => w.outbox, same),
    activeDays: rows((w) => w.activeDays.values(), (a) => ({ site_id: a.siteId, day: a.day, user_id: a.userId })),
    memberships: rows((w) => w.memberships.values(), (m) => ({ site_id: m.siteId, user_id: m.userId, groups: m.groups })),
    scores: rows(
      (w) => w.scores.values(),
      (s) => ({ site_id: s.siteId, board_id: s.boardId, window_start: s.windowStart, party_id: s.partyId, delta: s.delta, reached_at: s.at }),
    ),
    created: rows(
      (w) => [...w.parties.values()].filter((p) => p.createdAt !== undefined),
      (w) => ({
        site_id: w.party.siteId,
        party_type: w.party.type,
        party_id: w.party.id,
        created_at: w.createdAt,
        last_recorded: w.lastRecorded,
        level_id: w.levelId ?? null,
        sequence: w.sequence,
        version: w.version,
      }),
    ),
    parties: rows(
      (w) => [...w.parties.values()].filter((p) => p.createdAt === undefined),
      (w) => ({
        site_id: w.party.siteId,
        party_type: w.party.type,
        party_id: w.party.id,
        expected: w.expected,
        version: w.version,
        last_recorded: w.lastRecorded,
        sequence: w.sequence,
        set_level: w.levelId !== undefined,
        level_id: w.levelId ?? null,
      }),
    ),
  };
}

/** SQLite: each row its statement, run synchronously on the transaction's connection; the scores as stored. */
function writeRows(trx: Trx, writes: WriteSet): ScoreRow[] {
  const run = <R>(result: R[] | Promise<R[]>): R[] => {
    if (result instanceof Promise) throw new Error('a write set is written on SQLite only inside a transaction');
    return result;
  };
  for (const m of writes.memberships.values()) {
    const stored = run(q.memberships(trx, { siteId: m.siteId, userId: m.userId })).map((row) => row.group_id);
    if (stored.length !== m.groups.length || stored.some((id) => !m.groups.includes(id))) throw new StaleWrite();
  }
  // The parties first: one that no longer has the version read stops the set before its other rows.
  for (const w of writes.parties.values()) {
    const party = { siteId: w.party.siteId, type: w.party.type, id: w.party.id, expected: w.expected, version: w.version, lastRecorded: w.lastRecorded, sequence: w.sequence };
    const saved =
      w.createdAt !== undefined
        ? run(q.createParty(trx, { ...party, createdAt: w.createdAt, levelId: w.levelId ?? null }))
        : run(w.levelId === undefined ? q.saveParty(trx, party) : q.savePartyAndLevel(trx, { ...party, levelId: w.levelId }));
    if (saved.length === 0) throw new StaleWrite();
  }
  for (const row of writes.progress.values()) run(q.setProgress(trx, row));
  for (const row of writes.completions) run(q.insertCompletion(trx, row));
  for (const row of writes.ledger) run(q.insertLedger(trx, row));
  for (const b of writes.balances.values()) {
    // Every entry fits the ledger's range (src/engine/amounts.ts); a balance that many of them
    // would take past the integers a double holds exactly refuses the set (the caller's
    // transaction rolls back), as the statement on PostgreSQL refuses itself.
    for (const total of run(q.addBalance(trx, { siteId: b.siteId, type: b.partyType, id: b.partyId, category: b.category, credited: b.credited, lifetime: b.lifetime }))) {
      if (!(Number.isSafeInteger(Number(total.balance)) && Number.isSafeInteger(Number(total.lifetime)))) throw outOfRange(total.category);
    }
  }
  for (const e of writes.earnings.values()) run(q.addEarnings(trx, { siteId: e.siteId, type: e.partyType, id: e.partyId, category: e.category, period: e.period, periodStart: e.periodStart, amount: e.amount }));
  for (const t of writes.trophies.values()) run(q.addTrophy(trx, { siteId: t.siteId, type: t.partyType, id: t.partyId, badgeId: t.badgeId, count: t.count, first: t.first, last: t.last }));
  for (const row of writes.levelChanges) run(q.insertLevelChange(trx, row));
  for (const row of writes.outbox) run(q.insertOutbox(trx, row));
  for (const a of writes.activeDays.values()) run(q.markActive(trx, a));
  const scores: ScoreRow[] = [];
  for (const s of writes.scores.values()) {
    scores.push(...run(addScores(trx, { siteId: s.siteId, boardIds: [s.boardId], windowStarts: [s.windowStart], partyId: s.partyId, deltas: [s.delta], ats: [s.at] })));
  }
  for (const row of writes.events) run(q.insertEvent(trx, row));
  return scores;
}
