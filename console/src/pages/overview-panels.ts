// The Overview page's charts, each drawn from GET /admin/analytics/overview's answer: what it
// shows (a Chart.js spec), the same data as CSV rows (a header, then days as YYYY-MM-DD or one
// row per mission or level), a sentence summing it up for screen readers (the canvas's accessible
// name), and a note when there is nothing to show.
import type { Overview } from '../../../src/modules/analytics/service.js';
import { PALETTE, STATUS_COLOURS, type ChartSpec } from '../charts.js';
import type { Cell } from '../csv.js';

export interface Panel {
  /** Names the panel's element and its CSV file (`<id>-30d.csv`). */
  id: string;
  title: string;
  description: string;
  /** Spans the page's width. */
  wide?: boolean;
  spec(overview: Overview): ChartSpec;
  rows(overview: Overview): Cell[][];
  summary(overview: Overview): string;
  /** Said above the chart when the range holds nothing for it. */
  note(overview: Overview): string | undefined;
  /** No chart at all, only the note (a list with nothing in it). */
  bare?(overview: Overview): boolean;
  /** The chart's height in pixels. */
  height?(overview: Overview): number;
}

const shortDay = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const longDay = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
/** A day of the site's zone (YYYY-MM-DD) as a date: the day's own date, whatever the browser's zone. */
const dateOf = (day: string) => new Date(`${day}T12:00:00Z`);
export const dayLabel = (day: string): string => shortDay.format(dateOf(day));
export const fullDay = (day: string): string => longDay.format(dateOf(day));

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const number = (value: number) => value.toLocaleString();
const range = (o: Overview) => `the last ${o.days.length} days`;
const today = (o: Overview) => o.days[o.days.length - 1] ?? '';

/** The day with the highest figure (the latest of equals), or undefined when every figure is 0. */
function busiest(o: Overview, perDay: readonly number[]): { day: string; value: number } | undefined {
  let best: { day: string; value: number } | undefined;
  perDay.forEach((value, i) => {
    if (value > 0 && (best === undefined || value >= best.value)) best = { day: o.days[i] ?? '', value };
  });
  return best;
}

/** "…: 412 in all; the busiest day Nov 20 with 31; today (Nov 27) 5." */
function perDaySummary(o: Overview, what: string, perDay: readonly number[], total = true): string {
  const peak = busiest(o, perDay);
  return [
    `${what} per day over ${range(o)}`,
    total ? `: ${number(sum(perDay))} in all` : '',
    peak === undefined ? '; none on any day' : `; the busiest day ${dayLabel(peak.day)} with ${number(peak.value)}`,
    `; today (${dayLabel(today(o))}) ${number(perDay[perDay.length - 1] ?? 0)}.`,
  ].join('');
}

/** "… : First read 12, Daily check-in 9, …" (the first 10). */
const listSummary = (title: string, o: Overview, items: Array<{ name: string; value: number }>) =>
  `${title} over ${range(o)}: ${
    items.length === 0
      ? 'none'
      : items
          .slice(0, 10)
          .map((item) => `${item.name} ${number(item.value)}`)
          .join(', ')
  }.`;

const daysSpec = (o: Overview, datasets: ChartSpec['data']['datasets'], options: Partial<ChartSpec> = {}): ChartSpec => ({
  type: 'bar',
  data: { labels: o.days.map(dayLabel), datasets },
  tooltipTitle: (index) => fullDay(o.days[index] ?? ''),
  ...options,
});

/** Horizontal bars of named totals, tall enough for every name. */
const namesSpec = (items: Array<{ name: string; value: number }>, colour: string): ChartSpec => ({
  type: 'bar',
  horizontal: true,
  data: {
    labels: items.map((item) => item.name),
    datasets: [{ label: 'Completions', data: items.map((item) => item.value), backgroundColor: colour, maxBarThickness: 22 }],
  },
});
const namesHeight = (count: number) => Math.max(160, 34 + 30 * count);

const missionTotals = (o: Overview) => o.completions.missions.map((m) => ({ name: m.name, value: m.total }));
const topTotals = (o: Overview) => o.topMissions.map((m) => ({ name: m.name, value: m.completions }));

export const PANELS: Panel[] = [
  {
    id: 'actions-per-day',
    title: 'Actions per day',
    description: 'Actions recorded for users and groups, on the day of their timestamp.',
    wide: true,
    spec: (o) => daysSpec(o, [{ label: 'Actions', data: o.actions.perDay, backgroundColor: PALETTE[0], maxBarThickness: 36 }]),
    rows: (o) => [['day', 'actions'], ...o.days.map((day, i) => [day, o.actions.perDay[i] ?? 0])],
    summary: (o) => perDaySummary(o, 'Actions', o.actions.perDay),
    note: (o) => (o.actions.total === 0 ? 'No actions in this range.' : undefined),
  },
  {
    id: 'active-users-per-day',
    title: 'Active users per day',
    description: 'Users who logged at least one action of their own that day.',
    spec: (o) =>
      daysSpec(
        o,
        [
          {
            label: 'Active users',
            data: o.activeUsers.perDay,
            borderColor: PALETTE[2],
            backgroundColor: PALETTE[2],
            pointRadius: o.days.length > 30 ? 0 : 3,
            cubicInterpolationMode: 'monotone',
          },
        ],
        {
          type: 'line',
        },
      ),
    rows: (o) => [['day', 'active users'], ...o.days.map((day, i) => [day, o.activeUsers.perDay[i] ?? 0])],
    summary: (o) => perDaySummary(o, 'Active users', o.activeUsers.perDay, false),
    note: (o) => (sum(o.activeUsers.perDay) === 0 ? 'No active users in this range.' : undefined),
  },
  {
    id: 'actions-by-type',
    title: 'Actions by type',
    description: 'Which actions were recorded most in the range.',
    spec: (o) => ({
      ...namesSpec(
        o.actions.byAction.map((a) => ({ name: a.action, value: a.total })),
        PALETTE[0] as string,
      ),
      legend: false,
    }),
    rows: (o) => [['action', 'actions'], ...o.actions.byAction.map((a) => [a.action, a.total])],
    summary: (o) =>
      listSummary(
        'Actions by type',
        o,
        o.actions.byAction.map((a) => ({ name: a.action, value: a.total })),
      ),
    note: (o) => (o.actions.byAction.length === 0 ? 'No actions in this range.' : undefined),
    bare: (o) => o.actions.byAction.length === 0,
    height: (o) => namesHeight(o.actions.byAction.length),
  },
  {
    id: 'points-per-category-per-day',
    title: 'Points issued per category per day',
    description: 'Points credited less points taken back (by a reversal or an adjustment), per category, on the day they count.',
    wide: true,
    spec: (o) =>
      daysSpec(
        o,
        o.points.map((category, i) => ({ label: category.category, data: category.perDay, backgroundColor: PALETTE[i % PALETTE.length], maxBarThickness: 36 })),
        { stacked: true, legend: true },
      ),
    rows: (o) => [['day', ...o.points.map((c) => c.category)], ...o.days.map((day, i) => [day, ...o.points.map((c) => c.perDay[i] ?? 0)])],
    summary: (o) =>
      `Points issued per category per day over ${range(o)}: ${o.points.map((c) => `${c.category} ${number(c.total)} in all, today ${number(c.perDay[c.perDay.length - 1] ?? 0)}`).join('; ')}.`,
    note: (o) => (o.points.every((c) => c.perDay.every((value) => value === 0)) ? 'No points issued in this range.' : undefined),
  },
  {
    id: 'completions-per-mission',
    title: 'Completions per mission',
    description: 'Every mission of the program, in its order.',
    spec: (o) => namesSpec(missionTotals(o), PALETTE[3] as string),
    rows: (o) => [['mission id', 'mission', 'completions'], ...o.completions.missions.map((m) => [m.missionId, m.name, m.total])],
    summary: (o) => listSummary('Completions per mission', o, missionTotals(o)),
    note: (o) =>
      o.completions.missions.length === 0 ? 'The program has no missions.' : o.completions.total === 0 ? 'No mission completed in this range.' : undefined,
    bare: (o) => o.completions.missions.length === 0,
    height: (o) => namesHeight(o.completions.missions.length),
  },
  {
    id: 'top-missions',
    title: 'Top missions',
    description: 'The ten missions completed most in the range.',
    spec: (o) => namesSpec(topTotals(o), PALETTE[1] as string),
    rows: (o) => [['rank', 'mission id', 'mission', 'completions'], ...o.topMissions.map((m, i) => [i + 1, m.missionId, m.name, m.completions])],
    summary: (o) => listSummary('Top missions', o, topTotals(o)),
    note: (o) => (o.topMissions.length === 0 ? 'No mission completed in this range.' : undefined),
    bare: (o) => o.topMissions.length === 0,
    height: (o) => namesHeight(o.topMissions.length),
  },
  {
    id: 'levels-reached',
    title: 'Levels reached',
    description: 'How many times users moved up into each level in the range.',
    spec: (o) => ({
      type: 'bar',
      data: {
        labels: o.levels.map((l) => l.name),
        datasets: [{ label: 'Times reached', data: o.levels.map((l) => l.total), backgroundColor: PALETTE[4], maxBarThickness: 56 }],
      },
    }),
    rows: (o) => [['level id', 'level', 'times reached'], ...o.levels.map((l) => [l.levelId, l.name, l.total])],
    summary: (o) =>
      listSummary(
        'Levels reached',
        o,
        o.levels.map((l) => ({ name: l.name, value: l.total })),
      ),
    note: (o) => (o.levels.length === 0 ? 'The program has no levels.' : o.levels.every((l) => l.total === 0) ? 'No level reached in this range.' : undefined),
    bare: (o) => o.levels.length === 0,
  },
  {
    id: 'webhook-deliveries-per-day',
    title: 'Webhook deliveries per day',
    description: 'Deliveries made each day, by their status now: failed ones were given up after three days of retries.',
    spec: (o) =>
      daysSpec(
        o,
        (['delivered', 'failed', 'pending'] as const).map((status) => ({
          label: status[0]?.toUpperCase() + status.slice(1),
          data: o.webhooks[status],
          backgroundColor: STATUS_COLOURS[status],
          maxBarThickness: 36,
        })),
        { stacked: true, legend: true },
      ),
    rows: (o) => [
      ['day', 'delivered', 'failed', 'pending'],
      ...o.days.map((day, i) => [day, o.webhooks.delivered[i] ?? 0, o.webhooks.failed[i] ?? 0, o.webhooks.pending[i] ?? 0]),
    ],
    summary: (o) =>
      `Webhook deliveries over ${range(o)}: ${number(sum(o.webhooks.delivered))} delivered, ${number(sum(o.webhooks.failed))} failed, ${number(sum(o.webhooks.pending))} pending.`,
    note: (o) => (sum(o.webhooks.delivered) + sum(o.webhooks.failed) + sum(o.webhooks.pending) === 0 ? 'No webhook delivery in this range.' : undefined),
  },
];
