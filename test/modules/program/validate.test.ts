// validateProgram (SPEC §4, docs/program.md "Validation"): pure, table-driven. Structure first
// (400 validation_failed), then the rules between fields and entities (422 program_invalid); every
// error carries a dotted path into the program and a reason.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError, type FieldError } from '../../../src/errors.js';
import { SYSTEM_ACTIONS, type ProgramDocument } from '../../../src/modules/program/model.js';
import { validateProgram } from '../../../src/modules/program/validate.js';
import { EXAMPLE_PROGRAM_PATH as examplePath } from '../../helpers/fixtures.js';

// Loosely typed on purpose: the cases below break it in ways the model's types forbid.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
const example = JSON.parse(readFileSync(examplePath, 'utf8')) as Loose;

/** The example with `edit` applied to a copy. */
const edited = (edit: (program: Loose) => void): unknown => {
  const program = structuredClone(example);
  edit(program);
  return program;
};

function failure(input: unknown): { code: string; status: number; errors: FieldError[] } {
  try {
    validateProgram(input);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.code, status: error.status, errors: error.options.errors ?? [] };
  }
  throw new Error('expected validateProgram to throw');
}

const minimal = { site: { name: 'Tiny' }, pointCategories: [{ name: 'Points', isDefault: true }] };

describe('validateProgram: valid programs', () => {
  it('accepts the canonical example and fills the defaults it leaves out', () => {
    const program = validateProgram(example);
    expect(program).toMatchObject(example as object);
    for (const action of program.actions) expect(action).toMatchObject({ clientLoggable: false });
    expect(program.actions.map((a) => a.suppressRepeats)).toEqual([false, false, true, false, false]);
    expect(program.missions.find((m) => m.id === 'm-team-reading')).toMatchObject({
      importance: 0,
      rewards: { points: [{ category: 'Points', amount: 500 }] },
    });
    expect(program.site.allowedOrigins).toEqual([]);
    expect(program.quizzes[0]?.questions[0]?.choices.map((c) => c.correct)).toEqual([true, false]);
    expect(program.exchanges[0]?.categories).toHaveLength(2);
    expect(validateProgram(program)).toEqual(program);
  });

  it('accepts Windows zone names (the interface document\'s "Pacific Standard Time") and stores their IANA zone', () => {
    const input = edited((p) => {
      p.site.timezone = 'Pacific Standard Time';
      p.missions[0].timezone = 'Eastern Standard Time';
      p.missions[1].timezone = 'W. Europe Standard Time';
      p.quizzes[0].timezone = 'GMT Standard Time';
      p.exchanges[0].timezone = 'india standard time';
    });
    const program = validateProgram(input);
    expect(program.site.timezone).toBe('America/Los_Angeles');
    expect(program.missions.slice(0, 2).map((m) => m.timezone)).toEqual(['America/New_York', 'Europe/Berlin']);
    expect(program.quizzes[0]?.timezone).toBe('Europe/London');
    expect(program.exchanges[0]?.timezone).toBe('Asia/Kolkata');
    expect(validateProgram(program)).toEqual(program);
  });

  it('fills every default of a minimal program, at every depth, without touching its input', () => {
    const input = {
      ...minimal,
      missions: [{ id: 'm-1', name: 'One', rules: [{ id: 'r-1', action: 'QUIZ_COMPLETED', goal: 1 }], rewards: { badge: 'b-1' } }],
      badges: [{ id: 'b-1', name: 'Badge' }],
      actions: [{ name: 'read' }],
      leaderboards: [{ id: 'lb', name: 'Board', metric: { type: 'missionsCompleted' } }],
    };
    const snapshot = structuredClone(input);
    const program: ProgramDocument = validateProgram(input);
    expect(input).toEqual(snapshot);
    expect(program.site).toEqual({ name: 'Tiny', timezone: 'America/Los_Angeles', levelType: 'points', allowedOrigins: [] });
    expect(program.pointCategories).toEqual([{ name: 'Points', isDefault: true }]);
    expect(program.actions).toEqual([{ name: 'read', suppressRepeats: false, clientLoggable: false }]);
    expect(program.missions[0]).toEqual({
      id: 'm-1',
      name: 'One',
      timezone: 'America/Los_Angeles',
      hidden: 'not_hidden',
      prerequisites: { groups: [], missions: [] },
      party: 'user',
      ruleMatch: 'all',
      rules: [{ id: 'r-1', action: 'QUIZ_COMPLETED', type: 'count', goal: 1, metadata: [] }],
      rewards: { points: [], badge: 'b-1' },
      importance: 0,
    });
    expect(program.leaderboards[0]).toEqual({
      id: 'lb',
      name: 'Board',
      metric: { type: 'missionsCompleted' },
      period: 'allTime',
      party: 'user',
      size: 100,
      primary: false,
    });
    for (const key of ['levels', 'groups', 'layouts', 'quizzes', 'exchanges'] as const) expect(program[key]).toEqual([]);
    expect(program.awardSettings).toBeUndefined();
  });

  it.each([...SYSTEM_ACTIONS, 'quiz_completed', 'Read_Article', 'READ_ARTICLE'])(
    'accepts a rule on %s (system actions always exist; names are case-insensitive)',
    (action) => {
      const program = validateProgram(edited((p) => (p.missions[0].rules[0].action = action)));
      expect(program.missions[0]?.rules[0]?.action).toBe(action);
    },
  );

  it('accepts a leaderboard on a system action and a case-insensitive action name', () => {
    expect(() =>
      validateProgram(edited((p) => p.leaderboards.push({ id: 'lb-x', name: 'X', metric: { type: 'actionCount', action: 'LOGIN' } }))),
    ).not.toThrow();
    expect(() =>
      validateProgram(edited((p) => p.leaderboards.push({ id: 'lb-y', name: 'Y', metric: { type: 'actionValueSum', action: 'RECOGNITION_GIVEN' } }))),
    ).not.toThrow();
  });
});

describe('validateProgram: legacy repeatableWindow.timezone', () => {
  it('moves it to the mission root when the mission has none', () => {
    const program = validateProgram(
      edited((p) => {
        delete p.missions[2].timezone;
        p.missions[2].repeatableWindow.timezone = 'Asia/Tokyo';
      }),
    );
    expect(program.missions[2]?.timezone).toBe('Asia/Tokyo');
    expect(program.missions[2]?.repeatableWindow).toEqual({ period: 'none', maxPerPeriod: 1000 });
  });

  it('drops it when the mission root already has one', () => {
    const program = validateProgram(edited((p) => (p.missions[3].repeatableWindow.timezone = 'Asia/Tokyo')));
    expect(program.missions[3]?.timezone).toBe('America/New_York');
    expect(program.missions[3]?.repeatableWindow).toEqual({ period: 'day', maxPerPeriod: 1 });
  });

  it('reports an unknown legacy zone at the mission root', () => {
    const result = failure(
      edited((p) => {
        delete p.missions[2].timezone;
        p.missions[2].repeatableWindow.timezone = 'Mars/Olympus';
      }),
    );
    expect(result.code).toBe('program_invalid');
    expect(result.errors).toContainEqual({ path: 'missions.2.timezone', message: expect.stringMatching(/Mars\/Olympus/) });
  });
});

type Case = [name: string, edit: (program: Loose) => void, path: string, message: RegExp];

const BOOST = { id: 'double', multiplier: 2, start: '2026-12-05T00:00', end: '2026-12-06T23:59:59' };

const structural: Case[] = [
  ['missing rules', (p) => delete p.missions[0].rules, 'missions.0.rules', /required/],
  ['empty rules', (p) => (p.missions[0].rules = []), 'missions.0.rules', /fewer than 1/],
  ['goal 0', (p) => (p.missions[0].rules[0].goal = 0), 'missions.0.rules.0.goal', />/],
  ['goal as a string', (p) => (p.missions[0].rules[0].goal = '1'), 'missions.0.rules.0.goal', /number/],
  ['missing site', (p) => delete p.site, 'site', /required/],
  ['missing site name', (p) => delete p.site.name, 'site.name', /required/],
  ['no point categories', (p) => (p.pointCategories = []), 'pointCategories', /fewer than 1/],
  ['unknown field on a mission', (p) => (p.missions[0].colour = 'red'), 'missions.0.colour', /not a known field/],
  ['unknown field on the site', (p) => (p.site.theme = 'dark'), 'site.theme', /not a known field/],
  ['unknown top-level field', (p) => (p.challenges = []), 'challenges', /not a known field/],
  [
    'bad hidden enum',
    (p) => (p.missions[0].hidden = 'sometimes'),
    'missions.0.hidden',
    /must be one of: always_hidden, hidden_until_unlocked, hidden_until_earned, not_hidden/,
  ],
  ['bad leaderboard period', (p) => (p.leaderboards[0].period = 'decade'), 'leaderboards.0.period', /must be one of: allTime, day, week, month, quarter, year/],
  ['bad rate-limit period', (p) => (p.actions[3].rateLimit.period = 'fortnight'), 'actions.3.rateLimit.period', /must be one of: minute, hour, day, week/],
  ['space in a badge id', (p) => (p.badges[0].id = 'b reader'), 'badges.0.id', /pattern/],
  ['slash in an action name', (p) => (p.actions[0].name = 'read/article'), 'actions.0.name', /pattern/],
  ['empty mission id', (p) => (p.missions[1].id = ''), 'missions.1.id', /pattern/],
  ['date without a time', (p) => (p.missions[0].startDate = '2026-01-01'), 'missions.0.startDate', /pattern/],
  ['negative reward', (p) => (p.missions[0].rewards.points[0].amount = -1), 'missions.0.rewards.points.0.amount', />=/],
  ['lower-case currency', (p) => (p.awardSettings.currency = 'usd'), 'awardSettings.currency', /pattern/],
  ['bad prize ranks', (p) => (p.leaderboards[1].prizes = [{ ranks: '1 to 3', rewards: {} }]), 'leaderboards.1.prizes.0.ranks', /pattern/],
  ['rank 0', (p) => (p.leaderboards[1].prizes = [{ ranks: '0-2', rewards: {} }]), 'leaderboards.1.prizes.0.ranks', /pattern/],
  [
    'streak period of a month',
    (p) => (p.streaks = [{ id: 's', name: 'S', action: 'login', period: 'month' }]),
    'streaks.0.period',
    /must be one of: day, week/,
  ],
  ['boost multiplier 0', (p) => (p.boosts = [{ ...BOOST, multiplier: 0 }]), 'boosts.0.multiplier', />/],
  ['expiry after 0 days', (p) => (p.pointCategories[1].expiry = { afterDays: 0 }), 'pointCategories.1.expiry.afterDays', />=/],
];

const semantic: Case[] = [
  ['unknown rule action', (p) => (p.missions[0].rules[0].action = 'read_book'), 'missions.0.rules.0.action', /read_book.*does not exist/],
  ['unknown reward category', (p) => (p.missions[0].rewards.points[0].category = 'Gems'), 'missions.0.rewards.points.0.category', /Gems.*does not exist/],
  ['unknown reward badge', (p) => (p.missions[0].rewards.badge = 'b-nope'), 'missions.0.rewards.badge', /b-nope.*does not exist/],
  ['unknown prerequisite group', (p) => (p.missions[2].prerequisites.groups = ['g-nope']), 'missions.2.prerequisites.groups.0', /g-nope.*does not exist/],
  ['unknown prerequisite mission', (p) => (p.missions[1].prerequisites.missions = ['m-nope']), 'missions.1.prerequisites.missions.0', /m-nope.*does not exist/],
  ['self prerequisite', (p) => (p.missions[0].prerequisites.missions = ['m-first-read']), 'missions.0.prerequisites.missions.0', /own prerequisite/],
  [
    '3-mission prerequisite cycle',
    (p) => {
      p.missions[2].prerequisites.missions = ['m-daily-login'];
      p.missions[3].prerequisites.missions = ['m-team-reading'];
      p.missions[4].prerequisites.missions = ['m-shopper'];
    },
    'missions.2.prerequisites.missions',
    /cycle.*m-shopper.*m-daily-login.*m-team-reading/,
  ],
  ['duplicate mission id', (p) => p.missions.push(structuredClone(p.missions[1])), 'missions.6', /m-chef.*missions\.1/],
  ['duplicate rule id in a mission', (p) => (p.missions[1].rules[1].id = 'r-1'), 'missions.1.rules.1', /r-1/],
  ['action names differing only in case', (p) => p.actions.push({ name: 'READ_ARTICLE' }), 'actions.5', /READ_ARTICLE.*actions\.0/],
  ['category names differing only in case', (p) => p.pointCategories.push({ name: 'coins' }), 'pointCategories.3', /coins.*pointCategories\.1/],
  ['no default category', (p) => (p.pointCategories[0].isDefault = false), 'pointCategories', /exactly one.*found 0/],
  ['two default categories', (p) => (p.pointCategories[1].isDefault = true), 'pointCategories', /exactly one.*found 2/],
  ['dailyLimit above yearlyLimit', (p) => (p.pointCategories[1].dailyLimit = 30000), 'pointCategories.1.dailyLimit', /yearlyLimit/],
  ['unknown site time zone', (p) => (p.site.timezone = 'Pacific Time'), 'site.timezone', /IANA name.*Windows name/],
  ['unknown mission time zone', (p) => (p.missions[0].timezone = 'Mars/Olympus'), 'missions.0.timezone', /IANA/],
  ['unknown quiz time zone', (p) => (p.quizzes[0].timezone = 'Europe/Atlantis'), 'quizzes.0.timezone', /IANA/],
  ['unknown exchange time zone', (p) => (p.exchanges[0].timezone = 'Nowhere/Else'), 'exchanges.0.timezone', /IANA/],
  ['impossible date', (p) => (p.missions[0].startDate = '2026-02-30T00:00:00'), 'missions.0.startDate', /not a real date/],
  ['impossible hour', (p) => (p.missions[0].featuredEndDate = '2026-12-31T24:00:00'), 'missions.0.featuredEndDate', /not a real date/],
  ['endDate before startDate', (p) => (p.missions[0].endDate = '2025-12-31T23:59:59'), 'missions.0.endDate', /before startDate/],
  [
    'featuredEndDate before featuredStartDate',
    (p) => (p.missions[0].featuredEndDate = '2026-10-31T23:59'),
    'missions.0.featuredEndDate',
    /before featuredStartDate/,
  ],
  ['quiz endDate before startDate', (p) => (p.quizzes[0].endDate = '2025-01-01T00:00:00'), 'quizzes.0.endDate', /before startDate/],
  ['level thresholds not increasing', (p) => (p.levels[2].threshold = 100), 'levels.2.threshold', /greater than levels\.1/],
  ['points leaderboard without category', (p) => delete p.leaderboards[1].metric.category, 'leaderboards.1.metric.category', /required/],
  ['leaderboard on an unknown category', (p) => (p.leaderboards[1].metric.category = 'Gems'), 'leaderboards.1.metric.category', /Gems.*does not exist/],
  ['actionCount leaderboard without action', (p) => (p.leaderboards[2].metric = { type: 'actionCount' }), 'leaderboards.2.metric.action', /required/],
  [
    'leaderboard on an unknown action',
    (p) => (p.leaderboards[2].metric = { type: 'actionValueSum', action: 'jump' }),
    'leaderboards.2.metric.action',
    /jump.*does not exist/,
  ],
  ['leaderboard groupFilter unknown', (p) => (p.leaderboards[2].groupFilter = 'g-nope'), 'leaderboards.2.groupFilter', /g-nope/],
  ['two primary leaderboards', (p) => (p.leaderboards[1].primary = true), 'leaderboards', /at most one.*found 2/],
  ['layout with an unknown leaderboard', (p) => (p.layouts[0].leaderboards[1] = 'lb-nope'), 'layouts.0.leaderboards.1', /lb-nope.*does not exist/],
  ['layout uuid "layoutUuid" (the listing path)', (p) => (p.layouts[0].uuid = 'layoutUuid'), 'layouts.0.uuid', /reserved/],
  [
    'single-choice question with 0 correct',
    (p) => (p.quizzes[0].questions[0].choices[0].correct = false),
    'quizzes.0.questions.0.choices',
    /exactly one.*found 0/,
  ],
  [
    'single-choice question with 2 correct',
    (p) => (p.quizzes[0].questions[0].choices[1].correct = true),
    'quizzes.0.questions.0.choices',
    /exactly one.*found 2/,
  ],
  [
    'multiple-choice question with none correct',
    (p) => p.quizzes[0].questions[1].choices.forEach((c: Loose) => (c.correct = false)),
    'quizzes.0.questions.1.choices',
    /at least one/,
  ],
  ['exchange on an unknown category', (p) => (p.exchanges[0].pointCategory = 'Gems'), 'exchanges.0.pointCategory', /Gems.*does not exist/],
  ['exchange maxPoints below minPoints', (p) => Object.assign(p.exchanges[0], { minPoints: 10, maxPoints: 5 }), 'exchanges.0.maxPoints', /minPoints/],
  ['exchange givers from an unknown group', (p) => (p.exchanges[0].givers.groups = ['g-nope']), 'exchanges.0.givers.groups.0', /g-nope/],
  ['award settings on an unknown category', (p) => (p.awardSettings.pointCategory = 'Gems'), 'awardSettings.pointCategory', /Gems.*does not exist/],
  ['expiry with neither afterDays nor date', (p) => (p.pointCategories[1].expiry = {}), 'pointCategories.1.expiry', /exactly one of afterDays and date/],
  [
    'expiry with both afterDays and date',
    (p) => (p.pointCategories[1].expiry = { afterDays: 30, date: '2026-12-31T23:59:59' }),
    'pointCategories.1.expiry',
    /exactly one/,
  ],
  ['expiry on an impossible date', (p) => (p.pointCategories[1].expiry = { date: '2026-02-30T00:00' }), 'pointCategories.1.expiry.date', /not a real date/],
  ['minLevel an unknown level', (p) => (p.missions[0].prerequisites.minLevel = 'l-nope'), 'missions.0.prerequisites.minLevel', /level "l-nope" does not exist/],
  ['excluded group unknown', (p) => (p.missions[0].prerequisites.excludedGroups = ['g-nope']), 'missions.0.prerequisites.excludedGroups.0', /g-nope/],
  ['prize range ending before it starts', (p) => (p.leaderboards[1].prizes = [{ ranks: '3-1', rewards: {} }]), 'leaderboards.1.prizes.0.ranks', /ends before/],
  [
    'prize ranks beyond the board size',
    (p) => Object.assign(p.leaderboards[1], { size: 10, prizes: [{ ranks: '5-11', rewards: {} }] }),
    'leaderboards.1.prizes.0.ranks',
    /beyond the board's size \(10\)/,
  ],
  [
    'overlapping prize ranges',
    (p) =>
      (p.leaderboards[1].prizes = [
        { ranks: '1-3', rewards: {} },
        { ranks: '3', rewards: {} },
      ]),
    'leaderboards.1.prizes.1.ranks',
    /overlaps leaderboards\.1\.prizes\.0/,
  ],
  [
    'prize in an unknown category',
    (p) => (p.leaderboards[1].prizes = [{ ranks: '1', rewards: { points: [{ category: 'Gems', amount: 5 }] } }]),
    'leaderboards.1.prizes.0.rewards.points.0.category',
    /Gems/,
  ],
  ['fixed end on a weekly board', (p) => (p.leaderboards[1].end = '2026-12-31T23:59'), 'leaderboards.1.end', /allTime/],
  ['streak with neither action nor mission', (p) => (p.streaks = [{ id: 's', name: 'S' }]), 'streaks.0', /exactly one of action and mission/],
  ['streak with both', (p) => (p.streaks = [{ id: 's', name: 'S', action: 'login', mission: 'm-chef' }]), 'streaks.0', /exactly one/],
  ['streak on an unknown action', (p) => (p.streaks = [{ id: 's', name: 'S', action: 'jump' }]), 'streaks.0.action', /jump.*does not exist/],
  ['streak on an unknown mission', (p) => (p.streaks = [{ id: 's', name: 'S', mission: 'm-nope' }]), 'streaks.0.mission', /m-nope/],
  [
    'streak on a group mission',
    (p) => {
      p.missions[0].party = 'group';
      p.streaks = [{ id: 's', name: 'S', mission: p.missions[0].id }];
    },
    'streaks.0.mission',
    /is a group mission: a streak counts a user's missions only/,
  ],
  [
    'more initial freezes than max',
    (p) => (p.streaks = [{ id: 's', name: 'S', action: 'login', freezes: { max: 1, initial: 2 } }]),
    'streaks.0.freezes.initial',
    /freezes\.max \(1\)/,
  ],
  [
    'earning freezes that cannot be held',
    (p) => (p.streaks = [{ id: 's', name: 'S', action: 'login', freezes: { earnEvery: 7 } }]),
    'streaks.0.freezes.earnEvery',
    /max of at least 1/,
  ],
  [
    'two milestones of one length',
    (p) =>
      (p.streaks = [
        {
          id: 's',
          name: 'S',
          action: 'login',
          milestones: [
            { length: 7, rewards: {} },
            { length: 7, rewards: {} },
          ],
        },
      ]),
    'streaks.0.milestones.1',
    /milestones\.0/,
  ],
  [
    'milestone badge unknown',
    (p) => (p.streaks = [{ id: 's', name: 'S', action: 'login', milestones: [{ length: 7, rewards: { badge: 'b-nope' } }] }]),
    'streaks.0.milestones.0.rewards.badge',
    /b-nope/,
  ],
  [
    'duplicate streak id',
    (p) =>
      (p.streaks = [
        { id: 's', name: 'S', action: 'login' },
        { id: 's', name: 'T', action: 'share' },
      ]),
    'streaks.1',
    /"s" is already used by streaks\.0/,
  ],
  ['boost ending before it starts', (p) => (p.boosts = [{ ...BOOST, end: '2026-01-01T00:00' }]), 'boosts.0.end', /before start/],
  ['boost in an unknown zone', (p) => (p.boosts = [{ ...BOOST, timezone: 'Mars/Olympus' }]), 'boosts.0.timezone', /IANA/],
  ['boost on an unknown action', (p) => (p.boosts = [{ ...BOOST, actions: ['login', 'jump'] }]), 'boosts.0.actions.1', /jump/],
  ['boost on an unknown mission', (p) => (p.boosts = [{ ...BOOST, missions: ['m-nope'] }]), 'boosts.0.missions.0', /m-nope/],
  ['boost for an unknown group', (p) => (p.boosts = [{ ...BOOST, groups: ['g-nope'] }]), 'boosts.0.groups.0', /g-nope/],
];

describe('validateProgram: errors', () => {
  it.each([null, [], 'program', 42])('refuses a document that is not an object (%j)', (input) => {
    const result = failure(input);
    expect(result).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(result.errors).toEqual([{ path: '(document)', message: expect.stringMatching(/object/) }]);
  });

  it.each(structural)('400 validation_failed: %s', (_name, edit, path, message) => {
    const result = failure(edited(edit));
    expect(result).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(result.errors).toContainEqual({ path, message: expect.stringMatching(message) });
    expect(
      result.errors.every((e) => e.path === path),
      JSON.stringify(result.errors),
    ).toBe(true);
  });

  it.each(semantic)('422 program_invalid: %s', (_name, edit, path, message) => {
    const result = failure(edited(edit));
    expect(result).toMatchObject({ code: 'program_invalid', status: 422 });
    expect(result.errors).toContainEqual({ path, message: expect.stringMatching(message) });
    expect(
      result.errors.every((e) => e.path === path),
      JSON.stringify(result.errors),
    ).toBe(true);
  });

  it('422 program_invalid: an expiry rule on the award category, named on both sides', () => {
    const result = failure(edited((p) => (p.pointCategories[2].expiry = { afterDays: 30 })));
    expect(result).toMatchObject({ code: 'program_invalid', status: 422 });
    expect(result.errors).toEqual([
      { path: 'pointCategories.2.expiry', message: expect.stringMatching(/"Award" is the award category.*cannot expire/) },
      { path: 'awardSettings.pointCategory', message: expect.stringMatching(/"Award" has an expiry rule/) },
    ]);
    // Award settings moved to a category that expires: the same conflict.
    const moved = failure(
      edited((p) => {
        p.pointCategories[1].expiry = { date: '2026-12-31T23:59:59' };
        p.awardSettings.pointCategory = 'Coins';
      }),
    );
    expect(moved.errors.map((e) => e.path)).toEqual(['pointCategories.1.expiry', 'awardSettings.pointCategory']);
    // Expiry on another category is fine.
    expect(() => validateProgram(edited((p) => (p.pointCategories[1].expiry = { afterDays: 30 })))).not.toThrow();
  });

  it('follows a prerequisite cycle through 10,000 missions without exhausting the stack, and reports it once, shortened', () => {
    const result = failure({
      ...minimal,
      missions: Array.from({ length: 10_000 }, (_, i) => ({
        id: `m-${i}`,
        name: `M ${i}`,
        rules: [{ id: 'r', action: 'QUIZ_COMPLETED', goal: 1 }],
        prerequisites: { missions: [`m-${(i + 1) % 10_000}`] },
      })),
    });
    expect(result.code).toBe('program_invalid');
    expect(result.errors).toEqual([
      { path: 'missions.0.prerequisites.missions', message: expect.stringMatching(/^prerequisite cycle: m-0 → m-1 → .*more.* → m-0$/) },
    ]);
    expect(result.errors[0]?.message.length).toBeLessThan(300);
  });

  it('checks structure before rules, and reports every problem of a kind at once', () => {
    const both = failure(
      edited((p) => {
        p.missions[0].rules[0].goal = 0;
        p.missions[0].rules[0].action = 'read_book';
      }),
    );
    expect(both.code).toBe('validation_failed');
    expect(both.errors.map((e) => e.path)).toEqual(['missions.0.rules.0.goal']);

    const many = failure(
      edited((p) => {
        p.missions[0].rewards.badge = 'b-nope';
        p.levels[1].threshold = 0;
        p.awardSettings.pointCategory = 'Gems';
      }),
    );
    expect(many.code).toBe('program_invalid');
    expect(many.errors.map((e) => e.path).sort()).toEqual(['awardSettings.pointCategory', 'levels.1.threshold', 'missions.0.rewards.badge']);
  });
});
