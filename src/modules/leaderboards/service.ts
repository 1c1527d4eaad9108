// Leaderboards (SPEC §7). A board's score for a party and calendar window is a row in
// leaderboard_scores, moved in the same transaction as the points, completion or action that
// moves it; after the transaction commits, the new score goes to the window's ranking structure
// (an in-process RankedList, loaded from the rows on first use), which answers pages and ranks
// without touching the database. Past windows keep their rows and load the same way.
import { LRUCache } from 'lru-cache';
import { localDateTimeToInstant, localDay } from '../../engine/calendar.js';
import { leaderboardWindow, scoreDeltas, type ScoreChange, type ScoreDelta } from '../../engine/elements/leaderboards.js';
import type { Party } from '../../engine/types.js';
import type { Db, Trx } from '../../db/index.js';
import { precompiled } from '../../db/precompiled.js';
import { AppError } from '../../errors.js';
import type { LeaderboardDocument, ProgramDocument } from '../program/model.js';
import type { ProgramService } from '../program/service.js';
import type { PreferencesService } from '../profile/preferences.js';
import { RankedList, type RankedEntry } from './ranked-list.js';

/** A score as committed, for the ranking structure of its window. */
export interface ScoreUpdate extends RankedEntry {
  siteId: string;
  boardId: string;
  windowStart: number;
}

export interface LeaderEntry {
  rank: number;
  userId?: string;
  groupId?: string;
  score: number;
  firstName: string | null;
  lastName: string | null;
  iconUrl: string | null;
}

/** Windows kept in memory at once (each board's current one, and past ones asked for). */
const WINDOWS = 512;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const addScore = precompiled<{ siteId: string; boardId: string; windowStart: number; partyId: string; delta: number; at: number }, { score: number; reached_at: number; version: number }>(
  (db, p) =>
    db
      .insertInto('leaderboard_scores')
      .values({ site_id: p.siteId, board_id: p.boardId, window_start: p.windowStart, party_id: p.partyId, score: p.delta, reached_at: p.at, version: 1 })
      .onConflict((oc) =>
        oc.columns(['site_id', 'board_id', 'window_start', 'party_id']).doUpdateSet((eb) => ({
          score: eb('leaderboard_scores.score', '+', p.delta),
          reached_at: p.at,
          version: eb('leaderboard_scores.version', '+', 1),
        })),
      )
      .returning(['score', 'reached_at', 'version']),
);

interface Window {
  list: RankedList;
  ready: Promise<void>;
}

export class LeaderboardService {
  readonly #windows = new LRUCache<string, Window>({ max: WINDOWS });

  constructor(
    private readonly db: Db,
    private readonly programs: ProgramService,
    private readonly preferences: PreferencesService,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The board deltas of a party's changes (pure; see src/engine/elements/leaderboards.ts). */
  static deltas(program: ProgramDocument, party: Party, groups: ReadonlySet<string>, changes: readonly ScoreChange[]): ScoreDelta[] {
    if (program.leaderboards.length === 0 || changes.length === 0) return [];
    return scoreDeltas(program.leaderboards, program.site.timezone, program.pointCategories.find((c) => c.isDefault)?.name, party, groups, changes);
  }

  /** Whether a user's group memberships can matter to the site's boards. */
  static needsGroups(program: ProgramDocument): boolean {
    return program.leaderboards.some((board) => board.groupFilter !== undefined);
  }

  /** Inside the transaction of the change: moves the scores; returns them for publish() after the commit. */
  async record(trx: Trx, siteId: string, partyId: string, deltas: readonly ScoreDelta[]): Promise<ScoreUpdate[]> {
    const updates: ScoreUpdate[] = [];
    for (const delta of deltas) {
      const [row] = await addScore(trx, { siteId, boardId: delta.boardId, windowStart: delta.windowStart, partyId, delta: delta.delta, at: delta.at });
      if (row === undefined) continue;
      updates.push({ siteId, boardId: delta.boardId, windowStart: delta.windowStart, member: partyId, score: Number(row.score), reachedAt: Number(row.reached_at), version: Number(row.version) });
    }
    return updates;
  }

  /** After the commit: committed scores into the windows held in memory (others load them from the rows). */
  publish(updates: readonly ScoreUpdate[]): void {
    for (const update of updates) {
      this.#windows.peek(windowKey(update.siteId, update.boardId, update.windowStart))?.list.set({ member: update.member, score: update.score, reachedAt: update.reachedAt, version: update.version });
    }
  }

  /** A page of the board in a window (`current`, `previous`, or a date inside it). */
  async leaders(siteId: string, boardId: string, query: { window?: string | undefined; offset?: number | undefined; limit?: number | undefined }): Promise<{ entries: LeaderEntry[]; total: number }> {
    const { program, board } = await this.board(siteId, boardId);
    const offset = query.offset ?? 0;
    if (query.limit !== undefined && query.limit > board.size) {
      throw new AppError('validation_failed', 'The page is invalid', { errors: [{ path: 'limit', message: `must be at most the board's size (${board.size})` }] });
    }
    const limit = Math.min(query.limit ?? Math.min(board.size, 50), Math.max(0, board.size - offset));
    const list = await this.window(siteId, board, this.windowStart(program, board, query.window));
    return { entries: await this.present(siteId, program, board, list.slice(offset, limit)), total: Math.min(list.size, board.size) };
  }

  /** A party's rank and score on the board, and the entries around it (`around` on each side). */
  async standing(siteId: string, boardId: string, partyId: string, query: { window?: string | undefined; around?: number | undefined }): Promise<{ rank: number | null; score: number | null; entries: LeaderEntry[] }> {
    const { program, board } = await this.board(siteId, boardId);
    const list = await this.window(siteId, board, this.windowStart(program, board, query.window));
    const position = list.position(partyId);
    if (position === undefined) return { rank: null, score: null, entries: [] };
    const around = query.around ?? 5;
    const from = Math.max(0, position - around);
    return { rank: list.rank(partyId) ?? null, score: list.get(partyId)?.score ?? null, entries: await this.present(siteId, program, board, list.slice(from, position - from + around + 1)) };
  }

  /** The user's rank on the site's primary board in its current window (null: no primary board, or not on it). */
  async primaryRank(siteId: string, userId: string): Promise<number | null> {
    const { program } = await this.programs.snapshot(siteId);
    const board = program.leaderboards.find((b) => b.primary && b.party === 'user');
    if (board === undefined) return null;
    const list = await this.window(siteId, board, this.windowStart(program, board, undefined));
    return list.rank(userId) ?? null;
  }

  private async board(siteId: string, boardId: string): Promise<{ program: ProgramDocument; board: LeaderboardDocument }> {
    const { program } = await this.programs.snapshot(siteId);
    const board = program.leaderboards.find((b) => b.id === boardId);
    if (board === undefined) throw new AppError('not_found', `No leaderboard "${boardId}"`);
    return { program, board };
  }

  private windowStart(program: ProgramDocument, board: LeaderboardDocument, window: string | undefined): number {
    const timezone = program.site.timezone;
    const current = leaderboardWindow(board.period, this.clock(), timezone);
    if (window === undefined || window === 'current') return current.start;
    if (window === 'previous') return board.period === 'allTime' ? 0 : leaderboardWindow(board.period, current.start - 1, timezone).start;
    if (DATE.test(window)) {
      const instant = localDateTimeToInstant(`${window}T00:00:00`, timezone);
      // A date that does not exist (2026-02-30) would roll over into the next month: refused.
      if (Number.isFinite(instant) && localDay(instant, timezone) === window) return leaderboardWindow(board.period, instant, timezone).start;
    }
    throw new AppError('validation_failed', 'The window is invalid', { errors: [{ path: 'window', message: 'must be current, previous, or a date (YYYY-MM-DD) inside the wanted window' }] });
  }

  /** The window's ranking structure, loaded from its rows on first use. */
  private async window(siteId: string, board: LeaderboardDocument, windowStart: number): Promise<RankedList> {
    const key = windowKey(siteId, board.id, windowStart);
    let window = this.#windows.get(key);
    if (window === undefined) {
      const list = new RankedList();
      // Scores published while the rows load are kept: each entry keeps its newest version.
      const ready = this.load(list, siteId, board.id, windowStart).catch((error: unknown) => {
        this.#windows.delete(key);
        throw error;
      });
      window = { list, ready };
      this.#windows.set(key, window);
    }
    await window.ready;
    return window.list;
  }

  private async load(list: RankedList, siteId: string, boardId: string, windowStart: number): Promise<void> {
    const rows = await this.db
      .selectFrom('leaderboard_scores')
      .select(['party_id', 'score', 'reached_at', 'version'])
      .where('site_id', '=', siteId)
      .where('board_id', '=', boardId)
      .where('window_start', '=', windowStart)
      .execute();
    for (const row of rows) list.set({ member: row.party_id, score: Number(row.score), reachedAt: Number(row.reached_at), version: Number(row.version) });
  }

  private async present(siteId: string, program: ProgramDocument, board: LeaderboardDocument, entries: ReadonlyArray<RankedEntry & { rank: number }>): Promise<LeaderEntry[]> {
    if (board.party === 'group') {
      const groups = new Map(program.groups.map((group) => [group.id, group]));
      return entries.map((entry) => ({ rank: entry.rank, groupId: entry.member, score: entry.score, firstName: groups.get(entry.member)?.name ?? null, lastName: null, iconUrl: null }));
    }
    const names = await this.preferences.names(
      siteId,
      entries.map((entry) => entry.member),
    );
    return entries.map((entry) => {
      const name = names.get(entry.member);
      return { rank: entry.rank, userId: entry.member, score: entry.score, firstName: name?.firstName ?? null, lastName: name?.lastName ?? null, iconUrl: name?.iconUrl ?? null };
    });
  }
}

function windowKey(siteId: string, boardId: string, windowStart: number): string {
  return `${siteId}\u0000${boardId}\u0000${windowStart}`;
}
