// Reads of the action engine's state, inside the caller's transaction (the ledger, src/modules/ledger/, writes it).
import { sql } from 'kysely';
import type { Trx } from '../../db/index.js';
import { Batcher } from '../../db/batcher.js';
import { precompiled } from '../../db/precompiled.js';
import type { ActionEventsTable, PartyType } from '../../db/schema.js';
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
}

type StateRow = Partial<PartyRow> & {
  i: number;
  missions: MissionStateRow[];
  earnings: Array<{ category: string; period: 'day' | 'year'; earned: number }>;
  lifetime: number | string | null;
  recorded: Array<number | string> | null;
  groups: string[] | null;
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
  case when q.groups then coalesce((select json_agg(group_id) from group_members where site_id = q.site_id and user_id = q.party_id), '[]') end as groups
from jsonb_to_recordset(${p.reads}::jsonb) as q(i integer, site_id text, party_type text, party_id text, mission_ids jsonb, categories jsonb, day_start bigint, year_start bigint, lifetime_category text, rates jsonb, groups boolean)
-- (A lateral subquery with a limit is not flattened into a join: each party is found by its key. As
-- a join, the planner, which takes the JSON for 100 rows, scans every party of the table.)
left join lateral (
  select last_recorded, level_id, version, sequence from parties as p
  where p.site_id = q.site_id and p.party_type = q.party_type and p.party_id = q.party_id limit 1
) as party on true`;
  return { compile: () => statement.compile(db) };
});

const key = (party: PartyKey): P => ({ siteId: party.siteId, type: party.type, id: party.id });

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
}
