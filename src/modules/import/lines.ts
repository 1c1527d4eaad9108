// One line of an import file (docs/import.md): a JSON object naming a user or a group and the
// action it logged, in the fields of POST /users/{u}/actions. A line without an eventId gets one
// derived from its line number and its text, the same on every run of the same file, so that a
// run again after an interruption skips what the first run recorded (interface document §2: an
// event id "generated automatically").
import { createHash } from 'node:crypto';
import type { Party } from '../../engine/types.js';
import { AppError, type FieldError } from '../../errors.js';
import { isValidId } from '../../http/ids.js';
import { checkNesting, checkWellFormed } from '../../http/json.js';

export interface ImportLine {
  party: Party;
  partyId: string;
  /** The action's fields, as POST /users/{u}/actions takes them, with the event id filled in. */
  body: { action?: unknown; value?: unknown; metadata?: unknown; eventId: unknown; timestamp?: unknown };
}

const FIELDS = new Set(['userId', 'groupId', 'action', 'value', 'metadata', 'eventId', 'timestamp']);

/** The event id of a line that has none: `imp-` and 32 characters of the SHA-256 of its number and text. */
export function derivedEventId(lineNumber: number, text: string): string {
  return `imp-${createHash('sha256').update(`${lineNumber}\n${text}`).digest('base64url').slice(0, 32)}`;
}

/** The line's party and action fields; AppError validation_failed when it is not an import line. */
export function parseImportLine(text: string, lineNumber: number): ImportLine {
  checkNesting(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError('validation_failed', 'The line is not JSON');
  }
  checkWellFormed(text, parsed, '');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AppError('validation_failed', 'The line is not a JSON object');
  const line = parsed as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const name of Object.keys(line)) if (!FIELDS.has(name)) errors.push({ path: name, message: 'is not a field of an import line' });
  const { userId, groupId } = line;
  if ((userId === undefined) === (groupId === undefined)) errors.push({ path: 'userId', message: 'exactly one of userId and groupId is required' });
  else if (!isValidId(userId ?? groupId))
    errors.push({ path: userId !== undefined ? 'userId' : 'groupId', message: 'must be 1–255 of A–Z a–z 0–9 - _ . @ : +' });
  if (errors.length > 0) throw new AppError('validation_failed', 'The line is invalid', { errors });
  const { action, value, metadata, eventId, timestamp } = line;
  return {
    party: userId !== undefined ? 'user' : 'group',
    partyId: (userId ?? groupId) as string,
    body: { action, value, metadata, eventId: eventId ?? derivedEventId(lineNumber, text), timestamp },
  };
}
