// One validator for every way a program arrives (JSON admin API, XML restore, the CLI): structure
// first (the TypeBox schemas of ./model.ts, defaults filled), then the rules no schema can say:
// references resolve, time zones and dates are real, names are unique, no prerequisite cycles,
// limits are consistent. Pure: no I/O.
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { AppError, type FieldError } from '../../errors.js';
import { canonicalTimeZone, compareLocalDateTimes, isValidLocalDateTime, isValidTimeZone, unknownTimeZone } from '../../time.js';
import { Program, SYSTEM_ACTIONS, type ProgramDocument } from './model.js';

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
}

/** Rules between fields and entities. Paths use the same dotted form as structural errors. */
export function semanticErrors(program: ProgramDocument): FieldError[] {
  const errors: FieldError[] = [];
  const fail = (path: string, message: string) => errors.push({ path, message });

  const zone = (path: string, timezone: string | undefined) => {
    if (timezone !== undefined && !isValidTimeZone(timezone)) fail(path, unknownTimeZone(timezone));
  };
  const dates = (path: string, object: Record<string, unknown>, pairs: Array<[string, string]>) => {
    for (const [from, to] of pairs) {
      for (const key of [from, to]) {
        const value = object[key];
        if (typeof value === 'string' && !isValidLocalDateTime(value)) fail(`${path}.${key}`, `"${value}" is not a real date-time`);
      }
      const start = object[from];
      const end = object[to];
      if (
        typeof start === 'string' &&
        typeof end === 'string' &&
        isValidLocalDateTime(start) &&
        isValidLocalDateTime(end) &&
        compareLocalDateTimes(start, end) > 0
      ) {
        fail(`${path}.${to}`, `must not be before ${from}`);
      }
    }
  };
  const unique = (collection: string, items: readonly unknown[], key: (item: never) => string, caseInsensitive = false) => {
    const seen = new Map<string, number>();
    items.forEach((item, index) => {
      const raw = key(item as never);
      const value = caseInsensitive ? raw.toLowerCase() : raw;
      if (seen.has(value)) fail(`${collection}.${index}`, `"${raw}" is already used by ${collection}.${seen.get(value)}`);
      else seen.set(value, index);
    });
  };

  const categories = new Set(program.pointCategories.map((c) => c.name));
  const actions = new Set([...program.actions.map((a) => a.name.toLowerCase()), ...SYSTEM_ACTIONS.map((a) => a.toLowerCase())]);
  const badges = new Set(program.badges.map((b) => b.id));
  const groups = new Set(program.groups.map((g) => g.id));
  const missions = new Set(program.missions.map((m) => m.id));
  const leaderboards = new Set(program.leaderboards.map((l) => l.id));
  const ref = (path: string, set: Set<string>, value: string | undefined, what: string, normalize = (v: string) => v) => {
    if (value !== undefined && !set.has(normalize(value))) fail(path, `${what} "${value}" does not exist`);
  };

  // Site
  zone('site.timezone', program.site.timezone);

  // Point categories
  unique('pointCategories', program.pointCategories, (c: { name: string }) => c.name, true);
  const defaults = program.pointCategories.filter((c) => c.isDefault).length;
  if (defaults !== 1) fail('pointCategories', `exactly one category must have isDefault: true (found ${defaults})`);
  program.pointCategories.forEach((c, i) => {
    if (c.dailyLimit !== undefined && c.yearlyLimit !== undefined && c.dailyLimit > c.yearlyLimit) {
      fail(`pointCategories.${i}.dailyLimit`, 'must not exceed yearlyLimit');
    }
  });

  unique('actions', program.actions, (a: { name: string }) => a.name, true);
  unique('badges', program.badges, (b: { id: string }) => b.id);
  unique('groups', program.groups, (g: { id: string }) => g.id);
  unique('levels', program.levels, (l: { id: string }) => l.id);
  program.levels.forEach((level, i) => {
    const previous = program.levels[i - 1];
    if (previous !== undefined && level.threshold <= previous.threshold)
      fail(`levels.${i}.threshold`, `must be greater than levels.${i - 1}.threshold (${previous.threshold})`);
  });

  // Missions
  unique('missions', program.missions, (m: { id: string }) => m.id);
  program.missions.forEach((mission, i) => {
    const path = `missions.${i}`;
    zone(`${path}.timezone`, mission.timezone);
    dates(path, mission, [
      ['startDate', 'endDate'],
      ['featuredStartDate', 'featuredEndDate'],
    ]);
    unique(`${path}.rules`, mission.rules, (r: { id: string }) => r.id);
    mission.rules.forEach((rule, r) => ref(`${path}.rules.${r}.action`, actions, rule.action, 'action', (v) => v.toLowerCase()));
    mission.rewards.points.forEach((reward, p) => ref(`${path}.rewards.points.${p}.category`, categories, reward.category, 'point category'));
    ref(`${path}.rewards.badge`, badges, mission.rewards.badge, 'badge');
    mission.prerequisites.groups.forEach((g, j) => ref(`${path}.prerequisites.groups.${j}`, groups, g, 'group'));
    mission.prerequisites.missions.forEach((m, j) => {
      if (m === mission.id) fail(`${path}.prerequisites.missions.${j}`, 'a mission cannot be its own prerequisite');
      else ref(`${path}.prerequisites.missions.${j}`, missions, m, 'mission');
    });
  });
  for (const cycle of prerequisiteCycles(program)) {
    const shown = cycle.ids.length > 12 ? [...cycle.ids.slice(0, 10), `… (${cycle.ids.length - 11} more)`, cycle.ids[cycle.ids.length - 1]] : cycle.ids;
    fail(`missions.${cycle.index}.prerequisites.missions`, `prerequisite cycle: ${shown.join(' → ')}`);
  }

  // Leaderboards and layouts
  unique('leaderboards', program.leaderboards, (l: { id: string }) => l.id);
  program.leaderboards.forEach((board, i) => {
    const path = `leaderboards.${i}`;
    const { type, category, action } = board.metric;
    if (type === 'points' && category === undefined) fail(`${path}.metric.category`, 'is required for metric type points');
    ref(`${path}.metric.category`, categories, category, 'point category');
    if ((type === 'actionCount' || type === 'actionValueSum') && action === undefined) fail(`${path}.metric.action`, `is required for metric type ${type}`);
    ref(`${path}.metric.action`, actions, action, 'action', (v) => v.toLowerCase());
    ref(`${path}.groupFilter`, groups, board.groupFilter, 'group');
  });
  const primaries = program.leaderboards.filter((l) => l.primary).length;
  if (primaries > 1) fail('leaderboards', `at most one leaderboard may be primary (found ${primaries})`);
  unique('layouts', program.layouts, (l: { uuid: string }) => l.uuid);
  program.layouts.forEach((layout, i) => {
    // GET /users/{u}/leaders/layoutUuid is the listing (a literal segment): such a layout could never be read.
    if (layout.uuid === 'layoutUuid') fail(`layouts.${i}.uuid`, '"layoutUuid" is reserved (GET /users/{userId}/leaders/layoutUuid lists the layouts)');
    layout.leaderboards.forEach((id, j) => ref(`layouts.${i}.leaderboards.${j}`, leaderboards, id, 'leaderboard'));
  });

  // Quizzes
  unique('quizzes', program.quizzes, (q: { id: string }) => q.id);
  program.quizzes.forEach((quiz, i) => {
    const path = `quizzes.${i}`;
    zone(`${path}.timezone`, quiz.timezone);
    dates(path, quiz, [['startDate', 'endDate']]);
    unique(`${path}.questions`, quiz.questions, (q: { id: string }) => q.id);
    quiz.questions.forEach((question, q) => {
      unique(`${path}.questions.${q}.choices`, question.choices, (c: { id: string }) => c.id);
      const correct = question.choices.filter((c) => c.correct).length;
      if (question.type === 'single' && correct !== 1)
        fail(`${path}.questions.${q}.choices`, `a single-choice question needs exactly one correct choice (found ${correct})`);
      if (question.type === 'multiple' && correct < 1) fail(`${path}.questions.${q}.choices`, 'a multiple-choice question needs at least one correct choice');
    });
  });

  // Exchanges
  unique('exchanges', program.exchanges, (x: { id: string }) => x.id);
  program.exchanges.forEach((exchange, i) => {
    const path = `exchanges.${i}`;
    zone(`${path}.timezone`, exchange.timezone);
    dates(path, exchange, [['startDate', 'endDate']]);
    ref(`${path}.pointCategory`, categories, exchange.pointCategory, 'point category');
    exchange.givers.groups.forEach((g, j) => ref(`${path}.givers.groups.${j}`, groups, g, 'group'));
    exchange.recipients.groups.forEach((g, j) => ref(`${path}.recipients.groups.${j}`, groups, g, 'group'));
    if (exchange.maxPoints !== undefined && exchange.maxPoints < exchange.minPoints) fail(`${path}.maxPoints`, 'must not be below minPoints');
    unique(`${path}.categories`, exchange.categories, (c: { id: string }) => c.id);
  });

  // Award settings
  if (program.awardSettings !== undefined) {
    ref('awardSettings.pointCategory', categories, program.awardSettings.pointCategory, 'point category');
    unique('awardSettings.marketplaces', program.awardSettings.marketplaces, (m: { type: string }) => m.type);
  }
  return errors;
}

/**
 * Each prerequisite cycle once, reported at the first mission (in program order) that is on it.
 * Iterative depth-first search, so a long prerequisite chain cannot exhaust the stack.
 */
function prerequisiteCycles(program: ProgramDocument): Array<{ index: number; ids: string[] }> {
  const index = new Map(program.missions.map((m, i) => [m.id, i]));
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: Array<{ index: number; ids: string[] }> = [];
  for (const root of program.missions) {
    if (state.has(root.id)) continue;
    const path: string[] = [root.id];
    const frames: Array<{ id: string; next: number }> = [{ id: root.id, next: 0 }];
    state.set(root.id, 'visiting');
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as { id: string; next: number };
      const prerequisites = program.missions[index.get(frame.id) as number]?.prerequisites.missions ?? [];
      const next = prerequisites[frame.next++];
      if (next === undefined) {
        state.set(frame.id, 'done');
        frames.pop();
        path.pop();
      } else if (index.has(next) && next !== frame.id) {
        if (state.get(next) === 'visiting') {
          const ids = [...path.slice(path.indexOf(next)), next];
          cycles.push({ index: Math.min(...ids.map((m) => index.get(m) as number)), ids });
        } else if (!state.has(next)) {
          state.set(next, 'visiting');
          frames.push({ id: next, next: 0 });
          path.push(next);
        }
      }
    }
  }
  return cycles;
}
