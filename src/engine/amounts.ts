// The ranges of the numbers the ledger records (docs/actions.md, "Ranges"). Inputs are refused
// outside them at the edge; amounts the engine computes (a reward × value × multiplier) are checked
// against them before anything is written, so that no decision stores a number the ledger, the
// balances or a response cannot hold exactly.

/** The largest magnitude of an action's value. */
export const MAX_ACTION_VALUE = 1_000_000_000;

/**
 * The largest magnitude of one points amount: a ledger entry, a configured reward, budget or cap.
 * Balances are checked on their own (as a write set is written): over 9,000 entries of this size
 * would take one past the integers a double holds exactly.
 */
export const MAX_POINTS = 1_000_000_000_000;

/** The largest magnitude of an amount an admin posts by hand: an adjustment, an award debit, a code's credit. */
export const MAX_ADJUSTMENT = 1_000_000_000;

/** The largest multiplier a mission may apply to the action's value. */
export const MAX_MULTIPLIER = 1_000_000;

export function isPointsAmount(amount: number): boolean {
  return Number.isSafeInteger(amount) && Math.abs(amount) <= MAX_POINTS;
}

interface Amounts {
  progress: ReadonlyArray<{ missionId: string; rules: ReadonlyArray<{ current: number }>; percentComplete: number }>;
  pointsAwarded: ReadonlyArray<{ category: string; requested: number; credited: number }>;
}

/** Why the decision cannot be written (the first number out of range), or undefined when it can. */
export function unwritableAmount(decision: Amounts): string | undefined {
  for (const award of decision.pointsAwarded) {
    if (!isPointsAmount(award.requested) || !isPointsAmount(award.credited)) {
      return `The reward of ${String(award.requested)} ${award.category} is outside the ledger's range of ±${MAX_POINTS.toLocaleString('en-US')} points per entry`;
    }
  }
  for (const update of decision.progress) {
    if (!Number.isSafeInteger(update.percentComplete) || !update.rules.every((rule) => Number.isFinite(rule.current))) {
      return `The progress of mission "${update.missionId}" would leave the range of finite numbers`;
    }
  }
  return undefined;
}
