// Leaderboards that close (docs/leaderboards.md, "Closed windows and prizes"). A sweep, run by a
// Periodic on every serving node, finds each board window that ended (in the site's time zone,
// or at an allTime board's fixed `end`) more than the grace period ago and is not closed yet, and
// closes it in one transaction: the claim on the window (inserted if absent, so that of two nodes,
// or a node and its restarted self, exactly one pays), the final standings kept, each prize paid
// through the ledger's write path (points, lifetime, levels, board scores and award accounts
// follow, as for any credit) with its badge, and `leaderboard.closed` in the outbox.
import { localDateTimeToInstant, localDay } from '../../engine/calendar.js';
import { finalStandings, firstCursor, windowAt, type ClosingBoard, type FinalStanding, type PrizeRewards } from '../../engine/elements/prizes.js';
import type { Db } from '../../db/index.js';
import type { LeaderboardClosingsTable, LeaderboardResultsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { Periodic } from '../../infra/periodic.js';
import { uuidv7 } from '../../uuid.js';
import type { PartyKey } from '../ledger/write-set.js';
import type { ActionService, WithinTransaction } from '../actions/service.js';
import { LeaderboardService } from '../leaderboards/service.js';
import type { PointsService } from '../points/service.js';
import type { LeaderboardDocument } from '../program/model.js';
import type { ProgramService } from '../program/service.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import type { PreferencesService } from '../users/preferences.js';
import { LeaderboardResultsRepository } from './repository.js';

export interface PresentedPrize {
  points: Array<{ category: string; amount: number }>;
  badge?: { id: string; name: string };
}

export interface Winner {
  rank: number;
  userId?: string;
  groupId?: string;
  /** The user's first name, or the group's name. */
  firstName: string | null;
  lastName: string | null;
  score: number;
  /** What the party was paid; null for a party ranked first on a board without a prize for it. */
  prize: PresentedPrize | null;
}

export interface ClosedWindow {
  closingId: string;
  windowStart: string;
  windowEnd: string;
  /** The window's first and last days in the site time zone (YYYY-MM-DD); an allTime board's first is null. */
  firstDay: string | null;
  lastDay: string;
  closedAt: string;
  winners: Winner[];
}

export interface ClosingOptions {
  clock: () => number;
  /** How often a node sweeps, ms. */
  intervalMs: number;
  /** How long after a window's end it is closed, ms (in-flight and slightly backdated actions land first). */
  graceMs: number;
  /** Windows closed per round at most (the next round goes on). */
  closingsPerRound: number;
  onError: (error: unknown) => void;
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();

export class LeaderboardResultsService {
  readonly #repository: LeaderboardResultsRepository;
  readonly #sweeping: Periodic;

  constructor(
    db: Db,
    private readonly programs: ProgramService,
    private readonly actions: ActionService,
    private readonly points: PointsService,
    private readonly preferences: PreferencesService,
    private readonly options: ClosingOptions,
  ) {
    this.#repository = new LeaderboardResultsRepository(db);
    this.#sweeping = new Periodic(options.intervalMs, () => this.sweep().then(() => undefined), options.onError);
  }

  /** Sweeps every intervalMs until stop(). */
  start(): void {
    this.#sweeping.start();
  }

  async stop(): Promise<void> {
    await this.#sweeping.stop();
  }

  /**
   * One round: closes the windows that are due, at most closingsPerRound of them, oldest first per
   * board. Returns how many this call closed (a window another node closed first is not counted).
   */
  async sweep(now = this.options.clock()): Promise<number> {
    let budget = this.options.closingsPerRound;
    let closed = 0;
    for (const siteId of await this.#repository.siteIds()) {
      if (budget <= 0 || this.#sweeping.stopping) break;
      // (A site whose program cannot be read now is reported and skipped: the other sites' windows still close.)
      const snapshot = await this.programs.snapshot(siteId).catch((error: unknown) => void this.options.onError(error));
      if (snapshot === undefined || snapshot.program.leaderboards.length === 0) continue;
      const cursors = await this.#repository.cursors(siteId);
      const timezone = snapshot.program.site.timezone;
      for (const board of snapshot.program.leaderboards) {
        const closing = closingBoard(board, timezone);
        let cursor = cursors.get(board.id);
        if (cursor === undefined) {
          cursor = firstCursor(closing, now, timezone);
          await this.#repository.startCursor(siteId, board.id, cursor);
          continue; // a window holding `now` is not due
        }
        for (;;) {
          const window = windowAt(closing, cursor, timezone);
          if (window === undefined || window.end + this.options.graceMs > now || budget <= 0) break;
          budget--;
          try {
            if (await this.#close(snapshot, board, window, now)) closed++;
          } catch (error) {
            // Nothing of the window was kept (one transaction): the next round tries it again; the other boards go on.
            this.options.onError(error);
            break;
          }
          cursor = window.end;
        }
      }
    }
    return closed;
  }

  /** GET /leaderboards/{id}/results: the board's closed windows, newest first, with their winners. */
  async results(siteId: string, boardId: string, limit: number, offset: number): Promise<{ windows: ClosedWindow[]; total: number }> {
    const { program } = await this.programs.snapshot(siteId);
    const board = program.leaderboards.find((b) => b.id === boardId);
    if (board === undefined) throw new AppError('not_found', `No leaderboard "${boardId}"`);
    const timezone = program.site.timezone;
    const { rows, total } = await this.#repository.closings(siteId, boardId, limit, offset);
    const results = await this.#repository.results(
      siteId,
      rows.map((row) => row.closing_id),
      true,
    );
    const groups = new Map(program.groups.map((group) => [group.id, group.name]));
    const badges = new Map(program.badges.map((badge) => [badge.id, badge.name]));
    const userIds = [...new Set(results.filter((r) => rows.find((c) => c.closing_id === r.closing_id)?.party_type === 'user').map((r) => r.party_id))];
    const names = await this.preferences.names(siteId, userIds);
    const byClosing = new Map<string, Winner[]>();
    const typeOf = new Map(rows.map((row) => [row.closing_id, row.party_type]));
    for (const result of results) {
      const user = typeOf.get(result.closing_id) === 'user';
      const name = user ? names.get(result.party_id) : undefined;
      const winners = byClosing.get(result.closing_id) ?? [];
      winners.push({
        rank: Number(result.rank),
        ...(user ? { userId: result.party_id } : { groupId: result.party_id }),
        firstName: user ? (name?.firstName ?? null) : (groups.get(result.party_id) ?? null),
        lastName: user ? (name?.lastName ?? null) : null,
        score: Number(result.score),
        prize: result.prize === null ? null : presentPrize(JSON.parse(result.prize) as PrizeRewards, badges),
      });
      byClosing.set(result.closing_id, winners);
    }
    const windows = rows.map((row) => ({
      closingId: row.closing_id,
      windowStart: iso(row.window_start),
      windowEnd: iso(row.window_end),
      firstDay: Number(row.window_start) === 0 ? null : localDay(Number(row.window_start), timezone),
      lastDay: localDay(Number(row.window_end) - 1, timezone),
      closedAt: iso(row.closed_at),
      winners: byClosing.get(row.closing_id) ?? [],
    }));
    return { windows, total };
  }

  /** Closes one window, once: false when it was closed already (here, by another node, or before a restart). */
  async #close(snapshot: ProgramSnapshot, board: LeaderboardDocument, window: { start: number; end: number }, now: number): Promise<boolean> {
    const siteId = snapshot.siteId;
    const prizes = board.prizes ?? [];
    const closing: LeaderboardClosingsTable = {
      site_id: siteId,
      board_id: board.id,
      window_start: window.start,
      window_end: window.end,
      closing_id: `lbc_${uuidv7()}`,
      party_type: board.party,
      prizes: JSON.stringify(prizes),
      closed_at: now,
    };
    return this.actions.transaction(snapshot, now, async (within) => {
      const claimed = await this.#repository.claim(within.trx, closing);
      if (claimed) {
        const rows = await this.#repository.standings(within.trx, { siteId, boardId: board.id, windowStart: window.start }, board.size);
        const standings = finalStandings(
          rows.map((row) => ({ partyId: row.party_id, score: Number(row.score) })),
          prizes,
        );
        await this.#pay(within, board, closing, standings);
        await this.#repository.insertResults(
          within.trx,
          standings.map((standing) => resultRow(closing, standing)),
        );
      }
      await this.#repository.advanceCursor(within.trx, siteId, board.id, window.end);
      return claimed;
    });
  }

  /** The prizes of the window's standings, and `leaderboard.closed` (carried by the first-placed party), in one decision. */
  async #pay(within: WithinTransaction, board: LeaderboardDocument, closing: LeaderboardClosingsTable, standings: readonly FinalStanding[]): Promise<void> {
    const first = standings[0];
    if (first === undefined) return;
    const { snapshot, now } = within;
    const siteId = snapshot.siteId;
    const party = (id: string): PartyKey => ({ siteId, type: board.party, id });
    const paid = standings.filter((s) => s.prize !== undefined);
    const winners = standings.filter((s) => s.prize !== undefined || s.rank === 1);
    const parties = [...new Set([first.partyId, ...paid.map((s) => s.partyId)])].map(party);
    // Users' groups matter to the boards with a group filter that the prize points move.
    const needsGroups = board.party === 'user' && LeaderboardService.needsGroups(snapshot.program);
    const groups = new Map<string, ReadonlySet<string>>();
    if (needsGroups) for (const s of paid) groups.set(s.partyId, new Set(await this.actions.memberships(siteId, s.partyId)));
    const categories = new Map(snapshot.program.pointCategories.map((c) => [c.name.toLowerCase(), c.name]));
    const badges = new Map(snapshot.program.badges.map((b) => [b.id, b.name]));
    const reason = `${board.name}: rank`;
    await this.actions.writeWithin(within, parties, async (locked) => {
      for (const standing of paid) {
        const prize = standing.prize as PrizeRewards;
        const winner = party(standing.partyId);
        for (const reward of prize.points) {
          const category = categories.get(reward.category.toLowerCase());
          if (category === undefined || reward.amount <= 0) continue;
          await this.points.post(locked, snapshot, winner, groups.get(standing.partyId) ?? new Set(), {
            category,
            amount: reward.amount,
            cause: 'prize',
            causeId: closing.closing_id,
            reason: `${reason} ${standing.rank}`,
            levelCause: () => ({ closingId: closing.closing_id }),
          });
        }
        if (prize.badge !== undefined && badges.has(prize.badge)) {
          locked.writes.addTrophy(winner, prize.badge, now);
          const badge = { id: prize.badge, name: badges.get(prize.badge) as string };
          locked.writes.enqueue(
            winner,
            { type: 'badge.earned', occurredAt: now, data: { badge, closingId: closing.closing_id, leaderboardId: board.id } },
            now,
          );
        }
      }
      const data = {
        leaderboard: { id: board.id, name: board.name },
        closingId: closing.closing_id,
        window: { start: iso(closing.window_start), end: iso(closing.window_end) },
        winners: winners.map((s) => ({
          rank: s.rank,
          ...(board.party === 'user' ? { userId: s.partyId } : { groupId: s.partyId }),
          score: s.score,
          prize: s.prize === undefined ? null : presentPrize(s.prize, badges),
        })),
      };
      locked.writes.enqueue(party(first.partyId), { type: 'leaderboard.closed', occurredAt: closing.window_end, data }, now);
      return { writes: locked.writes, answer: undefined };
    });
  }
}

/** The board as the closer reads it: its period, and an allTime board's fixed end as an instant. */
function closingBoard(board: LeaderboardDocument, timezone: string): ClosingBoard {
  return { period: board.period, ...(board.end !== undefined ? { endsAt: localDateTimeToInstant(board.end, timezone) } : {}) };
}

function resultRow(closing: LeaderboardClosingsTable, standing: FinalStanding): LeaderboardResultsTable {
  return {
    site_id: closing.site_id,
    closing_id: closing.closing_id,
    position: standing.position,
    rank: standing.rank,
    party_id: standing.partyId,
    score: standing.score,
    prize: standing.prize === undefined ? null : JSON.stringify(standing.prize),
  };
}

function presentPrize(prize: PrizeRewards, badges: ReadonlyMap<string, string>): PresentedPrize {
  return {
    points: prize.points.map((p) => ({ category: p.category, amount: p.amount })),
    ...(prize.badge !== undefined ? { badge: { id: prize.badge, name: badges.get(prize.badge) ?? prize.badge } } : {}),
  };
}
