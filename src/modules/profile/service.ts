// Profile reads (SPEC §7): point balance per category with today's cap, levels, the trophy case.
// Each read is by primary key or a (site, party) index: never a scan of the user's history.
// A user never referenced reads as empty (zeros, no badges, the first level).
import { calendarWindow } from '../../engine/calendar.js';
import { levelFor } from '../../engine/elements/levels.js';
import type { Db } from '../../db/index.js';
import type { ExpiringSoon } from '../../engine/elements/expiry.js';
import type { PartyKey } from '../ledger/write-set.js';
import type { ProgramService } from '../program/service.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import { ProfileRepository } from './repository.js';

/**
 * What tells a balance's next expiry (the expiry module's service). Declared here, so that the
 * profile does not depend on the expiry module, which reaches the actions and through them the
 * missions, which read levels from the profile.
 */
export interface ExpiringSoonReader {
  expiringSoon(snapshot: ProgramSnapshot, party: PartyKey): Promise<Map<string, ExpiringSoon | null>>;
}

export interface CategoryBalance {
  id: string;
  name: string;
  isDefault: boolean;
  balance: number;
  lifetimeBalance: number;
  dailyLimit: number | null;
  earnedToday: number;
  remainingToday: number | null;
  /** Categories with an expiry rule only: the next points to expire (null: none will). */
  expiringSoon?: ExpiringSoon | null;
}

export interface LevelView {
  id: string;
  name: string;
  description?: string | undefined;
  iconUrl?: string | undefined;
  threshold: number;
}

export class ProfileService {
  readonly #repository: ProfileRepository;

  constructor(
    db: Db,
    private readonly programs: ProgramService,
    private readonly expiry: ExpiringSoonReader,
    private readonly clock: () => number,
  ) {
    this.#repository = new ProfileRepository(db);
  }

  async pointBalance(siteId: string, userId: string): Promise<{ balance: number; lifetimeBalance: number; categories: CategoryBalance[] }> {
    const snapshot = await this.programs.snapshot(siteId);
    const { program } = snapshot;
    const today = calendarWindow(this.clock(), 'day', program.site.timezone).start;
    const [balances, earnings, expiring] = await Promise.all([
      this.#repository.balances(siteId, userId),
      this.#repository.earnedInDay(siteId, userId, today),
      this.expiry.expiringSoon(snapshot, { siteId, type: 'user', id: userId }),
    ]);
    const balanceOf = new Map(balances.map((row) => [row.category, row]));
    const earnedOf = new Map(earnings.map((row) => [row.category, Number(row.earned)]));
    const categories = program.pointCategories.map((category): CategoryBalance => {
      const row = balanceOf.get(category.name);
      const earnedToday = earnedOf.get(category.name) ?? 0;
      return {
        id: category.name,
        name: category.name,
        isDefault: category.isDefault,
        balance: Number(row?.balance ?? 0),
        lifetimeBalance: Number(row?.lifetime ?? 0),
        dailyLimit: category.dailyLimit ?? null,
        earnedToday,
        remainingToday: category.dailyLimit === undefined ? null : Math.max(0, category.dailyLimit - earnedToday),
        ...(expiring.has(category.name) ? { expiringSoon: expiring.get(category.name) ?? null } : {}),
      };
    });
    // The top-level figures are the default category's (the one levels follow).
    const main = categories.find((category) => category.isDefault);
    return { balance: main?.balance ?? 0, lifetimeBalance: main?.lifetimeBalance ?? 0, categories };
  }

  /** What judges whether the user has reached a level (src/engine/elements/eligibility.ts): only what the level type reads. */
  async levelState(siteId: string, userId: string): Promise<{ lifetimeDefaultPoints: number; assignedLevel: string | null }> {
    const { program } = await this.programs.snapshot(siteId);
    if (program.site.levelType === 'custom') return { lifetimeDefaultPoints: 0, assignedLevel: await this.#repository.levelId(siteId, userId) };
    const defaultCategory = program.pointCategories.find((category) => category.isDefault)?.name ?? '';
    return { lifetimeDefaultPoints: await this.#repository.lifetime(siteId, userId, defaultCategory), assignedLevel: null };
  }

  async levels(
    siteId: string,
    userId: string,
  ): Promise<{ current: LevelView | null; next: LevelView | null; points: number; pointsToNext: number | null; percentToNext: number | null }> {
    const { program } = await this.programs.snapshot(siteId);
    const defaultCategory = program.pointCategories.find((category) => category.isDefault)?.name ?? '';
    const [points, levelId] = await Promise.all([this.#repository.lifetime(siteId, userId, defaultCategory), this.#repository.levelId(siteId, userId)]);
    const levels = program.levels;
    // levelType custom: the level an admin set; points: the highest threshold the lifetime points reach.
    const current = program.site.levelType === 'custom' ? (levels.find((level) => level.id === levelId) ?? null) : levelFor(levels, points);
    const index = current === null ? -1 : levels.indexOf(current);
    const next = levels[index + 1] ?? null;
    const view = (level: (typeof levels)[number] | null): LevelView | null =>
      level === null ? null : { id: level.id, name: level.name, description: level.description, iconUrl: level.iconUrl, threshold: level.threshold };
    if (next === null || program.site.levelType === 'custom')
      return { current: view(current), next: view(next), points, pointsToNext: null, percentToNext: null };
    const from = current?.threshold ?? 0;
    return {
      current: view(current),
      next: view(next),
      points,
      pointsToNext: Math.max(0, next.threshold - points),
      // Multiply before dividing: 29 / 100 * 100 is 28.999999999999996 in floating point.
      percentToNext: Math.min(100, Math.floor(((points - from) * 100) / (next.threshold - from))),
    };
  }

  async badges(siteId: string, userId: string, limit: number, offset: number) {
    const { program } = await this.programs.snapshot(siteId);
    const { total, rows } = await this.#repository.trophies(siteId, userId, limit, offset);
    const definitions = new Map(program.badges.map((badge) => [badge.id, badge]));
    return {
      total,
      badges: rows.map((row) => {
        const badge = definitions.get(row.badge_id);
        return {
          id: row.badge_id,
          name: badge?.name ?? row.badge_id,
          description: badge?.description,
          iconUrl: badge?.iconUrl,
          earnedCount: Number(row.earned_count),
          firstEarnedAt: new Date(Number(row.first_earned_at)).toISOString(),
          lastEarnedAt: new Date(Number(row.last_earned_at)).toISOString(),
        };
      }),
    };
  }
}
