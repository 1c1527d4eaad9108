// The ranking structure of leaderboard windows, in process (embedded) or in Redis sorted sets
// (scale-out, shared by every node). Both load a window from its rows the first time it is read,
// keep each member's newest version only, and answer pages and ranks in O(log n); both answer the
// same interface and are tested against each other on the same sequence of updates.
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { defineScripts } from '../../infra/redis.js';
import { SharedNames, type KeptNames } from '../users/shared-names.js';
import { RankedList, type RankedEntry } from './ranked-list.js';

export interface WindowKey {
  siteId: string;
  boardId: string;
  windowStart: number;
}

/** A score as committed, for the ranking structure of its window. */
export interface ScoreUpdate extends RankedEntry, WindowKey {}

export type RankedRow = Omit<RankedEntry, 'version'> & { rank: number };

export interface Standing {
  rank: number;
  score: number;
  entries: RankedRow[];
  /** The entries' names as kept beside the structure (src/modules/users/shared-names.ts), when asked for and kept there. */
  names?: KeptNames;
}

export interface Page {
  entries: RankedRow[];
  total: number;
  /** '' when the window cannot say (nothing may be cached). */
  generation: string;
}

/** The window's committed scores, in batches (keyset-paged from leaderboard_scores). */
export type WindowLoader = (window: WindowKey) => AsyncIterable<RankedEntry[]>;

export interface Rankings {
  /** After the commit: the new scores of members. */
  publish(updates: readonly ScoreUpdate[]): Promise<void>;
  /**
   * Entries from position `offset` (0-based), at most `limit`, with shared ranks; how many the
   * window holds; and the window's generation, which changes with every change of the window.
   * 'unchanged' when the caller already holds generation `unless` (so the caller's copy stands).
   */
  page(window: WindowKey, offset: number, limit: number): Promise<Page>;
  page(window: WindowKey, offset: number, limit: number, unless: string | undefined): Promise<Page | 'unchanged'>;
  /**
   * The member's rank and the entries `around` it on each side (undefined: not in the window).
   * With `withNames` (members are users), a structure that keeps users' names beside it (Redis)
   * also answers the entries' kept names, in the same order.
   */
  standing(window: WindowKey, member: string, around: number, withNames?: boolean): Promise<Standing | undefined>;
  /** Loads the window now if it is not loaded (start-up warming). */
  warm(window: WindowKey): Promise<void>;
  /** Loads the window's rows again even if it is loaded (repair; newer versions already held stay); `progress` gets the rows loaded so far. */
  reload(window: WindowKey, progress?: (loaded: number) => void): Promise<number>;
}

/** Ranks of consecutive listing positions: the first from the count above it, then shared while the score repeats. */
function ranked(entries: ReadonlyArray<Omit<RankedEntry, 'version'>>, from: number, above: number): RankedRow[] {
  const out: RankedRow[] = [];
  for (const [i, entry] of entries.entries()) {
    const previous = out[i - 1];
    const rank = previous === undefined ? above + 1 : previous.score === entry.score ? previous.rank : from + i + 1;
    out.push({ member: entry.member, score: entry.score, reachedAt: entry.reachedAt, rank });
  }
  return out;
}

function rows(entries: ReadonlyArray<RankedEntry & { rank: number }>): RankedRow[] {
  return entries.map((entry) => ({ member: entry.member, score: entry.score, reachedAt: entry.reachedAt, rank: entry.rank }));
}

/** Windows kept in memory at once (each board's current one, and past ones asked for). */
const WINDOWS = 512;

interface HeldWindow {
  list: RankedList;
  ready: Promise<void>;
  /** Raised from one counter for every window, so a window loaded again never repeats a generation. */
  generation: number;
}

export class MemoryRankings implements Rankings {
  readonly #windows = new LRUCache<string, HeldWindow>({ max: WINDOWS });
  #generations = 0;

  constructor(private readonly load: WindowLoader) {}

  async publish(updates: readonly ScoreUpdate[]): Promise<void> {
    // Windows not in memory load the committed rows when first read.
    for (const update of updates) {
      const held = this.#windows.peek(keyOf(update));
      if (held?.list.set(update) === true) held.generation = ++this.#generations;
    }
  }

  page(window: WindowKey, offset: number, limit: number): Promise<Page>;
  page(window: WindowKey, offset: number, limit: number, unless: string | undefined): Promise<Page | 'unchanged'>;
  async page(window: WindowKey, offset: number, limit: number, unless?: string): Promise<Page | 'unchanged'> {
    const held = await this.#held(window);
    const generation = String(held.generation);
    if (generation === unless) return 'unchanged';
    return { entries: rows(held.list.slice(offset, limit)), total: held.list.size, generation };
  }

  async standing(window: WindowKey, member: string, around: number): Promise<Standing | undefined> {
    const { list } = await this.#held(window);
    const position = list.position(member);
    const entry = list.get(member);
    if (position === undefined || entry === undefined) return undefined;
    const from = Math.max(0, position - around);
    return { rank: list.countAbove(entry.score) + 1, score: entry.score, entries: rows(list.slice(from, position - from + around + 1)) };
  }

  async warm(window: WindowKey): Promise<void> {
    await this.#held(window);
  }

  async reload(window: WindowKey, progress?: (loaded: number) => void): Promise<number> {
    this.#windows.delete(keyOf(window));
    const held = await this.#held(window);
    progress?.(held.list.size);
    return held.list.size;
  }

  async #held(window: WindowKey): Promise<HeldWindow> {
    const key = keyOf(window);
    let held = this.#windows.get(key);
    if (held === undefined) {
      const list = new RankedList();
      // Scores published while the rows load are kept: each member keeps its newest version.
      const ready = (async () => {
        for await (const batch of this.load(window)) for (const entry of batch) list.set(entry);
      })().catch((error: unknown) => {
        this.#windows.delete(key);
        throw error;
      });
      held = { list, ready, generation: ++this.#generations };
      this.#windows.set(key, held);
      const loading = held;
      // Loaded rows change the window too.
      void ready.then(
        () => (loading.generation = ++this.#generations),
        () => {},
      );
    }
    await held.ready;
    return held;
  }
}

// In Redis a window is four keys: a sorted set of listing members, a hash of member →
// "version listingMember", a marker saying the window's rows are loaded, and a generation raised
// by every change (starting from Redis's clock in microseconds, so a window that expired and
// loaded again never repeats one). The sorted set's
// score is the negated score and its member is `reachedAt (16 digits) \0 id`, so the set's
// ascending order is the listing order (highest score, then earliest reached, then id) and a
// rank is 1 + ZCOUNT of the lower set scores. Writes keep a member's newest version only, so a
// late update, or a row loaded after a newer publish, never goes back in time. Windows expire 6
// to 7 days after their last write (the expiry is refreshed at most daily) and load again from
// the rows when next read. The keys of a site share one hash tag, so that one script moves every
// board a change touches (and a Redis Cluster keeps a site's boards on one shard, as the
// database distributes by site). A user's standing is one script call: the member's rank, the
// entries around it and, given the site's kept names (src/modules/users/shared-names.ts, in the
// same hash tag), the entries' names.
const WINDOW_TTL_SECONDS = 7 * 24 * 3600;

// KEYS: (set, members, loaded, generation) per window. ARGV: ttl, then per window: n, mark loaded
// (1/0), then n × (id, set score, listing member, version).
const SET_SCRIPT = `
local a = 2
local changed = 0
for w = 1, #KEYS, 4 do
  local before = changed
  local n = tonumber(ARGV[a])
  local mark = ARGV[a + 1]
  a = a + 2
  for _ = 1, n do
    local id = ARGV[a]
    local current = redis.call('HGET', KEYS[w + 1], id)
    local newer = true
    if current then
      local sp = string.find(current, ' ', 1, true)
      if tonumber(string.sub(current, 1, sp - 1)) >= tonumber(ARGV[a + 3]) then newer = false
      else redis.call('ZREM', KEYS[w], string.sub(current, sp + 1)) end
    end
    if newer then
      redis.call('ZADD', KEYS[w], ARGV[a + 1], ARGV[a + 2])
      redis.call('HSET', KEYS[w + 1], id, ARGV[a + 3] .. ' ' .. ARGV[a + 2])
      changed = changed + 1
    end
    a = a + 4
  end
  if mark == '1' then redis.call('SET', KEYS[w + 2], '1') end
  if changed > before or mark == '1' then
    -- A new generation starts from the clock in microseconds (no window changes faster than that).
    if redis.call('INCR', KEYS[w + 3]) == 1 then
      local time = redis.call('TIME')
      redis.call('SET', KEYS[w + 3], string.format('%.0f', tonumber(time[1]) * 1000000 + tonumber(time[2])))
    end
  end
  -- The keys' expiry moves together (the marker never outlives the set); at most once a day per window.
  if mark == '1' or redis.call('TTL', KEYS[w]) < tonumber(ARGV[1]) - 86400 then
    for k = w, w + 3 do redis.call('EXPIRE', KEYS[k], ARGV[1]) end
  end
end
return changed
`;

const PAGE_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 0 then return false end
local generation = redis.call('GET', KEYS[3]) or ''
if generation ~= '' and generation == ARGV[3] then return {generation} end
local items = {}
if tonumber(ARGV[2]) > 0 then items = redis.call('ZRANGE', KEYS[1], ARGV[1], tonumber(ARGV[1]) + tonumber(ARGV[2]) - 1, 'WITHSCORES') end
local above = 0
if #items > 0 then above = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. items[2]) end
return {generation, redis.call('ZCARD', KEYS[1]), above, table.concat(items, '\\n')}
`;

// KEYS: set, members, loaded, and with names the site's names and their generation
// (src/modules/users/shared-names.ts). ARGV: id, around.
const STANDING_SCRIPT = `
if redis.call('EXISTS', KEYS[3]) == 0 then return false end
local current = redis.call('HGET', KEYS[2], ARGV[1])
if not current then return {-1} end
local member = string.sub(current, string.find(current, ' ', 1, true) + 1)
local position = redis.call('ZRANK', KEYS[1], member)
if not position then return {-1} end
local from = math.max(0, position - tonumber(ARGV[2]))
local items = redis.call('ZRANGE', KEYS[1], from, position + tonumber(ARGV[2]), 'WITHSCORES')
local reply = {position, from, redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. items[2]), table.concat(items, '\\n')}
if #KEYS == 5 then
  local ids = {}
  for i = 1, #items, 2 do ids[#ids + 1] = string.sub(items[i], string.find(items[i], '\\0', 1, true) + 1) end
  local kept = redis.call('HMGET', KEYS[4], unpack(ids))
  local missing = false
  for i = 1, #kept do if not kept[i] then kept[i] = 'null'; missing = true end end
  -- The generation is for the reader that reads the missing names and keeps them.
  reply[5] = missing and (redis.call('GET', KEYS[5]) or '') or ''
  reply[6] = '[' .. table.concat(kept, ',') .. ']'
end
return reply
`;

const LOAD_BATCH = 2000;

function listingMember(entry: RankedEntry): string {
  return `${String(Math.max(0, Math.trunc(entry.reachedAt))).padStart(16, '0')}\u0000${entry.member}`;
}

/**
 * ZRANGE ... WITHSCORES replies, joined by line feeds in the script (one string decodes more than
 * twice as fast as 200 of them; ids never hold a line feed, see ID_PATTERN), back into entries in
 * listing order.
 */
function entriesOf(joined: string): Array<Omit<RankedEntry, 'version'>> {
  const out: Array<Omit<RankedEntry, 'version'>> = [];
  if (joined === '') return out;
  const items = joined.split('\n');
  for (let i = 0; i < items.length; i += 2) {
    const listing = items[i] as string;
    const cut = listing.indexOf('\u0000');
    // Negated on the way in; `0 - x` keeps a zero score from reading as -0.
    out.push({ member: listing.slice(cut + 1), reachedAt: Number(listing.slice(0, cut)), score: 0 - Number(items[i + 1]) });
  }
  return out;
}

interface BoardCommands {
  questlineBoardSet(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<number>;
  questlineBoardPage(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
  questlineBoardStanding(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
}

export class RedisRankings implements Rankings {
  readonly #loading = new Map<string, Promise<number>>();
  #pending: { updates: ScoreUpdate[]; flushed: Promise<void> } | undefined;
  readonly #commands: BoardCommands;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly load: WindowLoader,
    /** Users' names kept beside the boards, answered with a standing's entries. */
    private readonly names?: SharedNames,
  ) {
    this.#commands = defineScripts<BoardCommands>(redis, {
      questlineBoardSet: { lua: SET_SCRIPT },
      questlineBoardPage: { lua: PAGE_SCRIPT },
      questlineBoardStanding: { lua: STANDING_SCRIPT },
    });
  }

  /**
   * Updates published in the same turn of the event loop (concurrent actions) go out together:
   * one script per site, written whether or not the window is loaded (a load that follows keeps
   * the newer versions).
   */
  publish(updates: readonly ScoreUpdate[]): Promise<void> {
    if (this.#pending === undefined) {
      const batch: ScoreUpdate[] = [];
      const flushed = new Promise<void>((resolve, reject) => setImmediate(() => this.#flush(batch).then(resolve, reject)));
      this.#pending = { updates: batch, flushed };
    }
    this.#pending.updates.push(...updates);
    return this.#pending.flushed;
  }

  async #flush(updates: readonly ScoreUpdate[]): Promise<void> {
    this.#pending = undefined;
    const bySite = new Map<string, Map<string, ScoreUpdate[]>>();
    for (const update of updates) {
      const windows = bySite.get(update.siteId) ?? new Map<string, ScoreUpdate[]>();
      bySite.set(update.siteId, windows);
      const key = keyOf(update);
      const batch = windows.get(key);
      if (batch === undefined) windows.set(key, [update]);
      else batch.push(update);
    }
    await Promise.all(
      [...bySite.values()].map((windows) =>
        this.#set([...windows.values()].map((batch) => ({ window: batch[0] as ScoreUpdate, entries: batch, markLoaded: false }))),
      ),
    );
  }

  page(window: WindowKey, offset: number, limit: number): Promise<Page>;
  page(window: WindowKey, offset: number, limit: number, unless: string | undefined): Promise<Page | 'unchanged'>;
  async page(window: WindowKey, offset: number, limit: number, unless?: string): Promise<Page | 'unchanged'> {
    const keys = this.#keys(window);
    for (;;) {
      const reply = (await this.#commands.questlineBoardPage(3, keys.set, keys.loaded, keys.generation, offset, limit, unless ?? '')) as
        [string] | [string, number, number, string] | null;
      if (reply === null) {
        await this.warm(window);
        continue;
      }
      if (reply.length === 1) return 'unchanged';
      const [generation, total, above, items] = reply;
      return { entries: ranked(entriesOf(items), offset, above), total, generation };
    }
  }

  async standing(window: WindowKey, member: string, around: number, withNames = false): Promise<Standing | undefined> {
    const keys = this.#keys(window);
    const names = withNames ? this.names?.keys(window.siteId) : undefined;
    for (;;) {
      const reply = (
        names === undefined
          ? await this.#commands.questlineBoardStanding(3, keys.set, keys.members, keys.loaded, member, around)
          : await this.#commands.questlineBoardStanding(5, keys.set, keys.members, keys.loaded, names.names, names.generation, member, around)
      ) as [number, number, number, string, string?, string?] | null;
      if (reply === null) {
        await this.warm(window);
        continue;
      }
      if (reply[0] < 0) return undefined;
      const [position, from, above, items, generation, kept] = reply;
      const entries = ranked(entriesOf(items), from, above);
      const own = entries[position - from] as RankedRow;
      return {
        rank: own.rank,
        score: own.score,
        entries,
        ...(generation !== undefined && kept !== undefined ? { names: { generation, names: SharedNames.decode(kept) } } : {}),
      };
    }
  }

  /** Loads the window's rows unless its marker says they are loaded (one load per window at a time on this node). */
  async warm(window: WindowKey): Promise<void> {
    await this.#load(window, false);
  }

  reload(window: WindowKey, progress?: (loaded: number) => void): Promise<number> {
    return this.#load(window, true, progress);
  }

  #load(window: WindowKey, force: boolean, progress?: (loaded: number) => void): Promise<number> {
    const key = keyOf(window);
    let loading = this.#loading.get(key);
    if (loading === undefined || force) {
      const loaded = (async () => {
        if (!force && (await this.redis.exists(this.#keys(window).loaded)) === 1) return 0;
        let count = 0;
        let batch: RankedEntry[] = [];
        for await (const rows of this.load(window)) {
          for (const row of rows) {
            batch.push(row);
            if (batch.length === LOAD_BATCH) {
              await this.#set([{ window, entries: batch, markLoaded: false }]);
              count += batch.length;
              progress?.(count);
              batch = [];
            }
          }
        }
        await this.#set([{ window, entries: batch, markLoaded: true }]);
        count += batch.length;
        progress?.(count);
        return count;
      })().finally(() => {
        if (this.#loading.get(key) === loaded) this.#loading.delete(key);
      });
      this.#loading.set(key, loaded);
      loading = loaded;
    }
    return loading;
  }

  /** Writes to windows of one site, in one script. */
  async #set(writes: ReadonlyArray<{ window: WindowKey; entries: readonly RankedEntry[]; markLoaded: boolean }>): Promise<void> {
    const keys: string[] = [];
    const args: Array<string | number> = [WINDOW_TTL_SECONDS];
    for (const { window, entries, markLoaded } of writes) {
      const k = this.#keys(window);
      keys.push(k.set, k.members, k.loaded, k.generation);
      args.push(entries.length, markLoaded ? '1' : '0');
      for (const entry of entries) args.push(entry.member, String(0 - entry.score), listingMember(entry), entry.version);
    }
    await this.#commands.questlineBoardSet(keys.length, ...keys, ...args);
  }

  #keys(window: WindowKey): { set: string; members: string; loaded: string; generation: string } {
    const base = `${this.prefix}lb:{${window.siteId}}:${window.boardId}:${window.windowStart}`;
    return { set: `${base}:set`, members: `${base}:members`, loaded: `${base}:loaded`, generation: `${base}:generation` };
  }
}

function keyOf(window: WindowKey): string {
  return `${window.siteId}\u0000${window.boardId}\u0000${window.windowStart}`;
}
