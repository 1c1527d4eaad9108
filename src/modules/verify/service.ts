// `questline verify` (SPEC §12: the ledger is the source of truth). Recomputes, per site, what the
// engine keeps up to date incrementally, and reports every difference (drift):
// - balances and lifetime points from the points ledger;
// - the daily and yearly totals caps are checked against, from the ledger's mission credits and
//   their reversals, in the site's time zone;
// - every completion's credits against its state: a removed completion's credits are reversed in
//   full (less what of them had expired), a live one's not at all;
// - the number of live completions per mission against its repeat rules, and supply used;
// - trophy cases from the live completions that awarded each badge, and the prizes that did;
// - each closed leaderboard window's ranks and prizes from its kept results, and what the ledger
//   paid for it (./prize-payouts.ts);
// - levels (levelType points) from lifetime points in the default category;
// - recognition budgets from the gifts charged to each window, and each gift's credits from its
//   recipients;
// - award account balances from their statements, and each redeemed on-the-spot code's credit;
// - point expiries: each party's lots replayed oldest first (docs/points.md), every expiry entry
//   against what remained then of the points earned before its instant.
import { replayLots, type LedgerMove, type Lots } from '../../engine/elements/expiry.js';
// - streaks: each counted day's count from the live actions and completions that count for it,
//   and each streak credit against a milestone paid (docs/streaks.md).
import { calendarWindow, dayOfNumber } from '../../engine/calendar.js';
import type { StreakDayCounted } from '../streaks/service.js';
import { levelFor } from '../../engine/elements/levels.js';
import type { Db } from '../../db/index.js';
import { lifetimeDelta } from '../ledger/write-set.js';
import type { ProgramService } from '../program/service.js';
import type { MissionDocument } from '../program/model.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import { verifyPrizes, type PrizeBadge } from './prize-payouts.js';
import { VerifyRepository } from './repository.js';

export interface Drift {
  siteId: string;
  check:
    | 'balance'
    | 'lifetime'
    | 'cap_totals'
    | 'completion_points'
    | 'completion_count'
    | 'supply'
    | 'trophies'
    | 'level'
    | 'budget'
    | 'recognition_points'
    | 'award_balance'
    | 'ots_credit'
    | 'expiry'
    | 'streak_days'
    | 'streak_milestone'
    | 'prize';
  /** `user:ann`, `group:g-1`, or the mission for site-wide checks. */
  subject: string;
  detail: string;
  expected: number | string | null;
  actual: number | string | null;
}

export interface VerifyReport {
  sites: number;
  checked: { parties: number; ledgerEntries: number; completions: number };
  drift: Drift[];
}

const PAGE = 10_000;

/** Reports one difference found in the site being checked. */
type Report = (drift: Omit<Drift, 'siteId'>) => void;

/** What the ledger says, per `party\u0000category`: balance and lifetime; per cap key, the total earned. */
interface LedgerTotals {
  balances: Map<string, { balance: number; lifetime: number }>;
  capTotals: Map<string, number>;
  /** Per `party\u0000category` of a category with an expiry rule or an expiry: its entries, to replay. */
  expiring: Map<string, Array<LedgerMove & { entryId: string }>>;
}

export class VerifyService {
  readonly #repository: VerifyRepository;

  constructor(
    db: Db,
    private readonly programs: ProgramService,
  ) {
    this.#repository = new VerifyRepository(db);
  }

  async verify(siteIds?: readonly string[]): Promise<VerifyReport> {
    const sites = siteIds ?? (await this.#repository.siteIds());
    const report: VerifyReport = { sites: sites.length, checked: { parties: 0, ledgerEntries: 0, completions: 0 }, drift: [] };
    for (const siteId of sites) await this.#verifySite(siteId, report);
    return report;
  }

  /** Every check of one site, in the order its drift is reported. */
  async #verifySite(siteId: string, report: VerifyReport): Promise<void> {
    const snapshot = await this.programs.snapshot(siteId);
    const drift: Report = (d) => report.drift.push({ siteId, ...d });
    const expiringCategories = new Set(snapshot.program.pointCategories.filter((c) => c.expiry !== undefined).map((c) => c.name));
    const ledger = await this.#readLedger(siteId, snapshot.engine.timezone, expiringCategories, report);
    await this.#verifyBalances(siteId, ledger.balances, report, drift);
    await this.#verifyCapTotals(siteId, ledger.capTotals, drift);
    const replayed = replayExpiring(ledger.expiring);
    await this.#verifyCompletionCredits(siteId, expiredCredits(replayed), report, drift);
    await this.#verifyRepeatsAndSupply(siteId, snapshot.missionsById, drift);
    await this.#verifyTrophies(siteId, await verifyPrizes(this.#repository, siteId, drift), drift);
    await this.#verifyRecognitions(siteId, drift);
    await this.#verifyAwards(siteId, drift);
    await this.#verifyLevels(siteId, snapshot, ledger.balances, drift);
    verifyExpiries(replayed, drift);
    await this.#verifyStreaks(siteId, drift);
  }

  /**
   * Each user's counted streak days from what the live actions (and their live completions) kept
   * they counted (docs/streaks.md), whatever the program says since; and every streak ledger credit
   * against a milestone paid.
   */
  async #verifyStreaks(siteId: string, drift: Report): Promise<void> {
    const stored = await this.#repository.streakDays(siteId);
    if (stored.length > 0) {
      const expected = new Map<string, number>();
      const add = (userId: string, streakId: string, day: number, n: number) => {
        const key = `${userId}\u0000${streakId}\u0000${day}`;
        expected.set(key, (expected.get(key) ?? 0) + n);
      };
      // Per event that kept its streak days: those days, and its live completions per mission.
      const kept = new Map<string, { userId: string; days: StreakDayCounted[]; live: Map<string, number> }>();
      for (const row of await this.#repository.liveActions(siteId)) {
        const days = (JSON.parse(row.outcome) as { streakDays?: StreakDayCounted[] }).streakDays ?? [];
        for (const day of days) add(row.party_id, day.streakId, day.day, day.action ?? 0);
        kept.set(row.event_id, { userId: row.party_id, days, live: new Map() });
      }
      for (const row of await this.#repository.streakCompletions(siteId)) {
        const event = kept.get(row.event_id);
        event?.live.set(row.mission_id, (event.live.get(row.mission_id) ?? 0) + 1);
      }
      for (const { userId, days, live } of kept.values())
        for (const day of days)
          for (const [missionId, n] of Object.entries(day.missions ?? {})) add(userId, day.streakId, day.day, Math.min(n, live.get(missionId) ?? 0));
      const actual = new Map(stored.map((row) => [`${row.user_id}\u0000${row.streak_id}\u0000${Number(row.day)}`, Number(row.actions)]));
      for (const key of new Set([...expected.keys(), ...actual.keys()])) {
        const [userId, streakId, day] = key.split('\u0000') as [string, string, string];
        const want = expected.get(key) ?? 0;
        const have = actual.get(key) ?? 0;
        if (want !== have)
          drift({ check: 'streak_days', subject: `user:${userId}`, detail: `streak ${streakId} on ${dayOfNumber(Number(day))}`, expected: want, actual: have });
      }
    }
    const { paid, credited } = await this.#repository.streakPayments(siteId);
    const paidSet = new Set(paid);
    for (const key of credited) {
      if (paidSet.has(key)) continue;
      const [userId, causeId] = key.split('\u0000') as [string, string];
      drift({
        check: 'streak_milestone',
        subject: `user:${userId}`,
        detail: `streak credit ${causeId} without its milestone paid`,
        expected: null,
        actual: causeId,
      });
    }
  }

  /** The ledger, read in pages: balances, lifetime and cap totals as it says they are. */
  async #readLedger(siteId: string, timezone: string, expiringCategories: ReadonlySet<string>, report: VerifyReport): Promise<LedgerTotals> {
    const balances: LedgerTotals['balances'] = new Map();
    const capTotals: LedgerTotals['capTotals'] = new Map();
    const expiring: LedgerTotals['expiring'] = new Map();
    // A party with an expiry in a category whose rule was removed since: its credits are replayed too.
    const expired = await this.#repository.expiredKeys(siteId);
    let after: string | undefined;
    for (;;) {
      const rows = await this.#repository.ledgerPage(siteId, after, PAGE);
      for (const row of rows) {
        const credited = Number(row.credited);
        const key = `${row.party_type}:${row.party_id}\u0000${row.category}`;
        const totals = balances.get(key) ?? { balance: 0, lifetime: 0 };
        totals.balance += credited;
        totals.lifetime += lifetimeDelta({ cause: row.cause, credited, requested: Number(row.requested) });
        balances.set(key, totals);
        if (expiringCategories.has(row.category) || expired.has(key)) {
          const moves = expiring.get(key) ?? [];
          moves.push({
            entryId: row.entry_id,
            amount: credited,
            recordedAt: Number(row.recorded_at),
            cause: row.cause,
            causeId: row.cause_id,
            earnedBefore: row.cause === 'expiry' ? Date.parse(row.cause_id) : undefined,
          });
          expiring.set(key, moves);
        }
        // Caps count mission credits, and give back the credit a reversal undoes (its requested: also
        // what of it had expired), in the credit's day and year.
        const capped = row.cause === 'reversal' ? Number(row.requested) : credited;
        if ((row.cause === 'mission' && credited > 0) || (row.cause === 'reversal' && capped < 0)) {
          for (const period of ['day', 'year'] as const) {
            const capKey = `${key}\u0000${period}\u0000${calendarWindow(Number(row.occurred_at), period, timezone).start}`;
            capTotals.set(capKey, (capTotals.get(capKey) ?? 0) + capped);
          }
        }
      }
      report.checked.ledgerEntries += rows.length;
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]?.entry_id;
    }
    return { balances, capTotals, expiring };
  }

  /** The stored balances and lifetime points against the ledger's. */
  async #verifyBalances(siteId: string, balances: LedgerTotals['balances'], report: VerifyReport, drift: Report): Promise<void> {
    const stored = await this.#repository.balances(siteId);
    const storedKeys = new Set<string>();
    for (const row of stored) {
      const key = `${row.party_type}:${row.party_id}\u0000${row.category}`;
      storedKeys.add(key);
      const expected = balances.get(key) ?? { balance: 0, lifetime: 0 };
      const subject = `${row.party_type}:${row.party_id}`;
      if (Number(row.balance) !== expected.balance)
        drift({ check: 'balance', subject, detail: `${row.category} balance`, expected: expected.balance, actual: Number(row.balance) });
      if (Number(row.lifetime) !== expected.lifetime)
        drift({ check: 'lifetime', subject, detail: `${row.category} lifetime points`, expected: expected.lifetime, actual: Number(row.lifetime) });
    }
    for (const [key, expected] of balances) {
      if (storedKeys.has(key) || (expected.balance === 0 && expected.lifetime === 0)) continue;
      const [subject, category] = key.split('\u0000') as [string, string];
      drift({ check: 'balance', subject, detail: `${category} balance (no balance row)`, expected: expected.balance, actual: null });
    }
    report.checked.parties += new Set(stored.map((row) => `${row.party_type}:${row.party_id}`)).size;
  }

  /** The daily and yearly totals caps are checked against, from the ledger's credits. */
  async #verifyCapTotals(siteId: string, capTotals: LedgerTotals['capTotals'], drift: Report): Promise<void> {
    const earnings = await this.#repository.capTotals(siteId);
    for (const row of earnings) {
      const key = `${row.party_type}:${row.party_id}\u0000${row.category}\u0000${row.period}\u0000${Number(row.period_start)}`;
      const expected = capTotals.get(key) ?? 0;
      capTotals.delete(key);
      if (Number(row.earned) !== expected) {
        drift({
          check: 'cap_totals',
          subject: `${row.party_type}:${row.party_id}`,
          detail: `${row.category} earned in the ${row.period} from ${iso(row.period_start)}`,
          expected,
          actual: Number(row.earned),
        });
      }
    }
    for (const [key, expected] of capTotals) {
      if (expected === 0) continue;
      const [subject, category, period, start] = key.split('\u0000') as [string, string, string, string];
      drift({ check: 'cap_totals', subject, detail: `${category} earned in the ${period} from ${iso(start)} (no row)`, expected, actual: null });
    }
  }

  /** Each completion's credits: reversed in full (less what of them had expired) when it was removed, untouched while it lives. */
  async #verifyCompletionCredits(siteId: string, expired: ReadonlyMap<string, number>, report: VerifyReport, drift: Report): Promise<void> {
    const completionCredits = await this.#repository.completionCredits(siteId);
    for (const row of completionCredits) {
      const gone = expired.get(`${row.party_type}:${row.party_id}\u0000${row.completion_id}`) ?? 0;
      const expected = row.removed_at === null ? 0 : -(Number(row.credited) - gone);
      if (Number(row.reversed) !== expected) {
        drift({
          check: 'completion_points',
          subject: `${row.party_type}:${row.party_id}`,
          detail: `completion ${row.completion_id} (${row.removed_at === null ? 'live' : 'removed'}): points reversed`,
          expected,
          actual: Number(row.reversed),
        });
      }
    }
    report.checked.completions += completionCredits.length;
  }

  /** Live completions per party, mission and window against the mission's repeat rules; supply used. */
  async #verifyRepeatsAndSupply(siteId: string, missionsById: ReadonlyMap<string, MissionDocument>, drift: Report): Promise<void> {
    const live = await this.#repository.liveCompletions(siteId);
    const perMission = new Map<string, number>();
    const perPartyMission = new Map<string, number>();
    for (const row of live) {
      const n = Number(row.n);
      perMission.set(row.mission_id, (perMission.get(row.mission_id) ?? 0) + n);
      const key = `${row.party_type}:${row.party_id}\u0000${row.mission_id}`;
      perPartyMission.set(key, (perPartyMission.get(key) ?? 0) + n);
      const max = missionsById.get(row.mission_id)?.repeatableWindow?.maxPerPeriod;
      if (max !== undefined && n > max) {
        drift({
          check: 'completion_count',
          subject: `${row.party_type}:${row.party_id}`,
          detail: `${row.mission_id}: live completions in the window from ${iso(row.window_start)} (at most)`,
          expected: max,
          actual: n,
        });
      }
    }
    for (const [key, n] of perPartyMission) {
      const [subject, missionId] = key.split('\u0000') as [string, string];
      const mission = missionsById.get(missionId);
      if (mission !== undefined && mission.repeatableWindow === undefined && n > 1)
        drift({ check: 'completion_count', subject, detail: `${missionId}: live completions of a non-repeatable mission (at most)`, expected: 1, actual: n });
    }
    const supplies = await this.#repository.supplies(siteId);
    for (const row of supplies) {
      const supply = missionsById.get(row.mission_id)?.supply;
      if (supply === undefined) continue;
      const expected = perMission.get(row.mission_id) ?? 0;
      if (Number(row.used) !== expected)
        drift({ check: 'supply', subject: row.mission_id, detail: 'supply units used (live completions)', expected, actual: Number(row.used) });
      if (Number(row.used) > supply)
        drift({ check: 'supply', subject: row.mission_id, detail: 'supply units used (the supply)', expected: supply, actual: Number(row.used) });
    }
  }

  /** Trophy cases from the live completions, streak milestones and prizes that awarded each badge. */
  async #verifyTrophies(siteId: string, prizeBadges: readonly PrizeBadge[], drift: Report): Promise<void> {
    const earned = new Map<string, { n: number; first: number; last: number }>();
    const add = (key: string, n: number, first: number, last: number) => {
      const known = earned.get(key);
      earned.set(key, known === undefined ? { n, first, last } : { n: known.n + n, first: Math.min(known.first, first), last: Math.max(known.last, last) });
    };
    for (const row of await this.#repository.badgesEarned(siteId))
      add(`${row.party_type}:${row.party_id}\u0000${String(row.badge_id)}`, Number(row.n), Number(row.first), Number(row.last));
    // A streak milestone's badge (docs/streaks.md) counts like a completion's.
    for (const row of await this.#repository.streakBadges(siteId))
      add(`user:${row.user_id}\u0000${String(row.badge_id)}`, Number(row.n), Number(row.first), Number(row.last));
    for (const badge of prizeBadges) add(`${badge.party}\u0000${badge.badgeId}`, 1, badge.at, badge.at);
    const expectedTrophies = new Map([...earned].map(([key, e]) => [key, `${e.n} earned, first ${iso(e.first)}, last ${iso(e.last)}`]));
    const trophies = await this.#repository.trophies(siteId);
    for (const row of trophies) {
      const key = `${row.party_type}:${row.party_id}\u0000${row.badge_id}`;
      const actual = `${Number(row.earned_count)} earned, first ${iso(row.first_earned_at)}, last ${iso(row.last_earned_at)}`;
      const expected = expectedTrophies.get(key) ?? null;
      expectedTrophies.delete(key);
      if (expected !== actual) drift({ check: 'trophies', subject: `${row.party_type}:${row.party_id}`, detail: `badge ${row.badge_id}`, expected, actual });
    }
    for (const [key, expected] of expectedTrophies) {
      const [subject, badgeId] = key.split('\u0000') as [string, string];
      drift({ check: 'trophies', subject, detail: `badge ${badgeId} (not in the trophy case)`, expected, actual: null });
    }
  }

  /** Levels follow lifetime points in the default category. */
  async #verifyLevels(siteId: string, { program, engine }: ProgramSnapshot, balances: LedgerTotals['balances'], drift: Report): Promise<void> {
    const defaultCategory = program.pointCategories.find((c) => c.isDefault)?.name;
    if (program.site.levelType !== 'points' || defaultCategory === undefined || engine.levels.length === 0) return;
    const users = await this.#repository.userLevels(siteId);
    for (const user of users) {
      const lifetime = balances.get(`user:${user.party_id}\u0000${defaultCategory}`)?.lifetime ?? 0;
      const expected = levelFor(engine.levels, lifetime)?.id ?? null;
      // No level recorded: the user never left the level that 0 points reach.
      const actual = user.level_id ?? levelFor(engine.levels, 0)?.id ?? null;
      if (actual !== expected)
        drift({ check: 'level', subject: `user:${user.party_id}`, detail: `level at ${lifetime} lifetime ${defaultCategory}`, expected, actual });
    }
  }

  /** Budgets used per giver, exchange and window, from the gifts; each gift's ledger credits, from its recipients. */
  async #verifyRecognitions(siteId: string, drift: Report): Promise<void> {
    const charged = await this.#repository.giftsCharged(siteId);
    const expected = new Map(charged.map((row) => [key(row.exchange_id, row.giver_id, Number(row.budget_window)), Number(row.total)]));
    const budgets = await this.#repository.budgets(siteId);
    const used = new Map(budgets.map((row) => [key(row.exchange_id, row.giver_id, Number(row.window_start)), Number(row.used)]));
    const window = (start: number) => (start === 0 ? 'all time' : `the period from ${iso(start)}`);
    for (const d of differences(expected, used)) {
      const [exchangeId, giverId, start] = d.key as [string, string, string];
      reportTotal(drift, d, { check: 'budget', subject: `user:${giverId}`, detail: `${exchangeId} budget used in ${window(Number(start))}` }, 'no row');
    }

    // Each recipient's amount, credited once to them through the ledger.
    const owed = await this.#repository.recipients(siteId);
    const credits = await this.#repository.recognitionCredits(siteId);
    const credited = new Map(credits.map((row) => [key(row.cause_id, row.party_id), Number(row.credited)]));
    for (const d of differences(new Map(owed.map((row) => [key(row.recognition_id, row.recipient_id), Number(row.points)])), credited)) {
      const [recognitionId, userId] = d.key as [string, string];
      if (d.expected === null)
        drift({
          check: 'recognition_points',
          subject: `user:${userId}`,
          detail: `points credited for ${recognitionId}, which gave them none`,
          expected: 0,
          actual: d.actual,
        });
      else
        drift({
          check: 'recognition_points',
          subject: `user:${userId}`,
          detail: `points received in ${recognitionId}`,
          expected: d.expected,
          actual: d.actual,
        });
    }
  }

  /** Each award account's balance from its statement; each redeemed code credited once, with its amount. */
  async #verifyAwards(siteId: string, drift: Report): Promise<void> {
    const sums = await this.#repository.statementTotals(siteId);
    const statement = new Map(sums.map((row) => [key(row.user_id), Number(row.total)]));
    const accounts = await this.#repository.awardBalances(siteId);
    for (const d of differences(statement, new Map(accounts.map((row) => [key(row.user_id), Number(row.balance)])))) {
      const [userId] = d.key as [string];
      reportTotal(drift, d, { check: 'award_balance', subject: `user:${userId}`, detail: 'award balance against its statement' }, 'no account');
    }

    const redeemed = await this.#repository.redeemedCodes(siteId);
    const credits = await this.#repository.codeCredits(siteId);
    const owed = new Map(redeemed.map((code) => [key(code.code_id, String(code.redeemed_by)), Number(code.amount)]));
    for (const d of differences(owed, new Map(credits.map((row) => [key(row.reference, row.user_id), Number(row.credited)])))) {
      const [codeId, userId] = d.key as [string, string];
      if (d.expected === null)
        drift({
          check: 'ots_credit',
          subject: `user:${userId}`,
          detail: `credit for code ${codeId}, which they did not redeem`,
          expected: 0,
          actual: d.actual,
        });
      else drift({ check: 'ots_credit', subject: `user:${userId}`, detail: `credit for code ${codeId}`, expected: d.expected, actual: d.actual });
    }
  }
}

const key = (...parts: Array<string | number>): string => parts.join('\u0000');

/** A key's value where the source of truth and what is stored disagree; null: no value on that side. */
interface Difference {
  key: string[];
  expected: number | null;
  actual: number | null;
}

/** Each key whose value the source of truth (`expected`) and what is stored (`actual`) disagree on; a side without the key says null. */
function differences(expected: Map<string, number>, actual: Map<string, number>): Difference[] {
  const found: Difference[] = [];
  for (const [k, value] of expected) {
    const stored = actual.get(k) ?? null;
    if (stored !== value) found.push({ key: k.split('\u0000'), expected: value, actual: stored });
  }
  for (const [k, value] of actual) if (!expected.has(k)) found.push({ key: k.split('\u0000'), expected: null, actual: value });
  return found;
}

/**
 * A stored total against the one recomputed: drift when its row is missing (`missing` says which)
 * or holds another number (a stored total nothing accounts for is checked against 0).
 */
function reportTotal(drift: Report, d: Difference, found: Pick<Drift, 'check' | 'subject' | 'detail'>, missing: string): void {
  if (d.actual === null) drift({ ...found, detail: `${found.detail} (${missing})`, expected: d.expected, actual: null });
  else if (d.actual !== (d.expected ?? 0)) drift({ ...found, expected: d.expected ?? 0, actual: d.actual });
}

function iso(ms: unknown): string {
  return new Date(Number(ms)).toISOString();
}

/** Per `party\u0000category`, the oldest-first replay of its entries, in the order they were written. */
function replayExpiring(expiring: LedgerTotals['expiring']): Map<string, Lots> {
  const replayed = new Map<string, Lots>();
  for (const [key, moves] of expiring) {
    moves.sort((a, b) => a.recordedAt - b.recordedAt || (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0));
    replayed.set(key, replayLots(moves));
  }
  return replayed;
}

/** Per `party\u0000causeId`, how many of the credit's points expired (in every category): a reversal does not take those back. */
function expiredCredits(replayed: ReadonlyMap<string, Lots>): Map<string, number> {
  const expired = new Map<string, number>();
  for (const [key, lots] of replayed) {
    const [party] = key.split('\u0000') as [string];
    for (const [causeId, amount] of lots.expired) expired.set(`${party}\u0000${causeId}`, (expired.get(`${party}\u0000${causeId}`) ?? 0) + amount);
  }
  return expired;
}

/** Every party's expiries against the oldest-first replay of its entries. */
function verifyExpiries(replayed: ReadonlyMap<string, Lots>, drift: Report): void {
  for (const [key, lots] of replayed) {
    const [subject, category] = key.split('\u0000') as [string, string];
    for (const mismatch of lots.mismatches) {
      drift({
        check: 'expiry',
        subject,
        detail: `${category} expiry of the points earned before ${mismatch.causeId}`,
        expected: mismatch.expected,
        actual: mismatch.expired,
      });
    }
  }
}
