// The rules between a program's fields and entities that no schema can say (./validate.ts checks
// the structure first). References resolve, time zones and dates are real, names are unique, no
// prerequisite cycles, limits are consistent. One check per kind of element, run in the program's
// order, so that errors come in that order. Pure: no I/O.
import type { FieldError } from '../../errors.js';
import { compareLocalDateTimes, isValidLocalDateTime, isValidTimeZone, unknownTimeZone } from '../../time.js';
import { SYSTEM_ACTIONS, type ProgramDocument } from './model.js';

/** Rules between fields and entities. Paths use the same dotted form as structural errors. */
export function semanticErrors(program: ProgramDocument): FieldError[] {
  const check = new Checks(program);
  for (const checkKind of CHECKS) checkKind(program, check);
  return check.errors;
}

/** The checks, one per kind of element, in the order their errors are reported. */
const CHECKS: ReadonlyArray<(program: ProgramDocument, check: Checks) => void> = [
  (program, check) => check.zone('site.timezone', program.site.timezone),
  pointCategories,
  (program, check) => check.unique('actions', program.actions, (a) => a.name, true),
  (program, check) => check.unique('badges', program.badges, (b) => b.id),
  (program, check) => check.unique('groups', program.groups, (g) => g.id),
  levels,
  missions,
  prerequisiteCycleErrors,
  leaderboards,
  layouts,
  quizzes,
  exchanges,
  awardSettings,
  streaks,
  boosts,
];

/** The errors found so far, the ids a reference may name, and the checks every kind of element uses. */
class Checks {
  readonly errors: FieldError[] = [];
  readonly categories: Set<string>;
  /** Lower-case: action names are matched without case. */
  readonly actions: Set<string>;
  readonly badges: Set<string>;
  readonly groups: Set<string>;
  readonly missions: Set<string>;
  readonly leaderboards: Set<string>;
  readonly levels: Set<string>;

  constructor(program: ProgramDocument) {
    this.categories = new Set(program.pointCategories.map((c) => c.name));
    this.actions = new Set([...program.actions.map((a) => a.name.toLowerCase()), ...SYSTEM_ACTIONS.map((a) => a.toLowerCase())]);
    this.badges = new Set(program.badges.map((b) => b.id));
    this.groups = new Set(program.groups.map((g) => g.id));
    this.missions = new Set(program.missions.map((m) => m.id));
    this.leaderboards = new Set(program.leaderboards.map((l) => l.id));
    this.levels = new Set(program.levels.map((l) => l.id));
  }

  fail(path: string, message: string): void {
    this.errors.push({ path, message });
  }

  zone(path: string, timezone: string | undefined): void {
    if (timezone !== undefined && !isValidTimeZone(timezone)) this.fail(path, unknownTimeZone(timezone));
  }

  /** An element with a time zone of its own (missions, quizzes, exchanges): the zone exists, and its dates are real and in order. */
  zoned(path: string, element: Record<string, unknown> & { timezone?: string | undefined }, pairs: Array<[string, string]>): void {
    this.zone(`${path}.timezone`, element.timezone);
    this.dates(path, element, pairs);
  }

  /** Each date-time of the pairs is real, and none ends before it starts. */
  dates(path: string, object: Record<string, unknown>, pairs: Array<[string, string]>): void {
    for (const [from, to] of pairs) {
      for (const key of [from, to]) {
        const value = object[key];
        if (typeof value === 'string' && !isValidLocalDateTime(value)) this.fail(`${path}.${key}`, `"${value}" is not a real date-time`);
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
        this.fail(`${path}.${to}`, `must not be before ${from}`);
      }
    }
  }

  unique<T>(collection: string, items: readonly T[], key: (item: T) => string, caseInsensitive = false): void {
    const seen = new Map<string, number>();
    items.forEach((item, index) => {
      const raw = key(item);
      const value = caseInsensitive ? raw.toLowerCase() : raw;
      if (seen.has(value)) this.fail(`${collection}.${index}`, `"${raw}" is already used by ${collection}.${seen.get(value)}`);
      else seen.set(value, index);
    });
  }

  /** A reference names something that exists. */
  ref(path: string, set: Set<string>, value: string | undefined, what: string, normalize = (v: string) => v): void {
    if (value !== undefined && !set.has(normalize(value))) this.fail(path, `${what} "${value}" does not exist`);
  }

  /** Each id of a list names something that exists. */
  refs(path: string, set: Set<string>, values: readonly string[], what: string, normalize = (v: string) => v): void {
    values.forEach((value, j) => this.ref(`${path}.${j}`, set, value, what, normalize));
  }

  /** A milestone's or a prize's points name categories, and its badge exists. */
  rewards(path: string, rewards: { points: ReadonlyArray<{ category: string }>; badge?: string | undefined }): void {
    rewards.points.forEach((reward, p) => this.ref(`${path}.points.${p}.category`, this.categories, reward.category, 'point category'));
    this.ref(`${path}.badge`, this.badges, rewards.badge, 'badge');
  }
}

const lowerCase = (v: string) => v.toLowerCase();

function pointCategories(program: ProgramDocument, check: Checks): void {
  check.unique('pointCategories', program.pointCategories, (c) => c.name, true);
  const defaults = program.pointCategories.filter((c) => c.isDefault).length;
  if (defaults !== 1) check.fail('pointCategories', `exactly one category must have isDefault: true (found ${defaults})`);
  program.pointCategories.forEach((c, i) => {
    if (c.dailyLimit !== undefined && c.yearlyLimit !== undefined && c.dailyLimit > c.yearlyLimit) {
      check.fail(`pointCategories.${i}.dailyLimit`, 'must not exceed yearlyLimit');
    }
    if (c.expiry !== undefined) {
      if ((c.expiry.afterDays === undefined) === (c.expiry.date === undefined))
        check.fail(`pointCategories.${i}.expiry`, 'needs exactly one of afterDays and date');
      check.dates(`pointCategories.${i}.expiry`, c.expiry, [['date', 'date']]);
    }
  });
}

function levels(program: ProgramDocument, check: Checks): void {
  check.unique('levels', program.levels, (l) => l.id);
  program.levels.forEach((level, i) => {
    const previous = program.levels[i - 1];
    if (previous !== undefined && level.threshold <= previous.threshold)
      check.fail(`levels.${i}.threshold`, `must be greater than levels.${i - 1}.threshold (${previous.threshold})`);
  });
}

function missions(program: ProgramDocument, check: Checks): void {
  check.unique('missions', program.missions, (m) => m.id);
  program.missions.forEach((mission, i) => {
    const path = `missions.${i}`;
    check.zoned(path, mission, [
      ['startDate', 'endDate'],
      ['featuredStartDate', 'featuredEndDate'],
    ]);
    check.unique(`${path}.rules`, mission.rules, (r) => r.id);
    mission.rules.forEach((rule, r) => check.ref(`${path}.rules.${r}.action`, check.actions, rule.action, 'action', lowerCase));
    check.rewards(`${path}.rewards`, mission.rewards);
    check.refs(`${path}.prerequisites.groups`, check.groups, mission.prerequisites.groups, 'group');
    check.refs(`${path}.prerequisites.excludedGroups`, check.groups, mission.prerequisites.excludedGroups ?? [], 'group');
    check.ref(`${path}.prerequisites.minLevel`, check.levels, mission.prerequisites.minLevel, 'level');
    mission.prerequisites.missions.forEach((m, j) => {
      if (m === mission.id) check.fail(`${path}.prerequisites.missions.${j}`, 'a mission cannot be its own prerequisite');
      else check.ref(`${path}.prerequisites.missions.${j}`, check.missions, m, 'mission');
    });
  });
}

function prerequisiteCycleErrors(program: ProgramDocument, check: Checks): void {
  for (const cycle of prerequisiteCycles(program)) {
    const shown = cycle.ids.length > 12 ? [...cycle.ids.slice(0, 10), `… (${cycle.ids.length - 11} more)`, cycle.ids[cycle.ids.length - 1]] : cycle.ids;
    check.fail(`missions.${cycle.index}.prerequisites.missions`, `prerequisite cycle: ${shown.join(' → ')}`);
  }
}

function leaderboards(program: ProgramDocument, check: Checks): void {
  check.unique('leaderboards', program.leaderboards, (l) => l.id);
  program.leaderboards.forEach((board, i) => {
    const path = `leaderboards.${i}`;
    const { type, category, action } = board.metric;
    if (type === 'points' && category === undefined) check.fail(`${path}.metric.category`, 'is required for metric type points');
    check.ref(`${path}.metric.category`, check.categories, category, 'point category');
    if ((type === 'actionCount' || type === 'actionValueSum') && action === undefined)
      check.fail(`${path}.metric.action`, `is required for metric type ${type}`);
    check.ref(`${path}.metric.action`, check.actions, action, 'action', lowerCase);
    check.ref(`${path}.groupFilter`, check.groups, board.groupFilter, 'group');
    check.dates(path, board, [['end', 'end']]);
    if (board.end !== undefined && board.period !== 'allTime')
      check.fail(`${path}.end`, 'a fixed end is for an allTime board; a periodic board closes at the end of each window');
    prizes(path, board, check);
  });
  const primaries = program.leaderboards.filter((l) => l.primary).length;
  if (primaries > 1) check.fail('leaderboards', `at most one leaderboard may be primary (found ${primaries})`);
}

/** Prize rank ranges are ascending ranges within the board's size, and do not overlap. */
function prizes(path: string, board: ProgramDocument['leaderboards'][number], check: Checks): void {
  const taken: Array<{ from: number; to: number; index: number }> = [];
  board.prizes?.forEach((prize, p) => {
    const [from, to = from] = prize.ranks.split('-').map(Number) as [number, number?];
    const at = `${path}.prizes.${p}`;
    if (to < from) check.fail(`${at}.ranks`, `"${prize.ranks}" ends before it starts`);
    else if (to > board.size) check.fail(`${at}.ranks`, `"${prize.ranks}" goes beyond the board's size (${board.size})`);
    else {
      const overlap = taken.find((t) => from <= t.to && t.from <= to);
      if (overlap !== undefined) check.fail(`${at}.ranks`, `"${prize.ranks}" overlaps ${path}.prizes.${overlap.index}`);
      taken.push({ from, to, index: p });
    }
    check.rewards(`${at}.rewards`, prize.rewards);
  });
}

function layouts(program: ProgramDocument, check: Checks): void {
  check.unique('layouts', program.layouts, (l) => l.uuid);
  program.layouts.forEach((layout, i) => {
    // GET /users/{u}/leaders/layoutUuid is the listing (a literal segment): such a layout could never be read.
    if (layout.uuid === 'layoutUuid') check.fail(`layouts.${i}.uuid`, '"layoutUuid" is reserved (GET /users/{userId}/leaders/layoutUuid lists the layouts)');
    layout.leaderboards.forEach((id, j) => check.ref(`layouts.${i}.leaderboards.${j}`, check.leaderboards, id, 'leaderboard'));
  });
}

function quizzes(program: ProgramDocument, check: Checks): void {
  check.unique('quizzes', program.quizzes, (q) => q.id);
  program.quizzes.forEach((quiz, i) => {
    const path = `quizzes.${i}`;
    check.zoned(path, quiz, [['startDate', 'endDate']]);
    check.unique(`${path}.questions`, quiz.questions, (q) => q.id);
    quiz.questions.forEach((question, q) => {
      check.unique(`${path}.questions.${q}.choices`, question.choices, (c) => c.id);
      const correct = question.choices.filter((c) => c.correct).length;
      if (question.type === 'single' && correct !== 1)
        check.fail(`${path}.questions.${q}.choices`, `a single-choice question needs exactly one correct choice (found ${correct})`);
      if (question.type === 'multiple' && correct < 1)
        check.fail(`${path}.questions.${q}.choices`, 'a multiple-choice question needs at least one correct choice');
    });
  });
}

function exchanges(program: ProgramDocument, check: Checks): void {
  check.unique('exchanges', program.exchanges, (x) => x.id);
  program.exchanges.forEach((exchange, i) => {
    const path = `exchanges.${i}`;
    check.zoned(path, exchange, [['startDate', 'endDate']]);
    check.ref(`${path}.pointCategory`, check.categories, exchange.pointCategory, 'point category');
    exchange.givers.groups.forEach((g, j) => check.ref(`${path}.givers.groups.${j}`, check.groups, g, 'group'));
    exchange.recipients.groups.forEach((g, j) => check.ref(`${path}.recipients.groups.${j}`, check.groups, g, 'group'));
    if (exchange.maxPoints !== undefined && exchange.maxPoints < exchange.minPoints) check.fail(`${path}.maxPoints`, 'must not be below minPoints');
    check.unique(`${path}.categories`, exchange.categories, (c) => c.id);
  });
}

function awardSettings(program: ProgramDocument, check: Checks): void {
  if (program.awardSettings === undefined) return;
  check.ref('awardSettings.pointCategory', check.categories, program.awardSettings.pointCategory, 'point category');
  // Purchases and gifts debit the award account only: the expiry replay of the category would not
  // see that spend and expire the points again (docs/points.md). Both sides of the conflict are named.
  const name = program.awardSettings.pointCategory;
  const index = program.pointCategories.findIndex((c) => c.name === name && c.expiry !== undefined);
  if (index >= 0) {
    check.fail(`pointCategories.${index}.expiry`, `"${name}" is the award category (awardSettings.pointCategory), whose points cannot expire`);
    check.fail('awardSettings.pointCategory', `"${name}" has an expiry rule; the award category's points cannot expire`);
  }
  check.unique('awardSettings.marketplaces', program.awardSettings.marketplaces, (m) => m.type);
}

function streaks(program: ProgramDocument, check: Checks): void {
  const streaks = program.streaks ?? [];
  check.unique('streaks', streaks, (s) => s.id);
  streaks.forEach((streak, i) => {
    const path = `streaks.${i}`;
    if ((streak.action === undefined) === (streak.mission === undefined)) check.fail(path, 'needs exactly one of action and mission');
    check.ref(`${path}.action`, check.actions, streak.action, 'action', lowerCase);
    check.ref(`${path}.mission`, check.missions, streak.mission, 'mission');
    // Streaks are a user's: a group mission's completions count for nobody's.
    if (program.missions.find((m) => m.id === streak.mission)?.party === 'group')
      check.fail(`${path}.mission`, `mission "${streak.mission}" is a group mission: a streak counts a user's missions only`);
    if (streak.freezes.initial > streak.freezes.max) check.fail(`${path}.freezes.initial`, `must not exceed freezes.max (${streak.freezes.max})`);
    if (streak.freezes.earnEvery !== undefined && streak.freezes.max === 0) check.fail(`${path}.freezes.earnEvery`, 'needs freezes.max of at least 1');
    check.unique(`${path}.milestones`, streak.milestones, (m) => String(m.length));
    streak.milestones.forEach((milestone, m) => check.rewards(`${path}.milestones.${m}.rewards`, milestone.rewards));
  });
}

function boosts(program: ProgramDocument, check: Checks): void {
  const boosts = program.boosts ?? [];
  check.unique('boosts', boosts, (b) => b.id);
  boosts.forEach((boost, i) => {
    const path = `boosts.${i}`;
    check.zoned(path, boost, [['start', 'end']]);
    check.refs(`${path}.actions`, check.actions, boost.actions, 'action', lowerCase);
    check.refs(`${path}.missions`, check.missions, boost.missions, 'mission');
    check.refs(`${path}.groups`, check.groups, boost.groups, 'group');
  });
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
