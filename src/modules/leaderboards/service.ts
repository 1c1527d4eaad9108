// Leaderboards (SPEC §7). A board's score for a party and calendar window is a row in
// leaderboard_scores, moved in the same transaction as the points, completion or action that
// moves it; after the transaction commits, the new score goes to the window's ranking structure
// (in process, or Redis sorted sets in scale-out mode; see rankings.ts), which loads the window
// from its rows on first use and answers pages and ranks without touching the database. Past
// windows keep their rows and load the same way.
import { LRUCache } from 'lru-cache';
import { localDateTimeToInstant, localDay } from '../../engine/calendar.js';
import { leaderboardWindow, scoreDeltas, type ScoreChange, type ScoreDelta } from '../../engine/elements/leaderboards.js';
import type { Party } from '../../engine/types.js';
import type { Db } from '../../db/index.js';
import type { ScoreRow } from '../ledger/written.js';
import { AppError } from '../../errors.js';
import type { LayoutDocument, LeaderboardDocument, ProgramDocument } from '../program/model.js';
import type { GroupService } from '../groups/service.js';
import type { ProgramService } from '../program/service.js';
import type { Name, PreferencesService } from '../users/preferences.js';
import type { KeptNames, SharedNames } from '../users/shared-names.js';
import type { RankedEntry } from './ranked-list.js';
import type { RankedRow, Rankings, ScoreUpdate, WindowKey, WindowLoader } from './rankings.js';
import { LeaderboardsRepository } from './repository.js';

export type { ScoreUpdate } from './rankings.js';

export interface LeaderEntry {
  rank: number;
  userId?: string;
  groupId?: string;
  score: number;
  firstName: string | null;
  lastName: string | null;
  iconUrl: string | null;
}

/** A board of a layout, with where the user stands on it (group boards: the user's best-placed group). */
export interface LayoutBoard {
  id: string;
  name: string;
  period: LeaderboardDocument['period'];
  party: LeaderboardDocument['party'];
  rank: number | null;
  score: number | null;
  groupId?: string;
  leaders?: LeaderEntry[];
}

export interface LayoutStanding {
  uuid: string;
  name: string;
  leaderboards: LayoutBoard[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Presented pages kept (a top-100 page is about 20 KB). */
const PAGES_CACHED = 1000;
/** Rows per query when a window loads. */
const LOAD_PAGE = 10_000;
/** Windows with more rows than this report their loading progress. */
const LARGE_WINDOW = 100_000;

export interface LeaderboardOptions {
  clock: () => number;
  /** A publish that failed after its commit (the window reloads from its rows when that works again). */
  onError: (error: unknown) => void;
  /** How long each window load (a rebuild from the database) took (metrics). */
  onLoad?: (seconds: number) => void;
  /**
   * Scale-out: users' names kept in Redis beside the boards. A window of a user board that loads
   * keeps its users' names there, and a standing reads its entries' names with the ranks.
   */
  names?: SharedNames | undefined;
}

export class LeaderboardService {
  readonly #clock: () => number;
  readonly #onError: (error: unknown) => void;
  readonly #rankings: Rankings;
  readonly #names: SharedNames | undefined;
  /** Presented pages by window, offset and limit, with what they were presented from. */
  readonly #pages = new LRUCache<string, { generation: string; program: ProgramDocument; names: number; entries: LeaderEntry[]; total: number }>({
    max: PAGES_CACHED,
  });
  #stopping = false;
  #warming: Promise<void> = Promise.resolve();
  readonly #repository: LeaderboardsRepository;

  constructor(
    db: Db,
    private readonly programs: ProgramService,
    private readonly groups: GroupService,
    private readonly preferences: PreferencesService,
    rankings: (load: WindowLoader) => Rankings,
    options: LeaderboardOptions,
  ) {
    this.#repository = new LeaderboardsRepository(db);
    this.#clock = options.clock;
    this.#onError = options.onError;
    this.#names = options.names;
    const rows = (window: WindowKey) => this.#rows(window);
    this.#rankings = rankings(async function* timed(window) {
      const started = performance.now();
      yield* rows(window);
      options.onLoad?.((performance.now() - started) / 1000);
    });
  }

  /** The board deltas of a party's changes (pure; see src/engine/elements/leaderboards.ts). */
  static deltas(program: ProgramDocument, party: Party, groups: ReadonlySet<string>, changes: readonly ScoreChange[]): ScoreDelta[] {
    if (program.leaderboards.length === 0 || changes.length === 0) return [];
    return scoreDeltas(program.leaderboards, program.site.timezone, program.pointCategories.find((c) => c.isDefault)?.name, party, groups, changes);
  }

  /** Whether a user's group memberships can matter to the site's boards. */
  static needsGroups(program: ProgramDocument): boolean {
    return program.leaderboards.some((board) => board.groupFilter !== undefined);
  }

  /** Scores as a write set stored them (src/modules/ledger/), for publish() after the commit. */
  static updates(siteId: string, rows: readonly ScoreRow[]): ScoreUpdate[] {
    return rows.map((row) => ({
      siteId,
      boardId: row.board_id,
      windowStart: Number(row.window_start),
      member: row.party_id,
      score: Number(row.score),
      reachedAt: Number(row.reached_at),
      version: Number(row.version),
    }));
  }

  /**
   * After the commit: committed scores into the ranking structure. The change itself is durable
   * already, so a failure here (Redis unreachable) is reported, not thrown: the member's next
   * change carries its whole score, and a window that expires or is reloaded reads the rows.
   */
  async publish(updates: readonly ScoreUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    try {
      await this.#rankings.publish(updates);
    } catch (error) {
      this.#onError(error);
    }
  }

  /** A page of the board in a window (`current`, `previous`, or a date inside it). */
  /** GET /leaderboards/{id}: the board as the program defines it (blocks show its name). */
  async definition(siteId: string, boardId: string): Promise<LeaderboardDocument> {
    return (await this.board(siteId, boardId)).board;
  }

  async leaders(
    siteId: string,
    boardId: string,
    query: { window?: string | undefined; offset?: number | undefined; limit?: number | undefined },
  ): Promise<{ entries: LeaderEntry[]; total: number }> {
    const { program, board } = await this.board(siteId, boardId);
    const offset = query.offset ?? 0;
    if (query.limit !== undefined && query.limit > board.size) {
      throw new AppError('validation_failed', 'The page is invalid', {
        errors: [{ path: 'limit', message: `must be at most the board's size (${board.size})` }],
      });
    }
    const limit = Math.min(query.limit ?? Math.min(board.size, 50), Math.max(0, board.size - offset));
    const window = this.windowOf(siteId, program, board, query.window);
    // A page is presented again only when its window, the program or a name changed since.
    const key = `${window.siteId}\u0000${window.boardId}\u0000${window.windowStart}\u0000${offset}\u0000${limit}`;
    const names = this.preferences.generation;
    const cached = this.#pages.get(key);
    const fresh = cached !== undefined && cached.program === program && cached.names === names ? cached : undefined;
    const page = await this.#rankings.page(window, offset, limit, fresh?.generation);
    if (page === 'unchanged' && fresh !== undefined) return { entries: fresh.entries, total: Math.min(fresh.total, board.size) };
    if (page === 'unchanged') throw new Error('a window answered unchanged to a generation it was not given');
    const entries = await this.present(siteId, program, board, page.entries);
    if (page.generation !== '') this.#pages.set(key, { generation: page.generation, program, names, entries, total: page.total });
    return { entries, total: Math.min(page.total, board.size) };
  }

  /** A party's rank and score on the board, and the entries around it (`around` on each side). */
  async standing(
    siteId: string,
    boardId: string,
    partyId: string,
    query: { window?: string | undefined; around?: number | undefined },
  ): Promise<{ rank: number | null; score: number | null; entries: LeaderEntry[] }> {
    const { program, board } = await this.board(siteId, boardId);
    const standing = await this.#rankings.standing(this.windowOf(siteId, program, board, query.window), partyId, query.around ?? 5, board.party === 'user');
    if (standing === undefined) return { rank: null, score: null, entries: [] };
    return { rank: standing.rank, score: standing.score, entries: await this.present(siteId, program, board, standing.entries, standing.names) };
  }

  /** The user's rank on the site's primary board in its current window (null: no primary board, or not on it). */
  async primaryRank(siteId: string, userId: string): Promise<number | null> {
    const { program } = await this.programs.snapshot(siteId);
    const board = program.leaderboards.find((b) => b.primary && b.party === 'user');
    if (board === undefined) return null;
    return (await this.#rankings.standing(this.windowOf(siteId, program, board, undefined), userId, 0))?.rank ?? null;
  }

  /** The layouts with a board the user appears on in its current window, with the user's standing on each of their boards. */
  async layouts(siteId: string, userId: string): Promise<LayoutStanding[]> {
    const { program } = await this.programs.snapshot(siteId);
    const groups = await this.groupsOf(siteId, userId, program);
    const out: LayoutStanding[] = [];
    for (const layout of program.layouts) {
      const standing = await this.layoutStanding(siteId, program, layout, userId, groups, 0);
      if (standing.leaderboards.some((board) => board.rank !== null)) out.push(standing);
    }
    return out;
  }

  /** One layout: each board's top `limit` entries (at most its size) and the user's standing on it. */
  async layout(siteId: string, userId: string, uuid: string, limit: number): Promise<LayoutStanding> {
    const { program } = await this.programs.snapshot(siteId);
    const layout = program.layouts.find((l) => l.uuid === uuid);
    if (layout === undefined) throw new AppError('not_found', `No layout "${uuid}"`);
    return this.layoutStanding(siteId, program, layout, userId, await this.groupsOf(siteId, userId, program), limit);
  }

  /**
   * Loads the current window of every board of every site into the ranking structure, so that
   * the first reads after a start do not wait; windows of more than LARGE_WINDOW rows report
   * their progress. Runs in the background of a serving process; stop() ends it after the window
   * loading now (requests may be waiting for that one).
   */
  warm(progress: (line: string) => void, largeWindow = LARGE_WINDOW): Promise<void> {
    this.#warming = (async () => {
      for (const siteId of await this.#repository.siteIds()) {
        const { program } = await this.programs.snapshot(siteId);
        for (const board of program.leaderboards) {
          if (this.#stopping) return;
          const window = this.windowOf(siteId, program, board, undefined);
          const started = this.#clock();
          const rows = await this.#repository.count(window);
          await this.#rankings.warm(window);
          if (rows > largeWindow && !this.#stopping)
            progress(`leaderboard ${siteId}/${board.id}: ${rows} scores loaded in ${((this.#clock() - started) / 1000).toFixed(1)} s`);
        }
      }
    })();
    return this.#warming;
  }

  /**
   * Loads the current window of each of the site's boards again from its rows (`questline
   * leaderboards reload`): with Redis, this repairs a board whose update was lost between a commit
   * and its publish (a node killed in between), and names kept beside the boards whose change was
   * lost the same way. Newer scores already held are kept.
   */
  async reload(
    siteId: string,
    progress: (boardId: string, loaded: number, total: number) => void,
  ): Promise<Array<{ boardId: string; windowStart: number; scores: number }>> {
    const { program } = await this.programs.snapshot(siteId);
    // Kept names are dropped and read again: with the windows' users, and others when next read.
    await this.#names?.clear(siteId);
    const out: Array<{ boardId: string; windowStart: number; scores: number }> = [];
    for (const board of program.leaderboards) {
      const window = this.windowOf(siteId, program, board, undefined);
      const total = await this.#repository.count(window);
      const scores = await this.#rankings.reload(window, (loaded) => progress(board.id, loaded, total));
      out.push({ boardId: board.id, windowStart: window.windowStart, scores });
    }
    return out;
  }

  /** Ends warming (after the window loading now) and waits for it. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#warming.catch(() => {});
  }

  private async layoutStanding(
    siteId: string,
    program: ProgramDocument,
    layout: LayoutDocument,
    userId: string,
    groups: readonly string[],
    limit: number,
  ): Promise<LayoutStanding> {
    const boards: LayoutBoard[] = [];
    for (const id of layout.leaderboards) {
      const board = program.leaderboards.find((b) => b.id === id);
      if (board === undefined) continue;
      const window = this.windowOf(siteId, program, board, undefined);
      const entry: LayoutBoard = { id: board.id, name: board.name, period: board.period, party: board.party, rank: null, score: null };
      for (const member of board.party === 'group' ? groups : [userId]) {
        const standing = await this.#rankings.standing(window, member, 0);
        if (standing !== undefined && (entry.rank === null || standing.rank < entry.rank)) {
          entry.rank = standing.rank;
          entry.score = standing.score;
          if (board.party === 'group') entry.groupId = member;
        }
      }
      if (limit > 0) entry.leaders = await this.present(siteId, program, board, (await this.#rankings.page(window, 0, Math.min(limit, board.size))).entries);
      boards.push(entry);
    }
    return { uuid: layout.uuid, name: layout.name, leaderboards: boards };
  }

  /** The user's groups, when one of the site's boards ranks groups. */
  private async groupsOf(siteId: string, userId: string, program: ProgramDocument): Promise<string[]> {
    if (!program.leaderboards.some((board) => board.party === 'group')) return [];
    return this.groups.ofUser(siteId, userId);
  }

  private async board(siteId: string, boardId: string): Promise<{ program: ProgramDocument; board: LeaderboardDocument }> {
    const { program } = await this.programs.snapshot(siteId);
    const board = program.leaderboards.find((b) => b.id === boardId);
    if (board === undefined) throw new AppError('not_found', `No leaderboard "${boardId}"`);
    return { program, board };
  }

  private windowOf(siteId: string, program: ProgramDocument, board: LeaderboardDocument, window: string | undefined): WindowKey {
    const timezone = program.site.timezone;
    const current = leaderboardWindow(board.period, this.#clock(), timezone);
    const key = (windowStart: number) => ({ siteId, boardId: board.id, windowStart });
    if (window === undefined || window === 'current') return key(current.start);
    if (window === 'previous') return key(board.period === 'allTime' ? 0 : leaderboardWindow(board.period, current.start - 1, timezone).start);
    if (DATE.test(window)) {
      const instant = localDateTimeToInstant(`${window}T00:00:00`, timezone);
      // A date that does not exist (2026-02-30) would roll over into the next month: refused.
      if (Number.isFinite(instant) && localDay(instant, timezone) === window) return key(leaderboardWindow(board.period, instant, timezone).start);
    }
    throw new AppError('validation_failed', 'The window is invalid', {
      errors: [{ path: 'window', message: 'must be current, previous, or a date (YYYY-MM-DD) inside the wanted window' }],
    });
  }

  /**
   * A window's rows, keyset-paged by party id (the primary key's order). With names kept beside
   * the boards, a user board's users' names are kept there too, so that its standings read none
   * from the database.
   */
  async *#rows(window: WindowKey): AsyncIterable<RankedEntry[]> {
    const names = this.#names !== undefined && (await this.#partyOf(window)) === 'user' ? this.#names : undefined;
    // A batch's names are kept while its scores are written and the next batch is read (one keep at a time).
    let keeping: Promise<void> = Promise.resolve();
    let after: string | undefined;
    for (;;) {
      // Taken before the rows are read: names read under it are kept only if no write came since.
      const generation = await names?.generation(window.siteId);
      const rows = await this.#repository.scores(window, after, LOAD_PAGE);
      if (names !== undefined && generation !== undefined) {
        const users = rows.map((row) => row.party_id);
        const read = await this.preferences.storedNames(window.siteId, users);
        await keeping;
        keeping = names.keep(window.siteId, generation, users, read);
        // Awaited above or below; a failure fails the load there.
        keeping.catch(() => {});
      }
      yield rows.map((row) => ({ member: row.party_id, score: Number(row.score), reachedAt: Number(row.reached_at), version: Number(row.version) }));
      if (rows.length < LOAD_PAGE) break;
      after = (rows[rows.length - 1] as { party_id: string }).party_id;
    }
    await keeping;
  }

  /** Whether the window's board ranks users or groups (undefined: the board is no longer in the program). */
  async #partyOf(window: WindowKey): Promise<LeaderboardDocument['party'] | undefined> {
    const { program } = await this.programs.snapshot(window.siteId);
    return program.leaderboards.find((board) => board.id === window.boardId)?.party;
  }

  /** Entries with their names: those `kept` beside the structure (aligned with the entries), the others from the preferences. */
  private async present(
    siteId: string,
    program: ProgramDocument,
    board: LeaderboardDocument,
    entries: readonly RankedRow[],
    kept?: KeptNames,
  ): Promise<LeaderEntry[]> {
    if (board.party === 'group') {
      const groups = new Map(program.groups.map((group) => [group.id, group]));
      return entries.map((entry) => ({
        rank: entry.rank,
        groupId: entry.member,
        score: entry.score,
        firstName: groups.get(entry.member)?.name ?? null,
        lastName: null,
        iconUrl: null,
      }));
    }
    const names =
      kept === undefined
        ? await this.preferences.names(
            siteId,
            entries.map((entry) => entry.member),
          )
        : await this.#keptNames(siteId, entries, kept);
    return entries.map((entry) => {
      const name = names.get(entry.member);
      return {
        rank: entry.rank,
        userId: entry.member,
        score: entry.score,
        firstName: name?.firstName ?? null,
        lastName: name?.lastName ?? null,
        iconUrl: name?.iconUrl ?? null,
      };
    });
  }

  /**
   * The kept names, and those of the entries not kept read from the database (not from this
   * node's cache, which may not have heard of a write yet) and kept for the next reads.
   */
  async #keptNames(siteId: string, entries: readonly RankedRow[], kept: KeptNames): Promise<Map<string, Name>> {
    const names = new Map<string, Name>();
    const missing: string[] = [];
    for (const [i, entry] of entries.entries()) {
      const name = kept.names[i];
      if (name !== undefined) names.set(entry.member, name);
      else missing.push(entry.member);
    }
    if (missing.length === 0) return names;
    const read = await this.preferences.storedNames(siteId, missing);
    this.#names?.keepInBackground(siteId, kept.generation, missing, read);
    for (const [userId, name] of read) names.set(userId, name);
    return names;
  }
}
