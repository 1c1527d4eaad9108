// A level change as it is kept (a row in the party's history), told (a `level.changed` webhook
// event) and shown (in the API's answers), whichever writer moved the level.
import { uuidv7 } from '../../uuid.js';
import type { LevelChangesTable } from '../../db/schema.js';
import type { LevelChange } from '../../engine/types.js';
import type { OutboxEvent, PartyKey, WriteSet } from './write-set.js';

export interface PresentedLevelChange {
  from: { id: string; name: string } | null;
  to: { id: string; name: string } | null;
  direction: 'up' | 'down';
}

/** What moved a level: an action, an admin adjustment, an admin's choice, a reversal, or a recognition received. */
export type LevelCause =
  | { actionEventId: string }
  | { adjustmentId: string }
  | { adminChange: true }
  | { reversedEventId: string }
  | { removedCompletionId: string }
  | { recognitionId: string }
  | { closingId: string };

/** A level change as the API shows it. */
export function presentLevelChange(change: LevelChange): PresentedLevelChange {
  const level = (l: { id: string; name: string } | null) => (l === null ? null : { id: l.id, name: l.name });
  return { from: level(change.from), to: level(change.to), direction: change.direction };
}

/** The level change's row in the party's history. */
export function levelChangeRow(party: PartyKey, change: LevelChange, cause: LevelCause, at: number): LevelChangesTable {
  return {
    site_id: party.siteId,
    change_id: `lvl_${uuidv7()}`,
    party_id: party.id,
    from_level: change.from?.id ?? null,
    to_level: change.to?.id ?? null,
    direction: change.direction,
    event_id: 'actionEventId' in cause ? cause.actionEventId : null,
    changed_at: at,
  };
}

/** The `level.changed` webhook event of a level change. */
export function levelChangeEvent(change: LevelChange, cause: LevelCause, at: number): OutboxEvent {
  return { type: 'level.changed', occurredAt: at, data: { ...presentLevelChange(change), ...cause } };
}

/**
 * Moves the party's level in the write set: the new level, the change in its history, and its
 * webhook event (when the site has a destination for it); returns the change as the API shows it.
 */
export function changeLevel(writes: WriteSet, party: PartyKey, change: LevelChange, cause: LevelCause, at: number, now: number): PresentedLevelChange {
  writes.changeLevel(party, levelChangeRow(party, change, cause, at));
  writes.enqueue(party, levelChangeEvent(change, cause, at), now);
  return presentLevelChange(change);
}
