// The recommendation score of GET /users/{u}/ranked-challenges (SPEC §6), documented with its
// weights in docs/recommendations.md. Pure: the eligible list in, scored and ordered list out.

export interface RankInput {
  id: string;
  featured: boolean;
  importance: number;
  percentComplete: number;
  locked: boolean;
  /** The mission's end (ms), when it has one. */
  endsAt: number | undefined;
  /** When its last prerequisite mission was completed (ms), when it has prerequisites. */
  unlockedAt: number | undefined;
  /** Points its rewards request (before any multiplier), all categories together. */
  rewardPoints: number;
}

export type RankReason = 'featured' | 'important' | 'close_to_completion' | 'expiring_soon' | 'recently_unlocked' | 'big_reward';

const DAY = 24 * 3600 * 1000;
export const WEIGHTS = {
  featured: 30,
  importancePerPoint: 2,
  importanceCap: 20,
  closeness: 25,
  expiringSoon: 20,
  expiringWindowDays: 7,
  recentlyUnlocked: 15,
  recentWindowDays: 7,
  reward: 10,
  lockedPenalty: 40,
} as const;

export function score(mission: RankInput, now: number): { score: number; reasons: RankReason[] } {
  const reasons: RankReason[] = [];
  let total = 0;
  if (mission.featured) {
    total += WEIGHTS.featured;
    reasons.push('featured');
  }
  const importance = Math.max(-WEIGHTS.importanceCap, Math.min(WEIGHTS.importanceCap, mission.importance * WEIGHTS.importancePerPoint));
  total += importance;
  if (importance > 0) reasons.push('important');
  const closeness = (WEIGHTS.closeness * mission.percentComplete) / 100;
  total += closeness;
  if (mission.percentComplete >= 50) reasons.push('close_to_completion');
  if (mission.endsAt !== undefined && mission.endsAt >= now && mission.endsAt - now <= WEIGHTS.expiringWindowDays * DAY) {
    // Sooner is stronger: the full weight on the last day, fading over the window.
    total += WEIGHTS.expiringSoon * (1 - (mission.endsAt - now) / (WEIGHTS.expiringWindowDays * DAY));
    reasons.push('expiring_soon');
  }
  if (mission.unlockedAt !== undefined && now - mission.unlockedAt <= WEIGHTS.recentWindowDays * DAY) {
    total += WEIGHTS.recentlyUnlocked;
    reasons.push('recently_unlocked');
  }
  if (mission.rewardPoints > 0) {
    // Logarithmic: 10 points give 2.5, 100 give 5, 1,000 give 7.5, capped at 10.
    total += Math.min(WEIGHTS.reward, 2.5 * Math.log10(mission.rewardPoints));
    if (mission.rewardPoints >= 100) reasons.push('big_reward');
  }
  if (mission.locked) total -= WEIGHTS.lockedPenalty;
  return { score: Math.round(total * 100) / 100, reasons };
}

/** Highest score first; ties by importance, then id. */
export function rank<T extends RankInput>(missions: readonly T[], now: number): Array<T & { score: number; reasons: RankReason[] }> {
  return missions
    .map((mission) => ({ ...mission, ...score(mission, now) }))
    .sort((a, b) => b.score - a.score || b.importance - a.importance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
