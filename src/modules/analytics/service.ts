// The console's overview (docs/analytics.md): a site's figures per day of its time zone over the
// last 7, 30 or 90 days, from a daily rollup rather than from the history. The ledger writes, with
// every write set, what the set changed in the figures (src/modules/ledger/analytics-changes.ts);
// a fold adds those changes to the rollup and deletes them in one transaction, so that each counts
// once, whichever node wrote it and in whatever order transactions committed. Folds run in the
// background on every server, and for the site being viewed before each view, so that today is
// current. Webhook deliveries are followed the same way: the webhooks module writes the changes of
// their statuses. A site seen for the first time, or whose time zone changed, has its rollup built
// from its history (the days an overview can show). The webhook backlog is read as it is now.
import { dayOfNumber, localDay, numberOfDay, offsetSpans } from '../../engine/calendar.js';
import type { ActionService } from '../actions/service.js';
import type { ProgramService } from '../program/service.js';
import type { WebhookAdminService } from '../webhooks/service.js';
import { parseChanges, type ChangeKind } from '../../db/analytics-changes.js';
import type { AnalyticsSeries, AnalyticsSitesTable } from '../../db/schema.js';
import type { Trx } from '../../db/index.js';
import { Periodic } from '../../infra/periodic.js';
import { dayWindow, MAX_DAYS, perDay, startOfDay, type DayWindow, type Range } from './days.js';
import type { AnalyticsRepository, DayFigure, HistoryFigure } from './repository.js';

const SERIES: Record<ChangeKind, AnalyticsSeries> = { a: 'actions', p: 'points', c: 'completions', l: 'levels', w: 'webhooks' };
/** Changes taken per transaction of a fold. */
const FOLD_BATCH = 2_000;
/** Builds refused by PostgreSQL (another fold changed what a build's snapshot read) are made again this many times. */
const BUILD_ATTEMPTS = 5;
/** Days kept past the longest range before the fold drops them. */
const PRUNE_AFTER = 30;
/** A time zone change: daily_active_users may hold days of the old zone until two days later (actions may be dated a day ahead). */
const USERS_SETTLE_DAYS = 2;
/** Missions in topMissions. */
const TOP = 10;

export interface FigureSeries {
  total: number;
  perDay: number[];
}

export interface Overview {
  timezone: string;
  days: string[];
  generatedAt: string;
  actions: FigureSeries & { byAction: Array<{ action: string } & FigureSeries> };
  activeUsers: { perDay: number[] };
  points: Array<{ category: string; isDefault: boolean } & FigureSeries>;
  completions: FigureSeries & { missions: Array<{ missionId: string; name: string } & FigureSeries> };
  topMissions: Array<{ missionId: string; name: string; completions: number }>;
  levels: Array<{ levelId: string; name: string } & FigureSeries>;
  webhooks: {
    delivered: number[];
    failed: number[];
    pending: number[];
    backlog: { pending: number; retrying: number; oldestPendingAt: string | null; unrouted: number };
  };
}

export interface AnalyticsOptions {
  clock: () => number;
  /** How often the background fold looks for changes (ms). */
  foldIntervalMs: number;
  onError: (error: unknown) => void;
}

export class AnalyticsService {
  readonly #folding: Periodic;

  constructor(
    private readonly repository: AnalyticsRepository,
    private readonly programs: Pick<ProgramService, 'snapshot'>,
    /** Users marked active per day (daily_active_users, the actions module's). */
    private readonly actions: Pick<ActionService, 'activeUsers'>,
    private readonly webhooks: Pick<WebhookAdminService, 'deliveriesByDay' | 'backlog'>,
    private readonly options: AnalyticsOptions,
  ) {
    this.#folding = new Periodic(options.foldIntervalMs, () => this.foldAll(), options.onError);
  }

  /** GET /admin/analytics/overview: the site's figures of the last `range` days, today's as of now. */
  async overview(siteId: string, range: Range): Promise<Overview> {
    const { program } = await this.programs.snapshot(siteId);
    const zone = program.site.timezone;
    const now = this.options.clock();
    await this.foldSite(siteId, zone, now);
    const window = dayWindow(now, zone, range);
    const [figures, backlog] = await Promise.all([
      this.repository.figures(siteId, window.days[0] as string, window.days[window.days.length - 1] as string),
      this.webhooks.backlog(siteId),
    ]);
    const by = bySeries(figures);
    const series = (values: ReadonlyMap<string, number> | undefined): FigureSeries => {
      const daily = perDay(window.days, values);
      return { total: daily.reduce((a, b) => a + b, 0), perDay: daily };
    };
    const keyed = <T extends { key: string }>(entities: readonly T[], series: AnalyticsSeries) => withUnknown(entities, by.get(series));

    const actions = [...(by.get('actions') ?? new Map<string, Map<string, number>>())]
      .map(([action, days]) => ({ action, ...series(days) }))
      .sort((a, b) => b.total - a.total || (a.action < b.action ? -1 : 1));
    const missions = keyed(
      program.missions.map((m) => ({ key: m.id, name: m.name })),
      'completions',
    ).map(({ key, name }) => ({ missionId: key, name: name ?? key, ...series(by.get('completions')?.get(key)) }));
    return {
      timezone: zone,
      days: window.days,
      generatedAt: new Date(now).toISOString(),
      actions: { ...sum(window, actions), byAction: actions },
      activeUsers: { perDay: perDay(window.days, by.get('users')?.get('')) },
      points: keyed(
        program.pointCategories.map((c) => ({ key: c.name, isDefault: c.isDefault === true })),
        'points',
      ).map(({ key, isDefault }) => ({ category: key, isDefault: isDefault ?? false, ...series(by.get('points')?.get(key)) })),
      completions: { ...sum(window, missions), missions },
      topMissions: missions
        .filter((m) => m.total > 0)
        .sort((a, b) => b.total - a.total || (a.missionId < b.missionId ? -1 : 1))
        .slice(0, TOP)
        .map((m) => ({ missionId: m.missionId, name: m.name, completions: m.total })),
      levels: keyed(
        program.levels.map((l) => ({ key: l.id, name: l.name })),
        'levels',
      ).map(({ key, name }) => ({ levelId: key, name: name ?? key, ...series(by.get('levels')?.get(key)) })),
      webhooks: {
        delivered: perDay(window.days, by.get('webhooks')?.get('delivered')),
        failed: perDay(window.days, by.get('webhooks')?.get('dead')),
        pending: perDay(window.days, by.get('webhooks')?.get('pending')),
        backlog,
      },
    };
  }

  /** Folds in the background every foldIntervalMs until stop(): every site with changes, and every site never built. */
  start(): void {
    this.#folding.start();
  }

  async stop(): Promise<void> {
    await this.#folding.stop();
  }

  /** One background round: folds (or builds) every site that needs it. */
  async foldAll(): Promise<void> {
    for (const siteId of await this.repository.sitesToFold(100)) {
      if (this.#folding.stopping) return;
      try {
        const { program } = await this.programs.snapshot(siteId);
        await this.foldSite(siteId, program.site.timezone, this.options.clock());
      } catch (error) {
        this.options.onError(error);
      }
    }
  }

  /** Adds the site's changes to its rollup, built first (again) when it was never built or is of another zone than `zone`. */
  async foldSite(siteId: string, zone: string, now: number): Promise<void> {
    for (;;) {
      const step = await this.repository.transaction(async (trx): Promise<{ build: AnalyticsSitesTable | null } | { more: boolean }> => {
        await this.repository.lockSite(trx, siteId);
        const state = await this.repository.state(trx, siteId);
        if (state === undefined || state.timezone !== zone) return { build: state ?? null };
        const taken = await this.repository.takeChanges(trx, siteId, FOLD_BATCH);
        if (taken.length > 0) await this.apply(trx, state, zone, taken);
        const keepFrom = dayOfNumber(numberOfDay(localDay(now, zone)) - (MAX_DAYS - 1));
        if (state.built_from < dayOfNumber(numberOfDay(keepFrom) - PRUNE_AFTER)) await this.repository.prune(trx, siteId, keepFrom);
        return { more: taken.length === FOLD_BATCH };
      });
      if ('build' in step) await this.build(siteId, zone, now, step.build);
      else if (!step.more) return;
    }
  }

  /** Adds changes to the rollup (days before the first it keeps are not shown: skipped), and counts again the active users of the days with actions. */
  private async apply(trx: Trx, state: AnalyticsSitesTable, zone: string, taken: readonly string[]): Promise<void> {
    const figures = new Map<string, DayFigure>();
    const actionDays = new Set<string>();
    for (const text of taken) {
      for (const [kind, at, key, amount] of parseChanges(text)) {
        const day = localDay(at, zone);
        if (day < state.built_from) continue;
        const series = SERIES[kind];
        const id = `${day}\u0000${series}\u0000${key}`;
        const known = figures.get(id);
        if (known !== undefined) known.value += amount;
        else figures.set(id, { day, series, key, value: amount });
        if (kind === 'a') actionDays.add(day);
      }
    }
    await this.repository.addFigures(trx, state.site_id, [...figures.values()]);
    const users: DayFigure[] = [];
    for (const day of actionDays) users.push({ day, series: 'users', key: '', value: await this.activeUsers(trx, state, zone, day) });
    await this.repository.setFigures(trx, state.site_id, users);
  }

  /** Users active on `day`: as the action path marked them, unless the zone changed since (then from the history). */
  private async activeUsers(trx: Trx, state: AnalyticsSitesTable, zone: string, day: string): Promise<number> {
    if (day >= state.users_from) return (await this.actions.activeUsers(state.site_id, day, day, trx))[0]?.users ?? 0;
    const from = startOfDay(day, zone);
    const to = startOfDay(dayOfNumber(numberOfDay(day) + 1), zone);
    return (await this.repository.activeUsers(trx, state.site_id, from, to, offsetSpans(from, to, zone)))[0]?.value ?? 0;
  }

  /**
   * Builds the site's rollup in `zone` from its history, for the days an overview can show, in one
   * snapshot: the changes it deletes are those whose rows it read. `previous`: the state it
   * replaces (null: the site was never built, and daily_active_users is taken to be of `zone`).
   */
  private async build(siteId: string, zone: string, now: number, previous: AnalyticsSitesTable | null): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.repository.snapshotTransaction(async (trx) => {
          await this.repository.lockSite(trx, siteId);
          // Another fold may have built it meanwhile.
          const state = await this.repository.state(trx, siteId);
          if (state !== undefined && state.timezone === zone) return;
          const window = dayWindow(now, zone, MAX_DAYS);
          const today = window.first + MAX_DAYS - 1;
          // Actions may be dated up to a day ahead: the offsets run to the end of tomorrow.
          const spans = offsetSpans(window.from, startOfDay(dayOfNumber(today + 2), zone), zone);
          const builtFrom = window.days[0] as string;
          const usersFrom = previous === null && state === undefined ? '' : dayOfNumber(today + USERS_SETTLE_DAYS);
          const figures: DayFigure[] = [];
          const add = (series: AnalyticsSeries, rows: readonly HistoryFigure[]) => {
            for (const row of rows) if (row.value !== 0) figures.push({ day: dayOfNumber(row.day), series, key: row.key, value: row.value });
          };
          add('actions', await this.repository.actions(trx, siteId, window.from, spans));
          add('points', await this.repository.points(trx, siteId, window.from, spans));
          add('completions', await this.repository.completions(trx, siteId, window.from, spans));
          add('levels', await this.repository.levels(trx, siteId, window.from, spans));
          const deliveries = await this.webhooks.deliveriesByDay(trx, siteId, window.from, spans);
          for (const [status, pick] of [
            ['delivered', 'delivered'],
            ['dead', 'failed'],
            ['pending', 'pending'],
          ] as const) {
            add(
              'webhooks',
              [...deliveries].map(([day, counts]) => ({ day, key: status, value: counts[pick] })),
            );
          }
          // Active users: from the history before usersFrom, as the action path marked them after.
          const usersFromAt = usersFrom > builtFrom ? startOfDay(usersFrom, zone) : window.from;
          if (usersFromAt > window.from) add('users', await this.repository.activeUsers(trx, siteId, window.from, usersFromAt, spans));
          const marked = await this.actions.activeUsers(siteId, usersFrom > builtFrom ? usersFrom : builtFrom, '9999-12-31', trx);
          for (const { day, users } of marked) figures.push({ day, series: 'users', key: '', value: users });
          await this.repository.replace(trx, { site_id: siteId, timezone: zone, built_from: builtFrom, users_from: usersFrom, built_at: now }, figures);
        });
        return;
      } catch (error) {
        if (attempt >= BUILD_ATTEMPTS || (error as { code?: unknown }).code !== '40001') throw error;
      }
    }
  }
}

/** The figures by series, key and day. */
function bySeries(figures: readonly DayFigure[]): Map<AnalyticsSeries, Map<string, Map<string, number>>> {
  const out = new Map<AnalyticsSeries, Map<string, Map<string, number>>>();
  for (const { series, key, day, value } of figures) {
    let keys = out.get(series);
    if (keys === undefined) out.set(series, (keys = new Map()));
    let days = keys.get(key);
    if (days === undefined) keys.set(key, (days = new Map()));
    days.set(day, (days.get(day) ?? 0) + Number(value));
  }
  return out;
}

/** The program's entities in its order, then keys the figures have that the program no longer names (a deleted mission), by key. */
function withUnknown<T extends { key: string }>(
  entities: readonly T[],
  figures: ReadonlyMap<string, unknown> | undefined,
): Array<Partial<T> & { key: string }> {
  const known = new Set(entities.map((e) => e.key));
  const unknown = [...(figures?.keys() ?? [])].filter((key) => !known.has(key)).sort();
  return [...entities, ...unknown.map((key) => ({ key }) as Partial<T> & { key: string })];
}

/** The day-by-day sum of several series. */
function sum(window: DayWindow, parts: ReadonlyArray<FigureSeries>): FigureSeries {
  const daily = window.days.map((_, i) => parts.reduce((total, part) => total + (part.perDay[i] ?? 0), 0));
  return { total: daily.reduce((a, b) => a + b, 0), perDay: daily };
}
