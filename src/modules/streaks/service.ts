// Streaks (docs/streaks.md): what an action adds to them in its decision (the day it counts, the
// milestones its run reaches, streak.extended), a user's streaks as of now (GET
// /users/{u}/streaks), and the sweep that announces freezes used and runs broken once a period
// ends without an action (streak.frozen, streak.broken). A streak is a pure function of the
// periods counted (src/engine/elements/streaks.ts): only those, the milestones paid and the
// notices sent are stored.
import { uuidv7 } from '../../uuid.js';
import {
  countedDay,
  dayNumberOf,
  firstDayOf,
  missedPeriods,
  periodEnd,
  periodLabel,
  periodOfDay,
  runHolding,
  streakRuns,
  streakState,
  type StreakRun,
} from '../../engine/elements/streaks.js';
import type { Database, Trx } from '../../db/index.js';
import type { PointsLedgerTable } from '../../db/schema.js';
import { Periodic } from '../../infra/periodic.js';
import { mirrorPoints } from '../ledger/award-entries.js';
import type { LedgerRepository } from '../ledger/repository.js';
import { lifetimeDelta, type PartyKey, type WriteSet } from '../ledger/write-set.js';
import type { ProgramDocument, StreakDocument } from '../program/model.js';
import type { ProgramService } from '../program/service.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import { StreaksRepository } from './repository.js';

const repository = new StreaksRepository();

/** Periods before the last one a sweep looks back over, besides a streak's most freezes: a sweep that did not run for longer misses those runs' notices. */
const SWEEP_LOOKBACK = 7;

/** The streaks an action or a mission counts for, per program (built once per program document). */
interface StreakIndex {
  byAction: Map<string, StreakDocument[]>;
  byMission: Map<string, StreakDocument[]>;
}
const indexes = new WeakMap<ProgramDocument, StreakIndex>();

function indexOf(program: ProgramDocument): StreakIndex {
  let index = indexes.get(program);
  if (index === undefined) {
    index = { byAction: new Map(), byMission: new Map() };
    for (const streak of program.streaks ?? []) {
      const [map, key] = streak.action !== undefined ? [index.byAction, streak.action.toLowerCase()] : [index.byMission, streak.mission as string];
      map.set(key, [...(map.get(key) ?? []), streak]);
    }
    indexes.set(program, index);
  }
  return index;
}

/** Whether logging the action may count for a streak (on it, or on a mission it advances): its decision then needs the user's streak days. */
export function actionHasStreaks(snapshot: ProgramSnapshot, actionName: string): boolean {
  if (snapshot.program.streaks === undefined || snapshot.program.streaks.length === 0) return false;
  const index = indexOf(snapshot.program);
  const action = actionName.toLowerCase();
  return index.byAction.has(action) || (snapshot.missionsByAction.get(action) ?? []).some((mission) => index.byMission.has(mission.id));
}

/** An action's recorded decision, as the streaks read it. */
export interface StreakAction {
  trx: Trx;
  snapshot: ProgramSnapshot;
  now: number;
  eventId: string;
  /** The user (streaks are a user's). */
  party: PartyKey;
  action: string;
  /** When it happened: backdated actions count in their own period. */
  timestamp: number;
  /** The missions the action completed. */
  completed: readonly string[];
  writes: WriteSet;
  /**
   * The user's counted days (ascending) in each streak of the program, by streak: the decision's
   * cached state, or read (userStreakDays()). The days the action counts are added to them.
   */
  days: () => Promise<Map<string, number[]>>;
}

/** A milestone reward credited by an action. */
export interface StreakCredit {
  category: string;
  requested: number;
  credited: number;
}

/** A milestone an action's run reached and was paid. */
export interface MilestonePaid {
  length: number;
  points: Array<{ category: string; amount: number }>;
  badge: string | null;
}

/** A streak an action made a new period count for, as of now (the action's answer and streak.extended say it). */
export interface StreakExtended {
  id: string;
  name: string;
  /** The first local day of the period that newly counts. */
  period: string;
  current: number;
  longest: number;
  freezesLeft: number;
  periodEnds: string;
  milestones: MilestonePaid[];
}

/**
 * One streak day an action counted, kept with its event (ActionOutcome.streakDays, never sent) so
 * that reversing the action, or removing one of its completions, un-counts exactly that, whatever
 * the program or its time zone say since (docs/streaks.md).
 */
export interface StreakDayCounted {
  streakId: string;
  /** The site-local day number counted. */
  day: number;
  /** 1: the streak counts the action itself. */
  action?: number;
  /** The completions of each mission the action completed that the streak counts. */
  missions?: Record<string, number>;
}

/** What an action did to the user's streaks: the milestone points it credited, the streaks it extended, and the days it counted. */
export interface StreaksCounted {
  credits: StreakCredit[];
  extended: StreakExtended[];
  days: StreakDayCounted[];
}

/**
 * Adds to the action's write set what it does to the user's streaks: the day counted (one more
 * action in it), and, when its period newly counts, the milestones the run reaches that were not
 * paid in it (points, badge) and streak.extended. Reads nothing and adds nothing for an action no
 * streak counts. Returns the points credited and the streaks extended (undefined: no streak counts
 * the action).
 */
export async function countStreaks(input: StreakAction): Promise<StreaksCounted | undefined> {
  const { snapshot, party } = input;
  if (snapshot.program.streaks === undefined || snapshot.program.streaks.length === 0 || party.type !== 'user') return undefined;
  const index = indexOf(snapshot.program);
  const timezone = snapshot.program.site.timezone;
  const day = countedDay(input.timestamp, input.now, timezone);
  const counted = new Map<StreakDocument, StreakDayCounted>();
  const record = (streak: StreakDocument): StreakDayCounted => {
    let known = counted.get(streak);
    if (known === undefined) counted.set(streak, (known = { streakId: streak.id, day }));
    return known;
  };
  for (const streak of index.byAction.get(input.action.toLowerCase()) ?? []) record(streak).action = 1;
  for (const missionId of input.completed) {
    for (const streak of index.byMission.get(missionId) ?? []) {
      const missions = (record(streak).missions ??= {});
      missions[missionId] = (missions[missionId] ?? 0) + 1;
    }
  }
  if (counted.size === 0) return undefined;

  const today = dayNumberOf(input.now, timezone);
  const days = await input.days();
  const credits: StreakCredit[] = [];
  const extended: StreakExtended[] = [];
  for (const [streak, kept] of counted) {
    input.writes.countStreakDay(party, streak.id, day, actionsOf(kept));
    const period = periodOfDay(day, streak.period);
    const now = periodOfDay(today, streak.period);
    const known = days.get(streak.id) ?? [];
    const periods = known.map((d) => periodOfDay(d, streak.period));
    days.set(streak.id, withDay(known, day));
    // Counted already: nothing changes but the count.
    if (periods.includes(period)) continue;
    periods.push(period);
    periods.sort((a, b) => a - b);
    const run = runHolding(streakRuns(periods, streak), period) as StreakRun;
    const paid = await payMilestones(input, streak, run, credits);
    const state = streakState(periods, streak, now);
    const { id, name, ...extension }: StreakExtended = {
      id: streak.id,
      name: streak.name,
      period: periodLabel(period, streak.period),
      current: state.current,
      longest: state.longest,
      freezesLeft: state.freezesLeft,
      periodEnds: new Date(periodEnd(now, streak.period, timezone)).toISOString(),
      milestones: paid,
    };
    extended.push({ id, name, ...extension });
    input.writes.enqueue(
      party,
      { type: 'streak.extended', occurredAt: input.timestamp, data: { streak: { id, name }, ...extension, actionEventId: input.eventId } },
      input.now,
    );
  }
  return { credits, extended, days: [...counted.values()] };
}

/** How many live actions (the action, its completions) a kept streak day counts. */
function actionsOf(kept: StreakDayCounted): number {
  return (kept.action ?? 0) + Object.values(kept.missions ?? {}).reduce((sum, n) => sum + n, 0);
}

/** The days with `day` among them (ascending). */
function withDay(days: number[], day: number): number[] {
  return days.includes(day) ? days : [...days, day].sort((a, b) => a - b);
}

/** The user's counted days (ascending) in each streak of the program, by streak, as stored. */
export function userStreakDays(trx: Trx, snapshot: ProgramSnapshot, userId: string): Promise<Map<string, number[]>> {
  return repository.days(
    trx,
    snapshot.siteId,
    userId,
    (snapshot.program.streaks ?? []).map((streak) => streak.id),
  );
}

/**
 * Takes back what a reversed action or a removed completion counted (one action less in its day;
 * the day stops counting at none), into the reversal's write set: exactly what the event kept it
 * counted (`kept`: its outcome's streakDays; for a completion, one of its mission's), whatever the
 * program or its time zone say since. Milestones paid stay paid (docs/streaks.md).
 */
export function uncountStreaks(
  writes: WriteSet,
  party: PartyKey,
  counted: { action: string } | { missionId: string },
  kept: readonly StreakDayCounted[],
): void {
  for (const day of kept) {
    const actions = 'action' in counted ? (day.action ?? 0) : Math.min(1, day.missions?.[counted.missionId] ?? 0);
    if (actions > 0) writes.uncountStreakDay(party, day.streakId, day.day, actions);
  }
}

/**
 * Pays the milestones the run reaches that no run overlapping it was paid (once per run, also
 * when a backdated action joins two runs or a reversal splits one), into the write set.
 */
async function payMilestones(input: StreakAction, streak: StreakDocument, run: StreakRun, credits: StreakCredit[]): Promise<MilestonePaid[]> {
  const reached = streak.milestones.filter((milestone) => run.reached.has(milestone.length));
  if (reached.length === 0) return [];
  const { trx, party, writes, snapshot, eventId, now } = input;
  const paid = await repository.milestonesPaid(trx, party.siteId, party.id, streak.id);
  const answer = [];
  for (const milestone of reached) {
    if (paid.some((p) => p.length === milestone.length && p.runStart <= run.last && p.reached >= run.start)) continue;
    const causeId = `${streak.id}:${run.start}:${milestone.length}`;
    for (const reward of milestone.rewards.points) {
      const entry: PointsLedgerTable = {
        site_id: party.siteId,
        entry_id: `pts_${uuidv7()}`,
        party_type: 'user',
        party_id: party.id,
        category: reward.category,
        requested: reward.amount,
        credited: reward.amount,
        cause: 'streak',
        cause_id: causeId,
        event_id: eventId,
        reason: null,
        occurred_at: input.timestamp,
        recorded_at: now,
      };
      writes.post(entry, lifetimeDelta(entry));
      await mirrorPoints(trx, writes, snapshot.program.awardSettings, entry);
      credits.push({ category: reward.category, requested: reward.amount, credited: reward.amount });
    }
    const badgeId = milestone.rewards.badge;
    if (badgeId !== undefined) {
      writes.addTrophy(party, badgeId, input.timestamp);
      const badge = snapshot.program.badges.find((b) => b.id === badgeId);
      writes.enqueue(
        party,
        {
          type: 'badge.earned',
          occurredAt: input.timestamp,
          data: { badge: { id: badgeId, name: badge?.name ?? badgeId }, streakId: streak.id, actionEventId: eventId },
        },
        now,
      );
    }
    const row = {
      site_id: party.siteId,
      user_id: party.id,
      streak_id: streak.id,
      length: milestone.length,
      run_start: run.start,
      reached: run.reached.get(milestone.length) as number,
      event_id: eventId,
      badge_id: badgeId ?? null,
      earned_at: input.timestamp,
      paid_at: now,
    };
    writes.payStreakMilestone(row);
    answer.push({ length: milestone.length, points: milestone.rewards.points.map((p) => ({ ...p })), badge: badgeId ?? null });
  }
  return answer;
}

/** A user's streak as GET /users/{u}/streaks answers it. */
export interface UserStreak {
  id: string;
  name: string;
  description?: string;
  iconUrl?: string;
  period: 'day' | 'week';
  current: number;
  longest: number;
  freezesLeft: number;
  freezesMax: number;
  doneThisPeriod: boolean;
  periodStart: string;
  periodEnds: string;
  nextMilestone: { length: number; rewards: { points: Array<{ category: string; amount: number }>; badge?: string } } | null;
}

export interface StreakServiceOptions {
  sweepIntervalMs: number;
  onError: (error: unknown) => void;
}

export class StreakService {
  readonly #sweeping: Periodic;
  readonly #onError: (error: unknown) => void;
  /**
   * Per site and streak, the period (with the program version) this node's last complete sweep of
   * it was in: until a period boundary passes (or the program changes), nothing more is due.
   */
  readonly #swept = new Map<string, string>();

  constructor(
    private readonly database: Pick<Database, 'db' | 'transaction'>,
    private readonly ledger: LedgerRepository,
    private readonly programs: ProgramService,
    private readonly clock: () => number,
    options: StreakServiceOptions,
  ) {
    this.#onError = options.onError;
    this.#sweeping = new Periodic(
      options.sweepIntervalMs,
      async () => {
        await this.sweep(this.clock());
      },
      options.onError,
    );
  }

  /** Starts the background sweep (servers). */
  start(): void {
    this.#sweeping.start();
  }

  stop(): Promise<void> {
    return this.#sweeping.stop();
  }

  /** The user's streaks as of now, in program order. */
  async ofUser(siteId: string, userId: string): Promise<UserStreak[]> {
    const { program } = await this.programs.snapshot(siteId);
    const streaks = program.streaks ?? [];
    if (streaks.length === 0) return [];
    const now = this.clock();
    const timezone = program.site.timezone;
    const today = dayNumberOf(now, timezone);
    const days = await repository.days(
      { db: this.database.db },
      siteId,
      userId,
      streaks.map((s) => s.id),
    );
    return streaks.map((streak) => {
      const period = periodOfDay(today, streak.period);
      const state = streakState(
        (days.get(streak.id) ?? []).map((d) => periodOfDay(d, streak.period)),
        streak,
        period,
      );
      const next = streak.milestones.filter((m) => m.length > state.current).sort((a, b) => a.length - b.length)[0];
      return {
        id: streak.id,
        name: streak.name,
        ...(streak.description !== undefined ? { description: streak.description } : {}),
        ...(streak.iconUrl !== undefined ? { iconUrl: streak.iconUrl } : {}),
        period: streak.period,
        current: state.current,
        longest: state.longest,
        freezesLeft: state.freezesLeft,
        freezesMax: streak.freezes.max,
        doneThisPeriod: state.done,
        periodStart: periodLabel(period, streak.period),
        periodEnds: new Date(periodEnd(period, streak.period, timezone)).toISOString(),
        nextMilestone: next === undefined ? null : { length: next.length, rewards: next.rewards },
      };
    });
  }

  /**
   * Announces, once, each freeze a missed period used (streak.frozen) and each run a missed period
   * broke (streak.broken), for runs whose last counted period is before the previous one. Safe on
   * several nodes at once: a user's notices are decided with the user locked, and keyed by period.
   * A user whose notices fail is reported (onError) and skipped. A site's streak is swept again
   * only once a period of it ended (or the program changed) since this node last swept it whole,
   * and only users not announced yet are read. Returns how many notices it sent.
   */
  async sweep(now: number): Promise<number> {
    let sent = 0;
    for (const siteId of await repository.sites({ db: this.database.db })) {
      if (this.#sweeping.stopping) break;
      const snapshot = await this.programs.snapshot(siteId).catch(() => undefined);
      if (snapshot === undefined) continue;
      const today = dayNumberOf(now, snapshot.program.site.timezone);
      for (const streak of snapshot.program.streaks ?? []) {
        const current = periodOfDay(today, streak.period);
        const key = `${siteId}\u0000${streak.id}`;
        const swept = `${current}:${snapshot.version}`;
        if (this.#swept.get(key) === swept) continue;
        const range = {
          from: firstDayOf(current - 2 - streak.freezes.max - SWEEP_LOOKBACK, streak.period),
          to: firstDayOf(current - 1, streak.period) - 1,
          before: firstDayOf(current, streak.period),
          lastMissed: current - 1,
          period: streak.period,
        };
        let complete = true;
        for (const { userId } of await repository.lastDaysBetween({ db: this.database.db }, siteId, streak.id, range)) {
          if (this.#sweeping.stopping) break;
          // One user's failure is reported and skipped: the others' notices still go out.
          sent += await this.#notify(snapshot, streak, { siteId, type: 'user', id: userId }, current, now).catch((error: unknown) => {
            complete = false;
            this.#onError(error);
            return 0;
          });
        }
        // A user skipped (or a round cut short) is tried again next round.
        if (complete && !this.#sweeping.stopping) this.#swept.set(key, swept);
      }
    }
    return sent;
  }

  /** Sends the user the notices their last run is owed as of the period `current`, under the user's lock; how many. */
  async #notify(snapshot: ProgramSnapshot, streak: StreakDocument, party: PartyKey, current: number, now: number): Promise<number> {
    const timezone = snapshot.program.site.timezone;
    // Read first without a lock: most users were announced already.
    if ((await dueNotices({ db: this.database.db }, party, streak, current, timezone)).length === 0) return 0;
    return this.database.transaction(async (trx) => {
      const { answer } = await this.ledger.write(trx, { parties: [party], now, destinations: snapshot.destinations }, async (locked) => {
        const due = await dueNotices(trx, party, streak, current, timezone);
        for (const notice of due) {
          locked.writes.addStreakNotice({
            site_id: party.siteId,
            user_id: party.id,
            streak_id: streak.id,
            kind: notice.kind,
            period: notice.period,
            created_at: now,
          });
          locked.writes.enqueue(
            party,
            { type: `streak.${notice.kind}`, occurredAt: notice.at, data: { streak: { id: streak.id, name: streak.name }, ...notice.data } },
            now,
          );
        }
        return { writes: locked.writes, answer: due.length };
      });
      return answer;
    });
  }
}

interface DueNotice {
  kind: 'frozen' | 'broken';
  period: number;
  /** When it happened: the end of the missed period. */
  at: number;
  data: Record<string, unknown>;
}

/** The notices the user's last run is owed as of the period `current` and not yet sent. */
async function dueNotices(trx: Trx, party: PartyKey, streak: StreakDocument, current: number, timezone: string): Promise<DueNotice[]> {
  const days = await repository.days(trx, party.siteId, party.id, [streak.id]);
  const periods = (days.get(streak.id) ?? []).map((d) => periodOfDay(d, streak.period)).filter((p) => p < current);
  const run = streakRuns(periods, streak).at(-1);
  if (run === undefined || run.last >= current - 1) return [];
  const { frozen, brokenAt } = missedPeriods(run, current);
  const sent = await repository.notices(trx, party.siteId, party.id, streak.id, run.last + 1);
  const unsent = (kind: string, period: number) => !sent.some((n) => n.kind === kind && n.period === period);
  const due: DueNotice[] = frozen
    .map((period, i) => ({
      kind: 'frozen' as const,
      period,
      at: periodEnd(period, streak.period, timezone),
      data: { period: periodLabel(period, streak.period), current: run.length, freezesLeft: run.freezesLeft - i - 1 },
    }))
    .filter((notice) => unsent(notice.kind, notice.period));
  if (brokenAt !== undefined && unsent('broken', brokenAt)) {
    due.push({
      kind: 'broken',
      period: brokenAt,
      at: periodEnd(brokenAt, streak.period, timezone),
      data: {
        length: run.length,
        runStart: periodLabel(run.start, streak.period),
        lastPeriod: periodLabel(run.last, streak.period),
        missedPeriod: periodLabel(brokenAt, streak.period),
      },
    });
  }
  return due;
}
