// The rows of leaderboards that close (migration 0018): each board's cursor (its first window still
// to close), the closings (the claim on a window, inserted if absent), the final standings kept
// with what each party was paid, and the window's scores as they stand when it closes.
import type { Db, Trx } from '../../db/index.js';
import type { LeaderboardClosingsTable, LeaderboardResultsTable } from '../../db/schema.js';

/** Rows per insert statement (SQLite allows 32766 parameters; a result has 7). */
const INSERT_CHUNK = 500;

export interface WindowScore {
  party_id: string;
  score: number;
  reached_at: number;
}

export class LeaderboardResultsRepository {
  constructor(private readonly db: Db) {}

  /** Every site's id, in order (the closer's rounds go through them). */
  async siteIds(): Promise<string[]> {
    return (await this.db.selectFrom('sites').select('site_id').orderBy('site_id').execute()).map((row) => row.site_id);
  }

  /** The site's boards' cursors, by board id. */
  async cursors(siteId: string): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('leaderboard_cursors').select(['board_id', 'next_window_start']).where('site_id', '=', siteId).execute();
    return new Map(rows.map((row) => [row.board_id, Number(row.next_window_start)]));
  }

  /** Sets the board's cursor unless it has one (two nodes seeing a board first at once: the first insert stands). */
  async startCursor(siteId: string, boardId: string, start: number): Promise<void> {
    await this.db
      .insertInto('leaderboard_cursors')
      .values({ site_id: siteId, board_id: boardId, next_window_start: start })
      .onConflict((oc) => oc.columns(['site_id', 'board_id']).doNothing())
      .execute();
  }

  /** Moves the board's cursor forward to `to` (never back). */
  async advanceCursor(trx: Trx, siteId: string, boardId: string, to: number): Promise<void> {
    await trx.db
      .updateTable('leaderboard_cursors')
      .set({ next_window_start: to })
      .where('site_id', '=', siteId)
      .where('board_id', '=', boardId)
      .where('next_window_start', '<', to)
      .execute();
  }

  /**
   * Claims the window: inserts its closing unless one exists. True when this insert landed (its
   * transaction pays); false when the window is closed already or another transaction closing it
   * committed first (on PostgreSQL this insert waits for that one).
   */
  async claim(trx: Trx, closing: LeaderboardClosingsTable): Promise<boolean> {
    const inserted = await trx.db
      .insertInto('leaderboard_closings')
      .values(closing)
      .onConflict((oc) => oc.columns(['site_id', 'board_id', 'window_start']).doNothing())
      .returning('closing_id')
      .execute();
    return inserted.length > 0;
  }

  /** The window's first `limit` positive scores in listing order (highest, then earliest reached, then id). */
  standings(trx: Trx, window: { siteId: string; boardId: string; windowStart: number }, limit: number): Promise<WindowScore[]> {
    return trx.db
      .selectFrom('leaderboard_scores')
      .select(['party_id', 'score', 'reached_at'])
      .where('site_id', '=', window.siteId)
      .where('board_id', '=', window.boardId)
      .where('window_start', '=', window.windowStart)
      .where('score', '>', 0)
      .orderBy('score', 'desc')
      .orderBy('reached_at', 'asc')
      .orderBy('party_id', 'asc')
      .limit(limit)
      .execute();
  }

  async insertResults(trx: Trx, rows: readonly LeaderboardResultsTable[]): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK)
      await trx.db
        .insertInto('leaderboard_results')
        .values(rows.slice(i, i + INSERT_CHUNK))
        .execute();
  }

  /** A page of the board's closings, newest window first, and how many there are. */
  async closings(siteId: string, boardId: string, limit: number, offset: number): Promise<{ rows: LeaderboardClosingsTable[]; total: number }> {
    const ofBoard = this.db.selectFrom('leaderboard_closings').where('site_id', '=', siteId).where('board_id', '=', boardId);
    const [rows, count] = await Promise.all([
      ofBoard.selectAll().orderBy('window_start', 'desc').limit(limit).offset(offset).execute(),
      ofBoard.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** The kept standings of the closings, in listing order; only those paid a prize, or ranked first, with `winnersOnly`. */
  async results(siteId: string, closingIds: readonly string[], winnersOnly: boolean): Promise<LeaderboardResultsTable[]> {
    if (closingIds.length === 0) return [];
    let query = this.db.selectFrom('leaderboard_results').selectAll().where('site_id', '=', siteId).where('closing_id', 'in', closingIds);
    if (winnersOnly) query = query.where((eb) => eb.or([eb('prize', 'is not', null), eb('rank', '=', 1)]));
    return query.orderBy('closing_id').orderBy('position').execute();
  }

  /** Every closing of the site, for `questline verify`. */
  allClosings(siteId: string): Promise<LeaderboardClosingsTable[]> {
    return this.db.selectFrom('leaderboard_closings').selectAll().where('site_id', '=', siteId).orderBy('closing_id').execute();
  }
}
