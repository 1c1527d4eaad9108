// Admin point adjustments (SPEC §5): a credit or debit through the ledger, for corrections and
// legacy balances. Caps do not apply; the user's decisions stay serialized (the party is locked).
import { uuidv7 } from 'uuidv7';
import type { Database } from '../../db/index.js';
import { levelChange } from '../../engine/elements/levels.js';
import { AppError } from '../../errors.js';
import type { ActionsRepository, PartyKey, PresentedLevelChange } from '../actions/repository.js';
import { LeaderboardService, type ScoreUpdate } from '../leaderboards/service.js';
import type { ProgramService } from '../program/service.js';

export interface Adjustment {
  entryId: string;
  category: string;
  amount: number;
  reason: string;
  balance: number;
  levelChanged?: PresentedLevelChange;
}

export class PointsService {
  constructor(
    private readonly database: Pick<Database, 'db' | 'transaction'>,
    private readonly repository: ActionsRepository,
    private readonly programs: ProgramService,
    private readonly leaderboards: LeaderboardService,
    private readonly clock: () => number = Date.now,
  ) {}

  async adjust(siteId: string, userId: string, input: { category: string; amount: number; reason: string }): Promise<Adjustment> {
    const { program, engine } = await this.programs.snapshot(siteId);
    const category = program.pointCategories.find((c) => c.name.toLowerCase() === input.category.toLowerCase());
    if (category === undefined) {
      throw new AppError('validation_failed', 'The adjustment is invalid', { errors: [{ path: 'category', message: `no point category "${input.category}"` }] });
    }
    const party: PartyKey = { siteId, type: 'user', id: userId };
    const now = this.clock();
    const groups = LeaderboardService.needsGroups(program) ? new Set(await this.repository.memberships({ db: this.database.db }, siteId, userId)) : new Set<string>();
    const scores: ScoreUpdate[] = [];
    const adjustment = await this.database.transaction(async (trx) => {
      await this.repository.lockParties(trx, [party], now);
      const lifetimeBefore = await this.repository.lifetime(trx, party, category.name);
      const entryId = `pts_${uuidv7()}`;
      await this.repository.post(trx, {
        site_id: siteId,
        entry_id: entryId,
        party_type: 'user',
        party_id: userId,
        category: category.name,
        requested: input.amount,
        credited: input.amount,
        cause: 'adjustment',
        cause_id: entryId,
        event_id: null,
        reason: input.reason,
        occurred_at: now,
        recorded_at: now,
      });
      const balance = await this.repository.balance(trx, party, category.name);
      const result: Adjustment = { entryId, category: category.name, amount: input.amount, reason: input.reason, balance };
      // Levels follow lifetime credits in the default category; a debit leaves lifetime as it is.
      if (engine.levelType === 'points' && category.isDefault && input.amount > 0) {
        const change = levelChange(engine.levels, lifetimeBefore, lifetimeBefore + input.amount);
        if (change !== undefined) result.levelChanged = await this.repository.recordLevelChange(trx, party, change, { adjustmentId: entryId }, now, now);
      }
      // A debit lowers the window of its own time on points boards (lifetime boards count credits only).
      scores.push(...(await this.leaderboards.record(trx, siteId, userId, LeaderboardService.deltas(program, 'user', groups, [{ kind: 'points', category: category.name, amount: input.amount, at: now }]))));
      return result;
    });
    await this.leaderboards.publish(scores);
    return adjustment;
  }
}
