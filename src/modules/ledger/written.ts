// What writing a write set comes to, in either store: the leaderboard scores as stored, or a
// refusal (a stale party, an amount out of range); and the statement that moves scores (SQLite).
import { precompiled } from '../../db/precompiled.js';
import { AppError } from '../../errors.js';

/** A leaderboard score as stored after a write: the ranking structures take it after the commit. */
export interface ScoreRow {
  party_id: string;
  board_id: string;
  window_start: number;
  score: number;
  reached_at: number;
  version: number;
}

/** Moves every board a change of the party touches in one statement (one row per board and window; array lengths compile once each). */
export const addScores = precompiled<
  { siteId: string; boardIds: string[]; windowStarts: number[]; partyId: string; deltas: number[]; ats: number[] },
  ScoreRow
>((db, p) =>
  db
    .insertInto('leaderboard_scores')
    .values(
      p.boardIds.map((boardId, i) => ({
        site_id: p.siteId,
        board_id: boardId,
        window_start: p.windowStarts[i] as number,
        party_id: p.partyId,
        score: p.deltas[i] as number,
        reached_at: p.ats[i] as number,
        version: 1,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['site_id', 'board_id', 'window_start', 'party_id']).doUpdateSet((eb) => ({
        score: eb('leaderboard_scores.score', '+', eb.ref('excluded.score')),
        reached_at: eb.ref('excluded.reached_at'),
        version: eb('leaderboard_scores.version', '+', 1),
      })),
    )
    .returning(['party_id', 'board_id', 'window_start', 'score', 'reached_at', 'version']),
);

/** A write set's parties no longer all have the versions its decision read: nothing was written. */
export class StaleWrite extends Error {
  constructor() {
    super('a party changed since its state was read');
  }
}

/**
 * A write set's supply claim found fewer units left than it takes: other decisions took them since
 * this one read the supply. Nothing of the set is written; the decision is made again.
 */
export class SupplyTaken extends Error {
  constructor() {
    super("a mission's supply was taken since it was read");
  }
}

export function outOfRange(category: string): AppError {
  return new AppError(
    'amount_out_of_range',
    `The ${category} balance would leave the range of whole numbers the ledger holds exactly (±${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')})`,
  );
}
