// Points outside the engine's missions: admin adjustments (SPEC §5), a credit or debit for
// corrections and legacy balances, and the points recipients of a recognition receive (SPEC §9).
// Caps do not apply; the ledger records the entry, levels and boards follow it, and the party's
// decisions stay serialized (a decision under lock: LedgerRepository.write).
import { uuidv7 } from '../../uuid.js';
import { levelChange } from '../../engine/elements/levels.js';
import type { PointsLedgerTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { mirrorPoints } from '../ledger/award-entries.js';
import { changeLevel, type LevelCause, type PresentedLevelChange } from '../ledger/level-changes.js';
import type { Locked } from '../ledger/locked.js';
import type { LedgerRepository } from '../ledger/repository.js';
import type { Database } from '../../db/index.js';
import { lifetimeDelta, type PartyKey } from '../ledger/write-set.js';
import type { ActionService } from '../actions/service.js';
import { LeaderboardService } from '../leaderboards/service.js';
import type { ProgramService } from '../program/service.js';
import type { ProgramSnapshot } from '../program/snapshot.js';

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
  cause: Extract<PointsLedgerTable['cause'], 'adjustment' | 'recognition' | 'prize'>;
  /** The recognition or the leaderboard closing that caused it; an adjustment is its own cause. */
  causeId?: string;
  reason: string | null;
  /** How a level change it makes names its cause. */
  levelCause: (entryId: string) => LevelCause;
}

/** One entry of a user's point history (GET /admin/users/{u}/point-history). */
export interface PointEntry {
  entryId: string;
  /** When the entry was written. */
  recordedAt: string;
  /** When it counts: the action's time for a mission's credit, the credit's for a reversal (caps give the allowance back there). */
  occurredAt: string;
  category: string;
  /** What the balance moved by: the credit after caps, or a debit (negative). */
  amount: number;
  /** What the reward asked for before caps. */
  requested: number;
  /** `mission`: a completion's reward; `reversal`: a completion's reward taken back; `adjustment`: an admin's; `recognition`: a gift received; `prize`: a leaderboard prize. */
  cause: PointsLedgerTable['cause'];
  /** The completion (mission, reversal), the recognition, the leaderboard closing (prize), or the entry itself (adjustment). */
  causeId: string;
  /** The action event behind it (mission, reversal), and its action. */
  eventId: string | null;
  action: string | null;
  /** The mission of the completion (mission, reversal). */
  mission: { id: string; name: string } | null;
  /** An adjustment's reason, a recognition's message. */
  reason: string | null;
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();

export class PointsService {
  constructor(
    private readonly programs: ProgramService,
    private readonly actions: ActionService,
    private readonly database: Pick<Database, 'db'>,
    private readonly ledger: LedgerRepository,
    private readonly clock: () => number,
  ) {}

  /** GET /admin/users/{u}/point-history: a page of the user's ledger entries, newest first, and how many there are. */
  async history(siteId: string, userId: string, limit: number, offset: number): Promise<{ entries: PointEntry[]; total: number }> {
    const snapshot = await this.programs.snapshot(siteId);
    const { rows, total } = await this.ledger.entries({ db: this.database.db }, { siteId, type: 'user', id: userId }, limit, offset);
    const entries = rows.map((row): PointEntry => ({
      entryId: row.entry_id,
      recordedAt: iso(row.recorded_at),
      occurredAt: iso(row.occurred_at),
      category: row.category,
      amount: Number(row.credited),
      requested: Number(row.requested),
      cause: row.cause,
      causeId: row.cause_id,
      eventId: row.event_id,
      action: row.action,
      mission: row.mission_id === null ? null : { id: row.mission_id, name: snapshot.missionsById.get(row.mission_id)?.name ?? row.mission_id },
      reason: row.reason,
    }));
    return { entries, total };
  }

  /** POST /admin/users/{u}/points. */
  async adjust(siteId: string, userId: string, input: { category: string; amount: number; reason: string }): Promise<Adjustment> {
    const snapshot = await this.programs.snapshot(siteId);
    const category = snapshot.program.pointCategories.find((c) => c.name.toLowerCase() === input.category.toLowerCase());
    if (category === undefined) {
      throw new AppError('validation_failed', 'The adjustment is invalid', {
        errors: [{ path: 'category', message: `no point category "${input.category}"` }],
      });
    }
    const party: PartyKey = { siteId, type: 'user', id: userId };
    // The user's groups matter to the boards that filter by group.
    const groups = LeaderboardService.needsGroups(snapshot.program) ? new Set(await this.actions.memberships(siteId, userId)) : new Set<string>();
    return this.actions.transaction(snapshot, this.clock(), (within) =>
      this.actions.writeWithin(within, [party], async (locked) => {
        const posted = await this.post(locked, snapshot, party, groups, {
          category: category.name,
          amount: input.amount,
          cause: 'adjustment',
          reason: input.reason,
          levelCause: (entryId) => ({ adjustmentId: entryId }),
        });
        const balance = await locked.balance(party, category.name);
        const answer = {
          entryId: posted.entryId,
          category: category.name,
          amount: input.amount,
          reason: input.reason,
          balance,
          ...(posted.levelChanged !== undefined ? { levelChanged: posted.levelChanged } : {}),
        };
        return { writes: locked.writes, answer };
      }),
    );
  }

  /**
   * Part of a decision with the user locked: appends the entry to the ledger (which moves the
   * balance), moves the level with a credit in the default category (a debit leaves lifetime
   * points, and so the level, as they are), and moves the user's board scores in the window of now
   * (lifetime boards count credits only).
   */
  async post(
    locked: Locked,
    snapshot: ProgramSnapshot,
    party: PartyKey,
    groups: ReadonlySet<string>,
    posting: Posting,
  ): Promise<{ entryId: string; levelChanged?: PresentedLevelChange }> {
    const { trx, writes, now } = locked;
    const defaultCategory = snapshot.program.pointCategories.find((c) => c.isDefault)?.name;
    const movesLevel = snapshot.engine.levelType === 'points' && posting.category === defaultCategory && posting.amount > 0;
    const lifetimeBefore = movesLevel ? await locked.lifetime(party, posting.category) : 0;
    const entryId = `pts_${uuidv7()}`;
    const entry: PointsLedgerTable = {
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
    };
    writes.post(entry, lifetimeDelta(entry));
    await mirrorPoints(trx, writes, snapshot.program.awardSettings, entry);
    const change = movesLevel ? levelChange(snapshot.engine.levels, lifetimeBefore, lifetimeBefore + posting.amount) : undefined;
    const levelChanged = change === undefined ? undefined : changeLevel(writes, party, change, posting.levelCause(entryId), now, now);
    writes.addScores(
      party.siteId,
      party.id,
      LeaderboardService.deltas(snapshot.program, party.type, groups, [{ kind: 'points', category: posting.category, amount: posting.amount, at: now }]),
    );
    return { entryId, ...(levelChanged !== undefined ? { levelChanged } : {}) };
  }
}
