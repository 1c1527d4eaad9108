// An action's outcome (SPEC §5) and who may see which of it: the missions it names that are hidden
// from the user (docs/missions.md) are kept with the event and left out of a user-level token's
// answer; what it counted in streaks (docs/streaks.md) is kept with the event and never sent.
// The badges it earned are read from its write set, with the program's names and icons.
import type { PointsAward } from '../../engine/types.js';
import type { PresentedLevelChange } from '../ledger/level-changes.js';
import type { WriteSet } from '../ledger/write-set.js';
import { isHiddenFromUser } from '../missions/visibility.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import type { StreakDayCounted, StreakExtended } from '../streaks/service.js';
import type { PreviewedWebhook } from './dry-run.js';
import type { PartyEntry } from './party-cache.js';

export interface BadgeEarned {
  id: string;
  name: string;
  iconUrl?: string;
  /** Whose trophy case: the user's, or a group's whose mission the action completes. */
  userId?: string;
  groupId?: string;
}

export interface ActionOutcome {
  eventId: string;
  recorded: boolean;
  reason?: 'repeat_suppressed' | 'rate_limited';
  duplicate: boolean;
  timestamp: string;
  /** The rewards credited, the logging party's; one with `groupId` went to that group (a group mission the action completed). */
  pointsAwarded: Array<PointsAward & { groupId?: string }>;
  missionsCompleted: Array<{ id: string; name: string; completionId: string }>;
  progress: Array<{ challengeId: string; percentComplete: number }>;
  levelChanged?: PresentedLevelChange;
  /** The user's streaks the action made a new period count for (docs/streaks.md); absent when none. */
  streaksExtended?: StreakExtended[];
  /**
   * The badges the action put in trophy cases (a mission's reward, a streak milestone's), in the
   * order earned; empty when none. An event stored before the field existed has none: withBadges().
   */
  badgesEarned: BadgeEarned[];
  /** A dry run's answer to a client's token only: the webhook events it would send, with their destinations and payloads. */
  webhooks?: PreviewedWebhook[];
  /**
   * Missions of `progress` and `missionsCompleted` hidden from the user after this action
   * (docs/missions.md): kept with the event, never sent; a user-level token's answer leaves them
   * out. Present (possibly empty) whenever the outcome names a mission that has a hidden type.
   */
  hiddenFromUser?: string[];
  /**
   * What the action counted in the user's streaks (docs/streaks.md): kept with the event so that a
   * reversal un-counts exactly that; never sent. Absent when it counted none.
   */
  streakDays?: StreakDayCounted[];
}

/**
 * The badges the write set puts in trophy cases, in the order they were earned, named as the
 * program names them now. Nothing is read: an action that earns no badge loops over nothing.
 */
export function badgesEarned(writes: WriteSet, snapshot: ProgramSnapshot): BadgeEarned[] {
  if (writes.trophies.size === 0) return [];
  return [...writes.trophies.values()].flatMap((trophy) => {
    const badge = snapshot.badgesById.get(trophy.badgeId);
    const earned: BadgeEarned = {
      id: trophy.badgeId,
      name: badge?.name ?? trophy.badgeId,
      ...(badge?.iconUrl !== undefined ? { iconUrl: badge.iconUrl } : {}),
      ...(trophy.partyType === 'user' ? { userId: trophy.partyId } : { groupId: trophy.partyId }),
    };
    return Array.from({ length: trophy.count }, () => earned);
  });
}

/** An outcome as stored: one kept before `badgesEarned` existed answers none. */
export function withBadges(stored: Omit<ActionOutcome, 'badgesEarned'> & { badgesEarned?: BadgeEarned[] }): ActionOutcome {
  return { ...stored, badgesEarned: stored.badgesEarned ?? [] };
}

/**
 * The outcome as the caller may see it: a user-level token's without the missions hidden from its
 * user (as every read hides them), anyone's without the list of them nor the streak days kept. An event stored before the
 * list existed is judged by what it says alone, and never shows a mission it cannot tell is visible.
 */
export function visibleTo(outcome: ActionOutcome, userLevel: boolean, snapshot?: ProgramSnapshot): ActionOutcome {
  const { hiddenFromUser: listed, streakDays: _kept, ...visible } = outcome;
  if (!userLevel) return visible;
  const hidden = listed ?? (snapshot === undefined ? [] : presumedHidden(snapshot, visible));
  if (hidden.length === 0) return visible;
  return {
    ...visible,
    progress: visible.progress.filter((entry) => !hidden.includes(entry.challengeId)),
    missionsCompleted: visible.missionsCompleted.filter((mission) => !hidden.includes(mission.id)),
  };
}

/** The missions of the outcome that have a hidden type, or none at all. */
function named(snapshot: ProgramSnapshot, outcome: ActionOutcome) {
  const ids = new Set([...outcome.progress.map((entry) => entry.challengeId), ...outcome.missionsCompleted.map((mission) => mission.id)]);
  return [...ids].flatMap((id) => {
    const mission = snapshot.missionsById.get(id);
    return mission === undefined || mission.hidden === 'not_hidden' ? [] : [mission];
  });
}

/**
 * The missions the outcome names that are hidden from the user, judged by the state after the
 * action; undefined when it names no mission with a hidden type.
 */
export function hiddenFromUser(snapshot: ProgramSnapshot, outcome: ActionOutcome, users: PartyEntry[], groups: PartyEntry[]): string[] | undefined {
  const candidates = named(snapshot, outcome);
  if (candidates.length === 0) return undefined;
  return candidates
    .filter((mission) => {
      const owners = mission.party === 'user' ? users : groups;
      return isHiddenFromUser(mission, (missionId) => owners.some((entry) => (entry.missions.get(missionId)?.completionsTotal ?? 0) > 0));
    })
    .map((mission) => mission.id);
}

/** For an outcome stored without its list: only what it completed itself counts as completed. */
function presumedHidden(snapshot: ProgramSnapshot, outcome: ActionOutcome): string[] {
  const completed = new Set(outcome.missionsCompleted.map((mission) => mission.id));
  return named(snapshot, outcome)
    .filter((mission) => mission.hidden === 'always_hidden' || !completed.has(mission.id))
    .map((mission) => mission.id);
}
