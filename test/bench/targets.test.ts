import { describe, expect, it } from 'vitest';
import { combine, issue24Targets, judge, targetsMarkdown, TODAY_POSTGRES, type Bound, type Issue24Figures, type Status } from '../../bench/targets.js';

describe('judge', () => {
  it.each<[number | undefined, Bound, Status]>([
    [250, { at: 'most', limit: 250 }, 'met'],
    [250.5, { at: 'most', limit: 250 }, 'not met'],
    [1, { at: 'least', limit: 1 }, 'met'],
    [0.99, { at: 'least', limit: 1 }, 'not met'],
    [1.1, { at: 'within', low: 0.9, high: 1.1 }, 'met'],
    [0.9, { at: 'within', low: 0.9, high: 1.1 }, 'met'],
    [0.89, { at: 'within', low: 0.9, high: 1.1 }, 'not met'],
    [1.11, { at: 'within', low: 0.9, high: 1.1 }, 'not met'],
    [undefined, { at: 'most', limit: 3 }, 'not measured'],
    [Number.NaN, { at: 'least', limit: 1 }, 'not measured'],
  ])('%s against %o is %s', (value, bound, status) => {
    expect(judge(value, bound)).toBe(status);
  });
});

describe('combine', () => {
  it.each<[Status[], Status]>([
    [['met', 'met'], 'met'],
    [['met', 'not met'], 'not met'],
    [['not measured', 'not met'], 'not met'],
    [['met', 'not measured'], 'not measured'],
    [[], 'met'],
  ])('%o is %s', (statuses, status) => {
    expect(combine(statuses)).toBe(status);
  });
});

/** Every target met, by a margin. */
const good: Issue24Figures = {
  sqliteCpu: { a: 200, b: 240 },
  sqliteRps: { a: 5_000, b: 6_000 },
  floorRps: { a: 4_500, b: 5_900 },
  sqliteP99: { a: 20, b: 25 },
  busyRps: 3_000,
  postgres1: { rps: 2.6 * TODAY_POSTGRES.actionsPerSecond, cpu: { node: 400, postgres: 200, redis: 50 }, roundTrips: 2.5 },
  postgres2Rps: 2_200,
  rank: { questline: 11_000, raw: 10_000 },
  history: [
    { history: 0, p50: 800 },
    { history: 1_000, p50: 700 },
    { history: 10_000, p50: 690 },
    { history: 100_000, p50: 720 },
  ],
};

const TARGETS = ['SQLite CPU', 'SQLite vs floor', 'SQLite p99', 'busy loop', 'PostgreSQL 1 node', 'round trips', '2 nodes', 'Redis rank', 'history'] as const;
type Target = (typeof TARGETS)[number];

describe('issue24Targets', () => {
  it.each<[string, Issue24Figures, Partial<Record<Target, Status>>]>([
    ['every target met', good, {}],
    ['(b) over the CPU budget: the two-workload row is missed', { ...good, sqliteCpu: { a: 200, b: 251 } }, { 'SQLite CPU': 'not met' }],
    ['(a) below its floor', { ...good, sqliteRps: { a: 4_000, b: 6_000 } }, { 'SQLite vs floor': 'not met', 'busy loop': 'met' }],
    ['one workload not measured', { ...good, sqliteCpu: { a: 200 }, sqliteP99: { a: 20 } }, { 'SQLite CPU': 'not measured', 'SQLite p99': 'not measured' }],
    ['p99 of 31 ms', { ...good, sqliteP99: { a: 31, b: 25 } }, { 'SQLite p99': 'not met' }],
    ['the busy loop takes more than 45%', { ...good, busyRps: 2_700 }, { 'busy loop': 'not met' }],
    ['the busy loop at exactly 55%', { ...good, busyRps: 2_750 }, {}],
    [
      'PostgreSQL CPU over 700 µs counting Redis',
      { ...good, postgres1: { ...(good.postgres1 as NonNullable<Issue24Figures['postgres1']>), cpu: { node: 450, postgres: 200, redis: 51 } } },
      { 'PostgreSQL 1 node': 'not met' },
    ],
    [
      'PostgreSQL below 2.5× today',
      { ...good, postgres1: { ...(good.postgres1 as NonNullable<Issue24Figures['postgres1']>), rps: 2_000 }, postgres2Rps: 2_000 },
      { 'PostgreSQL 1 node': 'not met' },
    ],
    [
      'round trips not counted',
      { ...good, postgres1: { ...(good.postgres1 as NonNullable<Issue24Figures['postgres1']>), roundTrips: undefined } },
      { 'round trips': 'not measured' },
    ],
    ['2 nodes slower than 1', { ...good, postgres2Rps: 2_000 }, { '2 nodes': 'not met' }],
    [
      'no PostgreSQL in this run',
      { ...good, postgres1: undefined, postgres2Rps: undefined },
      { 'PostgreSQL 1 node': 'not measured', 'round trips': 'not measured', '2 nodes': 'not measured' },
    ],
    ['Redis rank below raw', { ...good, rank: { questline: 9_000, raw: 10_000 } }, { 'Redis rank': 'not met' }],
    [
      'a history that costs more than a new user',
      {
        ...good,
        history: [
          { history: 0, p50: 800 },
          { history: 1_000, p50: 700 },
          { history: 100_000, p50: 900 },
        ],
      },
      { history: 'not met' },
    ],
    [
      'a history cheaper than a new user but growing 20%',
      {
        ...good,
        history: [
          { history: 0, p50: 800 },
          { history: 1_000, p50: 600 },
          { history: 100_000, p50: 720 },
        ],
      },
      { history: 'not met' },
    ],
    ['no history measured', { ...good, history: undefined }, { history: 'not measured' }],
    ['no section ran', { sqliteCpu: {}, sqliteRps: {}, floorRps: {}, sqliteP99: {} }, Object.fromEntries(TARGETS.map((t) => [t, 'not measured']))],
  ])('%s', (_name, figures, changed) => {
    const rows = issue24Targets(figures);
    expect(rows).toHaveLength(TARGETS.length);
    expect(Object.fromEntries(rows.map((row, i) => [TARGETS[i], row.status]))).toEqual(Object.fromEntries(TARGETS.map((t) => [t, changed[t] ?? 'met'])));
  });

  it('shows each figure, and which part of a target missed', () => {
    const rows = issue24Targets({ ...good, sqliteCpu: { a: 200, b: 251.4 } });
    expect(rows[0]).toEqual({
      target: 'SQLite, (a) and (b): server CPU per action',
      goal: '≤ 250 µs',
      measured: '(a) 200 µs, (b) 251 µs (not met)',
      status: 'not met',
    });
    expect(rows[4]?.measured).toBe('CPU 650 µs, throughput 2.60× today; node 400 µs + PostgreSQL 200 µs + Redis 50 µs; 2,127 actions/s');
    expect(rows[8]?.measured).toBe("slowest/new user's 1.00×, 100,000/1,000 actions 1.03×");
  });

  it('shows the raw pg floor beside the PostgreSQL row, as context that neither meets nor misses it', () => {
    const postgresFloor = { perAction: { rps: 900, cpu: { node: 300, postgres: 500 } }, batched: { rps: 3_000, cpu: { node: 150.4, postgres: 200 } } };
    const floor =
      "raw pg floor of the same actions' reads and rows (bench/floor-postgres.ts): batched 3,000 actions/s, CPU 350 µs (node 150 µs + PostgreSQL 200 µs), a transaction per action 900 actions/s, CPU 800 µs (node 300 µs + PostgreSQL 500 µs)";
    const withFloor = issue24Targets({ ...good, postgresFloor })[4];
    expect(withFloor?.measured).toBe(`CPU 650 µs, throughput 2.60× today; node 400 µs + PostgreSQL 200 µs + Redis 50 µs; 2,127 actions/s; ${floor}`);
    expect(withFloor?.status).toBe('met');
    const alone = issue24Targets({ ...good, postgres1: undefined, postgresFloor: { batched: postgresFloor.batched } })[4];
    expect(alone?.measured).toBe(
      "CPU not measured, throughput not measured; raw pg floor of the same actions' reads and rows (bench/floor-postgres.ts): batched 3,000 actions/s, CPU 350 µs (node 150 µs + PostgreSQL 200 µs)",
    );
    expect(alone?.status).toBe('not measured');
    expect(issue24Targets({ ...good, postgresFloor: {} })[4]?.measured).toBe(issue24Targets(good)[4]?.measured);
  });

  it('writes a Markdown table with a row per target', () => {
    const lines = targetsMarkdown(issue24Targets({ ...good, busyRps: undefined }));
    expect(lines).toHaveLength(2 + TARGETS.length);
    expect(lines[5]).toBe(
      '| SQLite, (a), with a busy-loop process taking one of the two cores | not measured | ≥ 55% of the quiet throughput | **not measured** |',
    );
  });
});
