// Points outside the engine's missions: admin adjustments (SPEC §5), a credit or debit for
// corrections and legacy balances, and the points recipients of a recognition receive (SPEC §9).
// Caps do not apply; the ledger records the entry, levels and boards follow it, and the party's
// decisions stay serialized (the caller locks it).
import { uuidv7 } from '../../uuid.js';
import { levelChange } from '../../engine/elements/levels.js';
import type { PointsLedgerTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { LevelCause, PresentedLevelChange } from '../ledger/level-changes.js';
import type { LedgerRepository } from '../ledger/repository.js';
import type { PartyKey } from '../ledger/write-set.js';
import type { ActionService, WithinTransaction } from '../actions/service.js';
import { LeaderboardService } from '../leaderboards/service.js';
import type { ProgramService } from '../program/service.js';

export interface Adjustment {
  entryId: string;
  category: string;
  amount: number;
  reason: string;
  balance: number;
  levelChanged?: PresentedLevelChange;
}

/** A ledger entry outside the engine: what it is, and what it moved. */
export interface Posting {
  category: string;
  amount: number;
  cause: Extract<PointsLedgerTable['cause'], 'adjustment' | 'recognition'>;
  /** The recognition that caused it; an adjustment is its own cause. */
  causeId?: string;
  reason: string | null;
  /** How a level change it makes names its cause. */
  levelCause: (entryId: string) => LevelCause;
}

export class PointsService {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly programs: ProgramService,
    private readonly actions: ActionService,
    private readonly leaderboards: LeaderboardService,
    private readonly clock: () => number = Date.now,
  ) {}

  /** POST /admin/users/{u}/points. */
  async adjust(siteId: string, userId: string, input: { category: string; amount: number; reason: string }): Promise<Adjustment> {
    const snapshot = await this.programs.snapshot(siteId);
    const category = snapshot.program.pointCategories.find((c) => c.name.toLowerCase() === input.category.toLowerCase());
    if (category === undefined) {
      throw new AppError('validation_failed', 'The adjustment is invalid', { errors: [{ path: 'category', message: `no point category "${input.category}"` }] });
    }
    const party: PartyKey = { siteId, type: 'user', id: userId };
    // The user's groups matter to the boards that filter by group.
    const groups = LeaderboardService.needsGroups(snapshot.program) ? new Set(await this.actions.memberships(siteId, userId)) : new Set<string>();
    return this.actions.transaction(snapshot, this.clock(), async (within) => {
      await this.ledger.lock(within.trx, [party], within.now);
      const posted = await this.post(within, party, groups, {
        category: category.name,
        amount: input.amount,
        cause: 'adjustment',
        reason: input.reason,
        levelCause: (entryId) => ({ adjustmentId: entryId }),
      });
      const balance = await this.ledger.balance(within.trx, party, category.name);
      return { entryId: posted.entryId, category: category.name, amount: input.amount, reason: input.reason, balance, ...(posted.levelChanged !== undefined ? { levelChanged: posted.levelChanged } : {}) };
    });
  }

  /**
   * Inside the caller's transaction, with the user locked: appends the entry to the ledger (which
   * moves the balance), moves the level with a credit in the default category (a debit leaves
   * lifetime points, and so the level, as they are), and moves the user's board scores in the
   * window of now (lifetime boards count credits only).
   */
  async post(within: WithinTransaction, party: PartyKey, groups: ReadonlySet<string>, posting: Posting): Promise<{ entryId: string; levelChanged?: PresentedLevelChange }> {
    const { trx, snapshot, now } = within;
    const defaultCategory = snapshot.program.pointCategories.find((c) => c.isDefault)?.name;
    const movesLevel = snapshot.engine.levelType === 'points' && posting.category === defaultCategory && posting.amount > 0;
    const lifetimeBefore = movesLevel ? await this.ledger.lifetime(trx, party, posting.category) : 0;
    const entryId = `pts_${uuidv7()}`;
    await this.ledger.post(trx, {
      site_id: party.siteId,
      entry_id: entryId,
      party_type: party.type,
      party_id: party.id,
      category: posting.category,
      requested: posting.amount,
      credited: posting.amount,
      cause: posting.cause,
      cause_id: posting.causeId ?? entryId,
      event_id: null,
      reason: posting.reason,
      occurred_at: now,
      recorded_at: now,
    }, snapshot.program.awardSettings);
    const change = movesLevel ? levelChange(snapshot.engine.levels, lifetimeBefore, lifetimeBefore + posting.amount) : undefined;
    const levelChanged = change === undefined ? undefined : await this.ledger.recordLevelChange(trx, snapshot.destinations, party, change, posting.levelCause(entryId), now, now);
    const deltas = LeaderboardService.deltas(snapshot.program, 'user', groups, [{ kind: 'points', category: posting.category, amount: posting.amount, at: now }]);
    within.scores.push(...(await this.leaderboards.record(trx, party.siteId, party.id, deltas)));
    return { entryId, ...(levelChanged !== undefined ? { levelChanged } : {}) };
  }
}
