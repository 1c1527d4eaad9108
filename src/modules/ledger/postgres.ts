// PostgreSQL: write sets, one or many, in one statement (one round trip: each table's rows travel
// as one JSON parameter, unpacked by jsonb_to_recordset, in one data-modifying WITH), each guarded
// by the versions of the parties it names. Being one statement it is atomic even outside a
// transaction, which is how the action path writes decisions made without a lock, many at once
// (group commit: ./repository.ts).
import { sql } from 'kysely';
import type { ScoreDelta } from '../../engine/elements/leaderboards.js';
import type { Trx } from '../../db/index.js';
import { precompiled } from '../../db/precompiled.js';
import type { BalanceDelta, PartyWrite, TrophyDelta, WriteSet } from './write-set.js';
import { outOfRange, StaleWrite, type ScoreRow } from './written.js';

/** What the statement on PostgreSQL fails with when a balance would leave the exact integers. */
const REFUSED = 'ql_amount_out_of_range:';

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
  streakDays: string;
  milestones: string;
  scores: string;
  parties: string;
  /** How many rows `parties` has. */
  partyRows: number;
  created: string;
  /** Each set's number and how many parties it names. */
  sets: string;
  memberships: string;
}

// PostgreSQL: write sets, one or many, in one statement. Every row carries the number of its write
// set (`set`); a set is written only if each party it names still has the version its decision
// read (`ok`): a stale set writes nothing and the others are written. Sub-statements of one WITH see
// the same snapshot and none of each other's rows: no row key may come twice (a write set merges
// its own rows, and a batch holds a party's write set once). (Long, being one statement: its
// sub-statements are read together, and split up they would no longer be one round trip.)
const applyOnPostgres = precompiled<Batches, { saved: number[] | null; scores: Array<ScoreRow & { set: number }> }>((db, p) => {
  const statement = sql<{ saved: number[] | null; scores: Array<ScoreRow & { set: number }> }>`
with
  saved as (
    update parties set
      version = r.version,
      last_recorded = r.last_recorded,
      sequence = r.sequence,
      level_id = case when r.set_level then r.level_id else parties.level_id end
    -- The limit (the number of rows) tells the planner how few they are (a function's rows are
    -- taken for 100): it then finds each party by its key rather than scanning them all.
    from (
      select * from jsonb_to_recordset(${p.parties}::jsonb) as r(set integer, site_id text, party_type text, party_id text, expected bigint, version bigint, last_recorded text, sequence bigint, set_level boolean, level_id text)
      limit ${p.partyRows}
    ) as r
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
    returning site_id, action, occurred_at, recorded
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
    returning site_id, mission_id, completed_at
  ),
  ledger as (
    insert into points_ledger (site_id, entry_id, party_type, party_id, category, requested, credited, cause, cause_id, event_id, reason, occurred_at, recorded_at)
    select site_id, entry_id, party_type, party_id, category, requested, credited, cause, cause_id, event_id, reason, occurred_at, recorded_at
    from jsonb_to_recordset(${p.ledger}::jsonb) as r(set integer, site_id text, entry_id text, party_type text, party_id text, category text, requested bigint, credited bigint, cause text, cause_id text, event_id text, reason text, occurred_at bigint, recorded_at bigint)
    where r.set in (select set from ok)
    returning site_id, category, credited, occurred_at
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
    returning site_id, to_level, direction, changed_at
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
  ),
  days_counted as (
    insert into streak_days (site_id, user_id, streak_id, day, actions)
    select site_id, user_id, streak_id, day, actions from jsonb_to_recordset(${p.streakDays}::jsonb) as r(set integer, site_id text, user_id text, streak_id text, day bigint, actions integer)
    where r.set in (select set from ok)
    on conflict (site_id, user_id, streak_id, day) do update set actions = streak_days.actions + excluded.actions
  ),
  milestones as (
    insert into streak_milestones (site_id, user_id, streak_id, length, run_start, reached, event_id, badge_id, earned_at, paid_at)
    select site_id, user_id, streak_id, length, run_start, reached, event_id, badge_id, earned_at, paid_at
    from jsonb_to_recordset(${p.milestones}::jsonb) as r(set integer, site_id text, user_id text, streak_id text, length integer, run_start bigint, reached bigint, event_id text, badge_id text, earned_at bigint, paid_at bigint)
    where r.set in (select set from ok)
  ),
  -- What the written sets changed in the overview's figures, one row per site
  -- (src/db/analytics-changes.ts): from the rows written, so a stale set adds nothing.
  analytics as (
    insert into analytics_changes (site_id, change_id, changes)
    select site_id, gen_random_uuid()::text, json_agg(json_build_array(kind, at, key, amount))::text
    from (
      select site_id, 'a' as kind, occurred_at as at, action as key, 1::bigint as amount from events where recorded = 1
      union all select site_id, 'p', occurred_at, category, credited from ledger where credited <> 0
      union all select site_id, 'c', completed_at, mission_id, 1 from completions
      union all select site_id, 'l', changed_at, to_level, 1 from level_changes where direction = 'up' and to_level is not null
    ) as c
    group by site_id
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

/** Writes the sets in one statement: for each, its scores as stored, or StaleWrite. */
export async function writeOnPostgres(trx: Trx, sets: WriteSet[]): Promise<Array<ScoreRow[] | StaleWrite>> {
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

/** Each table's rows of the sets, numbered by set, as jsonb parameters. */
function batches(sets: WriteSet[]): Batches {
  const rows = <T, R extends object>(pick: (writes: WriteSet) => Iterable<T>, shape: (row: T) => R) =>
    JSON.stringify(sets.flatMap((writes, set) => Array.from(pick(writes), (row) => ({ set, ...shape(row) }))));
  return {
    sets: JSON.stringify(sets.map((writes, set) => ({ set, parties: writes.parties.size }))),
    events: rows((w) => w.events, same),
    progress: rows((w) => w.progress.values(), same),
    completions: rows((w) => w.completions, same),
    ledger: rows((w) => w.ledger, same),
    balances: rows((w) => w.balances.values(), balanceRow),
    earnings: rows(
      (w) => w.earnings.values(),
      (e) => ({
        site_id: e.siteId,
        party_type: e.partyType,
        party_id: e.partyId,
        category: e.category,
        period: e.period,
        period_start: e.periodStart,
        earned: e.amount,
      }),
    ),
    trophies: rows((w) => w.trophies.values(), trophyRow),
    levelChanges: rows((w) => w.levelChanges, same),
    outbox: rows((w) => w.outbox, same),
    activeDays: rows(
      (w) => w.activeDays.values(),
      (a) => ({ site_id: a.siteId, day: a.day, user_id: a.userId }),
    ),
    streakDays: rows((w) => w.streakDays.values(), same),
    milestones: rows((w) => w.streakMilestones, same),
    memberships: rows(
      (w) => w.memberships.values(),
      (m) => ({ site_id: m.siteId, user_id: m.userId, groups: m.groups }),
    ),
    scores: rows((w) => w.scores.values(), scoreRow),
    created: rows(createdParties, createdPartyRow),
    partyRows: sets.reduce((n, writes) => n + savedParties(writes).length, 0),
    parties: rows(savedParties, (w) => ({
      site_id: w.party.siteId,
      party_type: w.party.type,
      party_id: w.party.id,
      expected: w.expected,
      version: w.version,
      last_recorded: w.lastRecorded,
      sequence: w.sequence,
      set_level: w.levelId !== undefined,
      level_id: w.levelId ?? null,
    })),
  };
}

/** A row stored as the write set holds it. */
function same<T>(row: T): T & object {
  return row as T & object;
}

function balanceRow(b: BalanceDelta) {
  return { site_id: b.siteId, party_type: b.partyType, party_id: b.partyId, category: b.category, credited: b.credited, lifetime: b.lifetime };
}

/** A trophy's row: what the set adds to it, or (an amendment) what it is recounted to. */
function trophyRow(t: TrophyDelta) {
  return {
    site_id: t.siteId,
    party_type: t.partyType,
    party_id: t.partyId,
    badge_id: t.badgeId,
    earned_count: t.count,
    first_earned_at: t.first,
    last_earned_at: t.last,
  };
}

function scoreRow(s: ScoreDelta & { siteId: string; partyId: string }) {
  return { site_id: s.siteId, board_id: s.boardId, window_start: s.windowStart, party_id: s.partyId, delta: s.delta, reached_at: s.at };
}

/** The parties a set saves: their rows exist, and their versions are checked. */
function savedParties(writes: WriteSet): PartyWrite[] {
  return [...writes.parties.values()].filter((p) => p.createdAt === undefined);
}

/** The parties a set creates: their rows are inserted, unless someone did first. */
function createdParties(writes: WriteSet): PartyWrite[] {
  return [...writes.parties.values()].filter((p) => p.createdAt !== undefined);
}

function createdPartyRow(w: PartyWrite) {
  return {
    site_id: w.party.siteId,
    party_type: w.party.type,
    party_id: w.party.id,
    created_at: w.createdAt,
    last_recorded: w.lastRecorded,
    level_id: w.levelId ?? null,
    sequence: w.sequence,
    version: w.version,
  };
}

/** A write set's amendments (rows only a decision made under lock writes), as jsonb parameters with their numbers of rows (./write-set.ts). */
interface Amendments {
  removed: string;
  removedRows: number;
  supplies: string;
  supplyRows: number;
  resets: string;
  resetRows: number;
  trophies: string;
  trophyRows: number;
  reversed: string;
  reversedRows: number;
  accounts: string;
  awards: string;
  streakDaysTaken: string;
  streakDaysTakenRows: number;
  notices: string;
}

// PostgreSQL: a write set's amendments (a reversal's changes of earlier decisions' rows, award
// account entries, the streak sweep's notices), in one statement after the set's first one, in its transaction. They are never
// part of a batch (LedgerRepository.commit refuses them), so the hot statement above stays as it
// is. Each row list is limited to its number of rows, so that the planner finds each row it
// amends by its key rather than scanning the table (as for the parties above).
const amendOnPostgres = precompiled<Amendments, { done: number }>((db, p) => {
  const statement = sql<{ done: number }>`
with
  removed as (
    update mission_completions c set removed_at = r.removed_at
    from (select * from jsonb_to_recordset(${p.removed}::jsonb) as r(site_id text, completion_id text, removed_at bigint) limit ${p.removedRows}) as r
    where c.site_id = r.site_id and c.completion_id = r.completion_id and c.removed_at is null
    returning c.site_id, c.mission_id, c.completed_at
  ),
  -- The completions removed, for the overview's figures (src/db/analytics-changes.ts).
  removed_changes as (
    insert into analytics_changes (site_id, change_id, changes)
    select site_id, gen_random_uuid()::text, json_agg(json_build_array('c', completed_at, mission_id, -1))::text from removed group by site_id
  ),
  supplies as (
    update mission_supply s set used = case when s.used > r.units then s.used - r.units else 0 end
    from (select * from jsonb_to_recordset(${p.supplies}::jsonb) as r(site_id text, mission_id text, units bigint) limit ${p.supplyRows}) as r
    where s.site_id = r.site_id and s.mission_id = r.mission_id and s.used > 0
  ),
  resets as (
    delete from mission_progress m
    using (select * from jsonb_to_recordset(${p.resets}::jsonb) as r(site_id text, party_type text, party_id text, mission_id text) limit ${p.resetRows}) as r
    where m.site_id = r.site_id and m.party_type = r.party_type and m.party_id = r.party_id and m.mission_id = r.mission_id
  ),
  trophy_rows as (
    select * from jsonb_to_recordset(${p.trophies}::jsonb) as r(site_id text, party_type text, party_id text, badge_id text, earned_count integer, first_earned_at bigint, last_earned_at bigint)
    limit ${p.trophyRows}
  ),
  trophies_gone as (
    delete from trophies t using trophy_rows r
    where r.earned_count = 0 and t.site_id = r.site_id and t.party_type = r.party_type and t.party_id = r.party_id and t.badge_id = r.badge_id
  ),
  trophies_recounted as (
    update trophies t set earned_count = r.earned_count, first_earned_at = r.first_earned_at, last_earned_at = r.last_earned_at
    from trophy_rows r
    where r.earned_count > 0 and t.site_id = r.site_id and t.party_type = r.party_type and t.party_id = r.party_id and t.badge_id = r.badge_id
  ),
  reversed as (
    update action_events e set reversed_at = r.reversed_at, reversal = r.reversal
    from (select * from jsonb_to_recordset(${p.reversed}::jsonb) as r(site_id text, event_id text, reversed_at bigint, reversal text) limit ${p.reversedRows}) as r
    where e.site_id = r.site_id and e.event_id = r.event_id
  ),
  accounts as (
    insert into award_accounts (site_id, user_id, country_code, verified, balance, updated_at)
    select site_id, user_id, null, 0, moved, updated_at from jsonb_to_recordset(${p.accounts}::jsonb) as r(site_id text, user_id text, moved bigint, updated_at bigint)
    on conflict (site_id, user_id) do update set balance = award_accounts.balance + excluded.balance, updated_at = excluded.updated_at
  ),
  days_taken as (
    update streak_days d set actions = greatest(d.actions - r.actions, 0)
    from (select * from jsonb_to_recordset(${p.streakDaysTaken}::jsonb) as r(site_id text, user_id text, streak_id text, day bigint, actions integer) limit ${p.streakDaysTakenRows}) as r
    where d.site_id = r.site_id and d.user_id = r.user_id and d.streak_id = r.streak_id and d.day = r.day
  ),
  notices as (
    insert into streak_notices (site_id, user_id, streak_id, kind, period, created_at)
    select site_id, user_id, streak_id, kind, period, created_at
    from jsonb_to_recordset(${p.notices}::jsonb) as r(site_id text, user_id text, streak_id text, kind text, period bigint, created_at bigint)
    on conflict (site_id, user_id, streak_id, kind, period) do nothing
  ),
  awards as (
    insert into award_ledger (site_id, entry_id, user_id, kind, amount, category, balance_after, reference, description, available_at, posted_at)
    select site_id, entry_id, user_id, kind, amount, category, balance_after, reference, description, available_at, posted_at
    from jsonb_to_recordset(${p.awards}::jsonb) as r(site_id text, entry_id text, user_id text, kind text, amount bigint, category text, balance_after bigint, reference text, description text, available_at bigint, posted_at bigint)
  )
select 1 as done`;
  return { compile: () => statement.compile(db) };
});

/** Writes the set's amendments (none: no statement), in the caller's transaction. */
export async function writeAmendmentsOnPostgres(trx: Trx, writes: WriteSet): Promise<void> {
  if (!writes.hasAmendments) return;
  const json = <T>(rows: Iterable<T>, shape: (row: T) => object) => JSON.stringify(Array.from(rows, shape));
  await amendOnPostgres(trx, {
    removed: json(writes.removedCompletions.values(), (r) => ({ site_id: r.siteId, completion_id: r.completionId, removed_at: r.removedAt })),
    removedRows: writes.removedCompletions.size,
    supplies: json(writes.suppliesReturned.values(), (r) => ({ site_id: r.siteId, mission_id: r.missionId, units: r.units })),
    supplyRows: writes.suppliesReturned.size,
    resets: json(writes.progressResets.values(), (r) => ({ site_id: r.siteId, party_type: r.partyType, party_id: r.partyId, mission_id: r.missionId })),
    resetRows: writes.progressResets.size,
    trophies: json(writes.trophyCounts.values(), trophyRow),
    trophyRows: writes.trophyCounts.size,
    reversed: json(writes.reversedEvents.values(), (r) => ({ site_id: r.siteId, event_id: r.eventId, reversed_at: r.reversedAt, reversal: r.reversal })),
    reversedRows: writes.reversedEvents.size,
    accounts: json(
      [...writes.awardAccounts.values()].filter((a) => a.updatedAt !== undefined),
      (a) => ({ site_id: a.siteId, user_id: a.userId, moved: a.moved, updated_at: a.updatedAt }),
    ),
    awards: json(writes.awardEntries, (row) => row),
    streakDaysTaken: json(writes.streakDaysTaken.values(), (row) => row),
    streakDaysTakenRows: writes.streakDaysTaken.size,
    notices: json(writes.streakNotices, (row) => row),
  });
}
