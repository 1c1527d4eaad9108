// What the action path knows about a party between two of its decisions: mission progress, live
// completions, cap totals, lifetime points, rate-window counts, streak days and the last day it was
// marked active. With it, a decision reads one row (the party's, which also locks it) instead of a dozen
// queries, and skips writes that would change nothing.
//
// An entry is trusted only while nothing else can have changed the party:
// - the party row's `version` is the one the entry was read or written at. Every transaction that
//   changes a party's state raises it (migration 0007), on any node; a transaction that fails
//   after raising it in memory leaves the row behind the entry, which is then just as stale;
// - the program version is the entry's (rule edits archive progress in the same transaction).
// While a decision writes, its entries are marked as being written (version -1): a failure leaves
// them unusable, and the next decision reads the party again.
import { LRUCache } from 'lru-cache';
import type { PartyType } from '../../db/schema.js';

export interface MissionEntry {
  /** The window the progress belongs to (undefined: no progress stored). */
  windowStart: number | undefined;
  /** Current progress per rule id. */
  progress: Map<string, number>;
  /** Live (not removed) completions per window start. */
  completions: Map<number, number>;
  completionsTotal: number;
}

export interface PartyEntry {
  /** The party row's version this entry agrees with; -1 while a decision is writing it. */
  version: number;
  programVersion: number;
  /** Missions whose state was loaded (absent: not loaded yet, not "no progress"). */
  missions: Map<string, MissionEntry>;
  /** Points earned through actions, by `category|period|periodStart`. */
  earned: Map<string, number>;
  /** Lifetime points per category. */
  lifetime: Map<string, number>;
  /** Recorded events per `action|windowStart`. */
  recorded: Map<string, number>;
  /** The last site-local day the user was marked active. */
  activeDay: string | undefined;
  /**
   * The party row was created by the decision being made: nothing else of the party is stored
   * (every writer creates the row first), so what is not loaded is none, and nothing is read.
   * Only for that decision: what it writes is not all kept here.
   */
  empty: boolean;
  /**
   * Every mission's state was read at the entry's version (PostgreSQL's unlocked path reads a
   * party's whole state at once): a mission absent from `missions` has no progress and no live
   * completions, and nothing needs reading.
   */
  allMissions: boolean;
  /**
   * The rest of the party row as the entry's decision wrote it (undefined: not known). With it, a
   * decision on PostgreSQL can be made from this entry without reading or locking the row, and
   * written only if the row still has the entry's version (src/modules/ledger/repository.ts).
   */
  row: { lastRecorded: string | null; sequence: number } | undefined;
  /** A user's counted days (ascending) in each streak of the program, by streak (undefined: not read). */
  streakDays?: Map<string, number[]>;
  /**
   * The user's groups as last read (undefined: not read). Memberships change without the party
   * row: a decision made with these has its write check them (src/modules/ledger/write-set.ts).
   */
  groups?: readonly string[];
}

export const WRITING = -1;

export class PartyCache {
  readonly #entries: LRUCache<string, PartyEntry>;
  /**
   * Parties another writer moved while this node held them (another node serves them too): their
   * cached state would keep going stale, and a decision made from it be made twice, so their state
   * is read afresh for each decision instead, for a minute (a party moved once by an admin on this
   * node is soon trusted again).
   */
  readonly #shared: LRUCache<string, true>;

  constructor(maxParties: number) {
    this.#entries = new LRUCache({ max: Math.max(1, maxParties) });
    this.#shared = new LRUCache({ max: Math.max(1, maxParties), ttl: 60_000, ttlAutopurge: false });
  }

  markShared(key: string): void {
    this.#shared.set(key, true);
  }

  isShared(key: string): boolean {
    return this.#shared.has(key);
  }

  static key(siteId: string, type: PartyType, id: string): string {
    return `${siteId}\u0000${type}\u0000${id}`;
  }

  /** Whether a decision of this node is writing the party now. */
  writing(key: string): boolean {
    return this.#entries.peek(key)?.version === WRITING;
  }

  /** The entry for the party, if it knows the party's row and the program version is still its own; its version may be stale. */
  peek(key: string, programVersion: number): PartyEntry | undefined {
    const cached = this.#entries.get(key);
    return cached !== undefined && cached.version !== WRITING && cached.row !== undefined && cached.programVersion === programVersion ? cached : undefined;
  }

  /** The entry for the party if it is still valid at this row version and program version; a fresh one otherwise. */
  entry(key: string, version: number, programVersion: number): PartyEntry {
    const cached = this.#entries.get(key);
    if (cached !== undefined && cached.version === version && cached.programVersion === programVersion) return cached;
    const fresh: PartyEntry = {
      version,
      programVersion,
      missions: new Map(),
      earned: new Map(),
      lifetime: new Map(),
      recorded: new Map(),
      activeDay: undefined,
      empty: false,
      allMissions: false,
      row: undefined,
    };
    this.#entries.set(key, fresh);
    return fresh;
  }
}
