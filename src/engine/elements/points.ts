// SPEC §5 step 7: reward amounts (with the multiplier) and the daily/yearly category caps.
import type { EngineCategory, EngineMission, PointsAward } from '../types.js';

/** `amount`, or floor(amount × value × multiplier) when the mission has a multiplier; never below zero. */
export function requestedPoints(mission: EngineMission, amount: number, value: number): number {
  const multiplier = mission.rewards.multiplier;
  // toPrecision(15) first: 100 × 0.57 is 56.99999999999999 in binary floating point.
  const requested = multiplier === undefined ? amount : Math.floor(Number((amount * value * multiplier).toPrecision(15)));
  return Math.max(0, requested);
}

/** Tracks what a party has earned in the event's day and year while credits are applied in order. */
export class CapLedger {
  readonly #earned = new Map<string, { day: number; year: number }>();

  constructor(
    private readonly categories: ReadonlyMap<string, EngineCategory>,
    earned: ReadonlyMap<string, { day: number; year: number }>,
  ) {
    for (const [category, totals] of earned) this.#earned.set(category, { ...totals });
  }

  /** Credits at most what the caps leave, records it, and says what was requested and credited. */
  credit(category: string, requested: number): PointsAward {
    const definition = this.categories.get(category);
    const totals = this.#earned.get(category) ?? { day: 0, year: 0 };
    let credited = requested;
    if (definition?.dailyLimit !== undefined) credited = Math.min(credited, Math.max(0, definition.dailyLimit - totals.day));
    if (definition?.yearlyLimit !== undefined) credited = Math.min(credited, Math.max(0, definition.yearlyLimit - totals.year));
    this.#earned.set(category, { day: totals.day + credited, year: totals.year + credited });
    return { category, requested, credited };
  }
}
