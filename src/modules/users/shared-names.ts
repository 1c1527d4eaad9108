// Users' names (firstName, lastName, iconUrl) kept in Redis beside the leaderboards (scale-out),
// so that the script answering a user's standing returns the names of its entries in the same
// round trip (src/modules/leaderboards/rankings.ts), instead of a read of the database per
// standing: a 1,000,000-user board read at random places misses any per-node cache of names.
//
// A cache only: the database stays the source. Per site, a hash of user id → the name as a JSON
// array [firstName, lastName, iconUrl] (nulls for a user without one), and a generation that every
// preference write raises before it drops the user's field. Whoever reads names from the database
// takes the generation first and keeps what it read only if the generation has not moved since, so
// a read that raced a write never puts the old name back. Both keys share the site's hash tag with
// its boards and expire like them (6 to 7 days after the last fill); a generation that starts again
// starts from Redis's clock in microseconds, so it never repeats one a reader may still hold.
import type { Redis } from 'ioredis';
import { defineScripts } from '../../infra/redis.js';
import type { Name } from './names.js';

export type { Name } from './names.js';

const TTL_SECONDS = 7 * 24 * 3600;
/** Names per script call when filling (a window's load fills 10,000 at a time). */
const FILL_BATCH = 1000;

// Raises the generation (KEYS[2]); one that starts again starts from the clock in microseconds.
const RAISE_GENERATION = `
if redis.call('INCR', KEYS[2]) == 1 then
  local time = redis.call('TIME')
  redis.call('SET', KEYS[2], string.format('%.0f', tonumber(time[1]) * 1000000 + tonumber(time[2])))
end
redis.call('EXPIRE', KEYS[2], ARGV[1])
`;

// KEYS: names, generation. ARGV: ttl, user id.
const FORGET_SCRIPT = `${RAISE_GENERATION}
redis.call('HDEL', KEYS[1], ARGV[2])
return 0
`;

// KEYS: names, generation. ARGV: ttl, the generation the names were read under, then (id, name) pairs.
const FILL_SCRIPT = `
if (redis.call('GET', KEYS[2]) or '') ~= ARGV[2] then return 0 end
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
if redis.call('TTL', KEYS[1]) < tonumber(ARGV[1]) - 86400 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  redis.call('EXPIRE', KEYS[2], ARGV[1])
end
return 1
`;

// KEYS: names, generation. ARGV: ttl.
const CLEAR_SCRIPT = `${RAISE_GENERATION}
redis.call('DEL', KEYS[1])
return 0
`;

interface NamesCommands {
  questlineNamesForget(names: string, generation: string, ttl: number, userId: string): Promise<number>;
  questlineNamesFill(names: string, generation: string, ttl: number, readUnder: string, ...pairs: string[]): Promise<number>;
  questlineNamesClear(names: string, generation: string, ttl: number): Promise<number>;
}

/** What a script holding names returns for a list of users: the generation it read them under, and each user's name (undefined: not kept). */
export interface KeptNames {
  generation: string;
  names: Array<Name | undefined>;
}

export class SharedNames {
  readonly #commands: NamesCommands;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** A keep in the background that failed (the names are read from the database again next time). */
    private readonly onError: (error: unknown) => void,
  ) {
    this.#commands = defineScripts<NamesCommands>(redis, {
      questlineNamesForget: { lua: FORGET_SCRIPT, numberOfKeys: 2 },
      questlineNamesFill: { lua: FILL_SCRIPT, numberOfKeys: 2 },
      questlineNamesClear: { lua: CLEAR_SCRIPT, numberOfKeys: 2 },
    });
  }

  /** The site's keys: a script reading names HMGETs `names` and GETs `generation` (both in the site's hash tag). */
  keys(siteId: string): { names: string; generation: string } {
    const base = `${this.prefix}names:{${siteId}}`;
    return { names: base, generation: `${base}:generation` };
  }

  /**
   * The JSON array a script builds of the kept values of a list of users, in order: each a kept
   * [firstName, lastName, iconUrl], or null where nothing is kept.
   */
  static decode(joined: string): Array<Name | undefined> {
    return (JSON.parse(joined) as Array<[string | null, string | null, string | null] | null>).map((kept) =>
      kept === null ? undefined : { firstName: kept[0], lastName: kept[1], iconUrl: kept[2] },
    );
  }

  /** After a committed write of the user's preferences: the kept name goes, and fills that read before it are refused. */
  async forget(siteId: string, userId: string): Promise<void> {
    const keys = this.keys(siteId);
    await this.#commands.questlineNamesForget(keys.names, keys.generation, TTL_SECONDS, userId);
  }

  /** Drops every kept name of the site (`questline leaderboards reload`: a write whose forget was lost is read again). */
  async clear(siteId: string): Promise<void> {
    const keys = this.keys(siteId);
    await this.#commands.questlineNamesClear(keys.names, keys.generation, TTL_SECONDS);
  }

  /** The site's generation now: names read from the database after this may be kept under it. */
  async generation(siteId: string): Promise<string> {
    return (await this.redis.get(this.keys(siteId).generation)) ?? '';
  }

  /** keep(), not awaited, for names a reader has already: a failure is reported, and only means reading them again. */
  keepInBackground(siteId: string, generation: string, userIds: readonly string[], names: ReadonlyMap<string, Name>): void {
    this.keep(siteId, generation, userIds, names).catch(this.onError);
  }

  /** Keeps the names of `userIds` (absent from `names`: none) read under `generation`, unless a write came since. */
  async keep(siteId: string, generation: string, userIds: readonly string[], names: ReadonlyMap<string, Name>): Promise<void> {
    const keys = this.keys(siteId);
    for (let i = 0; i < userIds.length; i += FILL_BATCH) {
      const pairs: string[] = [];
      for (const userId of userIds.slice(i, i + FILL_BATCH)) {
        const name = names.get(userId);
        pairs.push(userId, JSON.stringify([name?.firstName ?? null, name?.lastName ?? null, name?.iconUrl ?? null]));
      }
      // Refused: a write came since (its readers read again).
      if ((await this.#commands.questlineNamesFill(keys.names, keys.generation, TTL_SECONDS, generation, ...pairs)) === 0) return;
    }
  }
}
