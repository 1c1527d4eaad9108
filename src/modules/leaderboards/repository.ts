// Reads of leaderboard_scores (the ledger's write sets move the scores, src/modules/ledger/): a
// window's rows, keyset-paged, for the ranking structures to load from.
import type { Db } from '../../db/index.js';
import type { WindowKey } from './rankings.js';

export interface ScoreOfWindow {
  party_id: string;
  score: number;
  reached_at: number;
  version: number;
}

export class LeaderboardsRepository {
  constructor(private readonly db: Db) {}

  /** Every site's id, in order (warming loads each one's boards). */
  async siteIds(): Promise<string[]> {
    return (await this.db.selectFrom('sites').select('site_id').orderBy('site_id').execute()).map((row) => row.site_id);
  }

  /** Up to `limit` of the window's scores by party id (the primary key's order), after `after`. */
  scores(window: WindowKey, after: string | undefined, limit: number): Promise<ScoreOfWindow[]> {
    let query = this.#window(window).select(['party_id', 'score', 'reached_at', 'version']);
    if (after !== undefined) query = query.where('party_id', '>', after);
    return query.orderBy('party_id').limit(limit).execute();
  }

  /** How many scores the window has. */
  async count(window: WindowKey): Promise<number> {
    const row = await this.#window(window)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  #window(window: WindowKey) {
    return this.db
      .selectFrom('leaderboard_scores')
      .where('site_id', '=', window.siteId)
      .where('board_id', '=', window.boardId)
      .where('window_start', '=', window.windowStart);
  }
}
