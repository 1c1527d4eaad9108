// Kysely's stock SQLite driver prepares every statement again on every query, which costs
// 2.5–9× a raw better-sqlite3 call on hot paths. This dialect keeps Kysely's compiler, adapter and
// introspector and swaps in a driver whose single connection caches prepared statements by SQL text.
//
// It also commits in groups. SQLite has one writer, so transactions run one after another anyway;
// committing each one costs more than all its statements (writing its pages to the WAL). While
// other transactions are waiting for the connection, a finished transaction is released as a
// savepoint inside one open outer transaction, and the outer transaction commits once nobody is
// using the connection at the next turn of the event loop (or after MAX_GROUP transactions): the
// requests that arrived meanwhile join the group. Every caller is answered only after the
// COMMIT that made its writes durable: an acknowledged write is never lost, and a failed COMMIT
// fails every transaction of its group.
import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

const STATEMENT_CACHE_SIZE = 500;
const MAX_GROUP = 64;
const SAVEPOINT = 'ql_tx';

interface CommitGroup {
  transactions: number;
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function openGroup(): CommitGroup {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may be waiting when a group fails during shutdown; keep that from being "unhandled".
  done.catch(() => undefined);
  return { transactions: 0, done, resolve, reject };
}

/**
 * Statements run straight on the connection, synchronously, with its statement cache: for the hot
 * path, inside a transaction that already holds the connection (src/db/index.ts `Trx`). Rows come
 * back as from Kysely: all rows for statements that return rows, none otherwise.
 */
export interface DirectStatements {
  execute<R>(sql: string, parameters: readonly unknown[]): R[];
}

export class CachedSqliteDialect implements Dialect {
  readonly #connection: CachedSqliteConnection;

  constructor(private readonly database: BetterSqlite3.Database) {
    this.#connection = new CachedSqliteConnection(database);
  }

  /** Valid only inside a transaction of this dialect's Kysely instance (which holds the connection). */
  readonly direct: DirectStatements = {
    execute: <R>(sql: string, parameters: readonly unknown[]) => this.#connection.executeDirect<R>(sql, parameters),
  };

  createDriver(): Driver {
    return new CachedSqliteDriver(this.database, this.#connection);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}

class CachedSqliteDriver implements Driver {
  readonly #connection: CachedSqliteConnection;
  readonly #mutex = new ConnectionMutex();
  /** The open outer transaction, when one is open. */
  #group: CommitGroup | undefined;
  /** The group the current holder of the connection worked inside (it waits for its COMMIT). */
  #joined: CommitGroup | undefined;
  #commitScheduled = false;

  constructor(
    private readonly database: BetterSqlite3.Database,
    connection: CachedSqliteConnection,
  ) {
    this.#connection = connection;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // SQLite has one connection; callers queue for it.
    await this.#mutex.lock();
    this.#joined = this.#group;
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    if (this.#group === undefined) {
      // IMMEDIATE takes the write lock up front, so a transaction never fails half-way with
      // SQLITE_BUSY when another process (the CLI, a second server) writes to the same file.
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      this.#group = openGroup();
    }
    this.#joined = this.#group;
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${SAVEPOINT}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${SAVEPOINT}`));
    if (this.#group !== undefined) this.#group.transactions += 1;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.database.inTransaction) {
      await connection.executeQuery(CompiledQuery.raw(`rollback to ${SAVEPOINT}`));
      await connection.executeQuery(CompiledQuery.raw(`release ${SAVEPOINT}`));
    }
  }

  async releaseConnection(): Promise<void> {
    const joined = this.#joined;
    this.#joined = undefined;
    const group = this.#group;
    if (group !== undefined) {
      if (!this.database.inTransaction) {
        // SQLite rolled the whole outer transaction back (an I/O error, say): nothing of the group lasted.
        this.#group = undefined;
        group.reject(new Error('SQLite rolled back the transaction group'));
      } else if (group.transactions >= MAX_GROUP) {
        this.#commit(group);
      } else if (!this.#mutex.hasWaiters()) {
        this.#scheduleCommit();
      }
    }
    this.#mutex.unlock();
    if (joined !== undefined) await joined.done;
  }

  /** Commits the open group at the next turn of the event loop, unless someone holds the connection then (their release will). */
  #scheduleCommit(): void {
    if (this.#commitScheduled) return;
    this.#commitScheduled = true;
    setImmediate(() => {
      this.#commitScheduled = false;
      if (this.#group !== undefined && !this.#mutex.isLocked()) this.#commit(this.#group);
    });
  }

  #commit(group: CommitGroup): void {
    this.#group = undefined;
    try {
      this.database.exec('commit');
      group.resolve();
    } catch (error) {
      if (this.database.inTransaction) this.database.exec('rollback');
      group.reject(error);
    }
  }

  async destroy(): Promise<void> {
    if (this.#group !== undefined) this.#commit(this.#group);
    if (this.database.open) this.database.close();
  }
}

class CachedSqliteConnection implements DatabaseConnection {
  readonly #statements = new Map<string, BetterSqlite3.Statement>();

  constructor(private readonly database: BetterSqlite3.Database) {}

  #prepare(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.database.prepare(sql);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        // Evict the oldest entry; Map iteration order is insertion order.
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  executeDirect<R>(sql: string, parameters: readonly unknown[]): R[] {
    const statement = this.#prepare(sql);
    if (statement.reader) return statement.all(parameters) as R[];
    statement.run(parameters);
    return [];
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.#prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters as unknown[];
    if (statement.reader) {
      return Promise.resolve({ rows: statement.all(parameters) as R[] });
    }
    const { changes, lastInsertRowid } = statement.run(parameters);
    return Promise.resolve({
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    });
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) {
      throw new Error('SQLite can stream only SELECT queries');
    }
    const statement = this.#prepare(compiledQuery.sql);
    for (const row of statement.iterate(compiledQuery.parameters as unknown[])) {
      yield { rows: [row as R] };
    }
  }
}

class ConnectionMutex {
  #promise: Promise<void> | undefined;
  #resolve: (() => void) | undefined;
  #waiting = 0;

  async lock(): Promise<void> {
    while (this.#promise !== undefined) {
      this.#waiting += 1;
      try {
        await this.#promise;
      } finally {
        this.#waiting -= 1;
      }
    }
    this.#promise = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  hasWaiters(): boolean {
    return this.#waiting > 0;
  }

  isLocked(): boolean {
    return this.#promise !== undefined;
  }

  unlock(): void {
    const resolve = this.#resolve;
    this.#promise = undefined;
    this.#resolve = undefined;
    resolve?.();
  }
}
