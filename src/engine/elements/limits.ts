// SPEC §5 steps 3 and 4: back-to-back suppression and the per-action rate limit.
import type { ActionEvent, PartyState } from '../types.js';

function sameMetadata(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}

/** The previous recorded action is this one, with the same value and metadata. */
export function isSuppressedRepeat(event: ActionEvent, state: PartyState): boolean {
  const last = state.lastRecorded;
  return (
    event.action.suppressRepeats &&
    last !== undefined &&
    last.action.toLowerCase() === event.action.name.toLowerCase() &&
    last.value === event.value &&
    sameMetadata(last.metadata, event.metadata)
  );
}

/** The action's rate-limit window (by event timestamp) already holds `max` recorded events. */
export function isRateLimited(event: ActionEvent, state: PartyState): boolean {
  const limit = event.action.rateLimit;
  return limit !== undefined && state.recordedInRateWindow >= limit.max;
}
