// JSON as it arrives (request bodies, import lines): checked before anything reads it. Nesting
// is bounded before the text is parsed, so that no validator recurses through thousands of levels
// (a 2,000-level body overflowed the stack of program validation), and strings must be well-formed
// Unicode: a lone surrogate (`"\ud800"`), which only a JSON escape can produce, would be stored and
// echoed into responses that strict JSON parsers then refuse.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.js';

/** The deepest nesting of objects and arrays a JSON text may have; a program needs about 8. */
export const MAX_JSON_DEPTH = 64;

/** Whether the text nests objects and arrays deeper than `max` (strings are skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  // Each level takes a character: a text no longer than max cannot nest deeper.
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The path of the first string (or key) in the value that is not well-formed Unicode. */
export function illFormedString(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : path;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = illFormedString(item, join(path, String(i)));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (!key.isWellFormed()) return path;
    const found = illFormedString(item, join(path, key));
    if (found !== undefined) return found;
  }
  return undefined;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** Refuses a JSON text that nests too deeply (400 malformed_body), before it is parsed. */
export function checkNesting(text: string): void {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new AppError('malformed_body', `The JSON nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
}

/** Refuses a parsed JSON value holding a string that is not well-formed Unicode (400 validation_failed naming where). */
export function checkWellFormed(text: string, value: unknown, path: string): void {
  // Raw UTF-8 never decodes to a lone surrogate; only a \u escape can write one.
  const where = text.includes('\\u') ? illFormedString(value, path) : undefined;
  if (where !== undefined) {
    throw new AppError('validation_failed', 'The request is invalid', {
      errors: [{ path: where, message: 'is not well-formed Unicode (a lone surrogate such as \\ud800)' }],
    });
  }
}

/** The preValidation hook of a route whose body may be left out (its fields are all optional): no body reads as `{}`. */
export async function optionalBody(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

/** JSON request bodies: Fastify's parser (prototype-poisoning checks included), with the checks above around it. */
export const jsonBodyPlugin = fp(
  async (app) => {
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body as string;
      try {
        checkNesting(text);
      } catch (error) {
        done(error as AppError, undefined);
        return;
      }
      parse(request, text, (error, value) => {
        if (error !== null) return done(error, undefined);
        try {
          checkWellFormed(text, value, 'body');
        } catch (problem) {
          return done(problem as AppError, undefined);
        }
        done(null, value);
      });
    });
  },
  { name: 'json-body' },
);
