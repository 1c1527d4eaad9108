// The program model (SPEC §4): what a site configures. These TypeBox schemas are the single
// structural definition of a program: the JSON admin API, the XML backup format (./xml-spec.ts)
// and the OpenAPI document all derive from them. Defaults are declared here and filled by
// validateProgram, so a stored program is always in canonical form.
import { MAX_MULTIPLIER, MAX_POINTS } from '../../engine/amounts.js';
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { ID_PATTERN } from '../../http/ids.js';
import { Envelope } from '../../http/paging.js';
import { programExamples as examples } from './examples.js';

const Id = (description?: string) => Type.String({ pattern: ID_PATTERN, ...(description ? { description } : {}) });
const Name = Type.String({ minLength: 1, maxLength: 255 });
const Text = Type.String({ maxLength: 4000 });
const Url = Type.String({ maxLength: 2048 });
const Optional = <T extends TSchema>(schema: T) => Type.Optional(schema);
/**
 * A property that may be omitted in input and is filled with `value`. Its static type stays
 * required, because stored programs are canonical; relaxDefaults() drops it from the JSON
 * schema's `required` lists so that validation and OpenAPI treat it as optional.
 */
const WithDefault = <T extends TSchema>(schema: T, value: unknown): T => {
  // Copy with property descriptors: TypeBox keeps its kind marker in a non-enumerable property,
  // which Value.Convert needs (form bodies carry every value as a string).
  const copy = Object.create(Object.prototype, Object.getOwnPropertyDescriptors(schema)) as T & { default?: unknown };
  copy.default = value;
  return copy;
};
/**
 * One of the strings. A union built from a mapped array has the static type `never` in TypeBox
 * (it needs a tuple), which would let any value through the type checker: the cast states the type.
 */
const Enum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  ) as TSchema as TUnsafe<T>;
/** A local date-time, read in the object's own time zone (SPEC §2). */
const LocalDateTimeOf = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?$', description });
const LocalDateTime = LocalDateTimeOf('Local date-time, e.g. 2026-01-31T23:59:59');
const TimeZoneOf = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });
const TimeZone = TimeZoneOf('IANA time zone; a Windows zone name ("Pacific Standard Time") is accepted and stored as its IANA zone');
const IdList = WithDefault(Type.Array(Id(), { maxItems: 1000 }), []);
/** Points per category and a badge: what a streak milestone or a leaderboard prize pays. */
const Rewards = Type.Object(
  {
    points: WithDefault(
      Type.Array(Type.Object({ category: Id(), amount: Type.Integer({ minimum: 0, maximum: MAX_POINTS }) }, { additionalProperties: false }), { maxItems: 20 }),
      [],
    ),
    badge: Optional(Id()),
  },
  { additionalProperties: false },
);

export const DEFAULT_TIMEZONE = 'America/Los_Angeles';
export const SYSTEM_ACTIONS = ['QUIZ_COMPLETED', 'OTS_REDEMPTION', 'RECOGNITION_GIVEN', 'RECOGNITION_RECEIVED'] as const;
export const HIDDEN_TYPES = ['always_hidden', 'hidden_until_unlocked', 'hidden_until_earned', 'not_hidden'] as const;
export const LEADERBOARD_METRICS = ['points', 'lifetimePoints', 'missionsCompleted', 'actionCount', 'actionValueSum'] as const;
export const LEADERBOARD_PERIODS = ['allTime', 'day', 'week', 'month', 'quarter', 'year'] as const;

export const SiteSettings = Type.Object(
  {
    name: Name,
    timezone: WithDefault(TimeZone, DEFAULT_TIMEZONE),
    levelType: WithDefault(Enum(['points', 'custom'] as const), 'points'),
    achievementCallbackUrl: Optional(Url),
    giftNotifyUrl: Optional(Url),
    itemPurchaseNotifyUrl: Optional(Url),
    webhookSecret: Optional(Type.String({ maxLength: 255, description: 'Write-only: reads show only its last 4 characters' })),
    allowedOrigins: WithDefault(Type.Array(Url, { maxItems: 100 }), []),
    // The other attributes of the XML site configuration element (interface document §2): stored
    // and round-tripped.
    userlinkUrl: Optional(Url),
    whitelistDisabled: Optional(Type.Boolean()),
    authenticationDisabled: Optional(Type.Boolean()),
    userFilterPrefix: Optional(Type.String({ maxLength: 255 })),
    catalogBuyBackPercent: Optional(Type.Number({ minimum: 0, maximum: 100 })),
    ownedItemFeedDescription: Optional(Text),
    giftItemFeedDescription: Optional(Text),
    subdomain: Optional(Type.String({ maxLength: 255 })),
    enforceSubdomain: Optional(Type.Boolean()),
    version: Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false, examples: [examples.site] },
);

export const PointCategory = Type.Object(
  {
    name: Id('The category name, also its id'),
    isDefault: WithDefault(Type.Boolean(), false),
    dailyLimit: Optional(Type.Integer({ minimum: 1, maximum: MAX_POINTS, description: 'Most a user earns per calendar day (site time zone)' })),
    yearlyLimit: Optional(Type.Integer({ minimum: 1, maximum: MAX_POINTS, description: 'Most a user earns per calendar year (site time zone)' })),
    expiry: Optional(
      Type.Object(
        {
          afterDays: Optional(Type.Integer({ minimum: 1, maximum: 36_500, description: 'Points expire this many days after they were earned' })),
          date: Optional(LocalDateTimeOf('Points earned before this local date-time (site time zone) expire at it')),
        },
        { additionalProperties: false, description: 'Exactly one of afterDays and date. Oldest points are spent and expire first' },
      ),
    ),
  },
  { additionalProperties: false, examples: [examples.pointCategory] },
);

export const Action = Type.Object(
  {
    name: Id('Unique, case-insensitive'),
    description: Optional(Text),
    rateLimit: Optional(
      Type.Object(
        { max: Type.Integer({ minimum: 1, maximum: 1_000_000 }), period: Enum(['minute', 'hour', 'day', 'week'] as const) },
        { additionalProperties: false },
      ),
    ),
    suppressRepeats: WithDefault(Type.Boolean(), false),
    clientLoggable: WithDefault(Type.Boolean(), false),
  },
  { additionalProperties: false, examples: [examples.action] },
);

export const Badge = Type.Object(
  { id: Id(), name: Name, description: Optional(Text), iconUrl: Optional(Url) },
  { additionalProperties: false, examples: [examples.badge] },
);

export const Level = Type.Object(
  { id: Id(), name: Name, description: Optional(Text), iconUrl: Optional(Url), threshold: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }) },
  { additionalProperties: false, examples: [examples.level] },
);

export const Group = Type.Object(
  { id: Id(), name: Name, type: Optional(Type.String({ maxLength: 255 })) },
  { additionalProperties: false, examples: [examples.group] },
);

export const MetadataCondition = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 255 }), value: Type.String({ maxLength: 1000 }) },
  { additionalProperties: false },
);

export const Rule = Type.Object(
  {
    id: Id(),
    action: Id('An action name (case-insensitive)'),
    type: WithDefault(Enum(['count', 'sum'] as const), 'count'),
    goal: Type.Number({ exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    metadata: WithDefault(Type.Array(MetadataCondition, { maxItems: 10 }), []),
  },
  { additionalProperties: false },
);

export const Mission = Type.Object(
  {
    id: Id(),
    name: Name,
    description: Optional(Text),
    iconUrl: Optional(Url),
    startDate: Optional(LocalDateTime),
    endDate: Optional(LocalDateTime),
    featuredStartDate: Optional(LocalDateTime),
    featuredEndDate: Optional(LocalDateTime),
    timezone: WithDefault(TimeZone, DEFAULT_TIMEZONE),
    hidden: WithDefault(Enum(HIDDEN_TYPES), 'not_hidden'),
    prerequisites: WithDefault(
      Type.Object(
        {
          groups: IdList,
          missions: IdList,
          minLevel: Optional(Id('A level id: only users who have reached it see and advance the mission')),
          excludedGroups: Optional(Type.Array(Id(), { maxItems: 1000, description: 'Members of any of these groups do not see or advance the mission' })),
        },
        { additionalProperties: false },
      ),
      {},
    ),
    party: WithDefault(Enum(['user', 'group'] as const), 'user'),
    ruleMatch: WithDefault(Enum(['all', 'any'] as const), 'all'),
    rules: Type.Array(Rule, { minItems: 1, maxItems: 50 }),
    rewards: WithDefault(
      Type.Object(
        {
          points: WithDefault(
            Type.Array(Type.Object({ category: Id(), amount: Type.Integer({ minimum: 0, maximum: MAX_POINTS }) }, { additionalProperties: false }), {
              maxItems: 20,
            }),
            [],
          ),
          multiplier: Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_MULTIPLIER })),
          badge: Optional(Id()),
        },
        { additionalProperties: false },
      ),
      {},
    ),
    repeatableWindow: Optional(
      Type.Object(
        {
          period: Enum(['none', 'day', 'week', 'month'] as const),
          maxPerPeriod: Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
        },
        { additionalProperties: false },
      ),
    ),
    importance: WithDefault(Type.Integer(), 0),
    supply: Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'At most this many completions site-wide' })),
  },
  { additionalProperties: false, examples: [examples.mission] },
);

export const Leaderboard = Type.Object(
  {
    id: Id(),
    name: Name,
    metric: Type.Object({ type: Enum(LEADERBOARD_METRICS), category: Optional(Id()), action: Optional(Id()) }, { additionalProperties: false }),
    period: WithDefault(Enum(LEADERBOARD_PERIODS), 'allTime'),
    party: WithDefault(Enum(['user', 'group'] as const), 'user'),
    groupFilter: Optional(Id()),
    size: WithDefault(Type.Integer({ minimum: 1, maximum: 10_000 }), 100),
    primary: WithDefault(Type.Boolean(), false),
    end: Optional(LocalDateTimeOf('The board closes for good at this local date-time (site time zone); its last window ends there')),
    prizes: Optional(
      Type.Array(
        Type.Object(
          {
            ranks: Type.String({ pattern: '^[1-9]\\d{0,4}(-[1-9]\\d{0,4})?$', description: 'A rank or a range of ranks, e.g. "1" or "2-5"' }),
            rewards: Rewards,
          },
          { additionalProperties: false },
        ),
        { maxItems: 100, description: 'Paid once to the final standings of each window that closes' },
      ),
    ),
  },
  { additionalProperties: false, examples: [examples.leaderboard] },
);

export const Streak = Type.Object(
  {
    id: Id(),
    name: Name,
    description: Optional(Text),
    iconUrl: Optional(Url),
    action: Optional(Id('A period counts when the user logs this action in it (exactly one of action and mission)')),
    mission: Optional(Id('A period counts when the user completes this mission in it')),
    period: WithDefault(Enum(['day', 'week'] as const, 'Calendar days or weeks (starting Sunday) in the site time zone'), 'day'),
    freezes: WithDefault(
      Type.Object(
        {
          max: WithDefault(Type.Integer({ minimum: 0, maximum: 365, description: 'Most freezes a user holds' }), 0),
          initial: WithDefault(Type.Integer({ minimum: 0, maximum: 365, description: 'Freezes a user starts with' }), 0),
          earnEvery: Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: 'One freeze is earned every this many periods in a run' })),
        },
        { additionalProperties: false, description: 'A missed period uses a freeze instead of breaking the streak' },
      ),
      {},
    ),
    milestones: WithDefault(
      Type.Array(Type.Object({ length: Type.Integer({ minimum: 1, maximum: 100_000 }), rewards: Rewards }, { additionalProperties: false }), {
        maxItems: 100,
        description: 'Paid once per run when the streak reaches the length',
      }),
      [],
    ),
  },
  { additionalProperties: false, examples: [examples.streak] },
);

export const Boost = Type.Object(
  {
    id: Id(),
    name: Optional(Name),
    multiplier: Type.Number({ exclusiveMinimum: 0, maximum: MAX_MULTIPLIER, description: 'Point rewards in the window are multiplied by this (rounded down)' }),
    start: LocalDateTime,
    end: LocalDateTime,
    timezone: Optional(TimeZoneOf('The zone of start and end; the site time zone when absent; a Windows zone name is accepted')),
    actions: WithDefault(Type.Array(Id(), { maxItems: 1000, description: 'Only rewards of missions advanced by these actions; empty: any' }), []),
    missions: WithDefault(Type.Array(Id(), { maxItems: 1000, description: 'Only these missions; empty: any' }), []),
    groups: WithDefault(Type.Array(Id(), { maxItems: 1000, description: 'Only members of these groups; empty: everyone' }), []),
  },
  { additionalProperties: false, examples: [examples.boost] },
);

export const Layout = Type.Object({ uuid: Id(), name: Name, leaderboards: IdList }, { additionalProperties: false, examples: [examples.layout] });

export const QuizChoice = Type.Object(
  { id: Id(), text: Type.String({ minLength: 1, maxLength: 1000 }), correct: WithDefault(Type.Boolean(), false) },
  { additionalProperties: false },
);

export const QuizQuestion = Type.Object(
  {
    id: Id(),
    text: Type.String({ minLength: 1, maxLength: 4000 }),
    type: WithDefault(Enum(['single', 'multiple'] as const), 'single'),
    choices: Type.Array(QuizChoice, { minItems: 2, maxItems: 50 }),
  },
  { additionalProperties: false },
);

export const Quiz = Type.Object(
  {
    id: Id(),
    name: Name,
    description: Optional(Text),
    startDate: Optional(LocalDateTime),
    endDate: Optional(LocalDateTime),
    timezone: WithDefault(TimeZone, DEFAULT_TIMEZONE),
    passingPercent: WithDefault(Type.Number({ minimum: 0, maximum: 100 }), 100),
    maxAttempts: Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    questions: Type.Array(QuizQuestion, { minItems: 1, maxItems: 500 }),
  },
  { additionalProperties: false, examples: [examples.quiz] },
);

const GroupSelection = WithDefault(Type.Object({ groups: IdList }, { additionalProperties: false, description: 'Empty: everyone' }), {});

export const Exchange = Type.Object(
  {
    id: Id(),
    name: Name,
    description: Optional(Text),
    startDate: Optional(LocalDateTime),
    endDate: Optional(LocalDateTime),
    timezone: Optional(TimeZone),
    givers: GroupSelection,
    recipients: GroupSelection,
    pointCategory: Id(),
    budget: Type.Object(
      { amount: Type.Integer({ minimum: 0, maximum: MAX_POINTS }), period: Enum(['none', 'month', 'quarter', 'year'] as const) },
      { additionalProperties: false },
    ),
    minPoints: WithDefault(Type.Integer({ minimum: 1, maximum: MAX_POINTS }), 1),
    maxPoints: Optional(Type.Integer({ minimum: 1, maximum: MAX_POINTS })),
    maxRecipients: WithDefault(Type.Integer({ minimum: 1, maximum: 1000 }), 10),
    categories: WithDefault(Type.Array(Type.Object({ id: Id(), name: Name, iconUrl: Optional(Url) }, { additionalProperties: false }), { maxItems: 100 }), []),
  },
  { additionalProperties: false, examples: [examples.exchange] },
);

export const AwardSettings = Type.Object(
  {
    pointCategory: Id(),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    conversionRate: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }),
    marketplaces: WithDefault(Type.Array(Type.Object({ type: Id(), urlTemplate: Url }, { additionalProperties: false }), { maxItems: 20 }), []),
    allowedCountries: WithDefault(Type.Array(Type.String({ pattern: '^[A-Z]{2}$' }), { maxItems: 300 }), []),
    verificationRequired: WithDefault(Type.Boolean(), false),
    holdDays: WithDefault(Type.Integer({ minimum: 0, maximum: 365, description: 'Days a credit from points stays pending before it can be spent' }), 0),
  },
  { additionalProperties: false, examples: [examples.awardSettings] },
);

export const Program = Type.Object(
  {
    site: SiteSettings,
    pointCategories: Type.Array(PointCategory, { minItems: 1, maxItems: 100 }),
    actions: WithDefault(Type.Array(Action, { maxItems: 10_000 }), []),
    badges: WithDefault(Type.Array(Badge, { maxItems: 10_000 }), []),
    levels: WithDefault(Type.Array(Level, { maxItems: 1000 }), []),
    groups: WithDefault(Type.Array(Group, { maxItems: 10_000 }), []),
    missions: WithDefault(Type.Array(Mission, { maxItems: 10_000 }), []),
    leaderboards: WithDefault(Type.Array(Leaderboard, { maxItems: 1000 }), []),
    layouts: WithDefault(Type.Array(Layout, { maxItems: 1000 }), []),
    quizzes: WithDefault(Type.Array(Quiz, { maxItems: 1000 }), []),
    exchanges: WithDefault(Type.Array(Exchange, { maxItems: 1000 }), []),
    // Optional rather than defaulted, so that programs stored before they existed stay canonical.
    streaks: Optional(Type.Array(Streak, { maxItems: 1000 })),
    boosts: Optional(Type.Array(Boost, { maxItems: 1000 })),
    awardSettings: Optional(AwardSettings),
  },
  { additionalProperties: false },
);

/** Removes properties with a default from every `required` list below `schema` (see WithDefault). */
function relaxDefaults<T extends TSchema>(schema: T): T {
  const node = schema as unknown as { properties?: Record<string, TSchema & { default?: unknown }>; required?: string[]; items?: TSchema; anyOf?: TSchema[] };
  if (node.properties) {
    if (node.required) node.required = node.required.filter((key) => node.properties?.[key]?.default === undefined);
    for (const child of Object.values(node.properties)) relaxDefaults(child);
  }
  if (node.items) relaxDefaults(node.items);
  return schema;
}
relaxDefaults(Program);

/**
 * The body of PUT /admin/program and POST /admin/program/preview: the program, or a saved GET
 * /admin/program answer as it is (`{"response": program}`).
 */
export const ProgramBody = Type.Union([Program, Envelope(Program)], { examples: [examples.program] });

/** A program as stored: canonical, every default filled. */
export type ProgramDocument = Static<typeof Program>;
export type SiteSettingsDocument = Static<typeof SiteSettings>;
export type MissionDocument = Static<typeof Mission>;
export type ActionDocument = Static<typeof Action>;
export type BadgeDocument = Static<typeof Badge>;
export type QuizDocument = Static<typeof Quiz>;
export type LeaderboardDocument = Static<typeof Leaderboard>;
export type LayoutDocument = Static<typeof Layout>;
export type StreakDocument = Static<typeof Streak>;
export type BoostDocument = Static<typeof Boost>;
