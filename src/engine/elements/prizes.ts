// Leaderboards that close (docs/leaderboards.md, "Closed windows and prizes"): which window of a
// board is the next to close after its cursor, where a board's cursor starts when the closer first
// sees it, the final ranks of a window's standings (shared by equal scores, as the board shows
// them), and the prize each rank wins.
import { leaderboardWindow, type LeaderboardPeriod } from './leaderboards.js';

export interface PrizeRewards {
  points: ReadonlyArray<{ category: string; amount: number }>;
  badge?: string | undefined;
}

export interface Prize {
  /** "3" or "2-5". */
  ranks: string;
  rewards: PrizeRewards;
}

export interface ClosingBoard {
  period: LeaderboardPeriod;
  /** An allTime board's fixed end (an instant); undefined: it never closes. */
  endsAt?: number | undefined;
}

export interface FinalStanding {
  partyId: string;
  score: number;
  /** 0-based, in listing order. */
  position: number;
  /** Shared by equal scores: 1, 2, 2, 4. */
  rank: number;
  prize?: PrizeRewards;
}

/**
 * Where the board's cursor starts when the closer first sees it: the start of the window holding
 * `now`, so that windows which ended before are never closed (nor paid); an allTime board's, `now`
 * itself (its one window closes only if it ends later).
 */
export function firstCursor(board: ClosingBoard, now: number, timezone: string): number {
  return board.period === 'allTime' ? now : leaderboardWindow(board.period, now, timezone).start;
}

/**
 * The window the cursor points at, if there is one to close: a periodic board's window holding
 * the cursor; an allTime board's only window (start 0) while the cursor is before its end. Whether
 * it has ended (plus the grace period) is the caller's question.
 */
export function windowAt(board: ClosingBoard, cursor: number, timezone: string): { start: number; end: number } | undefined {
  if (board.period !== 'allTime') return leaderboardWindow(board.period, cursor, timezone);
  return board.endsAt !== undefined && cursor < board.endsAt ? { start: 0, end: board.endsAt } : undefined;
}

/** The prize's ranks as a range. */
export function rankRange(prize: Prize): { from: number; to: number } {
  const [from, to = from] = prize.ranks.split('-').map(Number) as [number, number?];
  return { from, to };
}

/** The prize a rank wins (ranges do not overlap: the first that holds it). */
export function prizeOf(prizes: readonly Prize[], rank: number): PrizeRewards | undefined {
  for (const prize of prizes) {
    const { from, to } = rankRange(prize);
    if (rank >= from && rank <= to) return prize.rewards;
  }
  return undefined;
}

/** Standings in listing order with their shared ranks and prizes: equal scores share a rank, and each party at a rank wins its prize. */
export function finalStandings(rows: ReadonlyArray<{ partyId: string; score: number }>, prizes: readonly Prize[]): FinalStanding[] {
  const out: FinalStanding[] = [];
  for (const [position, row] of rows.entries()) {
    const previous = out[position - 1];
    const rank = previous !== undefined && previous.score === row.score ? previous.rank : position + 1;
    const prize = prizeOf(prizes, rank);
    out.push({ partyId: row.partyId, score: row.score, position, rank, ...(prize !== undefined ? { prize } : {}) });
  }
  return out;
}
