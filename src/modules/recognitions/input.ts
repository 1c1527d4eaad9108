// The input of POST /users/{u}/interactions-collection (SPEC §9): form and JSON bodies. Recipients
// are a list (form: repeated key or `a,b`); points are one amount for every recipient (`points`)
// or one per recipient (`recipientPoints`: form `ann:5,bob:15`, JSON object), which may also stand
// for the recipients list.
import { isPointsAmount, MAX_POINTS } from '../../engine/amounts.js';
import { AppError, type FieldError } from '../../errors.js';
import { isValidId } from '../../http/ids.js';

export interface RecognitionInput {
  exchangeId: string;
  categoryId: string;
  comment: string;
  /** Recipients in the order given, each with its amount. */
  recipients: Array<{ userId: string; points: number }>;
}

/** Interface document §8: a comment holds at most 255 characters (Unicode code points). */
export const MAX_COMMENT = 255;
/** More recipients than any exchange allows (maxRecipients ≤ 1000): refused before anything else. */
const MAX_LIST = 1000;

function text(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  return undefined;
}

function amount(raw: unknown, path: string, errors: FieldError[]): number | undefined {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !isPointsAmount(value) || value < 1) {
    errors.push({ path, message: `must be a whole number of points from 1 to ${MAX_POINTS.toLocaleString('en-US')}` });
    return undefined;
  }
  return value;
}

function list(raw: unknown, errors: FieldError[]): string[] | undefined {
  if (raw === undefined) return undefined;
  const items = typeof raw === 'string' ? (raw === '' ? [] : raw.split(',').map((item) => item.trim())) : raw;
  if (!Array.isArray(items) || items.some((item) => typeof item !== 'string')) {
    errors.push({ path: 'recipients', message: 'must be a list of user ids' });
    return undefined;
  }
  return items as string[];
}

function pointMap(raw: unknown, errors: FieldError[]): Array<[string, unknown]> | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string') {
    const pairs: Array<[string, unknown]> = [];
    for (const part of raw.split(',')) {
      const colon = part.lastIndexOf(':');
      if (colon <= 0) {
        errors.push({ path: 'recipientPoints', message: `"${part.slice(0, 50)}" is not userId:points` });
        return undefined;
      }
      pairs.push([part.slice(0, colon).trim(), part.slice(colon + 1).trim()]);
    }
    return pairs;
  }
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return Object.entries(raw);
  errors.push({ path: 'recipientPoints', message: 'must be an object of userId: points (form: userId:points,userId:points)' });
  return undefined;
}

export function parseRecognitionInput(body: unknown): RecognitionInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('validation_failed', 'The recognition is invalid', { errors: [{ path: '(body)', message: 'must be an object' }] });
  }
  const raw = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  const id = (name: 'exchangeId' | 'categoryId'): string => {
    const value = text(raw[name]);
    if (value === undefined || !isValidId(value)) errors.push({ path: name, message: value === undefined ? 'is required' : 'is not a valid id' });
    return value ?? '';
  };
  const exchangeId = id('exchangeId');
  const categoryId = id('categoryId');

  const comment = raw.comment === undefined || raw.comment === null ? '' : text(raw.comment);
  if (comment === undefined) errors.push({ path: 'comment', message: 'must be a string' });
  else if ([...comment].length > MAX_COMMENT)
    errors.push({ path: 'comment', message: `must be at most ${MAX_COMMENT} characters (got ${[...comment].length})` });

  const listed = list(raw.recipients, errors);
  const perRecipient = pointMap(raw.recipientPoints, errors);
  const recipients: Array<{ userId: string; points: number }> = [];
  const hasPoints = raw.points !== undefined && raw.points !== '';
  if (hasPoints && perRecipient !== undefined)
    errors.push({ path: 'points', message: 'give either points (for every recipient) or recipientPoints, not both' });
  else if (!hasPoints && perRecipient === undefined && errors.length === 0) errors.push({ path: 'points', message: 'is required (or recipientPoints)' });
  else if (hasPoints) {
    const points = amount(raw.points, 'points', errors);
    if (listed === undefined) {
      if (raw.recipients === undefined) errors.push({ path: 'recipients', message: 'is required' });
    } else if (points !== undefined) for (const userId of listed) recipients.push({ userId, points });
  } else if (perRecipient !== undefined) {
    const amounts = new Map<string, number>();
    for (const [userId, value] of perRecipient) {
      const points = amount(value, `recipientPoints.${userId}`, errors);
      if (amounts.has(userId)) errors.push({ path: `recipientPoints.${userId}`, message: 'is given twice' });
      if (points !== undefined) amounts.set(userId, points);
    }
    // The list, when given too, must name the same users.
    if (listed !== undefined && (listed.length !== perRecipient.length || listed.some((userId) => !amounts.has(userId)))) {
      errors.push({ path: 'recipientPoints', message: 'must give an amount for each recipient in recipients, and no other' });
    } else {
      for (const [userId, points] of amounts) recipients.push({ userId, points });
    }
  }
  if (errors.length === 0) {
    if (recipients.length === 0) errors.push({ path: 'recipients', message: 'must name at least one user' });
    else if (recipients.length > MAX_LIST) errors.push({ path: 'recipients', message: `at most ${MAX_LIST} recipients` });
    const seen = new Set<string>();
    for (const { userId } of recipients) {
      if (!isValidId(userId)) errors.push({ path: 'recipients', message: `"${String(userId).slice(0, 50)}" is not a valid user id` });
      else if (seen.has(userId)) errors.push({ path: 'recipients', message: `"${userId}" is given twice` });
      seen.add(userId);
    }
  }
  if (errors.length > 0) throw new AppError('validation_failed', 'The recognition is invalid', { errors });
  return { exchangeId, categoryId, comment: comment ?? '', recipients };
}
