// The input of POST /users/{u}/actions and /groups/{g}/actions (SPEC §5): form and JSON bodies,
// metadata in both forms, and timestamps as ISO 8601 (with or without an offset) or epoch numbers.
import { MAX_ACTION_VALUE } from '../../engine/amounts.js';
import { localDateTimeToInstant } from '../../engine/calendar.js';
import { AppError, type FieldError } from '../../errors.js';
import { isValidLocalDateTime } from '../../time.js';

export interface ActionInput {
  action: string;
  value: number;
  metadata: Record<string, string>;
  eventId: string | undefined;
  /** Absent: now. */
  timestamp: number | undefined;
}

const MAX_METADATA_PAIRS = 10;
const RANGE = MAX_ACTION_VALUE.toLocaleString('en-US');
const MAX_FUTURE_MS = 24 * 3600 * 1000;
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const ISO_LOCAL = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

function parseMetadata(raw: unknown, errors: FieldError[]): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (raw === undefined || raw === '') return metadata;
  let pairs: Array<[string, string]> = [];
  if (typeof raw === 'string') {
    // Form: name1:value1,name2:value2 (names hold no , or :, values no ,).
    for (const part of raw.split(',')) {
      const colon = part.indexOf(':');
      if (colon <= 0) {
        errors.push({ path: 'metadata', message: `"${part.slice(0, 50)}" is not name:value` });
        return metadata;
      }
      pairs.push([part.slice(0, colon), part.slice(colon + 1)]);
    }
  } else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    for (const [name, value] of Object.entries(raw)) {
      const text = scalar(value);
      if (text === undefined) {
        errors.push({ path: `metadata.${name}`, message: 'must be a string, number or boolean' });
        return metadata;
      }
      pairs.push([name, text]);
    }
  } else {
    errors.push({ path: 'metadata', message: 'must be name:value pairs or an object' });
    return metadata;
  }
  if (pairs.length > MAX_METADATA_PAIRS) {
    errors.push({ path: 'metadata', message: `at most ${MAX_METADATA_PAIRS} name/value pairs (got ${pairs.length})` });
    return metadata;
  }
  pairs = pairs.map(([name, value]) => [name.trim(), value.trim()]);
  for (const [name, value] of pairs) {
    if (name === '' || name.length > 255 || /[,:]/.test(name) || CONTROL.test(name))
      errors.push({ path: 'metadata', message: `name "${name.slice(0, 50)}" must be 1–255 characters without , or :` });
    else if (value.length > 1000 || value.includes(',') || CONTROL.test(value))
      errors.push({ path: `metadata.${name}`, message: 'must be at most 1000 characters without ,' });
    else if (name in metadata) errors.push({ path: `metadata.${name}`, message: 'is given twice' });
    else metadata[name] = value;
  }
  return metadata;
}

/** What a JSON value is, for a message: "a number", "an object", "null". */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The last instant a Date holds (year 275760); past it a number is no time at all. */
export const MAX_INSTANT = 8.64e15;

/** An instant from ISO 8601 (an offset, or none: read in `timeZone`) or epoch seconds/milliseconds. */
export function parseInstant(raw: unknown, timeZone: string): number | undefined {
  if (typeof raw === 'number' || (typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw.trim()))) {
    const number = Number(raw);
    if (!Number.isFinite(number) || number < 0) return undefined;
    const instant = Math.round(number < 1e11 ? number * 1000 : number);
    return instant <= MAX_INSTANT ? instant : undefined;
  }
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (ISO_WITH_OFFSET.test(text)) {
    // Date.parse rolls impossible days over (Feb 30 → Mar 2): check the calendar first.
    if (!isValidLocalDateTime(text.slice(0, text.length >= 19 && text[16] === ':' ? 19 : 16))) return undefined;
    const instant = Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
    return Number.isNaN(instant) ? undefined : instant;
  }
  const local = ISO_LOCAL.exec(text);
  if (local) {
    const [, date, time = '00:00', seconds = '00', fraction = '0'] = local;
    if (!isValidLocalDateTime(`${date}T${time}:${seconds}`)) return undefined;
    try {
      return localDateTimeToInstant(`${date}T${time}:${seconds}`, timeZone) + Math.floor(Number(`0.${fraction}`) * 1000);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function parseActionInput(body: unknown, timeZone: string, now: number): ActionInput {
  const errors: FieldError[] = [];
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;

  const action = input.action;
  if (action === undefined || action === '') errors.push({ path: 'action', message: 'is required: an action name of at most 255 characters' });
  else if (typeof action !== 'string') errors.push({ path: 'action', message: `must be a string, the action's name (got ${kindOf(action)})` });
  else if (action.trim() === '' || action.length > 255) errors.push({ path: 'action', message: 'must be an action name of 1–255 characters' });

  let value = 1;
  if (input.value !== undefined && input.value !== '') {
    value = typeof input.value === 'number' ? input.value : typeof input.value === 'string' && input.value.trim() !== '' ? Number(input.value) : NaN;
    if (!(Math.abs(value) <= MAX_ACTION_VALUE)) {
      const got = typeof input.value === 'number' || typeof input.value === 'string' ? '' : ` (got ${kindOf(input.value)})`;
      errors.push({ path: 'value', message: `must be a number from -${RANGE} to ${RANGE}${got}` });
    }
  }

  const metadata = parseMetadata(input.metadata, errors);

  const eventId = input.eventId;
  if (eventId !== undefined && (typeof eventId !== 'string' || eventId === '' || eventId.length > 255 || CONTROL.test(eventId))) {
    errors.push({ path: 'eventId', message: 'must be 1–255 characters without control characters' });
  }

  let timestamp: number | undefined;
  if (input.timestamp !== undefined && input.timestamp !== '') {
    timestamp = parseInstant(input.timestamp, timeZone);
    if (timestamp === undefined) errors.push({ path: 'timestamp', message: 'must be ISO 8601 (with or without an offset) or a Unix epoch number' });
    else if (timestamp > now + MAX_FUTURE_MS) errors.push({ path: 'timestamp', message: 'is more than a day in the future' });
  }

  if (errors.length > 0) throw new AppError('validation_failed', 'The action is invalid', { errors });
  return { action: (action as string).trim(), value, metadata, eventId: eventId as string | undefined, timestamp };
}
