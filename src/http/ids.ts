// SPEC §2 Ids: user, group and other ids are 1–255 letters, digits and -_.@:+. Every path id is
// validated by this one schema (see http/params.ts) and every id read from a body with isValidId.
import { Type } from 'typebox';

export const ID_PATTERN = '^[A-Za-z0-9\\-_.@:+]{1,255}$';
const idRegex = new RegExp(ID_PATTERN);

export const Id = Type.String({ pattern: ID_PATTERN, minLength: 1, maxLength: 255 });

export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && idRegex.test(value);
}
