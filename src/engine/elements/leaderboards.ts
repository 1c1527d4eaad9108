// SPEC §7 leaderboards: which boards a change to a party's numbers moves, in which calendar
// window (site time zone, weeks from Sunday; the window of the change's own timestamp, so a
// backdated action lands in its window), and by how much.
import { calendarWindow, localDateTimeToInstant } from '../calendar.js';
import type { Party } from '../types.js';

export type LeaderboardPeriod = 'allTime' | 'day' | 'week' | 'month' | 'quarter' | 'year';

export interface EngineLeaderboard {
  id: string;
  metric: {
    type: 'points' | 'lifetimePoints' | 'missionsCompleted' | 'actionCount' | 'actionValueSum';
    category?: string | undefined;
    action?: string | undefined;
  };
  period: LeaderboardPeriod;
  party: Party;
  groupFilter?: string | undefined;
  /** An allTime board's fixed end (local date-time, site time zone): changes at or after it do not count. */
  end?: string | undefined;
}

/**
 * What changed for a party: points credited (negative: debited), a completion, or a recorded
 * action. `undo` takes back such a change (a reversal), in the window of its own time: a reversed
 * credit leaves lifetime boards too, which a debit does not.
 */
export type ScoreChange = (
  | { kind: 'points'; category: string; amount: number; at: number }
  | { kind: 'completion'; at: number }
  | { kind: 'action'; action: string; value: number; at: number }
) & { undo?: true };

export interface ScoreDelta {
  boardId: string;
  windowStart: number;
  delta: number;
  /** When the change happened: among equal scores, who reached the score first is listed first. */
  at: number;
}

/** The start of the board's window holding `instant` (0 for all-time boards). */
export function leaderboardWindow(period: LeaderboardPeriod, instant: number, timezone: string): { start: number; end: number } {
  return period === 'allTime' ? { start: 0, end: Number.MAX_SAFE_INTEGER } : calendarWindow(instant, period, timezone);
}

function deltaOf(board: EngineLeaderboard, change: ScoreChange, defaultCategory: string | undefined): number {
  const { type, category, action } = board.metric;
  switch (change.kind) {
    case 'points':
      if (type === 'points') return category === change.category ? change.amount : 0;
      // Lifetime points count credits only; without a category, the default one's.
      if (type === 'lifetimePoints') return (category ?? defaultCategory) === change.category && change.amount > 0 ? change.amount : 0;
      return 0;
    case 'completion':
      return type === 'missionsCompleted' ? 1 : 0;
    case 'action':
      if (action === undefined || action.toLowerCase() !== change.action.toLowerCase()) return 0;
      return type === 'actionCount' ? 1 : type === 'actionValueSum' ? change.value : 0;
  }
}

/**
 * The board scores the changes move for one party: one delta per board and window, in board order.
 * A board with a group filter counts only users who are members of that group.
 */
export function scoreDeltas(
  boards: readonly EngineLeaderboard[],
  timezone: string,
  defaultCategory: string | undefined,
  party: Party,
  groups: ReadonlySet<string>,
  changes: readonly ScoreChange[],
): ScoreDelta[] {
  const deltas = new Map<string, ScoreDelta>();
  for (const board of boards) {
    if (board.party !== party) continue;
    if (board.groupFilter !== undefined && (party !== 'user' || !groups.has(board.groupFilter))) continue;
    // A board closed for good at its end: what happens from then on is not on it.
    const endsAt = board.end === undefined ? undefined : localDateTimeToInstant(board.end, timezone);
    for (const change of changes) {
      if (endsAt !== undefined && change.at >= endsAt) continue;
      const delta = change.undo ? -deltaOf(board, change, defaultCategory) : deltaOf(board, change, defaultCategory);
      if (delta === 0) continue;
      const windowStart = leaderboardWindow(board.period, change.at, timezone).start;
      const key = `${board.id}\u0000${windowStart}`;
      const known = deltas.get(key);
      if (known === undefined) deltas.set(key, { boardId: board.id, windowStart, delta, at: change.at });
      else deltas.set(key, { ...known, delta: Number((known.delta + delta).toPrecision(15)), at: Math.max(known.at, change.at) });
    }
  }
  return [...deltas.values()].filter((delta) => delta.delta !== 0);
}
