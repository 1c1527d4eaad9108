// Reads of the action engine's state, inside the caller's transaction (the ledger, src/modules/ledger/,
// writes it): the action path's (precompiled), a reversal's, and the action history's.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Trx } from '../../db/index.js';
import { Batcher } from '../../db/batcher.js';
import { precompiled } from '../../db/precompiled.js';
import type { ActionEventsTable, MissionCompletionsTable, PartyType } from '../../db/schema.js';
import type { PartyRow } from '../ledger/parties.js';
import type { PartyKey } from '../ledger/write-set.js';

type P = { siteId: string; type: PartyType; id: string };
/** A rule's progress (`rule_id` set, `n` its current value) or a window's live completions (`n` of them). */
export interface MissionStateRow {
  kind: 'progress' | 'completions';
  mission_id: string;
  rule_id: string | null;
  window_start: number;
  n: number;
}

// The hot path's queries, built once per dialect (src/db/precompiled.ts).
const q = {
  findEvent: precompiled<{ siteId: string; eventId: string }, ActionEventsTable>((db, p) =>
    db.selectFrom('action_events').selectAll().where('site_id', '=', p.siteId).where('event_id', '=', p.eventId),
  ),
  countRecorded: precompiled<P & { action: string; from: number; to: number }, { n: number }>((db, p) =>
    db
      .selectFrom('action_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('site_id', '=', p.siteId)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id)
      .where('action', '=', p.action)
      .where('occurred_at', '>=', p.from)
      .where('occurred_at', '<', p.to)
      .where('recorded', '=', 1)
      .where('reversed_at', 'is', null),
  ),
  // Progress rows and live completion counts in one round trip: kind 'progress' rows carry a
  // rule and its current value, kind 'completions' rows a window and its count.
  missionState: precompiled<P & { missionIds: string[] }, MissionStateRow>((db, p) =>
    db
      .selectFrom('mission_progress')
      .select([
        sql<MissionStateRow['kind']>`'progress'`.as('kind'),
        'mission_id',
        (eb) => eb.ref('rule_id').$castTo<string | null>().as('rule_id'),
        'window_start',
        'current as n',
      ])
      .where('site_id', '=', p.siteId)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id)
      .where('mission_id', 'in', p.missionIds)
      .unionAll(
        db
          .selectFrom('mission_completions')
          .select([
            sql<MissionStateRow['kind']>`'completions'`.as('kind'),
            'mission_id',
            sql<string | null>`null`.as('rule_id'),
            'window_start',
            (eb) => eb.fn.countAll<number>().as('n'),
          ])
          .where('site_id', '=', p.siteId)
          .where('party_type', '=', p.type)
          .where('party_id', '=', p.id)
          .where('mission_id', 'in', p.missionIds)
          .where('removed_at', 'is', null)
          .groupBy(['mission_id', 'window_start']),
      ),
  ),
  supplyUsed: precompiled<{ siteId: string; missionIds: string[] }, { mission_id: string; used: number }>((db, p) =>
    db.selectFrom('mission_supply').select(['mission_id', 'used']).where('site_id', '=', p.siteId).where('mission_id', 'in', p.missionIds),
  ),
  earnings: precompiled<P & { categories: string[]; dayStart: number; yearStart: number }, { category: string; period: 'day' | 'year'; earned: number }>(
    (db, p) =>
      db
        .selectFrom('point_earnings')
        .select(['category', 'period', 'earned'])
        .where('site_id', '=', p.siteId)
        .where('party_type', '=', p.type)
        .where('party_id', '=', p.id)
        .where('category', 'in', p.categories)
        .where((eb) =>
          eb.or([
            eb.and([eb('period', '=', 'day'), eb('period_start', '=', p.dayStart)]),
            eb.and([eb('period', '=', 'year'), eb('period_start', '=', p.yearStart)]),
          ]),
        ),
  ),
};

/** What a decision reads of a party's state besides its row (see PartyState below). */
export interface StateQuery {
  missionIds: readonly string[];
  /** Capped categories: what was earned in the day and year starting at dayStart and yearStart. */
  categories: readonly string[];
  dayStart: number;
  yearStart: number;
  /** The category whose lifetime points are read, if any. */
  lifetimeCategory: string | undefined;
  /** The actions whose recorded events in [from, to) are counted (their rate-limit windows). */
  rates: ReadonlyArray<{ action: string; from: number; to: number }>;
  /** Whether the user's groups are read. */
  groups: boolean;
  /** The streaks whose counted days are read (a user's). */
  streakIds: readonly string[];
}

/** A party's row and what a decision reads of its state, as one snapshot; no row when the party has none. */
export interface PartyStateRead {
  row: PartyRow | undefined;
  missions: MissionStateRow[];
  earnings: Map<string, { day: number; year: number }>;
  lifetime: number;
  /** The recorded events counted in each window asked for, in the order asked. */
  recorded: number[];
  groups: string[] | undefined;
  /** The counted days (ascending) in each streak asked for, by streak; undefined when none was asked for. */
  streakDays: Map<string, number[]> | undefined;
}

type StateRow = Partial<PartyRow> & {
  i: number;
  missions: MissionStateRow[];
  earnings: Array<{ category: string; period: 'day' | 'year'; earned: number }>;
  lifetime: number | string | null;
  recorded: Array<number | string> | null;
  groups: string[] | null;
  streak_days: Array<[string, number | string]> | null;
};

// PostgreSQL: parties' rows and the state decisions read, in one statement (one round trip, one
// snapshot) for many decisions made without a lock (src/modules/actions/service.ts). Each read
// is a row of the JSON parameter, numbered `i`; its lists are JSON arrays.
const partyStates = precompiled<{ reads: string }, StateRow>((db, p) => {
  const statement = sql<StateRow>`
select
  q.i, party.last_recorded, party.level_id, party.version, party.sequence,
  coalesce((
    select json_agg(state) from (
      select 'progress' as kind, mission_id, rule_id, window_start, current as n from mission_progress
      where site_id = q.site_id and party_type = q.party_type and party_id = q.party_id and mission_id in (select jsonb_array_elements_text(q.mission_ids))
      union all
      select 'completions', mission_id, null, window_start, count(*) from mission_completions
      where site_id = q.site_id and party_type = q.party_type and party_id = q.party_id and mission_id in (select jsonb_array_elements_text(q.mission_ids)) and removed_at is null
      group by mission_id, window_start
    ) as state
  ), '[]') as missions,
  coalesce((
    select json_agg(json_build_object('category', category, 'period', period, 'earned', earned)) from point_earnings
    where site_id = q.site_id and party_type = q.party_type and party_id = q.party_id and category in (select jsonb_array_elements_text(q.categories))
      and ((period = 'day' and period_start = q.day_start) or (period = 'year' and period_start = q.year_start))
  ), '[]') as earnings,
  (select lifetime from point_balances where site_id = q.site_id and party_type = q.party_type and party_id = q.party_id and category = q.lifetime_category) as lifetime,
  (
    select json_agg((
      select count(*) from action_events
      where site_id = q.site_id and party_type = q.party_type and party_id = q.party_id and action = r.w ->> 'action'
        and occurred_at >= (r.w ->> 'from')::bigint and occurred_at < (r.w ->> 'to')::bigint and recorded = 1 and reversed_at is null
    ) order by r.n)
    from jsonb_array_elements(q.rates) with ordinality as r(w, n)
  ) as recorded,
  case when q.groups then coalesce((select json_agg(group_id) from group_members where site_id = q.site_id and user_id = q.party_id), '[]') end as groups,
  case when jsonb_array_length(q.streak_ids) > 0 then (
    select json_agg(json_build_array(streak_id, day) order by day) from streak_days
    where site_id = q.site_id and user_id = q.party_id and streak_id in (select jsonb_array_elements_text(q.streak_ids)) and actions > 0
  ) end as streak_days
from jsonb_to_recordset(${p.reads}::jsonb) as q(i integer, site_id text, party_type text, party_id text, mission_ids jsonb, categories jsonb, day_start bigint, year_start bigint, lifetime_category text, rates jsonb, groups boolean, streak_ids jsonb)
-- (A lateral subquery with a limit is not flattened into a join: each party is found by its key. As
-- a join, the planner, which takes the JSON for 100 rows, scans every party of the table.)
left join lateral (
  select last_recorded, level_id, version, sequence from parties as p
  where p.site_id = q.site_id and p.party_type = q.party_type and p.party_id = q.party_id limit 1
) as party on true`;
  return { compile: () => statement.compile(db) };
});

/** The streak days read, by streak (every streak asked for, with none when it has none). */
function streakDaysOf(streakIds: readonly string[], rows: ReadonlyArray<[string, number | string]>): Map<string, number[]> {
  const days = new Map<string, number[]>(streakIds.map((id) => [id, []]));
  for (const [streakId, day] of rows) days.get(streakId)?.push(Number(day));
  return days;
}

const key = (party: PartyKey): P => ({ siteId: party.siteId, type: party.type, id: party.id });

/** Which recorded actions a page of the history holds (newest first): `before` is where the previous page ended. */
export interface HistoryFilter {
  siteId: string;
  party: { type: PartyType; id: string } | undefined;
  from: number | undefined;
  to: number | undefined;
  action: string | undefined;
  before: { at: number; eventId: string } | undefined;
  limit: number;
}

export type LoggedActionRow = Pick<
  ActionEventsTable,
  'event_id' | 'party_type' | 'party_id' | 'action' | 'value' | 'metadata' | 'occurred_at' | 'received_at' | 'reversed_at'
>;

/** The rows of one party, in any of the tables keyed by (site_id, party_type, party_id). */
function ofParty(party: PartyKey): RawBuilder<SqlBool> {
  return sql<SqlBool>`site_id = ${party.siteId} and party_type = ${party.type} and party_id = ${party.id}`;
}

export interface ProgressUpdate {
  missionId: string;
  windowStart: number;
  rules: ReadonlyArray<{ ruleId: string; current: number }>;
}

export class ActionsRepository {
  /** Group reads of parties' state: at most two statements at once, the next reads gathering meanwhile. */
  readonly #reads = new Batcher((reads: Array<{ trx: Trx; party: PartyKey; query: StateQuery }>) => this.#readStates(reads), { inFlight: 2, max: 64 });

  /**
   * PostgreSQL: the party's row as stored and the state a decision reads, in one statement and
   * without a lock; read together with those other decisions ask for meanwhile (group read).
   */
  partyState(trx: Trx, party: PartyKey, query: StateQuery): Promise<PartyStateRead> {
    return this.#reads.submit({ trx, party, query });
  }

  async #readStates(reads: ReadonlyArray<{ trx: Trx; party: PartyKey; query: StateQuery }>): Promise<PartyStateRead[]> {
    const rows = await partyStates((reads[0] as { trx: Trx }).trx, {
      reads: JSON.stringify(
        reads.map(({ party, query }, i) => ({
          i,
          site_id: party.siteId,
          party_type: party.type,
          party_id: party.id,
          mission_ids: query.missionIds,
          categories: query.categories,
          day_start: query.dayStart,
          year_start: query.yearStart,
          lifetime_category: query.lifetimeCategory ?? null,
          rates: query.rates,
          groups: query.groups,
          streak_ids: query.streakIds,
        })),
      ),
    });
    const byRead = new Map(rows.map((row) => [row.i, row]));
    return reads.map(({ query }, i) => {
      const row = byRead.get(i);
      const earnings = new Map(query.categories.map((category) => [category, { day: 0, year: 0 }]));
      for (const earned of row?.earnings ?? []) (earnings.get(earned.category) as { day: number; year: number })[earned.period] = Number(earned.earned);
      return {
        row:
          row?.version === undefined || row.version === null
            ? undefined
            : { last_recorded: row.last_recorded ?? null, level_id: row.level_id ?? null, version: Number(row.version), sequence: Number(row.sequence) },
        missions: row?.missions ?? [],
        earnings,
        lifetime: Number(row?.lifetime ?? 0),
        recorded: query.rates.map((_, i) => Number(row?.recorded?.[i] ?? 0)),
        groups: row?.groups ?? undefined,
        streakDays: query.streakIds.length === 0 ? undefined : streakDaysOf(query.streakIds, row?.streak_days ?? []),
      };
    });
  }

  async findEvent(trx: Trx, siteId: string, eventId: string): Promise<ActionEventsTable | undefined> {
    return (await q.findEvent(trx, { siteId, eventId }))[0];
  }

  async countRecorded(trx: Trx, party: PartyKey, action: string, from: number, to: number): Promise<number> {
    const [row] = await q.countRecorded(trx, { ...key(party), action, from, to });
    return Number(row?.n ?? 0);
  }

  /** The missions' progress and live (not removed) completions per window, in one query. */
  async missionState(trx: Trx, party: PartyKey, missionIds: string[]): Promise<MissionStateRow[]> {
    return missionIds.length === 0 ? [] : q.missionState(trx, { ...key(party), missionIds });
  }

  async supplyUsed(trx: Trx, siteId: string, missionIds: string[]): Promise<Map<string, number>> {
    if (missionIds.length === 0) return new Map(); // `in ()` is an error on PostgreSQL
    const rows = await q.supplyUsed(trx, { siteId, missionIds });
    return new Map(rows.map((row) => [row.mission_id, Number(row.used)]));
  }

  async earnings(trx: Trx, party: PartyKey, categories: string[], dayStart: number, yearStart: number): Promise<Map<string, { day: number; year: number }>> {
    const earned = new Map<string, { day: number; year: number }>();
    for (const category of categories) earned.set(category, { day: 0, year: 0 });
    if (categories.length === 0) return earned;
    for (const row of await q.earnings(trx, { ...key(party), categories, dayStart, yearStart })) {
      const totals = earned.get(row.category) ?? { day: 0, year: 0 };
      totals[row.period] = Number(row.earned);
      earned.set(row.category, totals);
    }
    return earned;
  }

  // A reversal's reads, in its transaction (src/modules/actions/reversal.ts).

  /** The groups whose completions the event caused. */
  async groupsCompletedBy(trx: Trx, siteId: string, eventId: string): Promise<string[]> {
    const rows = await trx.db
      .selectFrom('mission_completions')
      .select('party_id')
      .where('site_id', '=', siteId)
      .where('event_id', '=', eventId)
      .where('party_type', '=', 'group')
      .execute();
    return rows.map((row) => row.party_id);
  }

  /** The user's latest live completion of the mission, or exactly `completionId` when given (live or not). */
  latestCompletion(trx: Trx, party: PartyKey, missionId: string, completionId: string | undefined): Promise<MissionCompletionsTable | undefined> {
    let query = trx.db
      .selectFrom('mission_completions')
      .selectAll()
      .where('site_id', '=', party.siteId)
      .where('party_type', '=', party.type)
      .where('party_id', '=', party.id)
      .where('mission_id', '=', missionId);
    query = completionId !== undefined ? query.where('completion_id', '=', completionId) : query.where('removed_at', 'is', null);
    return query.orderBy('completed_at', 'desc').orderBy('recorded_at', 'desc').orderBy('completion_id', 'desc').limit(1).executeTakeFirst();
  }

  /** The event's reversal as stored (null: not reversed). */
  async storedReversal(trx: Trx, siteId: string, eventId: string): Promise<string | null> {
    const row = await trx.db
      .selectFrom('action_events')
      .select('reversal')
      .where('site_id', '=', siteId)
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    return row.reversal;
  }

  /** The live completions the event caused, of any party. */
  liveCompletionsOf(trx: Trx, siteId: string, eventId: string): Promise<MissionCompletionsTable[]> {
    return trx.db
      .selectFrom('mission_completions')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('event_id', '=', eventId)
      .where('removed_at', 'is', null)
      .execute();
  }

  /** The points ledger's credits of a completion, in the order they were recorded. */
  completionCredits(trx: Trx, siteId: string, completionId: string): Promise<Array<{ category: string; credited: number }>> {
    return trx.db
      .selectFrom('points_ledger')
      .select(['category', 'credited'])
      .where('site_id', '=', siteId)
      .where('cause_id', '=', completionId)
      .where('cause', '=', 'mission')
      .orderBy('recorded_at')
      .orderBy('entry_id')
      .execute();
  }

  /** Whether the party completed the mission in the window at or after `since` (recorded). */
  async completedSince(trx: Trx, party: PartyKey, missionId: string, windowStart: number, since: number): Promise<boolean> {
    const row = await trx.db
      .selectFrom('mission_completions')
      .select('completion_id')
      .where(ofParty(party))
      .where('mission_id', '=', missionId)
      .where('window_start', '=', windowStart)
      .where('recorded_at', '>=', since)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The party's progress per rule of the mission in the window. */
  progressIn(trx: Trx, party: PartyKey, missionId: string, windowStart: number): Promise<Array<{ rule_id: string; current: number }>> {
    return trx.db
      .selectFrom('mission_progress')
      .select(['rule_id', 'current'])
      .where(ofParty(party))
      .where('mission_id', '=', missionId)
      .where('window_start', '=', windowStart)
      .execute();
  }

  /** The party's live completions that awarded the badge, those named left out: how many, the first and the last. */
  /**
   * What put the badge in the party's trophy case, as a reversal recounts it: its live completions
   * that awarded it (`leftOut` left out: those the reversal removes), and, for a user, the streak
   * milestones (src/modules/streaks/) and leaderboard prizes (src/modules/leaderboard-results/)
   * that did, which a reversal never takes back. How many, the first and the last.
   */
  async badgeEarnings(trx: Trx, party: PartyKey, badgeId: string, leftOut: readonly string[]): Promise<{ count: number; first: number; last: number }> {
    const times: number[] = [];
    const live = await trx.db
      .selectFrom('mission_completions')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('completed_at').as('first'), eb.fn.max('completed_at').as('last')])
      .where(ofParty(party))
      .where('badge_id', '=', badgeId)
      .where('removed_at', 'is', null)
      .where('completion_id', 'not in', [...leftOut])
      .executeTakeFirstOrThrow();
    let count = Number(live.n);
    if (count > 0) times.push(Number(live.first), Number(live.last));
    if (party.type === 'user') {
      const milestones = await trx.db
        .selectFrom('streak_milestones')
        .select('earned_at')
        .where('site_id', '=', party.siteId)
        .where('user_id', '=', party.id)
        .where('badge_id', '=', badgeId)
        .execute();
      count += milestones.length;
      times.push(...milestones.map((row) => Number(row.earned_at)));
    }
    // (A prize is kept as JSON rewards: the party's few prizes are read and their badges compared here, alike on both stores.)
    const prizes = await trx.db
      .selectFrom('leaderboard_results as r')
      .innerJoin('leaderboard_closings as c', (join) => join.onRef('c.site_id', '=', 'r.site_id').onRef('c.closing_id', '=', 'r.closing_id'))
      .select(['r.prize', 'c.closed_at'])
      .where('r.site_id', '=', party.siteId)
      .where('r.party_id', '=', party.id)
      .where('c.party_type', '=', party.type)
      .where('r.prize', 'is not', null)
      .execute();
    for (const row of prizes) {
      if ((JSON.parse(row.prize as string) as { badge?: string }).badge !== badgeId) continue;
      count += 1;
      times.push(Number(row.closed_at));
    }
    return { count, first: count === 0 ? 0 : Math.min(...times), last: count === 0 ? 0 : Math.max(...times) };
  }

  // The action history (src/modules/actions/history.ts) and the at-a-glance summary.

  /** A page of recorded actions, newest first (the same instant: the larger event id first). */
  history(trx: Trx, filter: HistoryFilter): Promise<LoggedActionRow[]> {
    let query = trx.db
      .selectFrom('action_events')
      .select(['event_id', 'party_type', 'party_id', 'action', 'value', 'metadata', 'occurred_at', 'received_at', 'reversed_at'])
      .where('site_id', '=', filter.siteId)
      .where('recorded', '=', 1);
    const { party, from, to, action, before } = filter;
    if (party !== undefined) query = query.where('party_type', '=', party.type).where('party_id', '=', party.id);
    if (from !== undefined) query = query.where('occurred_at', '>=', from);
    if (to !== undefined) query = query.where('occurred_at', '<', to);
    if (action !== undefined) query = query.where('action', '=', action);
    if (before !== undefined) {
      query = query.where((eb) => eb.or([eb('occurred_at', '<', before.at), eb.and([eb('occurred_at', '=', before.at), eb('event_id', '<', before.eventId)])]));
    }
    return query.orderBy('occurred_at', 'desc').orderBy('event_id', 'desc').limit(filter.limit).execute();
  }

  /** The user's latest recorded actions, with their outcome (what they earned) and whether they were reversed. */
  recentActions(
    trx: Trx,
    siteId: string,
    userId: string,
    limit: number,
  ): Promise<Array<Pick<ActionEventsTable, 'event_id' | 'action' | 'value' | 'occurred_at' | 'outcome' | 'reversed_at'>>> {
    return trx.db
      .selectFrom('action_events')
      .select(['event_id', 'action', 'value', 'occurred_at', 'outcome', 'reversed_at'])
      .where('site_id', '=', siteId)
      .where('party_type', '=', 'user')
      .where('party_id', '=', userId)
      .where('recorded', '=', 1)
      .orderBy('occurred_at', 'desc')
      .orderBy('event_id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Users with a recorded action per day (the site's calendar days `from` to `to`, both included). */
  async activeUsers(trx: Trx, siteId: string, from: string, to: string): Promise<Array<{ day: string; users: number }>> {
    const rows = await trx.db
      .selectFrom('daily_active_users')
      .select(['day', (eb) => eb.fn.countAll<number>().as('n')])
      .where('site_id', '=', siteId)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy('day')
      .orderBy('day')
      .execute();
    return rows.map((row) => ({ day: row.day, users: Number(row.n) }));
  }
}
