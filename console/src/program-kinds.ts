// The kinds of entity the program editor edits: for each, where it sits in the program, its
// schema (the server's own TypeBox model, bundled), what its list shows, and its form's hints
// (sections in order, labels, help, which fields name other entities). The form itself is
// generated from the schema by ./schema-form.ts; these tables only arrange and word it.
import {
  Action,
  AwardSettings,
  Badge,
  Boost,
  Exchange,
  Group,
  Leaderboard,
  Level,
  Mission,
  PointCategory,
  Quiz,
  Streak,
  SYSTEM_ACTIONS,
} from '../../src/modules/program/model.js';
import type { ProgramDocument } from '../../src/modules/program/model.js';
import type { FormHints, JsonSchema } from './schema-form.js';

export type Entity = Record<string, unknown>;
type CollectionKey =
  'missions' | 'actions' | 'pointCategories' | 'levels' | 'badges' | 'leaderboards' | 'groups' | 'exchanges' | 'quizzes' | 'boosts' | 'streaks';

export interface Kind {
  /** The URL segment: /console/program/<slug>. */
  slug: string;
  /** Its entities' route, /admin/<api>/{id} (award settings: /admin/award-settings). */
  api: string;
  /** Where its entities are in the program (undefined: award settings, which has its own route). */
  key: CollectionKey | undefined;
  label: string;
  noun: string;
  idField: 'id' | 'name';
  schema: JsonSchema;
  /** The list's columns: field and title; `describe` words a row's value. */
  columns: Array<{ title: string; describe: (entity: Entity) => string }>;
  hints: FormHints;
}

const text = (field: string) => (entity: Entity) => (entity[field] === undefined ? '' : String(entity[field]));
const yes = (field: string) => (entity: Entity) => (entity[field] === true ? 'Yes' : '');

const LOCAL = 'In the mission’s time zone';

const MISSION: FormHints = {
  sections: [
    { title: 'About', fields: ['id', 'name', 'description', 'iconUrl'] },
    {
      title: 'What completes it',
      fields: ['party', 'ruleMatch', 'rules'],
      intro: 'Each rule counts the actions a user (or group) logs, or sums their values, up to its goal.',
    },
    { title: 'Rewards', fields: ['rewards'] },
    { title: 'When', fields: ['timezone', 'startDate', 'endDate', 'featuredStartDate', 'featuredEndDate', 'repeatableWindow'] },
    { title: 'Who sees it, and limits', fields: ['hidden', 'prerequisites', 'supply', 'importance'], collapsed: true },
  ],
  labels: {
    id: 'Id',
    iconUrl: 'Icon URL',
    ruleMatch: 'Complete when',
    party: 'Completed by',
    'rules.*.id': 'Rule id',
    'rules.*.type': 'Counts',
    'rules.*.metadata': 'Only actions whose metadata match',
    'rewards.points': 'Points',
    'rewards.points.*.category': 'Category',
    'rewards.multiplier': 'Multiplier',
    'rewards.badge': 'Badge',
    timezone: 'Time zone',
    'repeatableWindow.maxPerPeriod': 'At most, per period',
    hidden: 'Visibility',
    'prerequisites.missions': 'Missions to complete first',
    'prerequisites.groups': 'Only members of',
    'prerequisites.minLevel': 'Only from level',
    'prerequisites.excludedGroups': 'Never for members of',
  },
  help: {
    id: 'Apps and reports name the mission by it; changing it starts a new mission',
    ruleMatch: '“All” needs every rule’s goal; “Any” needs one',
    'rules.*.id': 'Progress is kept per rule id: a rule with a new id starts from zero',
    'rules.*.goal': 'How many actions (or the sum of their values)',
    'rewards.multiplier': 'Points × the action’s value × this, for value-based missions',
    startDate: LOCAL,
    endDate: LOCAL,
    featuredStartDate: LOCAL,
    featuredEndDate: LOCAL,
    timezone: 'IANA name, e.g. Europe/Paris; the dates are read in it',
    repeatableWindow: 'Completed again after each period',
    supply: 'At most this many completions site-wide',
    importance: 'Higher comes first in lists',
  },
  references: {
    'rules.*.action': 'actions',
    'rewards.points.*.category': 'pointCategories',
    'rewards.badge': 'badges',
    'prerequisites.missions': 'missions',
    'prerequisites.groups': 'groups',
    'prerequisites.minLevel': 'levels',
    'prerequisites.excludedGroups': 'groups',
  },
  items: { rules: 'rule', 'rules.*.metadata': 'condition', 'rewards.points': 'reward' },
};

const ACTION: FormHints = {
  sections: [
    { title: 'About', fields: ['name', 'description'] },
    { title: 'Limits', fields: ['rateLimit', 'suppressRepeats', 'clientLoggable'] },
  ],
  labels: { rateLimit: 'Rate limit', 'rateLimit.max': 'At most', clientLoggable: 'Apps may log it from the browser' },
  help: {
    name: 'Apps log the action by this name (letters, digits and -_.@:+)',
    rateLimit: 'Logs beyond this are refused',
    suppressRepeats: 'The same action with the same metadata, logged again at once, counts once',
  },
};

const CATEGORY: FormHints = {
  sections: [{ title: 'Category', fields: ['name', 'isDefault', 'dailyLimit', 'yearlyLimit'] }],
  labels: { isDefault: 'The default category' },
  help: { isDefault: 'Points given without a category go here; exactly one category is the default' },
};

const LEVEL: FormHints = {
  sections: [{ title: 'Level', fields: ['id', 'name', 'threshold', 'description', 'iconUrl'] }],
  labels: { id: 'Id', iconUrl: 'Icon URL' },
  help: { threshold: 'Lifetime points a user needs for this level' },
};

const BADGE: FormHints = { sections: [{ title: 'Badge', fields: ['id', 'name', 'description', 'iconUrl'] }], labels: { id: 'Id', iconUrl: 'Icon URL' } };

const LEADERBOARD: FormHints = {
  sections: [
    { title: 'About', fields: ['id', 'name', 'primary'] },
    { title: 'What it ranks', fields: ['metric', 'period', 'party', 'groupFilter', 'size'] },
  ],
  labels: {
    id: 'Id',
    'metric.type': 'Ranks by',
    'metric.category': 'Point category',
    'metric.action': 'Action',
    groupFilter: 'Only members of',
    party: 'Ranks',
  },
  help: { primary: 'The board apps show first', size: 'How many places it ranks' },
  references: { 'metric.category': 'pointCategories', 'metric.action': 'actions', groupFilter: 'groups' },
};

const GROUP: FormHints = {
  sections: [{ title: 'Group', fields: ['id', 'name', 'type'] }],
  labels: { id: 'Id' },
  help: { type: 'Free text, e.g. team or region' },
};

const EXCHANGE: FormHints = {
  sections: [
    { title: 'About', fields: ['id', 'name', 'description'] },
    { title: 'Points', fields: ['pointCategory', 'budget', 'minPoints', 'maxPoints', 'maxRecipients'] },
    { title: 'Who', fields: ['givers', 'recipients'] },
    { title: 'When', fields: ['timezone', 'startDate', 'endDate'], collapsed: true },
    { title: 'Categories', fields: ['categories'], collapsed: true },
  ],
  labels: { id: 'Id', 'givers.groups': 'Groups', 'recipients.groups': 'Groups' },
  references: { pointCategory: 'pointCategories', 'givers.groups': 'groups', 'recipients.groups': 'groups' },
  items: { categories: 'category' },
};

const QUIZ: FormHints = {
  sections: [
    { title: 'About', fields: ['id', 'name', 'description', 'passingPercent', 'maxAttempts'] },
    { title: 'Questions', fields: ['questions'] },
    { title: 'When', fields: ['timezone', 'startDate', 'endDate'], collapsed: true },
  ],
  labels: { id: 'Id', 'questions.*.id': 'Question id', 'questions.*.choices.*.id': 'Choice id' },
  items: { questions: 'question', 'questions.*.choices': 'choice' },
};

const BOOST: FormHints = {
  sections: [
    { title: 'Boost', fields: ['id', 'name', 'multiplier'] },
    {
      title: 'When',
      fields: ['timezone', 'start', 'end'],
      intro: 'Actions whose own time falls in the window (both ends included) are boosted, backdated ones too.',
    },
    { title: 'Only for', fields: ['actions', 'missions', 'groups'], intro: 'Leave a list empty for no restriction of that kind.' },
  ],
  labels: { id: 'Id', timezone: 'Time zone', actions: 'Actions', missions: 'Missions', groups: 'Members of' },
  help: {
    multiplier: 'Mission point rewards × this, rounded down; when several boosts are in force the largest applies alone',
    timezone: 'IANA name, e.g. Europe/Paris; the site’s when empty',
    start: 'In the boost’s time zone',
    end: 'In the boost’s time zone',
  },
  references: { actions: 'actions', missions: 'missions', groups: 'groups' },
};

const STREAK: FormHints = {
  sections: [
    { title: 'About', fields: ['id', 'name', 'description', 'iconUrl'] },
    {
      title: 'What counts',
      fields: ['action', 'mission', 'period'],
      intro:
        'A day (or a week, starting Sunday, in the site’s time zone) counts when the user logs the action, or completes the mission, at least once in it. Give one of the two.',
    },
    { title: 'Freezes', fields: ['freezes'], intro: 'A missed period uses a freeze instead of breaking the streak.' },
    { title: 'Milestones', fields: ['milestones'] },
  ],
  labels: {
    id: 'Id',
    iconUrl: 'Icon URL',
    'freezes.max': 'At most',
    'freezes.initial': 'To start with',
    'freezes.earnEvery': 'One more every (periods)',
    'milestones.*.length': 'Length (periods)',
  },
  references: { action: 'actions', mission: 'missions', 'milestones.*.rewards.points.*.category': 'pointCategories', 'milestones.*.rewards.badge': 'badges' },
  items: { milestones: 'milestone', 'milestones.*.rewards.points': 'reward' },
};

const AWARDS: FormHints = {
  sections: [
    { title: 'Award account', fields: ['pointCategory', 'currency', 'conversionRate', 'holdDays', 'verificationRequired', 'allowedCountries', 'marketplaces'] },
  ],
  help: { currency: 'Three capital letters, e.g. USD', conversionRate: 'Money per point', allowedCountries: 'Two-letter country codes; none: every country' },
  references: { pointCategory: 'pointCategories' },
  items: { marketplaces: 'marketplace' },
};

// The model's schemas are TypeBox values, which are JSON Schema objects.
const schemaOf = (schema: unknown) => schema as JsonSchema;

export const KINDS: Kind[] = [
  {
    slug: 'missions',
    api: 'challenges',
    key: 'missions',
    label: 'Missions',
    noun: 'mission',
    idField: 'id',
    schema: schemaOf(Mission),
    columns: [
      { title: 'Name', describe: text('name') },
      { title: 'Id', describe: text('id') },
      { title: 'Rules', describe: (m) => (m.rules as Array<{ action: string; goal: number }>).map((rule) => `${rule.action} × ${rule.goal}`).join(', ') },
      { title: 'Visibility', describe: (m) => String(m.hidden).replace(/_/g, ' ') },
    ],
    hints: MISSION,
  },
  {
    slug: 'actions',
    api: 'actions',
    key: 'actions',
    label: 'Actions',
    noun: 'action',
    idField: 'name',
    schema: schemaOf(Action),
    columns: [
      { title: 'Name', describe: text('name') },
      { title: 'Description', describe: text('description') },
      {
        title: 'Rate limit',
        describe: (a) => (a.rateLimit === undefined ? '' : `${(a.rateLimit as { max: number }).max} a ${(a.rateLimit as { period: string }).period}`),
      },
    ],
    hints: ACTION,
  },
  {
    slug: 'point-categories',
    api: 'point-categories',
    key: 'pointCategories',
    label: 'Point categories',
    noun: 'point category',
    idField: 'name',
    schema: schemaOf(PointCategory),
    columns: [
      { title: 'Name', describe: text('name') },
      { title: 'Default', describe: yes('isDefault') },
      { title: 'Daily cap', describe: text('dailyLimit') },
      { title: 'Yearly cap', describe: text('yearlyLimit') },
    ],
    hints: CATEGORY,
  },
  {
    slug: 'levels',
    api: 'levels',
    key: 'levels',
    label: 'Levels',
    noun: 'level',
    idField: 'id',
    schema: schemaOf(Level),
    columns: [
      { title: 'Name', describe: text('name') },
      { title: 'Points needed', describe: text('threshold') },
    ],
    hints: LEVEL,
  },
  {
    slug: 'badges',
    api: 'badges',
    key: 'badges',
    label: 'Badges',
    noun: 'badge',
    idField: 'id',
    schema: schemaOf(Badge),
    columns: [
      { title: 'Name', describe: text('name') },
      { title: 'Description', describe: text('description') },
    ],
    hints: BADGE,
  },
  {
    slug: 'leaderboards',
    api: 'leaderboards',
    key: 'leaderboards',
    label: 'Leaderboards',
    noun: 'leaderboard',
    idField: 'id',
    schema: schemaOf(Leaderboard),
    columns: [
      { title: 'Name', describe: text('name') },
      { title: 'Ranks by', describe: (b) => (b.metric as { type: string }).type },
      { title: 'Period', describe: text('period') },
      { title: 'Primary', describe: yes('primary') },
    ],
    hints: LEADERBOARD,
  },
  {
    slug: 'groups',
    api: 'groups',
    key: 'groups',
    label: 'Groups',
    noun: 'group',
    idField: 'id',
    schema: schemaOf(Group),
    columns: [
      { title: 'Name', describe: text('name') },
      { title: 'Type', describe: text('type') },
    ],
    hints: GROUP,
  },
  {
    slug: 'exchanges',
    api: 'exchanges',
    key: 'exchanges',
    label: 'Exchanges',
    noun: 'exchange',
    idField: 'id',
    schema: schemaOf(Exchange),
    columns: [
      { title: 'Name', describe: text('name') },
      { title: 'Points', describe: text('pointCategory') },
      { title: 'Budget', describe: (e) => `${(e.budget as { amount: number }).amount} a ${(e.budget as { period: string }).period}` },
    ],
    hints: EXCHANGE,
  },
  {
    slug: 'quizzes',
    api: 'quizzes',
    key: 'quizzes',
    label: 'Quizzes',
    noun: 'quiz',
    idField: 'id',
    schema: schemaOf(Quiz),
    columns: [
      { title: 'Name', describe: text('name') },
      { title: 'Questions', describe: (q) => String((q.questions as unknown[]).length) },
      { title: 'Pass mark', describe: (q) => `${String(q.passingPercent)} %` },
    ],
    hints: QUIZ,
  },
  {
    slug: 'boosts',
    api: 'boosts',
    key: 'boosts',
    label: 'Boosts',
    noun: 'boost',
    idField: 'id',
    schema: schemaOf(Boost),
    columns: [
      { title: 'Name', describe: text('name') },
      { title: 'Multiplier', describe: (b) => `× ${String(b.multiplier)}` },
      { title: 'From', describe: text('start') },
      { title: 'Until', describe: text('end') },
    ],
    hints: BOOST,
  },
  {
    slug: 'streaks',
    api: 'streaks',
    key: 'streaks',
    label: 'Streaks',
    noun: 'streak',
    idField: 'id',
    schema: schemaOf(Streak),
    columns: [
      { title: 'Name', describe: text('name') },
      { title: 'Counts', describe: (s) => (s.action !== undefined ? `action ${String(s.action)}` : `mission ${String(s.mission)}`) },
      { title: 'Period', describe: text('period') },
      { title: 'Milestones', describe: (s) => ((s.milestones as Array<{ length: number }> | undefined) ?? []).map((m) => m.length).join(', ') },
    ],
    hints: STREAK,
  },
  {
    slug: 'award-settings',
    api: 'award-settings',
    key: undefined,
    label: 'Award settings',
    noun: 'award settings',
    idField: 'id',
    schema: schemaOf(AwardSettings),
    columns: [],
    hints: AWARDS,
  },
];

/** The names each kind of reference may take in `program`: what the forms' selects offer. */
export function referencesOf(program: ProgramDocument): Record<string, string[]> {
  return {
    actions: [...program.actions.map((action) => action.name), ...SYSTEM_ACTIONS],
    pointCategories: program.pointCategories.map((category) => category.name),
    badges: program.badges.map((badge) => badge.id),
    missions: program.missions.map((mission) => mission.id),
    groups: program.groups.map((group) => group.id),
    levels: program.levels.map((level) => level.id),
  };
}

/** The entities of `kind` in `program`. */
export const entitiesOf = (program: ProgramDocument, kind: Kind): Entity[] =>
  // (Lists added later, such as streaks and boosts, are absent from programs stored before them.)
  kind.key === undefined ? [] : ((program[kind.key] as unknown as Entity[] | undefined) ?? []);

/** What a person calls an entity: its name, else its id. */
export const titleOf = (entity: Entity, kind: Kind): string => String(entity.name ?? entity[kind.idField] ?? '');
