// Which missions a user may learn of (docs/missions.md): the one rule the reads and the action
// response share, so that logging an action never names a mission every read hides.
import type { MissionDocument } from '../program/model.js';

/** Whether the mission is hidden from its user, given which missions the user has completed. */
export function isHiddenFromUser(mission: Pick<MissionDocument, 'id' | 'hidden' | 'prerequisites'>, completed: (missionId: string) => boolean): boolean {
  switch (mission.hidden) {
    case 'always_hidden':
      return true;
    case 'hidden_until_earned':
      return !completed(mission.id);
    case 'hidden_until_unlocked':
      return !mission.prerequisites.missions.every(completed);
    default:
      return false;
  }
}

/** The missions a user may see (docs/missions.md): those not hidden from them. */
export function missionsVisibleTo<M extends MissionDocument>(missions: readonly M[], completed: ReadonlySet<string>): M[] {
  return missions.filter((mission) => !isHiddenFromUser(mission, (id) => completed.has(id)));
}
