// Queries built once with Kysely and then executed as SQL text with parameters: the query builder
// costs ~10–20 µs per query (building, freezing and compiling its node tree), which on the action
// path, with a dozen queries per action, cost more than SQLite itself. The SQL is still Kysely's,
// compiled for the database's own dialect; only the building is skipped.
//
//   const findEvent = precompiled<{ siteId: string; eventId: string }>((db, p) =>
//     db.selectFrom('action_events').selectAll().where('site_id', '=', p.siteId).where('event_id', '=', p.eventId));
//   const rows = await findEvent(trx, { siteId, eventId });
//
// Run on a `Trx` (./index.ts): inside a SQLite transaction the statement runs synchronously on the
// connection the transaction holds, and the rows come back at once; otherwise through Kysely.
//
// Parameters are placeholders while the query is built, so the builder may only pass them through
// as values (not inspect them). Array parameters (`in` lists) compile once per length.
import { CompiledQuery, type Compilable } from 'kysely';
import type { Db, Trx } from './index.js';
import { nameStatement } from './statement-names.js';

type Placeholders<P> = { readonly [K in keyof P]: P[K] };

const MARK = '\u0000ql\u0000';

interface Compiled {
  sql: string;
  /** For each SQL parameter: the parameter name (and array index), or a constant. */
  slots: Array<{ name: string; index?: number } | { constant: unknown }>;
}

export function precompiled<P extends object, R = unknown>(build: (db: Db, p: Placeholders<P>) => Compilable<R>) {
  // Keyed by the database's adapter (one per dialect) and the lengths of array parameters.
  const cache = new WeakMap<object, Map<string, Compiled>>();
  /** The names of the array parameters, learnt on the first call (the shape of P does not change). */
  let arrayNames: string[] | undefined;

  function compile(db: Db, params: P): Compiled {
    const adapter = db.getExecutor().adapter;
    let byShape = cache.get(adapter);
    if (byShape === undefined) {
      byShape = new Map();
      cache.set(adapter, byShape);
    }
    arrayNames ??= Object.entries(params)
      .filter(([, value]) => Array.isArray(value))
      .map(([name]) => name);
    const shape = arrayNames.length === 0 ? '' : arrayNames.map((name) => `${name}:${((params as Record<string, unknown[]>)[name] ?? []).length}`).join(',');
    let compiled = byShape.get(shape);
    if (compiled === undefined) {
      const placeholders: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(params)) {
        placeholders[name] = Array.isArray(value) ? value.map((_, i) => `${MARK}${name}${MARK}${i}`) : `${MARK}${name}`;
      }
      const query = build(db, placeholders as Placeholders<P>).compile();
      compiled = {
        sql: query.sql,
        slots: query.parameters.map((value) => {
          if (typeof value !== 'string' || !value.startsWith(MARK)) return { constant: value };
          const [name, index] = value.slice(MARK.length).split(MARK) as [string, string | undefined];
          return index === undefined ? { name } : { name, index: Number(index) };
        }),
      };
      byShape.set(shape, compiled);
      nameStatement(compiled.sql);
    }
    return compiled;
  }

  return (trx: Trx, params: P): R[] | Promise<R[]> => {
    const { sql, slots } = compile(trx.db, params);
    const values = slots.map((slot) => {
      if ('constant' in slot) return slot.constant;
      const value = (params as Record<string, unknown>)[slot.name];
      return slot.index === undefined ? value : (value as unknown[])[slot.index];
    });
    if (trx.direct !== undefined) return trx.direct.execute<R>(sql, values);
    return trx.db.executeQuery<R>(CompiledQuery.raw(sql, values)).then((result) => result.rows);
  };
}
