// The floor of workload (a) on PostgreSQL: what PostgreSQL itself costs for the rows Questline
// reads and writes, with raw `pg` (no Kysely, none of Questline's code on the request path) on
// Questline's schema (its migrations, its indexes). The actions are those of the trace the SQLite
// floor replays (./trace.ts, ./floor-actions.ts): the decisions are the same on either store, so
// their rows are too. The database starts as the traced server's did (loadFromSqlite: its rows
// copied over), and each action writes its rows with this file's own statements, table by table.
// Two ways to write, on one database and one trace:
// - one transaction per action (perAction): BEGIN, the reads the trace's action made (the party's
//   row and what the decision read that was not cached), one statement per row, COMMIT;
// - batched as Questline's group commit is (batched): up to 64 actions per batch and 2 batches in
//   flight, a party in one batch at a time and its actions in order; per batch one statement
//   reading the state of the actions whose decision read any (as Questline's group read:
//   src/modules/actions/repository.ts partyStates; a party whose state is cached reads nothing),
//   then one transaction with one multi-row statement per table (each table's rows as one jsonb
//   parameter).
// A statement the trace holds that this file does not know (a new table in Questline's write set)
// stops it at once: the floor never runs less than Questline does without saying so.
import pg from 'pg';
import Sqlite from 'better-sqlite3';
import { outcomeOf, Replay, type Shape, type Trace } from './trace.js';

/** The tables a floor's database holds rows of: what the trace's actions read and write. */
const TABLES = [
  'parties',
  'action_events',
  'mission_progress',
  'mission_completions',
  'points_ledger',
  'point_balances',
  'point_earnings',
  'trophies',
  'level_changes',
  'outbox',
  'daily_active_users',
  'leaderboard_scores',
  'group_members',
  'mission_supply',
  'analytics_changes',
];

/** How each table's rows are written: what an existing row becomes (none: a plain insert), and what comes back. */
const UPSERTS: Record<string, { conflict?: string; returning?: string }> = {
  action_events: {},
  // What the write set changed in the overview's figures: a row per action, as on SQLite (Questline
  // on PostgreSQL writes one per site and batch, derived in its statement: the floor writes more).
  analytics_changes: {},
  mission_completions: {},
  points_ledger: {},
  level_changes: {},
  outbox: {},
  parties: { conflict: 'on conflict (site_id, party_type, party_id) do nothing', returning: 'returning last_recorded, level_id, version, sequence' },
  mission_progress: {
    conflict:
      'on conflict (site_id, party_type, party_id, mission_id, rule_id) do update set window_start = excluded.window_start, current = excluded.current, updated_at = excluded.updated_at',
  },
  point_balances: {
    conflict:
      'on conflict (site_id, party_type, party_id, category) do update set balance = point_balances.balance + excluded.balance, lifetime = point_balances.lifetime + excluded.lifetime',
    returning: 'returning category, balance, lifetime',
  },
  point_earnings: {
    conflict: 'on conflict (site_id, party_type, party_id, category, period, period_start) do update set earned = point_earnings.earned + excluded.earned',
  },
  trophies: {
    conflict:
      'on conflict (site_id, party_type, party_id, badge_id) do update set earned_count = trophies.earned_count + excluded.earned_count, first_earned_at = least(trophies.first_earned_at, excluded.first_earned_at), last_earned_at = greatest(trophies.last_earned_at, excluded.last_earned_at)',
  },
  daily_active_users: { conflict: 'on conflict (site_id, day, user_id) do nothing' },
  leaderboard_scores: {
    conflict:
      'on conflict (site_id, board_id, window_start, party_id) do update set score = leaderboard_scores.score + excluded.score, reached_at = excluded.reached_at, version = leaderboard_scores.version + 1',
    returning: 'returning party_id, board_id, window_start, score, reached_at, version',
  },
};

/** The order a batch writes its tables in: the parties first (their versions guard the rest), the event last. */
const WRITE_ORDER = [
  'parties',
  'mission_progress',
  'mission_completions',
  'points_ledger',
  'point_balances',
  'point_earnings',
  'trophies',
  'level_changes',
  'outbox',
  'daily_active_users',
  'leaderboard_scores',
  'action_events',
  'analytics_changes',
];

const BATCH = 64;
const IN_FLIGHT = 2;

/** Copies the rows of TABLES from a Questline SQLite file into the (migrated, empty) PostgreSQL database, then ANALYZE. */
export async function loadFromSqlite(pool: pg.Pool, filename: string): Promise<Record<string, number>> {
  const source = new Sqlite(filename, { readonly: true });
  const copied: Record<string, number> = {};
  try {
    for (const table of TABLES) {
      const rows = source.prepare(`select * from ${table}`).all();
      for (let from = 0; from < rows.length; from += 2_000) {
        await pool.query(`insert into ${table} select * from jsonb_populate_recordset(null::${table}, $1::jsonb)`, [
          JSON.stringify(rows.slice(from, from + 2_000)),
        ]);
      }
      copied[table] = rows.length;
    }
  } finally {
    source.close();
  }
  await pool.query('analyze');
  return copied;
}

type Statement = { sql: string; shape: Shape; params: unknown[] };
type Row = Record<string, unknown>;

/** A party's save: its new version and row, guarded by the version read. */
interface Save {
  site_id: string;
  party_type: string;
  party_id: string;
  version: number;
  last_recorded: unknown;
  sequence: unknown;
  set_level: boolean;
  level_id: unknown;
  expected: number;
}

/** An action of the trace as this floor writes it: its reads, its rows by table, its party saves. */
interface Action {
  party: string;
  reads: Statement[];
  rows: Map<string, Row[]>;
  saves: Save[];
  outcome: string;
}

function decode(statements: Statement[]): Action {
  const action: Action = { party: '', reads: [], rows: new Map(), saves: [], outcome: outcomeOf(statements) };
  for (const statement of statements) {
    const { shape, params } = statement;
    if (shape.kind === 'read') {
      if (shape.what === 'other') throw new Error(`a read the PostgreSQL floor does not know: ${statement.sql}`);
      action.reads.push(statement);
    } else if (shape.kind === 'other') {
      throw new Error(`a statement the PostgreSQL floor does not know: ${statement.sql}`);
    } else if (shape.kind === 'saveParty') {
      const [version, lastRecorded, sequence] = params;
      const level = shape.setsLevel ? params[3] : null;
      const [siteId, partyType, partyId, expected] = params.slice(-4);
      action.saves.push({
        site_id: String(siteId),
        party_type: String(partyType),
        party_id: String(partyId),
        version: Number(version),
        last_recorded: lastRecorded,
        sequence,
        set_level: shape.setsLevel,
        level_id: level,
        expected: Number(expected),
      });
    } else {
      if (UPSERTS[shape.table] === undefined) throw new Error(`a table the PostgreSQL floor does not write: ${shape.table}`);
      const row: Row = {};
      shape.columns.forEach((column, i) => (row[column] = params[i]));
      if (shape.kind === 'event') action.party = `${String(row.site_id)}\u0000${String(row.party_type)}\u0000${String(row.party_id)}`;
      const rows = action.rows.get(shape.table) ?? [];
      rows.push(row);
      action.rows.set(shape.table, rows);
    }
  }
  return action;
}

interface Queued {
  action: Action;
  resolve: (outcome: string) => void;
  reject: (error: unknown) => void;
}

export class PostgresFloor {
  #replay: Replay | undefined;
  /** Each table's columns as jsonb_to_recordset declares them: "name type, …". */
  readonly #columns = new Map<string, string>();
  /** Per party, its last action submitted: the next waits for it to be written. */
  readonly #tails = new Map<string, Promise<unknown>>();
  readonly #queue: Queued[] = [];
  #inFlight = 0;
  #names = 0;
  readonly #named = new Map<string, string>();
  readonly #pgTexts = new Map<string, string>();
  /** Party saves that found another version than the trace's. */
  stale = 0;

  private constructor(private readonly pool: pg.Pool) {}

  static async open(pool: pg.Pool): Promise<PostgresFloor> {
    const floor = new PostgresFloor(pool);
    const { rows } = await pool.query<{ table_name: string; column_name: string; data_type: string }>(
      'select table_name, column_name, data_type from information_schema.columns where table_schema = current_schema() and table_name = any($1) order by table_name, ordinal_position',
      [TABLES],
    );
    for (const table of TABLES) {
      floor.#columns.set(
        table,
        rows
          .filter((r) => r.table_name === table)
          .map((r) => `${r.column_name} ${r.data_type}`)
          .join(', '),
      );
    }
    return floor;
  }

  /** The trace whose actions it writes, again and again (./trace.ts Replay); false when it has one already. */
  use(trace: Trace): boolean {
    if (this.#replay !== undefined) return false;
    this.#replay = new Replay(trace);
    return true;
  }

  get pass(): number {
    return this.#replay?.pass ?? 0;
  }

  #next(): Action {
    if (this.#replay === undefined) throw new Error('the PostgreSQL floor has no trace yet');
    return decode(this.#replay.next());
  }

  /** Mode 1: the next action of the trace in a transaction of its own, a statement per read and per row. */
  perAction(): Promise<string> {
    const action = this.#next();
    return this.#inOrder(action, () => this.#transaction(action));
  }

  /** Mode 2: the next action of the trace, written with those submitted meanwhile (group commit). */
  batched(): Promise<string> {
    const action = this.#next();
    return this.#inOrder(
      action,
      () =>
        new Promise((resolve, reject) => {
          this.#queue.push({ action, resolve, reject });
          this.#pump();
        }),
    );
  }

  /** Writes a party's actions in the trace's order, whichever way: each once the one before it is written. */
  #inOrder(action: Action, write: () => Promise<string>): Promise<string> {
    const done = (this.#tails.get(action.party) ?? Promise.resolve()).then(write);
    const tail = done.catch(() => undefined);
    this.#tails.set(action.party, tail);
    void tail.then(() => {
      if (this.#tails.get(action.party) === tail) this.#tails.delete(action.party);
    });
    return done;
  }

  async #transaction(action: Action): Promise<string> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      for (const read of action.reads) {
        const text = this.#numbered(read.sql);
        await client.query({ name: this.#name(text), text, values: read.params });
      }
      for (const save of action.saves) {
        const text = `update parties set version = $1, last_recorded = $2, sequence = $3${save.set_level ? ', level_id = $8' : ''} where site_id = $4 and party_type = $5 and party_id = $6 and version = $7 returning version`;
        const values = [
          save.version,
          save.last_recorded,
          save.sequence,
          save.site_id,
          save.party_type,
          save.party_id,
          save.expected,
          ...(save.set_level ? [save.level_id] : []),
        ];
        if ((await client.query({ name: this.#name(text), text, values })).rowCount === 0) this.stale += 1;
      }
      for (const table of WRITE_ORDER) {
        for (const row of action.rows.get(table) ?? []) {
          const columns = Object.keys(row);
          const { conflict = '', returning = '' } = UPSERTS[table] as { conflict?: string; returning?: string };
          const text = `insert into ${table} (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) ${conflict} ${returning}`;
          await client.query({ name: this.#name(text), text, values: Object.values(row) });
        }
      }
      await client.query('commit');
      return action.outcome;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** SQLite's placeholders as PostgreSQL's ($1, $2, …): the trace's reads are plain SQL either store runs. */
  #numbered(sql: string): string {
    let text = this.#pgTexts.get(sql);
    if (text === undefined) {
      let n = 0;
      text = sql.replace(/\?/g, () => `$${++n}`);
      this.#pgTexts.set(sql, text);
    }
    return text;
  }

  /** A prepared statement's name per text: each connection parses it once. */
  #name(text: string): string {
    let name = this.#named.get(text);
    if (name === undefined) {
      name = `floor_${++this.#names}`;
      this.#named.set(text, name);
    }
    return name;
  }

  #pump(): void {
    while (this.#inFlight < IN_FLIGHT) {
      // (A party has one action queued at a time: #inOrder.)
      const batch = this.#queue.splice(0, BATCH);
      if (batch.length === 0) return;
      this.#inFlight += 1;
      void this.#writeBatch(batch.map((item) => item.action))
        .then(
          () => batch.forEach((item) => item.resolve(item.action.outcome)),
          (error: unknown) => batch.forEach((item) => item.reject(error)),
        )
        .finally(() => {
          this.#inFlight -= 1;
          this.#pump();
        });
    }
  }

  async #writeBatch(actions: Action[]): Promise<void> {
    const client = await this.pool.connect();
    try {
      const reads = actions.flatMap((action, i) => stateRead(action, i));
      if (reads.length > 0) await client.query({ name: 'floor_state', text: STATE_READ, values: [JSON.stringify(reads)] });
      await client.query('begin');
      const saves = actions.flatMap((action) => action.saves);
      if (saves.length > 0) {
        const { rowCount } = await client.query({ name: 'floor_saves', text: SAVES, values: [JSON.stringify(saves), saves.length] });
        this.stale += saves.length - (rowCount ?? 0);
      }
      for (const table of WRITE_ORDER) {
        const rows = actions.flatMap((action) => action.rows.get(table) ?? []);
        if (rows.length === 0) continue;
        const columns = Object.keys(rows[0] as Row).join(', ');
        const { conflict = '', returning = '' } = UPSERTS[table] as { conflict?: string; returning?: string };
        const text = `insert into ${table} (${columns}) select ${columns} from jsonb_to_recordset($1::jsonb) as r(${this.#columns.get(table)}) ${conflict} ${returning}`;
        await client.query({ name: this.#name(text), text, values: [JSON.stringify(rows)] });
      }
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

/**
 * Every party save of a batch in one statement, each guarded by the version its decision read.
 * The limit (the number of rows) tells the planner how few they are: it takes a function's rows
 * for 100, and would rather scan every party than look 100 up by key.
 */
const SAVES = `update parties set
  version = r.version, last_recorded = r.last_recorded, sequence = r.sequence,
  level_id = case when r.set_level then r.level_id else parties.level_id end
from (
  select * from jsonb_to_recordset($1::jsonb) as r(site_id text, party_type text, party_id text, version bigint, last_recorded text, sequence bigint, set_level boolean, level_id text, expected bigint)
  limit $2
) as r
where parties.site_id = r.site_id and parties.party_type = r.party_type and parties.party_id = r.party_id and parties.version = r.expected`;

/**
 * What a batch's decisions read that their node had not cached, one row per action that read any:
 * the party's row with its missions' progress and live completions, its cap totals, lifetime
 * points, the rate window's count and the user's groups (only those its decision read).
 */
const STATE_READ = `select
  q.i, party.version, party.last_recorded, party.level_id, party.sequence,
  case when q.mission_ids is null then null else (
    select json_agg(state) from (
      select 'progress' as kind, mission_id, rule_id, window_start, current as n from mission_progress
      where site_id = q.site_id and party_type = q.party_type and party_id = q.party_id and mission_id in (select jsonb_array_elements_text(q.mission_ids))
      union all
      select 'completions', mission_id, null, window_start, count(*) from mission_completions
      where site_id = q.site_id and party_type = q.party_type and party_id = q.party_id and mission_id in (select jsonb_array_elements_text(q.mission_ids)) and removed_at is null
      group by mission_id, window_start
    ) as state
  ) end as missions,
  case when q.categories is null then null else (
    select json_agg(json_build_object('category', category, 'period', period, 'earned', earned)) from point_earnings
    where site_id = q.site_id and party_type = q.party_type and party_id = q.party_id and category in (select jsonb_array_elements_text(q.categories))
      and ((period = 'day' and period_start = q.day_start) or (period = 'year' and period_start = q.year_start))
  ) end as earnings,
  case when q.lifetime_category is null then null else (
    select lifetime from point_balances where site_id = q.site_id and party_type = q.party_type and party_id = q.party_id and category = q.lifetime_category
  ) end as lifetime,
  case when q.rate_action is null then null else (
    select count(*) from action_events
    where site_id = q.site_id and party_type = q.party_type and party_id = q.party_id and action = q.rate_action and occurred_at >= q.rate_from and occurred_at < q.rate_to and recorded = 1 and reversed_at is null
  ) end as recorded,
  case when q.groups then (select json_agg(group_id) from group_members where site_id = q.site_id and user_id = q.party_id) end as groups
from jsonb_to_recordset($1::jsonb) as q(i integer, site_id text, party_type text, party_id text, mission_ids jsonb, categories jsonb, day_start bigint, year_start bigint, lifetime_category text, rate_action text, rate_from bigint, rate_to bigint, groups boolean)
-- (A lateral subquery with a limit is a key lookup per party, never a scan of them all.)
left join lateral (
  select version, last_recorded, level_id, sequence from parties as p
  where p.site_id = q.site_id and p.party_type = q.party_type and p.party_id = q.party_id limit 1
) as party on true`;

/**
 * The state an action reads in a batch: none when its decision read nothing but its party's row
 * (Questline's node has the rest cached); else the reads the trace shows, from their parameters.
 */
function stateRead(action: Action, i: number): Row[] {
  const read: Row = { i };
  let reads = false;
  for (const { shape, params } of action.reads) {
    if (shape.kind !== 'read' || shape.what === 'party') continue;
    reads = true;
    [read.site_id, read.party_type, read.party_id] = params;
    if (shape.what === 'missions') read.mission_ids = params.slice(3, 3 + (params.length - 6) / 2);
    else if (shape.what === 'earnings') {
      read.categories = params.slice(3, -4);
      read.day_start = params.at(-3);
      read.year_start = params.at(-1);
    } else if (shape.what === 'recorded') [read.rate_action, read.rate_from, read.rate_to] = params.slice(3, 6);
    else if (shape.what === 'lifetime') read.lifetime_category = params[3];
    else if (shape.what === 'groups') {
      [read.site_id, read.party_id] = params;
      read.party_type = 'user';
      read.groups = true;
    }
  }
  return reads ? [read] : [];
}
