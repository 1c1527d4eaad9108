// A realistic program for the benchmark: 25 actions (some rate-limited, some suppressing repeats),
// 60 missions (count and sum rules, metadata conditions, multi-action, repeatable windows, group
// prerequisites, multipliers), capped point categories, levels and badges; the same using every
// mechanic of issue 27 (engagementProgram); and a mix of actions
// over many users.

const ACTIONS = Array.from({ length: 25 }, (_, i) => `action_${i}`);
const GENRES = ['cooking', 'travel', 'science', 'history'];

export function benchProgram(): Record<string, unknown> {
  const missions = Array.from({ length: 60 }, (_, i) => {
    const action = ACTIONS[i % ACTIONS.length] as string;
    const second = ACTIONS[(i * 7 + 3) % ACTIONS.length] as string;
    const rules = [
      {
        id: 'r-1',
        action,
        type: i % 5 === 0 ? 'sum' : 'count',
        goal: i % 5 === 0 ? 50 : 1 + (i % 4),
        metadata: i % 3 === 0 ? [{ name: 'genre', value: GENRES[i % GENRES.length] }] : [],
      },
      ...(i % 4 === 0 ? [{ id: 'r-2', action: second, type: 'count', goal: 2, metadata: [] }] : []),
    ];
    return {
      id: `m-${i}`,
      name: `Mission ${i}`,
      startDate: '2026-01-01T00:00:00',
      endDate: '2027-12-31T23:59:59',
      timezone: i % 2 === 0 ? 'America/New_York' : 'Europe/Paris',
      ruleMatch: i % 8 === 0 ? 'any' : 'all',
      rules,
      rewards: {
        points: [{ category: i % 3 === 0 ? 'Coins' : 'Points', amount: 5 + (i % 10) }],
        ...(i % 10 === 0 ? { badge: `b-${i % 3}` } : {}),
        ...(i % 7 === 0 ? { multiplier: 1.5 } : {}),
      },
      ...(i % 2 === 0 ? { repeatableWindow: { period: (['day', 'week', 'month', 'none'] as const)[i % 4], maxPerPeriod: 3 } } : {}),
      ...(i % 9 === 0 ? { prerequisites: { groups: ['g-0'], missions: [] } } : {}),
      importance: i % 6,
    };
  });
  return {
    site: { name: 'Bench', timezone: 'America/New_York' },
    pointCategories: [
      { name: 'Points', isDefault: true },
      { name: 'Coins', dailyLimit: 200, yearlyLimit: 20_000 },
    ],
    actions: ACTIONS.map((name, i) => ({
      name,
      ...(i % 6 === 0 ? { rateLimit: { max: 20, period: 'day' } } : {}),
      ...(i % 5 === 0 ? { suppressRepeats: true } : {}),
    })),
    badges: [0, 1, 2].map((i) => ({ id: `b-${i}`, name: `Badge ${i}` })),
    levels: [0, 100, 500, 2000, 10_000].map((threshold, i) => ({ id: `l-${i}`, name: `Level ${i}`, threshold })),
    groups: [{ id: 'g-0', name: 'Group 0' }],
    missions,
  };
}

/** Four boards of different metrics and periods, the all-time one (`lb-all`, size 100) primary. */
export function benchLeaderboards(): Array<Record<string, unknown>> {
  return [
    { id: 'lb-all', name: 'All time', metric: { type: 'points', category: 'Points' }, period: 'allTime', size: 100, primary: true },
    { id: 'lb-week', name: 'This week', metric: { type: 'points', category: 'Points' }, period: 'week' },
    { id: 'lb-missions', name: 'Missions this month', metric: { type: 'missionsCompleted' }, period: 'month' },
    { id: 'lb-action', name: 'Action 0 today', metric: { type: 'actionCount', action: 'action_0' }, period: 'day' },
  ];
}

const coins = (amount: number) => ({ points: [{ category: 'Coins', amount }] });

/** The benchmark program and boards, using every mechanic of issue 27. */
export function engagementProgram(): Record<string, unknown> {
  const base = benchProgram() as { pointCategories: Array<Record<string, unknown>>; missions: Array<Record<string, unknown>>; groups: unknown[] };
  return {
    ...base,
    pointCategories: base.pointCategories.map((category) => ({
      ...category,
      expiry: category.isDefault === true ? { afterDays: 365 } : { date: '2027-12-31T23:59:59' },
    })),
    groups: [...base.groups, { id: 'g-staff', name: 'Staff' }],
    missions: base.missions.map((mission, i) => ({
      ...mission,
      ...(i % 5 === 1 ? { prerequisites: { groups: [], missions: [], minLevel: 'l-1', excludedGroups: ['g-staff'] } } : {}),
    })),
    leaderboards: benchLeaderboards().map((board) => ({
      ...board,
      prizes: [
        { ranks: '1', rewards: coins(100) },
        { ranks: '2-10', rewards: coins(20) },
      ],
    })),
    streaks: [0, 1, 2].map((i) => ({
      id: `s-${i}`,
      name: `Streak ${i}`,
      action: `action_${i}`,
      period: i === 2 ? 'week' : 'day',
      freezes: { max: 2, initial: 1, earnEvery: 7 },
      milestones: [3, 7, 30].map((length) => ({ length, rewards: coins(length) })),
    })),
    boosts: [
      { id: 'bo-all', name: 'Double everything', multiplier: 2, start: '2026-01-01T00:00', end: '2027-12-31T23:59:59' },
      { id: 'bo-some', multiplier: 3, start: '2026-01-01T00:00', end: '2027-12-31T23:59:59', actions: ['action_3', 'action_4'], groups: ['g-0'] },
    ],
  };
}

/**
 * Workload (b), "points per action": the simplest common program. One action; a repeatable
 * mission that pays 10 points for every one of them; a badge at 10; five levels; one all-time
 * points board. Every action completes a mission, posts points and moves a board.
 */
export function pointsProgram(): Record<string, unknown> {
  const mission = (id: string, goal: number, rewards: Record<string, unknown>, repeatable: boolean) => ({
    id,
    name: id,
    startDate: '2026-01-01T00:00:00',
    endDate: '2030-12-31T23:59:59',
    timezone: 'America/New_York',
    rules: [{ id: 'r-1', action: 'visit', type: 'count', goal, metadata: [] }],
    rewards,
    ...(repeatable ? { repeatableWindow: { period: 'none', maxPerPeriod: 1_000_000 } } : {}),
  });
  return {
    site: { name: 'Points per action', timezone: 'America/New_York' },
    pointCategories: [{ name: 'Points', isDefault: true }],
    actions: [{ name: 'visit' }],
    badges: [{ id: 'b-regular', name: 'Regular' }],
    levels: [0, 100, 500, 2000, 10_000].map((threshold, i) => ({ id: `l-${i}`, name: `Level ${i}`, threshold })),
    missions: [mission('m-every', 1, { points: [{ category: 'Points', amount: 10 }] }, true), mission('m-regular', 10, { badge: 'b-regular' }, false)],
    leaderboards: [{ id: 'lb-all', name: 'All time', metric: { type: 'points', category: 'Points' }, period: 'allTime', size: 100, primary: true }],
  };
}

/** The body of one action of workload (b): a random user of `users` visits. */
export function pointsActionBody(users: number): { userId: string; body: string } {
  return { userId: `user-${Math.floor(Math.random() * users)}`, body: '{"action":"visit"}' };
}

/** The body of one benchmark action: a random user of `users`, a random action, sometimes metadata and a value. */
export function randomActionBody(users: number): { userId: string; body: string } {
  const userId = `user-${Math.floor(Math.random() * users)}`;
  const action = ACTIONS[Math.floor(Math.random() * ACTIONS.length)] as string;
  const genre = GENRES[Math.floor(Math.random() * GENRES.length)] as string;
  const body = { action, value: 1 + Math.floor(Math.random() * 20), ...(Math.random() < 0.5 ? { metadata: { genre } } : {}) };
  return { userId, body: JSON.stringify(body) };
}
