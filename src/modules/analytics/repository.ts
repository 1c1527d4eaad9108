// The overview's SQL (docs/analytics.md): the changes the ledger writes and a fold consumes, the
// daily rollup and its per-site state, and the reads a site's rollup is built from: its history's
// recorded actions, points entries, live completions, levels reached and active users, grouped by
// local day in the database (src/db/local-days.ts), from the first day the rollup keeps.
import { sql } from 'kysely';
import type { OffsetSpan } from '../../engine/calendar.js';
import type { Database, Trx } from '../../db/index.js';
import { localDayNumber } from '../../db/local-days.js';
import type { AnalyticsDaysTable, AnalyticsSitesTable } from '../../db/schema.js';

/** A figure of the rollup: a series' key on a day. */
export type DayFigure = Pick<AnalyticsDaysTable, 'day' | 'series' | 'key' | 'value'>;

/** A figure of the history by local day number (localDayNumber). */
export interface HistoryFigure {
  day: number;
  key: string;
  value: number;
}

/** Rows per insert statement (SQLite allows 32,766 parameters). */
const CHUNK = 500;

/** Received by a recipient, not done by them: it does not make them active (src/modules/recognitions/service.ts logs it passive). */
const PASSIVE_ACTIONS = ['RECOGNITION_RECEIVED'];

export class AnalyticsRepository {
  constructor(private readonly database: Pick<Database, 'db' | 'dialect' | 'transaction'>) {}

  /** A transaction for a fold. */
  transaction<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    return this.database.transaction(work);
  }

  /**
   * A transaction whose reads all see one snapshot (PostgreSQL: repeatable read; a SQLite write
   * transaction always does), for a build: the changes it deletes are exactly those whose rows its
   * reads of the history saw. PostgreSQL may refuse it (40001) when another transaction changed a
   * row it changes since its snapshot: the caller runs it again.
   */
  snapshotTransaction<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    if (this.database.dialect === 'sqlite') return this.database.transaction(work);
    return this.database.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((db) => work({ db }));
  }

  /** Serializes the folds and builds of a site across nodes (PostgreSQL: an advisory lock until the transaction ends; SQLite has one writer). */
  async lockSite(trx: Trx, siteId: string): Promise<void> {
    if (this.database.dialect !== 'postgres') return;
    await sql`select pg_advisory_xact_lock(hashtextextended(${`questline:analytics:${siteId}`}, 0))`.execute(trx.db);
  }

  state(trx: Trx, siteId: string): Promise<AnalyticsSitesTable | undefined> {
    return trx.db.selectFrom('analytics_sites').selectAll().where('site_id', '=', siteId).executeTakeFirst();
  }

  /** Sites with changes to fold, and sites whose rollup was never built. */
  async sitesToFold(limit: number): Promise<string[]> {
    const { db } = this.database;
    const [pending, unbuilt] = await Promise.all([
      db.selectFrom('analytics_changes').select('site_id').distinct().limit(limit).execute(),
      db
        .selectFrom('sites')
        .select('site_id')
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('analytics_sites').select('site_id').whereRef('analytics_sites.site_id', '=', 'sites.site_id'))),
        )
        .limit(limit)
        .execute(),
    ]);
    return [...new Set([...pending, ...unbuilt].map((row) => row.site_id))];
  }

  /** Deletes up to `limit` of the site's changes, and returns them: the caller's transaction adds them to the rollup. */
  async takeChanges(trx: Trx, siteId: string, limit: number): Promise<string[]> {
    const rows = await trx.db
      .deleteFrom('analytics_changes')
      .where('site_id', '=', siteId)
      .where('change_id', 'in', (eb) => eb.selectFrom('analytics_changes').select('change_id').where('site_id', '=', siteId).limit(limit))
      .returning('changes')
      .execute();
    return rows.map((row) => row.changes);
  }

  /** Adds to the rollup's figures (a missing figure starts at 0). */
  async addFigures(trx: Trx, siteId: string, figures: readonly DayFigure[]): Promise<void> {
    for (let i = 0; i < figures.length; i += CHUNK) {
      await trx.db
        .insertInto('analytics_days')
        .values(figures.slice(i, i + CHUNK).map((f) => ({ site_id: siteId, ...f })))
        .onConflict((oc) => oc.columns(['site_id', 'day', 'series', 'key']).doUpdateSet({ value: sql<number>`analytics_days.value + excluded.value` }))
        .execute();
    }
  }

  /** Sets figures of the rollup to the values given. */
  async setFigures(trx: Trx, siteId: string, figures: readonly DayFigure[]): Promise<void> {
    for (let i = 0; i < figures.length; i += CHUNK) {
      await trx.db
        .insertInto('analytics_days')
        .values(figures.slice(i, i + CHUNK).map((f) => ({ site_id: siteId, ...f })))
        .onConflict((oc) => oc.columns(['site_id', 'day', 'series', 'key']).doUpdateSet({ value: sql<number>`excluded.value` }))
        .execute();
    }
  }

  /** Replaces the site's rollup with `figures` and its state with `state`, and deletes every change of the site this transaction sees. */
  async replace(trx: Trx, state: AnalyticsSitesTable, figures: readonly DayFigure[]): Promise<void> {
    const siteId = state.site_id;
    await trx.db.deleteFrom('analytics_changes').where('site_id', '=', siteId).execute();
    await trx.db.deleteFrom('analytics_days').where('site_id', '=', siteId).execute();
    await this.setFigures(trx, siteId, figures);
    await trx.db
      .insertInto('analytics_sites')
      .values(state)
      .onConflict((oc) =>
        oc.column('site_id').doUpdateSet({ timezone: state.timezone, built_from: state.built_from, users_from: state.users_from, built_at: state.built_at }),
      )
      .execute();
  }

  /** Drops the figures of days before `day` (the rollup keeps the days an overview can show). */
  async prune(trx: Trx, siteId: string, day: string): Promise<void> {
    await trx.db.deleteFrom('analytics_days').where('site_id', '=', siteId).where('day', '<', day).execute();
    await trx.db.updateTable('analytics_sites').set({ built_from: day }).where('site_id', '=', siteId).execute();
  }

  /** The rollup's figures of days `first` to `last` (YYYY-MM-DD, both included). */
  figures(siteId: string, first: string, last: string): Promise<DayFigure[]> {
    return this.database.db
      .selectFrom('analytics_days')
      .select(['day', 'series', 'key', 'value'])
      .where('site_id', '=', siteId)
      .where('day', '>=', first)
      .where('day', '<=', last)
      .execute();
  }

  // --- The history a rollup is built from ------------------------------------------------------

  /** Recorded actions from `from` on, by local day and action. */
  async actions(trx: Trx, siteId: string, from: number, spans: readonly OffsetSpan[]): Promise<HistoryFigure[]> {
    return figuresOf(
      await trx.db
        .selectFrom('action_events')
        .select([localDayNumber('occurred_at', spans).as('local_day'), 'action as key', (eb) => eb.fn.countAll<number>().as('value')])
        .where('site_id', '=', siteId)
        .where('occurred_at', '>=', from)
        .where('recorded', '=', 1)
        .groupBy(BY_DAY_AND_KEY)
        .execute(),
    );
  }

  /** Points entries from `from` on (the instant they count at), net, by local day and category. */
  async points(trx: Trx, siteId: string, from: number, spans: readonly OffsetSpan[]): Promise<HistoryFigure[]> {
    return figuresOf(
      await trx.db
        .selectFrom('points_ledger')
        .select([localDayNumber('occurred_at', spans).as('local_day'), 'category as key', (eb) => eb.fn.sum<number>('credited').as('value')])
        .where('site_id', '=', siteId)
        .where('occurred_at', '>=', from)
        .groupBy(BY_DAY_AND_KEY)
        .execute(),
    );
  }

  /** Live (not removed) completions from `from` on, by local day and mission. */
  async completions(trx: Trx, siteId: string, from: number, spans: readonly OffsetSpan[]): Promise<HistoryFigure[]> {
    return figuresOf(
      await trx.db
        .selectFrom('mission_completions')
        .select([localDayNumber('completed_at', spans).as('local_day'), 'mission_id as key', (eb) => eb.fn.countAll<number>().as('value')])
        .where('site_id', '=', siteId)
        .where('completed_at', '>=', from)
        .where('removed_at', 'is', null)
        .groupBy(BY_DAY_AND_KEY)
        .execute(),
    );
  }

  /** Levels reached (changes up) from `from` on, by local day and level. */
  async levels(trx: Trx, siteId: string, from: number, spans: readonly OffsetSpan[]): Promise<HistoryFigure[]> {
    return figuresOf(
      await trx.db
        .selectFrom('level_changes')
        .select([localDayNumber('changed_at', spans).as('local_day'), 'to_level as key', (eb) => eb.fn.countAll<number>().as('value')])
        .where('site_id', '=', siteId)
        .where('changed_at', '>=', from)
        .where('direction', '=', 'up')
        .where('to_level', 'is not', null)
        .groupBy(BY_DAY_AND_KEY)
        .execute(),
    );
  }

  /** Users with a recorded action of their own in [from, to), by local day: from the history, whatever zone daily_active_users was kept in. */
  async activeUsers(trx: Trx, siteId: string, from: number, to: number, spans: readonly OffsetSpan[]): Promise<HistoryFigure[]> {
    return figuresOf(
      await trx.db
        .selectFrom('action_events')
        .select([
          localDayNumber('occurred_at', spans).as('local_day'),
          sql<string>`''`.as('key'),
          (eb) => eb.fn.count<number>('party_id').distinct().as('value'),
        ])
        .where('site_id', '=', siteId)
        .where('occurred_at', '>=', from)
        .where('occurred_at', '<', to)
        .where('party_type', '=', 'user')
        .where('recorded', '=', 1)
        .where('action', 'not in', PASSIVE_ACTIONS)
        .groupBy(BY_DAY_AND_KEY)
        .execute(),
    );
  }
}

/** Grouped by the local day and key a read's select names (local_day, key). */
const BY_DAY_AND_KEY = [sql.ref('local_day'), sql.ref('key')];

function figuresOf(rows: ReadonlyArray<{ local_day: number; key: string | null; value: number | string | null }>): HistoryFigure[] {
  return rows.map((row) => ({ day: Number(row.local_day), key: row.key ?? '', value: Number(row.value ?? 0) }));
}
