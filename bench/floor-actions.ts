// The floor of workload (a), returning users on the benchmark program (./workload.ts): the very
// statements Questline ran on SQLite for the actions of a round, recorded with their parameters
// while Questline served the round (./trace.ts), replayed with raw better-sqlite3 and none of its
// code, one transaction per request. The floor's database is a copy of Questline's as it was when
// the recording began, and every action Questline logged since is replayed in the order it
// committed: those of the rounds not measured on the floor (a busy-loop round) at once, before the
// floor's round; those of Questline's last measured round, one per request, in the floor's round.
// So the floor reads and writes what Questline did in that round, statement for statement: the
// same rows of the same tables through the same indexes, no more and no less, whatever Questline's
// write set becomes and however its caches warm up. test/bench/floors.test.ts checks that a
// replay leaves the same rows as Questline wrote.
import type Sqlite from 'better-sqlite3';
import { outcomeOf, shapeOf, type Shape, type Trace } from './trace.js';

type Action = Array<{ statement: Sqlite.Statement; shape: Shape; params: unknown[] }>;

export interface ActionsFloor {
  /** Runs the next action of the trace in one transaction; returns Questline's response to it. */
  (): string;
  /** Queues a trace's actions after those queued already. */
  add(trace: Trace): void;
  /** Runs every queued action but the last `keep`, each in its transaction (not measured); returns how many. */
  catchUp(keep: number): number;
  queued(): number;
  /** Party saves that found the party at another version than the trace's: none when the replay is faithful. */
  stale(): number;
}

export function actionsFloor(db: Sqlite.Database): ActionsFloor {
  const prepared = new Map<string, Sqlite.Statement>();
  const queue: Action[] = [];
  let next = 0;
  let stale = 0;
  const run = db.transaction((action: Action) => {
    for (const { statement, shape, params } of action) {
      if (!statement.reader) statement.run(params);
      else if (statement.all(params).length === 0 && shape.kind === 'saveParty') stale += 1;
    }
  });
  const outcomes: string[] = [];
  const floor = () => {
    if (next === queue.length) throw new Error('the floor has replayed every action of its trace');
    const i = next++;
    run(queue[i] as Action);
    const outcome = outcomes[i] as string;
    // (Dropped once replayed: the queue holds Questline's rounds.)
    queue[i] = [];
    outcomes[i] = '';
    return outcome;
  };
  return Object.assign(floor, {
    add(trace: Trace) {
      for (const traced of trace.actions) {
        const statements = traced.map(([text, params]) => {
          const sql = trace.texts[text] as string;
          let statement = prepared.get(sql);
          if (statement === undefined) {
            statement = db.prepare(sql);
            prepared.set(sql, statement);
          }
          return { statement, shape: shapeOf(sql), params };
        });
        outcomes.push(outcomeOf(statements));
        queue.push(statements);
      }
    },
    catchUp(keep: number) {
      let replayed = 0;
      while (queue.length - next > keep) {
        floor();
        replayed += 1;
      }
      return replayed;
    },
    queued: () => queue.length - next,
    stale: () => stale,
  });
}
