// The floors of workload (a) in the bench's rounds (./run.ts): what the SQLite server of (a) runs is
// recorded while it serves its rounds (./trace.ts, POST /bench/trace/* of ./questline-server.ts),
// and the floors replay it.
// - The SQLite floor (./floor-server.ts, ./floor-actions.ts) starts from a copy of the server's
//   database taken when the recording starts, and replays every action the server logged since,
//   in order: those of the rounds it does not measure (the busy loop's) at once, then, as its
//   measured round, the actions of Questline's last measured round of (a), one request each. Its
//   round is as many requests as that round logged actions: the floor and Questline run the same
//   statements on the same rows, round for round.
// - The PostgreSQL floor (./floor-postgres-server.ts, ./floor-postgres.ts) starts from another
//   copy, and writes the actions of Questline's first measured round, again and again.
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { load, startServer, type LoadResult, type Server } from './harness.js';
import type { BenchPostgres } from './postgres.js';

export interface Chunk {
  file: string;
  actions: number;
  /** Statements per action, by table (./trace.ts perTable). */
  perTable: Record<string, number>;
  /** Logged in a measured round of Questline's (a). */
  measured: boolean;
}

async function post<T>(url: string, body: unknown = {}): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export class FloorsOfA {
  readonly chunks: Chunk[] = [];
  /** Chunks given to the SQLite floor so far. */
  #given = 0;
  #postgresTrace = false;

  private constructor(
    private readonly dir: string,
    private readonly questline: Server,
    readonly sqlite: Server,
    readonly postgres: Server | undefined,
  ) {}

  /**
   * Copies the database of `questline` (a server of ./questline-server.ts on `database`, idle) for
   * each floor, starts recording its statements, and starts the floors (the PostgreSQL one with
   * `postgres`, in a fresh database of its cluster).
   */
  static async start(dir: string, questline: Server, database: string, postgres: BenchPostgres | undefined): Promise<FloorsOfA> {
    const copy = async (name: string) => {
      const source = new Sqlite(database, { readonly: true });
      await source.backup(join(dir, name));
      source.close();
      return join(dir, name);
    };
    const forSqlite = await copy('floor.db');
    const forPostgres = postgres === undefined ? undefined : await copy('floor-postgres.db');
    await post(`${questline.url}/bench/trace/start`);
    const sqlite = await startServer(['bench/floor-server.ts'], { FLOOR_DATABASE: forSqlite });
    const onPostgres =
      postgres === undefined
        ? undefined
        : await startServer(['bench/floor-postgres-server.ts'], { FLOOR_POSTGRES: await postgres.another(), FLOOR_SOURCE: forPostgres as string });
    return new FloorsOfA(dir, questline, sqlite, onPostgres);
  }

  /** Takes what Questline logged since the last take into a file of its own; `measured` when that was a measured round of (a). */
  async take(measured: boolean): Promise<Chunk> {
    const file = join(this.dir, `trace-${this.chunks.length}.json`);
    const taken = await post<{ actions: number; perTable: Record<string, number> }>(`${this.questline.url}/bench/trace/take`, { file });
    const chunk = { file, actions: taken.actions, perTable: taken.perTable, measured };
    this.chunks.push(chunk);
    return chunk;
  }

  /** The SQLite floor's round: the actions of Questline's last measured round, after those before it. */
  async sqliteRound(options: Parameters<typeof load>[1]): Promise<LoadResult> {
    const pending = this.chunks.slice(this.#given);
    const last = pending.at(-1);
    if (last === undefined || !last.measured) throw new Error("the SQLite floor of (a) measures Questline's last round of (a): none since its last round");
    this.#given = this.chunks.length;
    for (const chunk of pending) await post(`${this.sqlite.url}/floor/trace`, { file: chunk.file, keep: chunk === last ? last.actions : 0 });
    return load(this.sqlite.url, { ...options, amount: last.actions });
  }

  /** The PostgreSQL floor's round, given its trace (Questline's first measured round of (a)) the first time. */
  async postgresRound(
    batched: boolean,
    options: Parameters<typeof load>[1] & { request: () => { path: string; method: 'POST'; body: string } },
  ): Promise<LoadResult> {
    const floor = this.postgres as Server;
    if (!this.#postgresTrace) {
      const first = this.chunks.find((chunk) => chunk.measured);
      if (first === undefined) throw new Error("the PostgreSQL floor of (a) writes Questline's first round of (a): none yet");
      await post(`${floor.url}/floor/trace`, { file: first.file });
      this.#postgresTrace = true;
    }
    const request = options.request;
    const batchedRequest = () => {
      const next = request();
      return { ...next, path: `/batched${next.path}` };
    };
    return load(floor.url, { ...options, request: batched ? batchedRequest : request });
  }

  /** The statements per action, by table, of Questline's measured rounds. */
  measuredPerTable(): { actions: number; perTable: Record<string, number> } {
    const measured = this.chunks.filter((chunk) => chunk.measured);
    const actions = measured.reduce((sum, chunk) => sum + chunk.actions, 0);
    const perTable: Record<string, number> = {};
    for (const chunk of measured) for (const [key, n] of Object.entries(chunk.perTable)) perTable[key] = (perTable[key] ?? 0) + (n * chunk.actions) / actions;
    return { actions, perTable };
  }

  /** Party saves of each floor that found another version than the trace's (0 when faithful), and the PostgreSQL floor's passes over its trace. */
  async faithful(): Promise<{ sqlite: number; postgres?: { stale: number; pass: number } }> {
    const stale = async (server: Server) => (await (await fetch(`${server.url}/floor/stale`)).json()) as { stale: number; pass: number };
    return { sqlite: (await stale(this.sqlite)).stale, ...(this.postgres !== undefined ? { postgres: await stale(this.postgres) } : {}) };
  }

  stop(): Promise<unknown> {
    return Promise.all([this.sqlite.stop(), this.postgres?.stop()]);
  }
}
