// Issue 24's targets: each figure this run measured against its target, met or not. Pure, so that
// the decision is tested (test/bench/targets.test.ts) and never written by hand: bench/run.ts
// collects the figures from its sections (a section that did not run leaves its figures
// undefined, and its targets read "not measured").

/** Workload (a), the benchmark program with returning users, and (b), points per action (./workload.ts). */
export interface PerWorkload {
  a?: number;
  b?: number;
}

export interface Issue24Figures {
  /** SQLite: the server's CPU per action, µs. */
  sqliteCpu: PerWorkload;
  /** SQLite: actions/s, and the floor of the same workload's requests/s (./floor-server.ts). */
  sqliteRps: PerWorkload;
  floorRps: PerWorkload;
  /** SQLite: p99 latency at 50 connections, ms. */
  sqliteP99: PerWorkload;
  /** SQLite, workload (a): actions/s while a busy loop takes one of the cores. */
  busyRps?: number;
  /** PostgreSQL + Redis, 1 node, workload (a): actions/s, CPU per action (µs) of each process group, queries sent per action. */
  postgres1?: { rps: number; cpu: { node: number; postgres: number; redis: number }; roundTrips?: number };
  /** The same with 2 nodes: actions/s. */
  postgres2Rps?: number;
  /**
   * Context for the PostgreSQL row: the floor of (a) on PostgreSQL (./floor-postgres.ts), raw pg
   * writing the same actions' rows, one transaction per action and batched: actions/s, CPU per
   * action (µs) of its node and of PostgreSQL.
   */
  postgresFloor?: { perAction?: FloorFigure; batched?: FloorFigure };
  /** A user's standing on a Redis board of 1,000,000 users: Questline's requests/s and the raw route's. */
  rank?: { questline: number; raw: number };
  /** One action's median latency (µs) by the user's history size, 0 being a new user's. */
  history?: Array<{ history: number; p50: number }>;
}

export interface FloorFigure {
  rps: number;
  cpu: { node: number; postgres: number };
}

/** "today" of the issue's PostgreSQL row: the figure it quotes, from bench/REPORT.md of another run. */
export const TODAY_POSTGRES = { actionsPerSecond: 818, source: 'bench/REPORT.md at commit 8abde63 (2026-11-23), quoted by issue 24' };

export type Status = 'met' | 'not met' | 'not measured';

export interface TargetRow {
  target: string;
  measured: string;
  goal: string;
  status: Status;
}

/** What a figure must be: at most, at least, or between two bounds (inclusive). */
export type Bound = { at: 'most' | 'least'; limit: number } | { at: 'within'; low: number; high: number };

/** One comparison of a target: `value` against its bound; undefined when not measured. */
interface Part {
  label: string;
  value: number | undefined;
  bound: Bound;
  /** The value as the report shows it. */
  show: (value: number) => string;
}

/** A figure's status: "not measured" without a value. */
export function judge(value: number | undefined, bound: Bound): Status {
  if (value === undefined || Number.isNaN(value)) return 'not measured';
  if (bound.at === 'within') return value >= bound.low && value <= bound.high ? 'met' : 'not met';
  return (bound.at === 'most' ? value <= bound.limit : value >= bound.limit) ? 'met' : 'not met';
}

const most = (limit: number): Bound => ({ at: 'most', limit });
const least = (limit: number): Bound => ({ at: 'least', limit });

/** A target of several parts is met when every part is; one part not met is enough to miss it. */
export function combine(statuses: readonly Status[]): Status {
  if (statuses.includes('not met')) return 'not met';
  if (statuses.includes('not measured')) return 'not measured';
  return 'met';
}

const count = (n: number) => Math.round(n).toLocaleString('en');
const micros = (n: number) => `${count(n)} µs`;
const times = (n: number) => `${n.toFixed(2)}×`;
const ratio = (part: number | undefined, whole: number | undefined) => (part === undefined || whole === undefined ? undefined : part / whole);

function row(target: string, goal: string, parts: Part[], detail?: string): TargetRow {
  const statuses = parts.map((p) => judge(p.value, p.bound));
  const shown = parts.map(
    (p, i) => `${p.label}${p.value === undefined ? 'not measured' : p.show(p.value)}${parts.length > 1 && statuses[i] === 'not met' ? ' (not met)' : ''}`,
  );
  return { target, goal, measured: [shown.join(', '), ...(detail !== undefined ? [detail] : [])].join('; '), status: combine(statuses) };
}

/** One row per target of issue 24, in the issue's order. */
export function issue24Targets(f: Issue24Figures): TargetRow[] {
  const both = (values: PerWorkload, bound: Bound, show: (v: number) => string): Part[] => [
    { label: '(a) ', value: values.a, bound, show },
    { label: '(b) ', value: values.b, bound, show },
  ];
  const pg = f.postgres1;
  const pgCpu = pg === undefined ? undefined : pg.cpu.node + pg.cpu.postgres + pg.cpu.redis;
  const history = f.history ?? [];
  const newUser = history.find((h) => h.history === 0)?.p50;
  const slowest = history.length === 0 ? undefined : Math.max(...history.map((h) => h.p50));
  const smallest = history.filter((h) => h.history > 0).sort((x, y) => x.history - y.history)[0];
  const largest = history.filter((h) => h.history > 0).sort((x, y) => y.history - x.history)[0];
  const growth = smallest !== undefined && largest !== undefined && smallest !== largest ? largest.p50 / smallest.p50 : undefined;
  return [
    row('SQLite, (a) and (b): server CPU per action', '≤ 250 µs', both(f.sqliteCpu, most(250), micros)),
    row(
      'SQLite, (a) and (b): throughput against the floor of the same workload',
      '≥ 1.0× the floor',
      both({ a: ratio(f.sqliteRps.a, f.floorRps.a), b: ratio(f.sqliteRps.b, f.floorRps.b) }, least(1), times),
      `actions/s (floor): ${(['a', 'b'] as const).map((w) => `(${w}) ${f.sqliteRps[w] === undefined ? '–' : count(f.sqliteRps[w])} (${f.floorRps[w] === undefined ? '–' : count(f.floorRps[w])})`).join(', ')}`,
    ),
    row(
      'SQLite p99 at 50 connections',
      '≤ 30 ms',
      both(f.sqliteP99, most(30), (v) => `${count(v)} ms`),
    ),
    row(
      'SQLite, (a), with a busy-loop process taking one of the two cores',
      '≥ 55% of the quiet throughput',
      [{ label: '', value: ratio(f.busyRps, f.sqliteRps.a), bound: least(0.55), show: (v) => `${(v * 100).toFixed(0)}%` }],
      f.busyRps === undefined || f.sqliteRps.a === undefined ? undefined : `${count(f.busyRps)} against ${count(f.sqliteRps.a)} actions/s`,
    ),
    row(
      'PostgreSQL + Redis, 1 node, (a): CPU per action (node + PostgreSQL + Redis), and actions/s against today',
      `≤ 700 µs, and ≥ 2.5× today (${count(TODAY_POSTGRES.actionsPerSecond)} actions/s: ${TODAY_POSTGRES.source})`,
      [
        { label: 'CPU ', value: pgCpu, bound: most(700), show: micros },
        { label: 'throughput ', value: ratio(pg?.rps, TODAY_POSTGRES.actionsPerSecond), bound: least(2.5), show: (v) => `${times(v)} today` },
      ],
      [
        ...(pg === undefined
          ? []
          : [`node ${micros(pg.cpu.node)} + PostgreSQL ${micros(pg.cpu.postgres)} + Redis ${micros(pg.cpu.redis)}; ${count(pg.rps)} actions/s`]),
        ...floorOnPostgres(f.postgresFloor),
      ].join('; ') || undefined,
    ),
    row('PostgreSQL: round trips per action (queries sent, counted)', '≤ 3', [{ label: '', value: pg?.roundTrips, bound: most(3), show: (v) => v.toFixed(1) }]),
    row(
      'PostgreSQL: 2 nodes against 1',
      '≥ 1.0×',
      [{ label: '', value: ratio(f.postgres2Rps, pg?.rps), bound: least(1), show: times }],
      f.postgres2Rps === undefined || pg === undefined ? undefined : `${count(f.postgres2Rps)} against ${count(pg.rps)} actions/s`,
    ),
    row(
      "Redis boards: a user's standing against a raw ZREVRANK + ZSCORE + ZREVRANGE over a bare Fastify route",
      '≥ 1.0× raw',
      [{ label: '', value: ratio(f.rank?.questline, f.rank?.raw), bound: least(1), show: times }],
      f.rank === undefined ? undefined : `${count(f.rank.questline)} against ${count(f.rank.raw)} req/s`,
    ),
    row(
      "One action's cost flat from 0 to 100,000 actions of history",
      "the slowest median ≤ 1.10× a new user's, and the largest history's within ±10% of the smallest's",
      [
        { label: "slowest/new user's ", value: ratio(slowest, newUser), bound: most(1.1), show: times },
        {
          label:
            largest === undefined || smallest === undefined ? 'largest/smallest history ' : `${count(largest.history)}/${count(smallest.history)} actions `,
          value: growth,
          bound: { at: 'within', low: 0.9, high: 1.1 },
          show: times,
        },
      ],
    ),
  ];
}

/** What the raw pg floor of the same actions costs, where measured: context for the PostgreSQL row, not a target. */
function floorOnPostgres(floor: Issue24Figures['postgresFloor']): string[] {
  const shown = (
    [
      ['batched', floor?.batched],
      ['a transaction per action', floor?.perAction],
    ] as const
  ).flatMap(([label, f]) =>
    f === undefined
      ? []
      : [`${label} ${count(f.rps)} actions/s, CPU ${micros(f.cpu.node + f.cpu.postgres)} (node ${micros(f.cpu.node)} + PostgreSQL ${micros(f.cpu.postgres)})`],
  );
  return shown.length === 0 ? [] : [`raw pg floor of the same actions' reads and rows (bench/floor-postgres.ts): ${shown.join(', ')}`];
}

/** The rows as a Markdown table. */
export function targetsMarkdown(rows: readonly TargetRow[]): string[] {
  return [
    '| target | measured in this run | target | met |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.target} | ${r.measured} | ${r.goal} | ${r.status === 'met' ? 'met' : `**${r.status}**`} |`),
  ];
}
