// One validator for every way a program arrives (JSON admin API, XML restore, the CLI): structure
// first (the TypeBox schemas of ./model.ts, defaults filled), then the rules no schema can say
// (./semantic.ts): references resolve, time zones and dates are real, names are unique, no
// prerequisite cycles, limits are consistent. Pure: no I/O.
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { AppError, type FieldError } from '../../errors.js';
import { canonicalTimeZone } from '../../time.js';
import { Program, type ProgramDocument } from './model.js';
import { semanticErrors } from './semantic.js';

/** Structural errors of `value` against `schema`, with dotted paths ('missions.0.rules.0.goal'). */
export function structuralErrors(schema: TSchema, value: unknown, prefix = ''): FieldError[] {
  const all = [...Value.Errors(schema, value)];
  // An enum is a union of literals: its failures come as one 'const' error per allowed value plus
  // an 'anyOf'; report them once, listing what is allowed.
  const allowed = new Map<string, unknown[]>();
  for (const error of all) {
    if (error.keyword === 'const')
      allowed.set(error.instancePath, [...(allowed.get(error.instancePath) ?? []), (error.params as { allowedValue?: unknown }).allowedValue]);
  }
  const unions = new Set(all.filter((error) => error.keyword === 'anyOf').map((error) => error.instancePath));
  const errors: FieldError[] = [];
  for (const error of all) {
    if (error.keyword === 'boolean') continue; // reported again, more clearly, as additionalProperties
    if (error.keyword === 'const' && unions.has(error.instancePath)) continue;
    const segments = error.instancePath.split('/').filter((s) => s !== '');
    const params = error.params as { requiredProperties?: string[]; additionalProperties?: string[] };
    const base = [prefix, ...segments].filter((s) => s !== '');
    const path = base.join('.') || '(document)';
    if (error.keyword === 'required' && params.requiredProperties) {
      for (const key of params.requiredProperties) errors.push({ path: [...base, key].join('.'), message: 'is required' });
    } else if (error.keyword === 'additionalProperties' && params.additionalProperties) {
      for (const key of params.additionalProperties) errors.push({ path: [...base, key].join('.'), message: 'is not a known field' });
    } else if (error.keyword === 'anyOf' && allowed.has(error.instancePath)) {
      errors.push({ path, message: `must be one of: ${(allowed.get(error.instancePath) ?? []).join(', ')}` });
    } else {
      errors.push({ path, message: error.message });
    }
    if (errors.length >= 100) break;
  }
  return errors;
}

interface SchemaNode {
  properties?: Record<string, SchemaNode & { default?: unknown }>;
  items?: SchemaNode;
}

/**
 * Fills declared defaults in place, at every depth (a default that is itself an object gets its
 * own properties' defaults too: `rewards: {}` becomes `{ points: [] }`).
 */
export function canonicalize<T>(schema: TSchema, value: T): T {
  fillDefaults(schema as SchemaNode, value);
  return value;
}

function fillDefaults(schema: SchemaNode, value: unknown): void {
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) fillDefaults(schema.items, item);
    return;
  }
  if (schema.properties === undefined || typeof value !== 'object' || value === null) return;
  const object = value as Record<string, unknown>;
  for (const [key, property] of Object.entries(schema.properties)) {
    if (object[key] === undefined && property.default !== undefined) object[key] = structuredClone(property.default);
    if (object[key] !== undefined) fillDefaults(property, object[key]);
  }
}

/** Older documents carried the time zone inside repeatableWindow (before 30 Sep 2026): move it to the mission. */
export function moveLegacyMissionTimezone(mission: unknown): void {
  if (typeof mission !== 'object' || mission === null) return;
  const m = mission as { timezone?: unknown; repeatableWindow?: { timezone?: unknown } };
  if (typeof m.repeatableWindow === 'object' && m.repeatableWindow !== null && 'timezone' in m.repeatableWindow) {
    if (m.timezone === undefined) m.timezone = m.repeatableWindow.timezone;
    delete m.repeatableWindow.timezone;
  }
}

/**
 * A saved GET /admin/program answer, `{"response": program}`, is loadable as it is: the program
 * inside is what gets validated. No program has a `response` field, so an object with that one key
 * is always the envelope; anything else is taken as the program itself.
 */
export function unwrapProgramEnvelope(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const keys = Object.keys(input);
  return keys.length === 1 && keys[0] === 'response' ? (input as { response: unknown }).response : input;
}

/** Validates a whole program; returns it canonical (defaults filled) or throws AppError with every problem. */
export function validateProgram(input: unknown): ProgramDocument {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new AppError('validation_failed', 'The program must be an object', { errors: [{ path: '(document)', message: 'must be an object' }] });
  }
  const program = structuredClone(input) as { missions?: unknown };
  if (Array.isArray(program.missions)) program.missions.forEach(moveLegacyMissionTimezone);
  canonicalize(Program, program);
  const structure = structuralErrors(Program, program);
  if (structure.length > 0) throw new AppError('validation_failed', 'The program is invalid', { errors: structure });
  storeIanaTimeZones(program as ProgramDocument);
  const semantic = semanticErrors(program as ProgramDocument);
  if (semantic.length > 0) throw new AppError('program_invalid', 'The program breaks a rule', { errors: semantic });
  return program as ProgramDocument;
}

/**
 * Windows zone names (what a Nitro export carries, e.g. "Pacific Standard Time") become their IANA
 * zone, which is what is stored and read back. Unknown names stay, for semanticErrors to report.
 */
function storeIanaTimeZones(program: ProgramDocument): void {
  const iana = (timeZone: string) => canonicalTimeZone(timeZone) ?? timeZone;
  program.site.timezone = iana(program.site.timezone);
  for (const mission of program.missions) mission.timezone = iana(mission.timezone);
  for (const quiz of program.quizzes) quiz.timezone = iana(quiz.timezone);
  for (const exchange of program.exchanges) if (exchange.timezone !== undefined) exchange.timezone = iana(exchange.timezone);
  for (const boost of program.boosts ?? []) if (boost.timezone !== undefined) boost.timezone = iana(boost.timezone);
}
