// Point expiry (docs/points.md): the sweep that writes expiries, and what expires next on a
// balance. Nothing of it runs on the action path: lots are replayed from the ledger
// (src/engine/elements/expiry.ts) when a balance is read or swept, and only for categories with an
// expiry rule. The sweep, run every POINT_EXPIRY_SWEEP_MS on every node, expires a party's due points
// in a decision under its lock (LedgerRepository.write through ActionService.writeWithin): two
// sweeps, or a sweep and a spend, are serialized on the party, and the later one replays the
// ledger as the earlier left it, so an expiry is never written twice and a spend never spends
// points the sweep expired. It acts on an instant only POINT_EXPIRY_GRACE_MS after it (clock skew,
// writes in flight), pages parties by key, and skips (reports) a party that fails.
import {
  dueExpiries,
  expiredBefore,
  nextExpiry,
  replayLots,
  reversibleAmount,
  type ExpiringSoon,
  type ExpiryRule,
  type LedgerMove,
} from '../../engine/elements/expiry.js';
import type { Db, Trx } from '../../db/index.js';
import type { PartyType, PointsLedgerTable } from '../../db/schema.js';
import { Periodic } from '../../infra/periodic.js';
import { uuidv7 } from '../../uuid.js';
import type { ActionService } from '../actions/service.js';
import { mirrorPoints } from '../ledger/award-entries.js';
import { lifetimeDelta, type PartyKey } from '../ledger/write-set.js';
import type { ProgramDocument } from '../program/model.js';
import type { ProgramService } from '../program/service.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import { ExpiryRepository, type MoveRow } from './repository.js';

export interface ExpiryOptions {
  clock: () => number;
  /** How often the background sweep runs (ms). */
  sweepIntervalMs: number;
  /**
   * How long after an expiry instant the sweep waits before acting on it (ms, POINT_EXPIRY_GRACE_MS;
   * 0 when absent): a credit recorded just before the instant by a node whose clock is behind, or
   * committed after a sweep passed the party, is still expired with the others.
   */
  graceMs?: number;
  onError: (error: unknown) => void;
}

/** Parties read per query of a sweep. */
const BATCH = 100;

const toMove = (row: MoveRow): LedgerMove => ({
  amount: Number(row.credited),
  recordedAt: Number(row.recorded_at),
  cause: row.cause,
  causeId: row.cause_id,
});

type Category = ProgramDocument['pointCategories'][number];

/**
 * The categories of the program with an expiry rule. Never the award category: its spend is in the
 * award account, which a replay of the points ledger does not see, so validation refuses a rule
 * on it, and one a program stored before that refusal still holds expires nothing (docs/points.md).
 */
function expiring(snapshot: ProgramSnapshot): Array<Category & { expiry: ExpiryRule }> {
  const award = snapshot.program.awardSettings?.pointCategory;
  return snapshot.program.pointCategories.filter((c): c is Category & { expiry: ExpiryRule } => c.expiry !== undefined && c.name !== award);
}

export class ExpiryService {
  readonly #repository: ExpiryRepository;
  readonly #sweeping: Periodic;
  /** Per site and category, the cutoff a sweep of this node last finished at: until it moves, nothing more is due. */
  readonly #swept = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly programs: Pick<ProgramService, 'snapshot'>,
    private readonly actions: Pick<ActionService, 'transaction' | 'writeWithin'>,
    private readonly options: ExpiryOptions,
  ) {
    this.#repository = new ExpiryRepository(db);
    this.#sweeping = new Periodic(
      options.sweepIntervalMs,
      async () => {
        await this.sweep(options.clock());
      },
      options.onError,
    );
  }

  start(): void {
    this.#sweeping.start();
  }

  stop(): Promise<void> {
    return this.#sweeping.stop();
  }

  /**
   * For a party's balances: per category with an expiry rule, its next expiry (null when none of
   * its points expire); categories without a rule are absent. Reads nothing when no category expires.
   */
  async expiringSoon(snapshot: ProgramSnapshot, party: PartyKey): Promise<Map<string, ExpiringSoon | null>> {
    const categories = expiring(snapshot);
    const soon = new Map<string, ExpiringSoon | null>();
    if (categories.length === 0) return soon;
    const rows = await this.#repository.moves(
      { db: this.db },
      party,
      categories.map((c) => c.name),
    );
    const zone = snapshot.program.site.timezone;
    const now = this.options.clock();
    for (const category of categories) {
      const lots = replayLots(rows.filter((row) => row.category === category.name).map(toMove));
      const next = nextExpiry(lots, category.expiry, zone);
      // Due and not yet swept (the grace, or the sweep's interval): it expires now, never in the past.
      soon.set(category.name, next === null ? null : { amount: next.amount, date: new Date(Math.max(next.at, now)).toISOString() });
    }
    return soon;
  }

  /**
   * What a reversal of a credit of the party takes back (docs/points.md): the credit less what of
   * it has expired. Replays the party's ledger in the category (under the caller's lock) only when
   * the category has an expiry rule or the party has an expiry in it; otherwise the whole credit.
   */
  async reversible(trx: Trx, snapshot: ProgramSnapshot, party: PartyKey, category: string, causeId: string, credited: number): Promise<number> {
    const rule = snapshot.program.pointCategories.find((c) => c.name === category)?.expiry;
    if (rule === undefined && !(await this.#repository.hasExpiry(trx, party, category))) return credited;
    const lots = replayLots((await this.#repository.moves(trx, party, [category])).map(toMove));
    return reversibleAmount(lots, causeId, credited);
  }

  /** One round: every site's due expiries as of `now`. Returns how many expiry entries it wrote. */
  async sweep(now: number): Promise<number> {
    let written = 0;
    for (const siteId of await this.#repository.siteIds()) {
      if (this.#sweeping.stopping) break;
      // A site that fails (its program unreadable) is reported and the others are swept.
      try {
        written += await this.sweepSite(siteId, now);
      } catch (error) {
        this.options.onError(error);
      }
    }
    return written;
  }

  /** The site's due expiries as of `now`, less the grace: an instant is acted on once the grace after it has passed. */
  async sweepSite(siteId: string, now: number): Promise<number> {
    const snapshot = await this.programs.snapshot(siteId);
    const zone = snapshot.program.site.timezone;
    const graced = now - (this.options.graceMs ?? 0);
    let written = 0;
    for (const category of expiring(snapshot)) {
      const earnedBefore = expiredBefore(category.expiry, graced, zone);
      const key = `${siteId}\u0000${category.name}`;
      if (earnedBefore === -Infinity || this.#swept.get(key) === earnedBefore) continue;
      let failed = false;
      let after: { type: PartyType; id: string } | undefined;
      for (;;) {
        const parties = await this.#repository.candidates(siteId, category.name, earnedBefore, BATCH, after);
        after = parties.at(-1);
        for (const { type, id } of parties) {
          // One party that fails is reported and skipped (not marked swept: the next round retries it).
          try {
            written += await this.#expire(snapshot, { siteId, type, id }, category, earnedBefore, graced, now);
          } catch (error) {
            failed = true;
            this.options.onError(error);
          }
        }
        if (parties.length < BATCH || this.#sweeping.stopping) break;
      }
      if (!this.#sweeping.stopping && !failed) this.#swept.set(key, earnedBefore);
    }
    return written;
  }

  /** Expires what is due of the party's points in the category, under its lock, and marks it swept. */
  async #expire(
    snapshot: ProgramSnapshot,
    party: PartyKey,
    category: { name: string; expiry: ExpiryRule },
    earnedBefore: number,
    graced: number,
    now: number,
  ): Promise<number> {
    const zone = snapshot.program.site.timezone;
    return this.actions.transaction(snapshot, now, async (within) => {
      const written = await this.actions.writeWithin(within, [party], async (locked) => {
        const { trx, writes } = locked;
        const lots = replayLots((await this.#repository.moves(trx, party, [category.name])).map(toMove));
        let balance = await locked.balance(party, category.name);
        const due = dueExpiries(lots, category.expiry, graced, zone);
        for (const expiry of due) {
          const entryId = `pts_${uuidv7()}`;
          const entry: PointsLedgerTable = {
            site_id: party.siteId,
            entry_id: entryId,
            party_type: party.type,
            party_id: party.id,
            category: category.name,
            requested: -expiry.amount,
            credited: -expiry.amount,
            cause: 'expiry',
            cause_id: new Date(expiry.earnedBefore).toISOString(),
            event_id: null,
            reason: null,
            occurred_at: expiry.at,
            recorded_at: now,
          };
          // Lifetime points (and the levels that follow them) do not move.
          writes.post(entry, lifetimeDelta(entry));
          await mirrorPoints(trx, writes, snapshot.program.awardSettings, entry);
          balance -= expiry.amount;
          const expiredAt = new Date(expiry.at).toISOString();
          writes.enqueue(
            party,
            { type: 'points.expired', occurredAt: expiry.at, data: { category: category.name, amount: expiry.amount, balance, expiredAt } },
            now,
          );
        }
        return { writes, answer: due.length };
      });
      await this.#repository.markSwept(within.trx, party, category.name, earnedBefore);
      return written;
    });
  }
}
