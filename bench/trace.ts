// A trace of Questline's SQL on SQLite, action by action, and its replay: what the floors of
// workload (a) run (./floor-actions.ts on SQLite, ./floor-postgres.ts on PostgreSQL).
//
// Recording wraps better-sqlite3's statements in the process that runs Questline (the bench's
// server: POST /bench/trace/start and /take in ./questline-server.ts; the tests: in process) and
// keeps every statement with its parameters, in the order SQLite ran them. A transaction of the
// action path (Questline's savepoint `ql_tx`) that inserts an action event is one action; a
// statement run outside a transaction (the user's groups, read before it) belongs to the next
// action of the party whose id it names. The transactions' own statements (begin, savepoints,
// commit) are left out: a floor runs one transaction per request of its own. What is neither
// (the program's version check, the webhook dispatcher's polling) is counted, not kept.
//
// Replayed from a copy of the database as it was when the recording began, a trace writes the
// same rows as Questline did (test/bench/floors.test.ts checks it). The PostgreSQL floor writes
// one again and again (Replay): from the second pass on, the ids an action creates get the pass's
// suffix (a primary key takes each once) and the party versions it guards by move on by what each
// pass moved them.
import Sqlite from 'better-sqlite3';

/** A statement as run: its text (an index into Trace.texts) and its parameters. */
export type TracedStatement = [text: number, params: unknown[]];

export interface Trace {
  texts: string[];
  /** Each action's statements, in the order the actions committed. */
  actions: TracedStatement[][];
  /** What was run but is no action's, by text: how many times. */
  left: Record<string, number>;
}

const TRANSACTION_CONTROL = /^(begin|commit|rollback|savepoint|release)\b/i;

/** A statement as better-sqlite3 ran it. */
export interface RunStatement {
  sql: string;
  params: unknown[];
}

/**
 * Starts recording every statement better-sqlite3 runs on this thread (on any connection of the
 * process), in the order they ran (segment() makes them a trace): take() hands over those
 * recorded so far and goes on recording; stop() puts the methods back and hands over the rest.
 * One recording at a time.
 */
export function startRecording(): { take: () => RunStatement[]; stop: () => RunStatement[] } {
  const probe = new Sqlite(':memory:');
  const statementMethods = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  const databaseMethods = Object.getPrototypeOf(probe) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  let run: RunStatement[] = [];
  const take = () => {
    const taken = run;
    run = [];
    return taken;
  };
  const originals: Array<[Record<string, (...args: unknown[]) => unknown>, string, (...args: unknown[]) => unknown]> = [];
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const original = statementMethods[name] as (...args: unknown[]) => unknown;
    originals.push([statementMethods, name, original]);
    statementMethods[name] = function (this: { source: string }, ...args: unknown[]) {
      // (The parameters' array as given: Questline builds one per call and never changes it.)
      run.push({ sql: this.source, params: args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args });
      return original.apply(this, args);
    };
  }
  const exec = databaseMethods.exec as (...args: unknown[]) => unknown;
  originals.push([databaseMethods, 'exec', exec]);
  databaseMethods.exec = function (this: unknown, sql: unknown) {
    run.push({ sql: String(sql), params: [] });
    return exec.call(this, sql);
  };
  return {
    take,
    stop() {
      for (const [target, name, original] of originals) target[name] = original;
      return take();
    },
  };
}

/** The flat list of statements as the actions they belong to (see the top of this file). */
export function segment(run: readonly RunStatement[]): Trace {
  const texts: string[] = [];
  const index = new Map<string, number>();
  const textOf = (sql: string) => {
    let i = index.get(sql);
    if (i === undefined) {
      i = texts.length;
      texts.push(sql);
      index.set(sql, i);
    }
    return i;
  };
  const actions: TracedStatement[][] = [];
  const left: Record<string, number> = {};
  const leave = (sql: string) => (left[sql] = (left[sql] ?? 0) + 1);
  /** Statements run outside a transaction, not yet given to an action. */
  let outside: RunStatement[] = [];
  let block: RunStatement[] | undefined;
  for (const statement of run) {
    const sql = statement.sql.trim();
    if (/^savepoint ql_tx$/i.test(sql)) block = [];
    else if (/^rollback to ql_tx$/i.test(sql)) {
      for (const s of block ?? []) leave(s.sql);
      block = undefined;
    } else if (/^release ql_tx$/i.test(sql)) {
      if (block === undefined) continue;
      const event = block.find((s) => /^insert into "action_events" /i.test(s.sql));
      const shape = event === undefined ? undefined : shapeOf(event.sql);
      const party = event !== undefined && shape?.kind === 'event' ? event.params[shape.columns.indexOf('party_id')] : undefined;
      if (party === undefined) for (const s of block) leave(s.sql);
      else {
        const before = outside.filter((s) => s.params.includes(party));
        outside = outside.filter((s) => !s.params.includes(party));
        actions.push([...before, ...block].map((s) => [textOf(s.sql), s.params]));
      }
      block = undefined;
    } else if (TRANSACTION_CONTROL.test(sql)) continue;
    else if (block !== undefined) block.push(statement);
    else outside.push(statement);
  }
  for (const s of [...outside, ...(block ?? [])]) leave(s.sql);
  return { texts, actions, left };
}

/** The ids an action creates: the primary key of its rows in these tables. */
const CREATED_IDS: Record<string, string> = {
  action_events: 'event_id',
  mission_completions: 'completion_id',
  points_ledger: 'entry_id',
  level_changes: 'change_id',
  outbox: 'event_id',
  analytics_changes: 'change_id',
};

/** What a statement of the trace does, from its text (Kysely's SQL for SQLite, as Questline runs it). */
export type Shape =
  | { kind: 'event'; table: 'action_events'; columns: string[] }
  | { kind: 'insert'; table: string; columns: string[] }
  | { kind: 'saveParty'; table: 'parties'; setsLevel: boolean }
  | { kind: 'read'; table: string; what: 'party' | 'missions' | 'earnings' | 'recorded' | 'groups' | 'lifetime' | 'other' }
  /** A statement of another kind: the SQLite floor replays it as it is, the PostgreSQL floor refuses it. */
  | { kind: 'other'; table: undefined };

const shapes = new Map<string, Shape>();

export function shapeOf(sql: string): Shape {
  let shape = shapes.get(sql);
  if (shape === undefined) {
    shape = parseShape(sql);
    shapes.set(sql, shape);
  }
  return shape;
}

function parseShape(sql: string): Shape {
  const insert = /^insert into "(\w+)" \(([^)]*)\) values/i.exec(sql);
  if (insert !== null) {
    const table = insert[1] as string;
    const columns = (insert[2] as string).split(',').map((c) => c.trim().replace(/"/g, ''));
    return table === 'action_events' ? { kind: 'event', table, columns } : { kind: 'insert', table, columns };
  }
  if (
    /^update "parties" set "version" = \?, "last_recorded" = \?, "sequence" = \?(, "level_id" = \?)? where "site_id" = \? and "party_type" = \? and "party_id" = \? and "version" = \?/i.test(
      sql,
    )
  ) {
    return { kind: 'saveParty', table: 'parties', setsLevel: sql.includes('"level_id" = ?') };
  }
  const from = /^select .*? from "(\w+)"/is.exec(sql);
  if (from !== null) {
    const table = from[1] as string;
    const what =
      table === 'parties'
        ? 'party'
        : table === 'mission_progress' && /union all/i.test(sql)
          ? 'missions'
          : table === 'point_earnings'
            ? 'earnings'
            : table === 'action_events' && /count\(\*\)/i.test(sql)
              ? 'recorded'
              : table === 'group_members'
                ? 'groups'
                : table === 'point_balances'
                  ? 'lifetime'
                  : 'other';
    return { kind: 'read', table, what };
  }
  return { kind: 'other', table: undefined };
}

/**
 * How many times per action the statements read and wrote each table ("read parties", "write
 * mission_progress", …): a statement counts for the first table it names; transaction control
 * is left out.
 */
export function perTable(statements: Iterable<string>, actions: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const sql of statements) {
    if (TRANSACTION_CONTROL.test(sql.trim())) continue;
    const table = /^\s*(?:select\b.*?\bfrom|insert into|update|delete from)\s+"?(\w+)"?/is.exec(sql)?.[1];
    if (table === undefined) throw new Error(`a statement of no table: ${sql}`);
    const key = `${/^\s*select\b/i.test(sql) ? 'read' : 'write'} ${table}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).map(([key, n]) => [key, n / Math.max(1, actions)]));
}

/** perTable() of a trace's actions. */
export function tracePerTable(trace: Trace): Record<string, number> {
  return perTable(
    trace.actions.flatMap((action) => action.map(([text]) => trace.texts[text] as string)),
    trace.actions.length,
  );
}

/**
 * The trace's actions one after another, again from the start once all are replayed, each with
 * its parameters as that pass runs them (see the top of this file).
 */
export class Replay {
  #next = 0;
  #pass = 1;
  /** Per action and statement: the parameters holding ids the action creates. */
  readonly #ids: number[][][];
  /** Per party: how far one pass moves its version. */
  readonly #moved = new Map<string, number>();

  constructor(readonly trace: Trace) {
    const first = new Map<string, number>();
    const last = new Map<string, number>();
    this.#ids = trace.actions.map((action) => {
      const created = new Set<unknown>();
      for (const [text, params] of action) {
        const shape = shapeOf(trace.texts[text] as string);
        const column = shape.kind === 'event' || shape.kind === 'insert' ? CREATED_IDS[shape.table] : undefined;
        if (column !== undefined) created.add(params[(shape as { columns: string[] }).columns.indexOf(column)]);
        if (shape.kind === 'saveParty') {
          const party = partyOf(params);
          if (!first.has(party)) first.set(party, Number(params.at(-1)));
          last.set(party, Number(params[0]));
        }
      }
      return action.map(([, params]) => params.flatMap((value, i) => (typeof value === 'string' && created.has(value) ? [i] : [])));
    });
    for (const [party, version] of last) this.#moved.set(party, version - (first.get(party) as number));
  }

  get pass(): number {
    return this.#pass;
  }

  /** The next action's statements: each its text and its parameters for this pass. */
  next(): Array<{ sql: string; shape: Shape; params: unknown[] }> {
    if (this.trace.actions.length === 0) throw new Error('the trace holds no action');
    if (this.#next === this.trace.actions.length) {
      this.#next = 0;
      this.#pass += 1;
    }
    const i = this.#next++;
    const action = this.trace.actions[i] as TracedStatement[];
    return action.map(([text, recorded], s) => {
      const sql = this.trace.texts[text] as string;
      const shape = shapeOf(sql);
      if (this.#pass === 1) return { sql, shape, params: recorded };
      const params = [...recorded];
      for (const p of (this.#ids[i] as number[][])[s] as number[]) params[p] = `${params[p] as string}~${this.#pass}`;
      if (shape.kind === 'saveParty') {
        const shift = (this.#pass - 1) * (this.#moved.get(partyOf(params)) ?? 0);
        params[0] = Number(params[0]) + shift;
        params[params.length - 1] = Number(params.at(-1)) + shift;
      }
      return { sql, shape, params };
    });
  }
}

/** A party save's party (its parameters end with site, type, id, expected version). */
function partyOf(params: readonly unknown[]): string {
  return params.slice(-4, -1).join('\u0000');
}

/** The response Questline gave the action: the outcome its event row keeps. */
export function outcomeOf(statements: ReadonlyArray<{ shape: Shape; params: unknown[] }>): string {
  const event = statements.find((s) => s.shape.kind === 'event');
  if (event === undefined || event.shape.kind !== 'event') throw new Error('an action without its event');
  return String(event.params[event.shape.columns.indexOf('outcome')]);
}
