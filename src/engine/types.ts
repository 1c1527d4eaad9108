// What the rule engine reads and returns. The engine is pure: it gets a program and a snapshot of
// one party's state (a user, or a group), and returns a decision; the service loads the state and
// writes the decision in one transaction (SPEC §1, STYLE: Rule → evaluate → Signal → Sink).
// These are structural types: the program model satisfies them without the engine importing it.

export type Party = 'user' | 'group';
export type WindowPeriod = 'none' | 'day' | 'week' | 'month';

export interface EngineRule {
  id: string;
  action: string;
  type: 'count' | 'sum';
  goal: number;
  metadata: ReadonlyArray<{ name: string; value: string }>;
}

export interface EngineMission {
  id: string;
  name: string;
  startDate?: string | undefined;
  endDate?: string | undefined;
  timezone: string;
  prerequisites: { groups: readonly string[]; missions: readonly string[]; minLevel?: string | undefined; excludedGroups?: readonly string[] | undefined };
  party: Party;
  ruleMatch: 'all' | 'any';
  rules: readonly EngineRule[];
  rewards: { points: ReadonlyArray<{ category: string; amount: number }>; multiplier?: number | undefined; badge?: string | undefined };
  repeatableWindow?: { period: WindowPeriod; maxPerPeriod?: number | undefined } | undefined;
  importance: number;
  supply?: number | undefined;
}

export interface EngineAction {
  name: string;
  rateLimit?: { max: number; period: 'minute' | 'hour' | 'day' | 'week' } | undefined;
  suppressRepeats: boolean;
}

export interface EngineCategory {
  name: string;
  isDefault: boolean;
  dailyLimit?: number | undefined;
  yearlyLimit?: number | undefined;
}

export interface EngineLevel {
  id: string;
  name: string;
  threshold: number;
}

export interface EngineProgram {
  timezone: string;
  levelType: 'points' | 'custom';
  categories: readonly EngineCategory[];
  levels: readonly EngineLevel[];
  /** Missions with a rule on the action, by lower-cased action name (never a scan of all missions). */
  missionsByAction: ReadonlyMap<string, readonly EngineMission[]>;
  /** The program's boosts (./elements/boosts.ts); absent when it has none, so that nothing is done for them. */
  boosts?: readonly EngineBoost[] | undefined;
}

/** A time-limited multiplier of mission point rewards, its window resolved to instants. */
export interface EngineBoost {
  id: string;
  name?: string | undefined;
  multiplier: number;
  /** The first and the last millisecond of the window (both included). */
  start: number;
  end: number;
  /** Lower-cased action names, mission ids, group ids it is restricted to; empty: no restriction of that kind. */
  actions: ReadonlySet<string>;
  missions: ReadonlySet<string>;
  groups: readonly string[];
}

/** The boost that multiplied a reward, and what the reward asked for before it. */
export interface AppliedBoost {
  id: string;
  name?: string | undefined;
  multiplier: number;
  requestedBefore: number;
}

/** One logged action, validated and resolved to its configured definition. */
export interface ActionEvent {
  action: EngineAction;
  value: number;
  /** Metadata as given (names and values as strings). */
  metadata: Readonly<Record<string, string>>;
  /** When it happened (ms since the epoch). */
  timestamp: number;
}

export interface MissionState {
  /** Current progress per rule id, in `windowStart`'s window. */
  progress: ReadonlyMap<string, number>;
  /** The window the stored progress belongs to (0 for non-repeatable and `none` windows). */
  progressWindowStart: number;
  /** Completions (not removed) in the window holding the event's timestamp. */
  completionsInWindow: number;
  /** Completions (not removed) ever. */
  completionsTotal: number;
}

export interface PartyState {
  /** The party's previous recorded action, for back-to-back suppression. */
  lastRecorded?: { action: string; value: number; metadata: Readonly<Record<string, string>> } | undefined;
  /** Recorded events of this action in the rate-limit window holding the timestamp. */
  recordedInRateWindow: number;
  /** Group memberships (for a user). */
  groups: ReadonlySet<string>;
  /** Missions the party has completed at least once (not removed): mission prerequisites. */
  completedMissions: ReadonlySet<string>;
  /** State of each mission with a rule on this action (absent: no progress, no completions). */
  missions: ReadonlyMap<string, MissionState>;
  /** Remaining site-wide supply per mission that has one. */
  supplyRemaining: ReadonlyMap<string, number>;
  /** Points already earned through actions in the event's calendar day and year, per category. */
  earned: ReadonlyMap<string, { day: number; year: number }>;
  /** Lifetime points in the default category (levels follow it when levelType is points). */
  lifetimeDefaultPoints: number;
  /** The level an admin assigned (levelType custom; null: none), read only when a mission asks for a minimum level. */
  assignedLevel?: string | null | undefined;
}

export interface PointsAward {
  category: string;
  requested: number;
  credited: number;
  /** The boost in force for the reward (requested is the boosted amount); absent when none was. */
  boost?: AppliedBoost;
}

export interface MissionProgressUpdate {
  missionId: string;
  windowStart: number;
  /** Progress per rule after this action (all zero after a completion). */
  rules: ReadonlyArray<{ ruleId: string; current: number }>;
  percentComplete: number;
}

export interface MissionCompletion {
  missionId: string;
  name: string;
  windowStart: number;
  points: readonly PointsAward[];
  badge?: string | undefined;
  usesSupply: boolean;
}

export interface LevelChange {
  from: EngineLevel | null;
  to: EngineLevel | null;
  direction: 'up' | 'down';
}

export interface Decision {
  recorded: boolean;
  reason?: 'repeat_suppressed' | 'rate_limited';
  progress: MissionProgressUpdate[];
  completions: MissionCompletion[];
  /** Every reward of every completion, in the order credited. */
  pointsAwarded: PointsAward[];
  levelChanged?: LevelChange;
}
