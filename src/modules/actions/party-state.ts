// A party's state as decisions read it and keep it in its PartyEntry (./party-cache.ts). Whether an
// entry holds all a decision reads (cachedRow), the whole state PostgreSQL's unlocked path reads at
// once (keepWholeState), and what an entry lacks, read when a decision needs it (loadMissions,
// recordedIn, earned, lifetime). A party the decision creates (`entry.empty`) has nothing stored:
// nothing is read.
import type { Trx } from '../../db/index.js';
import type { LockedRow } from '../ledger/parties.js';
import type { LedgerRepository } from '../ledger/repository.js';
import type { PartyKey } from '../ledger/write-set.js';
import type { MissionEntry, PartyEntry } from './party-cache.js';
import type { Periods, RateWindow, Reads } from './reads.js';
import type { ActionsRepository, MissionStateRow, PartyStateRead, StateQuery } from './repository.js';

/**
 * A party row a decision starts from: `created` when the party is new (nothing else of it is
 * stored), `insert` when its row is still to be inserted, by the decision's own write set.
 */
export type DecisionRow = LockedRow & { insert?: true };

/** Rate-window counts and cap totals kept per party before the oldest are dropped (they are reloadable). */
export const MAX_WINDOWS = 32;

/**
 * The party row as this node last wrote it (with the user's groups as last read), when the entry
 * holds all the decision reads; undefined when it lacks some of it, which the same one read
 * (batched with others) then completes rather than query by query.
 */
export function cachedRow(
  entry: PartyEntry,
  reads: Reads,
  action: string,
  periods: Periods,
  rateWindow: RateWindow | undefined,
): (DecisionRow & { groups?: readonly string[]; cached: true }) | undefined {
  const complete =
    (entry.allMissions || reads.missionIds.every((id) => entry.missions.has(id))) &&
    reads.categories.every((category) => knowsEarned(entry, category, periods)) &&
    (reads.lifetimeCategory === undefined || entry.lifetime.has(reads.lifetimeCategory)) &&
    (rateWindow === undefined || entry.recorded.has(rateKey(action, rateWindow.start))) &&
    (!reads.groups || entry.groups !== undefined) &&
    (!reads.streaks || entry.streakDays !== undefined) &&
    // (The entry does not keep the assigned level: the row read now has it.)
    !reads.assignedLevel;
  if (!complete || entry.row === undefined) return undefined;
  return {
    version: entry.version,
    last_recorded: entry.row.lastRecorded,
    level_id: null,
    sequence: entry.row.sequence,
    cached: true,
    ...(entry.groups !== undefined ? { groups: entry.groups } : {}),
  };
}

/**
 * Keeps all a decision of the party may read (read at once, as one snapshot) in the entry at the
 * version read: the party's next decisions on this node read nothing.
 */
export function keepWholeState(
  entry: PartyEntry,
  stored: PartyStateRead,
  lifetimeCategory: string | undefined,
  periods: Periods,
  rates: StateQuery['rates'],
): void {
  entry.missions.clear();
  storeMissionRows(entry, stored.missions);
  entry.allMissions = true;
  // (Windows kept are bounded as the lazy loads bound them: the oldest are dropped, being reloadable.)
  if (entry.earned.size >= MAX_WINDOWS) entry.earned.clear();
  for (const [category, totals] of stored.earnings) storeEarned(entry, category, periods, totals);
  if (lifetimeCategory !== undefined) entry.lifetime.set(lifetimeCategory, stored.lifetime);
  if (entry.recorded.size + rates.length > MAX_WINDOWS) entry.recorded.clear();
  for (const [i, rate] of rates.entries()) entry.recorded.set(rateKey(rate.action, rate.from), stored.recorded[i] as number);
  if (stored.streakDays !== undefined) entry.streakDays = stored.streakDays;
}

/** Loads the progress and live completions of the missions the entry does not know yet. */
export async function loadMissions(repository: ActionsRepository, trx: Trx, party: PartyKey, entry: PartyEntry, missionIds: readonly string[]): Promise<void> {
  const missing = missionIds.filter((id) => !entry.missions.has(id));
  if (missing.length === 0) return;
  const rows = entry.empty || entry.allMissions ? [] : await repository.missionState(trx, party, missing);
  for (const id of missing) entry.missions.set(id, { windowStart: undefined, progress: new Map(), completions: new Map(), completionsTotal: 0 });
  storeMissionRows(entry, rows);
}

/** The party's recorded events of the action in its rate-limit window. */
export async function recordedIn(
  repository: ActionsRepository,
  trx: Trx,
  party: PartyKey,
  entry: PartyEntry,
  action: string,
  window: RateWindow,
): Promise<number> {
  const key = rateKey(action, window.start);
  let count = entry.recorded.get(key);
  if (count === undefined) {
    count = entry.empty ? 0 : await repository.countRecorded(trx, party, action, window.start, window.end);
    if (entry.recorded.size >= MAX_WINDOWS) entry.recorded.clear();
    entry.recorded.set(key, count);
  }
  return count;
}

/** What the party earned in each capped category in the event's day and year. */
export async function earned(
  repository: ActionsRepository,
  trx: Trx,
  party: PartyKey,
  entry: PartyEntry,
  categories: readonly string[],
  periods: Periods,
): Promise<Map<string, { day: number; year: number }>> {
  let missing = categories.filter((category) => !knowsEarned(entry, category, periods));
  if (missing.length > 0) {
    // Past MAX_WINDOWS the oldest windows are dropped (they are reloadable): then every category
    // this decision needs is read again, not only the missing ones.
    if (entry.earned.size >= MAX_WINDOWS) {
      entry.earned.clear();
      missing = [...categories];
    }
    const stored = entry.empty
      ? new Map(missing.map((category) => [category, { day: 0, year: 0 }]))
      : await repository.earnings(trx, party, missing, periods.day, periods.year);
    for (const [category, totals] of stored) storeEarned(entry, category, periods, totals);
  }
  return new Map(
    categories.map((category) => [
      category,
      { day: entry.earned.get(earnedKey(category, 'day', periods.day)) ?? 0, year: entry.earned.get(earnedKey(category, 'year', periods.year)) ?? 0 },
    ]),
  );
}

/** The party's lifetime points in the category. */
export async function lifetime(ledger: LedgerRepository, trx: Trx, party: PartyKey, entry: PartyEntry, category: string): Promise<number> {
  let lifetime = entry.lifetime.get(category);
  if (lifetime === undefined) {
    lifetime = entry.empty ? 0 : await ledger.lifetime(trx, party, category);
    entry.lifetime.set(category, lifetime);
  }
  return lifetime;
}

/** The key of a rate window's count in a party's entry. */
export function rateKey(action: string, windowStart: number): string {
  return `${action}|${windowStart}`;
}

/** The mission's state in the entry, created (nothing stored) when absent. */
export function missionEntry(entry: PartyEntry, missionId: string): MissionEntry {
  let mission = entry.missions.get(missionId);
  if (mission === undefined) {
    mission = { windowStart: undefined, progress: new Map(), completions: new Map(), completionsTotal: 0 };
    entry.missions.set(missionId, mission);
  }
  return mission;
}

/** Adds stored progress and live completion counts to the entry's missions (created when absent). */
function storeMissionRows(entry: PartyEntry, rows: readonly MissionStateRow[]): void {
  for (const row of rows) {
    const mission = missionEntry(entry, row.mission_id);
    if (row.kind === 'progress') {
      mission.windowStart = Number(row.window_start);
      mission.progress.set(row.rule_id as string, Number(row.n));
    } else {
      mission.completions.set(Number(row.window_start), Number(row.n));
      mission.completionsTotal += Number(row.n);
    }
  }
}

/** The key of a cap total in a party's entry: what was earned in the category in the period starting then. */
export function earnedKey(category: string, period: 'day' | 'year', start: number): string {
  return `${category}|${period}|${start}`;
}

function knowsEarned(entry: PartyEntry, category: string, periods: Periods): boolean {
  return entry.earned.has(earnedKey(category, 'day', periods.day)) && entry.earned.has(earnedKey(category, 'year', periods.year));
}

function storeEarned(entry: PartyEntry, category: string, periods: Periods, totals: { day: number; year: number }): void {
  entry.earned.set(earnedKey(category, 'day', periods.day), totals.day);
  entry.earned.set(earnedKey(category, 'year', periods.year), totals.year);
}
