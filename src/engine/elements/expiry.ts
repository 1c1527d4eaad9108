// Point expiry (docs/points.md): a category's credits are lots, spent and expired oldest first.
// Pure: given a party's entries in a category in the order they were written, it says which lots
// remain, what has expired by an instant and what expires next. `afterDays: N` keeps points earned
// on a local day (site time zone) through the Nth day after it: they expire at the local midnight
// that ends that day. `date` expires, at that instant, every point earned before it.
import { instantOf, localDateTimeToInstant, localFields } from '../calendar.js';

/** The next expiry of a balance as the API shows it: how many points, and when (ISO). */
export interface ExpiringSoon {
  amount: number;
  date: string;
}

export interface ExpiryRule {
  afterDays?: number | undefined;
  date?: string | undefined;
}

/** One entry of the ledger as the replay reads it. */
export interface LedgerMove {
  /** What the balance moved by. */
  amount: number;
  /** When it was written (ms): a credit's lot is earned then. */
  recordedAt: number;
  cause: string;
  /** A reversal names the completion whose credit it takes back (the credit names it too). */
  causeId: string;
  /** An expiry: it took every point earned before this instant (what verify checks it against). */
  earnedBefore?: number | undefined;
}

export interface Lot {
  /** When its points were earned (ms). */
  earnedAt: number;
  /** What remains of it. */
  remaining: number;
  causeId: string;
}

/** What remains after a replay: the lots with points left, oldest first, and the debt a negative balance carries. */
export interface Lots {
  lots: Lot[];
  /** Points debited past every lot: credits pay it back before they make a lot. */
  debt: number;
  /** Expiry entries that did not take exactly what remained earned before their instant (`questline verify`). */
  mismatches: Array<{ causeId: string; expired: number; expected: number }>;
  /** Per credit (its causeId), how many of its points expired: a reversal no longer takes those back. */
  expired: Map<string, number>;
}

/** Points that expire together: every lot earned before `earnedBefore` that remains at `at`. */
export interface Expiring {
  at: number;
  amount: number;
  earnedBefore: number;
}

/** The local midnight `days` days after the local day of `instant` (negative: before). */
function localMidnight(instant: number, days: number, timeZone: string): number {
  const f = localFields(instant, timeZone);
  const day = new Date(Date.UTC(f.year, f.month - 1, f.day + days));
  return instantOf({ year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: 0, minute: 0, second: 0 }, timeZone);
}

/** When points earned at `earnedAt` expire under the rule (null: never). */
export function expiresAt(rule: ExpiryRule, earnedAt: number, timeZone: string): number | null {
  if (rule.afterDays !== undefined) return localMidnight(earnedAt, rule.afterDays + 1, timeZone);
  if (rule.date !== undefined) {
    const date = localDateTimeToInstant(rule.date, timeZone);
    return earnedAt < date ? date : null;
  }
  return null;
}

/** Points earned before this instant have expired by `now` (-Infinity: none has). */
export function expiredBefore(rule: ExpiryRule, now: number, timeZone: string): number {
  if (rule.afterDays !== undefined) return localMidnight(now, -rule.afterDays, timeZone);
  if (rule.date !== undefined) {
    const date = localDateTimeToInstant(rule.date, timeZone);
    return now >= date ? date : -Infinity;
  }
  return -Infinity;
}

/** Takes `amount` from the lots, oldest first; what no lot holds becomes debt. An expiry's takings are counted per credit. */
function consume(state: Lots, amount: number, expiry: boolean): void {
  let left = amount;
  while (left > 0 && state.lots.length > 0) {
    const lot = state.lots[0]!;
    const taken = Math.min(lot.remaining, left);
    lot.remaining -= taken;
    left -= taken;
    if (expiry) state.expired.set(lot.causeId, (state.expired.get(lot.causeId) ?? 0) + taken);
    if (lot.remaining === 0) state.lots.shift();
  }
  state.debt += left;
}

/**
 * Replays a party's entries in a category, in the order they were written: a credit pays back
 * debt, then makes a lot; a debit (spend, negative adjustment, expiry) takes the oldest lots
 * first; a reversal takes back what remains of the credit it reverses first (so reversed points
 * never linger in an older lot's place), then the oldest lots.
 */
export function replayLots(moves: Iterable<LedgerMove>): Lots {
  const state: Lots = { lots: [], debt: 0, mismatches: [], expired: new Map() };
  for (const move of moves) {
    if (move.amount > 0) {
      const repaid = Math.min(state.debt, move.amount);
      state.debt -= repaid;
      if (move.amount > repaid) state.lots.push({ earnedAt: move.recordedAt, remaining: move.amount - repaid, causeId: move.causeId });
      continue;
    }
    let left = -move.amount;
    if (move.earnedBefore !== undefined) {
      const before = move.earnedBefore;
      const expected = state.lots.reduce((sum, lot) => sum + (lot.earnedAt < before ? lot.remaining : 0), 0);
      if (expected !== left) state.mismatches.push({ causeId: move.causeId, expired: left, expected });
    }
    if (move.cause === 'reversal') {
      for (let i = 0; i < state.lots.length && left > 0; i++) {
        const lot = state.lots[i]!;
        if (lot.causeId !== move.causeId) continue;
        const taken = Math.min(lot.remaining, left);
        lot.remaining -= taken;
        left -= taken;
      }
      state.lots = state.lots.filter((lot) => lot.remaining > 0);
    }
    consume(state, left, move.cause === 'expiry');
  }
  return state;
}

/**
 * What a reversal of a credit takes back (docs/points.md): the credit less what of it has
 * expired, so that expired points are not taken a second time. What of it was spent is taken
 * back (the balance may go below zero), as in a category without expiry.
 */
export function reversibleAmount(state: Lots, causeId: string, credited: number): number {
  return Math.max(0, credited - (state.expired.get(causeId) ?? 0));
}

/**
 * What has expired by `now` and is not yet written: the lots earned before the rule's cutoff,
 * grouped by the instant each expired, earliest first. A party in debt holds no lot, so a
 * negative balance never expires anything.
 */
export function dueExpiries(state: Lots, rule: ExpiryRule, now: number, timeZone: string): Expiring[] {
  const cutoff = expiredBefore(rule, now, timeZone);
  const due: Expiring[] = [];
  for (const lot of state.lots) {
    if (lot.earnedAt >= cutoff) break;
    const at = expiresAt(rule, lot.earnedAt, timeZone);
    if (at === null || at > now) break;
    const last = due.at(-1);
    if (last !== undefined && last.at === at) last.amount += lot.remaining;
    // afterDays: what expires at a local midnight was earned before the midnight N days earlier.
    else due.push({ at, amount: lot.remaining, earnedBefore: rule.afterDays !== undefined ? localMidnight(at, -rule.afterDays, timeZone) : at });
  }
  return due;
}

/** The next expiry of the remaining lots (its instant and everything expiring then), or null. */
export function nextExpiry(state: Lots, rule: ExpiryRule, timeZone: string): { amount: number; at: number } | null {
  let next: { amount: number; at: number } | null = null;
  for (const lot of state.lots) {
    const at = expiresAt(rule, lot.earnedAt, timeZone);
    if (at === null) continue;
    if (next === null || at < next.at) next = { amount: lot.remaining, at };
    else if (at === next.at) next.amount += lot.remaining;
  }
  return next;
}
