// The ranking structure of leaderboard windows (SPEC §7): MemoryRankings (in process) and
// RedisRankings (sorted sets + Lua, run when TEST_REDIS_URL is set) driven by the same seeded
// sequence of committed and published score updates (many ties, fractional/zero/negative scores,
// versions delivered out of order, batches spanning windows, windows first read at different
// points) and checked at several checkpoints against a brute-force model and against each other.
// Then: loads picked up on first read, reloads after the Redis marker expires, publishes to
// never-read windows, updates published while a window loads, unusual member ids, zero scores,
// and a failed load that is retried.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RankedEntry } from '../../../src/modules/leaderboards/ranked-list.js';
import {
  MemoryRankings,
  RedisRankings,
  type RankedRow,
  type Rankings,
  type ScoreUpdate,
  type WindowKey,
  type WindowLoader,
} from '../../../src/modules/leaderboards/rankings.js';
import { SharedNames } from '../../../src/modules/users/shared-names.js';
import { connectRedis } from '../../../src/infra/redis.js';
import { mulberry32 } from '../../helpers/random.js';

// ---------------------------------------------------------------------------------------------
// The reference model: a map of each member's newest version, listed by brute force.

type Model = Map<string, RankedEntry>;

/** Keeps the newer version only (an equal or older one is ignored). */
function merge(model: Model, entry: RankedEntry): void {
  const current = model.get(entry.member);
  if (current === undefined || current.version < entry.version)
    model.set(entry.member, { member: entry.member, score: entry.score, reachedAt: entry.reachedAt, version: entry.version });
}

/** score desc, then reachedAt asc, then member id asc by JS `<` (UTF-16 code units). */
function compare(a: RankedEntry, b: RankedEntry): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.reachedAt !== b.reachedAt) return a.reachedAt - b.reachedAt;
  return a.member < b.member ? -1 : a.member > b.member ? 1 : 0;
}

/** The whole listing; a rank is 1 + the number of members with a strictly higher score. */
function listing(model: Model): RankedRow[] {
  const all = [...model.values()];
  return all.sort(compare).map((e) => ({ member: e.member, score: e.score, reachedAt: e.reachedAt, rank: 1 + all.filter((o) => o.score > e.score).length }));
}

function modelPage(list: readonly RankedRow[], offset: number, limit: number): { entries: RankedRow[]; total: number } {
  return { entries: list.slice(offset, offset + Math.max(0, limit)), total: list.length };
}

function modelStanding(list: readonly RankedRow[], member: string, around: number): { rank: number; score: number; entries: RankedRow[] } | undefined {
  const position = list.findIndex((row) => row.member === member);
  const own = list[position];
  if (own === undefined) return undefined;
  return { rank: own.rank, score: own.score, entries: list.slice(Math.max(0, position - around), position + around + 1) };
}

// ---------------------------------------------------------------------------------------------
// An in-test "database" of committed rows per window, and its loader (keyset order, batches of 7).

const wkey = (w: WindowKey) => `${w.siteId}|${w.boardId}|${w.windowStart}`;
const entryOf = (u: RankedEntry): RankedEntry => ({ member: u.member, score: u.score, reachedAt: u.reachedAt, version: u.version });

class FakeDb {
  readonly rows = new Map<string, Model>();
  readonly loads = new Map<string, number>();

  constructor(private readonly batch = 7) {}

  commit(window: WindowKey, entry: RankedEntry): void {
    const rows = this.rows.get(wkey(window)) ?? new Map<string, RankedEntry>();
    rows.set(entry.member, entryOf(entry));
    this.rows.set(wkey(window), rows);
  }

  snapshot(window: WindowKey): RankedEntry[] {
    return [...(this.rows.get(wkey(window))?.values() ?? [])].map(entryOf).sort((a, b) => (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
  }

  readonly loader: WindowLoader = (window) => {
    this.loads.set(wkey(window), (this.loads.get(wkey(window)) ?? 0) + 1);
    const rows = this.snapshot(window);
    const size = this.batch;
    return (async function* () {
      for (let i = 0; i < rows.length; i += size) {
        await new Promise((resolve) => setImmediate(resolve));
        yield rows.slice(i, i + size);
      }
    })();
  };
}

/** A load that fails on its first batch, a moment after it starts. */
function failingLoad(message: string): AsyncIterable<RankedEntry[]> {
  return {
    [Symbol.asyncIterator]: () => ({
      next: async (): Promise<IteratorResult<RankedEntry[]>> => {
        await new Promise((resolve) => setImmediate(resolve));
        throw new Error(message);
      },
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// The seeded event sequence.

const BASE_AT = 1_780_000_000_000;
const SCORES = [-5, -1, 0, 0, 0, 1, 2.5, 2.5, 7, 7, 7, 40, 1000];

const W1: WindowKey = { siteId: 's1', boardId: 'weekly', windowStart: 1_779_840_000_000 };
const W2: WindowKey = { siteId: 's1', boardId: 'weekly', windowStart: 1_780_444_800_000 };
const W3: WindowKey = { siteId: 's1', boardId: 'all-time', windowStart: 0 };
const W4: WindowKey = { siteId: 's2', boardId: 'weekly', windowStart: 1_779_840_000_000 };
/** Never receives a score. */
const W5: WindowKey = { siteId: 's2', boardId: 'empty', windowStart: 1_779_840_000_000 };
const WINDOWS = [W1, W2, W3, W4, W5];

/** ~300 valid ids (letters, digits and -_.@:+), mixing forms so code-unit order differs from numeric order. */
const MEMBERS = Array.from({ length: 300 }, (_, i) => [`u${i}`, `U${i}`, `user-${i}`, `${i}`, `g.${i}@x`, `a:${i}`, `p+${i}`, `_${i}`][i % 8] as string);

type Step = { kind: 'commit'; update: ScoreUpdate } | { kind: 'publish'; updates: ScoreUpdate[] } | { kind: 'check'; windows: WindowKey[] };

interface Sequence {
  steps: Step[];
  /** Deliveries of a version older than one of the same member delivered before it. */
  stale: number;
  /** Publish calls holding more than one update / updates of more than one window. */
  batches: number;
  mixedBatches: number;
}

function generate(seed: number): Sequence {
  const random = mulberry32(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const steps: Step[] = [];
  const versions = new Map<string, number>();
  const history: ScoreUpdate[] = [];
  let pending: ScoreUpdate[] = [];
  const delivered = new Map<string, number>();
  const out = { stale: 0, batches: 0, mixedBatches: 0 };

  const publish = (updates: ScoreUpdate[]) => {
    for (const u of updates) {
      const key = `${wkey(u)}|${u.member}`;
      if ((delivered.get(key) ?? 0) > u.version) out.stale += 1;
      delivered.set(key, Math.max(delivered.get(key) ?? 0, u.version));
    }
    if (updates.length > 1) out.batches += 1;
    if (new Set(updates.map(wkey)).size > 1) out.mixedBatches += 1;
    steps.push({ kind: 'publish', updates });
  };

  const flush = () => {
    // Delivered out of order: neighbours swap, and a member's later versions often go first.
    const queue = [...pending];
    pending = [];
    for (let i = 0; i + 1 < queue.length; i++) {
      if (random() < 0.35) [queue[i], queue[i + 1]] = [queue[i + 1] as ScoreUpdate, queue[i] as ScoreUpdate];
    }
    if (random() < 0.5) queue.reverse();
    while (queue.length > 0) publish(queue.splice(0, 1 + int(6)));
  };

  const commit = () => {
    const r = random();
    // W4 is a small window whose few members change often.
    const window = r < 0.4 ? W1 : r < 0.65 ? W2 : r < 0.85 ? W3 : W4;
    const member = window === W4 ? (MEMBERS[int(12)] as string) : window === W2 ? (MEMBERS[int(150)] as string) : pick(MEMBERS);
    const key = `${wkey(window)}|${member}`;
    const version = (versions.get(key) ?? 0) + 1;
    versions.set(key, version);
    const update: ScoreUpdate = { ...window, member, score: pick(SCORES), reachedAt: BASE_AT + int(30), version };
    steps.push({ kind: 'commit', update });
    history.push(update);
    // A few publishes are lost after their commit: only a (re)load shows those.
    if (random() < 0.85) pending.push(update);
    if (random() < 0.12) flush();
    // An old delivery arrives late.
    if (random() < 0.04 && history.length > 10) publish([pick(history)]);
  };

  const phase = (commits: number, check: WindowKey[]) => {
    for (let i = 0; i < commits; i++) commit();
    flush();
    steps.push({ kind: 'check', windows: check });
  };

  // Published before any read (MemoryRankings drops them, RedisRankings keeps them; the load has them).
  phase(200, [W1, W5]);
  phase(300, [W1, W2]);
  phase(300, [W1, W2, W3, W4, W5]);
  phase(200, WINDOWS);
  // A storm of late, repeated deliveries in large batches: nothing may move back in time.
  const replay = history.filter(() => random() < 0.4);
  for (let i = replay.length - 1; i > 0; i--) {
    const j = int(i + 1);
    [replay[i], replay[j]] = [replay[j] as ScoreUpdate, replay[i] as ScoreUpdate];
  }
  while (replay.length > 0) publish(replay.splice(0, 30));
  steps.push({ kind: 'check', windows: WINDOWS });
  return { steps, ...out };
}

// ---------------------------------------------------------------------------------------------
// Running a sequence against an implementation, checking every answer against the model.

interface Run {
  transcript: unknown[];
  loads: Map<string, number>;
  checks: number;
}

/** The page queries of a checkpoint: whole list, limit 0 and 1, past the end, across the end, inside a tie, random. */
function pageQueries(list: readonly RankedRow[], random: () => number): Array<[number, number]> {
  const n = list.length;
  const tie = list.findIndex((row, i) => i > 0 && row.score === (list[i - 1] as RankedRow).score && row.rank !== i + 1);
  const queries: Array<[number, number]> = [
    [0, n + 5],
    [0, n],
    [0, 0],
    [3, 0],
    [0, 1],
    [1, 1],
    [7, 7],
    [n, 5],
    [n + 10, 3],
    [Math.max(0, n - 3), 10],
    [Math.max(0, n - 1), 1],
  ];
  if (tie > 0) queries.push([tie, 5], [tie, 1]);
  for (let i = 0; i < 4; i++) queries.push([Math.floor(random() * (n + 1)), 1 + Math.floor(random() * 20)]);
  return queries;
}

/** The standing queries: top, bottom, middle, inside a tie, a zero and a negative score, absent members. */
function standingMembers(list: readonly RankedRow[], window: WindowKey): string[] {
  const n = list.length;
  const members = new Set<string>(['nobody', 'U299x']);
  if (n > 0) {
    members.add((list[0] as RankedRow).member);
    members.add((list[n - 1] as RankedRow).member);
    members.add((list[Math.floor(n / 2)] as RankedRow).member);
    const tie = list.find((row, i) => i > 0 && row.score === (list[i - 1] as RankedRow).score && row.rank !== i + 1);
    if (tie !== undefined) members.add(tie.member);
    const tail = list.find((row, i) => i > 0 && i < n - 1 && row.score === (list[i + 1] as RankedRow).score && row.score !== (list[i - 1] as RankedRow).score);
    if (tail !== undefined) members.add(tail.member);
    const zero = list.find((row) => row.score === 0);
    if (zero !== undefined) members.add(zero.member);
    const negative = list.find((row) => row.score < 0);
    if (negative !== undefined) members.add(negative.member);
  }
  // A member of the small window W4 (first ids only) is absent from most other windows, and vice versa.
  members.add(window === W4 ? (MEMBERS[200] as string) : (MEMBERS[3] as string));
  return [...members];
}

async function runSequence(rankings: Rankings, db: FakeDb, sequence: Sequence, seed: number): Promise<Run> {
  const model = new Map<string, Model>(WINDOWS.map((w) => [wkey(w), new Map()]));
  const read = new Set<string>();
  const transcript: unknown[] = [];
  const random = mulberry32(seed ^ 0x5eed);
  let checks = 0;
  for (const [index, step] of sequence.steps.entries()) {
    if (step.kind === 'commit') {
      db.commit(step.update, step.update);
    } else if (step.kind === 'publish') {
      await rankings.publish(step.updates);
      // Merged whether or not the window was read: every published version is committed, and the
      // rows a later first read loads hold that version or a newer one.
      for (const u of step.updates) merge(model.get(wkey(u)) as Model, u);
    } else {
      for (const window of step.windows) {
        const held = model.get(wkey(window)) as Model;
        if (!read.has(wkey(window))) {
          for (const row of db.snapshot(window)) merge(held, row);
          read.add(wkey(window));
        }
        const list = listing(held);
        const label = `step ${index}, ${wkey(window)} (${list.length} members)`;
        for (const [offset, limit] of pageQueries(list, random)) {
          const actual = await pageOf(rankings, window, offset, limit);
          expect(actual, `${label}: page(${offset}, ${limit})`).toEqual(modelPage(list, offset, limit));
          transcript.push(['page', wkey(window), offset, limit, actual]);
        }
        for (const member of standingMembers(list, window)) {
          for (const around of [0, 2, 5]) {
            const actual = await rankings.standing(window, member, around);
            expect(actual, `${label}: standing(${member}, ${around})`).toEqual(modelStanding(list, member, around));
            transcript.push(['standing', wkey(window), member, around, actual]);
          }
        }
        checks += 1;
      }
    }
  }
  return { transcript, loads: db.loads, checks };
}

const SEEDS = [1, 7, 2024];

it('the generated sequences exercise ties, late deliveries, batches and every kind of score', () => {
  for (const seed of SEEDS) {
    const sequence = generate(seed);
    const db = new FakeDb();
    for (const step of sequence.steps) if (step.kind === 'commit') db.commit(step.update, step.update);
    const w1 = listing(new Map(db.snapshot(W1).map((e) => [e.member, e])));
    expect(w1.length).toBeGreaterThan(150);
    // Full ties (equal score and reachedAt), decided by the member id.
    expect(w1.some((row, i) => i > 0 && row.score === (w1[i - 1] as RankedRow).score && row.reachedAt === (w1[i - 1] as RankedRow).reachedAt)).toBe(true);
    for (const score of [0, 2.5, -5]) expect(w1.some((row) => row.score === score)).toBe(true);
    expect(sequence.stale).toBeGreaterThan(50);
    expect(sequence.batches).toBeGreaterThan(50);
    expect(sequence.mixedBatches).toBeGreaterThan(10);
    expect(Math.max(...[...(db.rows.get(wkey(W4)) as Model).values()].map((e) => e.version))).toBeGreaterThan(5);
  }
});

// ---------------------------------------------------------------------------------------------
// Cases for both implementations.

type Factory = (loader: WindowLoader) => Rankings;

/** A page without its generation (compared with the model). */
async function pageOf(rankings: Rankings, window: WindowKey, offset: number, limit: number): Promise<{ entries: RankedRow[]; total: number }> {
  const { entries, total } = await rankings.page(window, offset, limit);
  return { entries, total };
}

function sharedCases(name: string, make: () => Factory): void {
  it.each(SEEDS)(`${name} answers like the model at every checkpoint (seed %i)`, async (seed) => {
    const db = new FakeDb();
    const run = await runSequence(make()(db.loader), db, generate(seed), seed);
    expect(run.checks).toBe(2 + 2 + 5 + 5 + 5);
    // Each window loaded once, on its first read.
    expect(Object.fromEntries(run.loads)).toEqual(Object.fromEntries(WINDOWS.map((w) => [wkey(w), 1])));
  });

  it(`${name}: warm() loads a window once; later reads do not load it again`, async () => {
    const db = new FakeDb();
    const window: WindowKey = { siteId: 'warm', boardId: 'b', windowStart: 1 };
    db.commit(window, { member: 'a', score: 3, reachedAt: BASE_AT, version: 1 });
    db.commit(window, { member: 'b', score: 3, reachedAt: BASE_AT, version: 1 });
    const rankings = make()(db.loader);
    await rankings.warm(window);
    expect(db.loads.get(wkey(window))).toBe(1);
    // Rows committed after the load are seen only through publish.
    db.commit(window, { member: 'c', score: 9, reachedAt: BASE_AT, version: 1 });
    await rankings.warm(window);
    expect(await pageOf(rankings, window, 0, 10)).toEqual({
      entries: [
        { member: 'a', score: 3, reachedAt: BASE_AT, rank: 1 },
        { member: 'b', score: 3, reachedAt: BASE_AT, rank: 1 },
      ],
      total: 2,
    });
    expect(db.loads.get(wkey(window))).toBe(1);
  });

  it(`${name}: keeps updates published while the window loads, and the loaded rows never overwrite newer ones`, async () => {
    const db = new FakeDb(2);
    const window: WindowKey = { siteId: 'race', boardId: 'b', windowStart: 1 };
    for (const [i, member] of ['a', 'b', 'c', 'd', 'e', 'f'].entries()) db.commit(window, { member, score: 10 * i, reachedAt: BASE_AT + i, version: 2 });
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let tookFirst = () => {};
    const firstTaken = new Promise<void>((resolve) => (tookFirst = resolve));
    const rankings = make()((w) => {
      const rows = db.loader(w);
      return (async function* () {
        let first = true;
        for await (const batch of rows) {
          if (!first) {
            // The reader has taken the first batch (a, b) and asks for the next.
            tookFirst();
            await gate;
          }
          first = false;
          yield batch;
        }
      })();
    });
    const reading = pageOf(rankings, window, 0, 10);
    await firstTaken;
    await rankings.publish([
      { ...window, member: 'a', score: 100, reachedAt: BASE_AT + 50, version: 3 }, // newer than its loaded row
      { ...window, member: 'e', score: 1000, reachedAt: BASE_AT + 60, version: 3 }, // newer than the row still to load
      { ...window, member: 'f', score: -1, reachedAt: BASE_AT + 70, version: 1 }, // older than the row still to load
    ]);
    release();
    expect(await reading).toEqual({
      entries: [
        { member: 'e', score: 1000, reachedAt: BASE_AT + 60, rank: 1 },
        { member: 'a', score: 100, reachedAt: BASE_AT + 50, rank: 2 },
        { member: 'f', score: 50, reachedAt: BASE_AT + 5, rank: 3 },
        { member: 'd', score: 30, reachedAt: BASE_AT + 3, rank: 4 },
        { member: 'c', score: 20, reachedAt: BASE_AT + 2, rank: 5 },
        { member: 'b', score: 10, reachedAt: BASE_AT + 1, rank: 6 },
      ],
      total: 6,
    });
    expect(db.loads.get(wkey(window))).toBe(1);
  });

  it(`${name}: a page's generation stands until the window changes, and a stale update changes nothing`, async () => {
    const db = new FakeDb();
    const window: WindowKey = { siteId: 'gen', boardId: 'b', windowStart: 2 };
    db.commit(window, { member: 'a', score: 5, reachedAt: BASE_AT, version: 3 });
    const rankings = make()(db.loader);
    const first = await rankings.page(window, 0, 10);
    expect(first.generation).not.toBe('');
    expect(await rankings.page(window, 0, 10, first.generation)).toBe('unchanged');
    // An older version of a member is not a change.
    await rankings.publish([{ ...window, member: 'a', score: 1, reachedAt: BASE_AT, version: 2 }]);
    expect(await rankings.page(window, 0, 10, first.generation)).toBe('unchanged');
    // A newer one is, and so is a new member; the new page says what changed.
    await rankings.publish([{ ...window, member: 'a', score: 7, reachedAt: BASE_AT + 1, version: 4 }]);
    const second = await rankings.page(window, 0, 10, first.generation);
    expect(second).not.toBe('unchanged');
    expect(second === 'unchanged' ? undefined : second.entries).toEqual([{ member: 'a', score: 7, reachedAt: BASE_AT + 1, rank: 1 }]);
    const generation = second === 'unchanged' ? '' : second.generation;
    expect(generation).not.toBe(first.generation);
    await rankings.publish([{ ...window, member: 'b', score: 1, reachedAt: BASE_AT, version: 1 }]);
    expect(await rankings.page(window, 0, 10, generation)).not.toBe('unchanged');
    // Another window's change does not touch this one's generation.
    const third = await rankings.page(window, 0, 10);
    await rankings.publish([{ siteId: 'gen', boardId: 'other', windowStart: 2, member: 'z', score: 1, reachedAt: BASE_AT, version: 1 }]);
    expect(await rankings.page(window, 0, 10, third.generation)).toBe('unchanged');
  });

  it(`${name}: an empty window has no entries and no standings`, async () => {
    const db = new FakeDb();
    const rankings = make()(db.loader);
    const window: WindowKey = { siteId: 'none', boardId: 'b', windowStart: 5 };
    expect(await pageOf(rankings, window, 0, 10)).toEqual({ entries: [], total: 0 });
    expect(await rankings.standing(window, 'a', 5)).toBeUndefined();
    await rankings.publish([{ ...window, member: 'a', score: 0, reachedAt: BASE_AT, version: 1 }]);
    const standing = await rankings.standing(window, 'a', 5);
    expect(standing).toEqual({ rank: 1, score: 0, entries: [{ member: 'a', score: 0, reachedAt: BASE_AT, rank: 1 }] });
    expect(Object.is(standing?.score, 0)).toBe(true);
  });
}

describe('MemoryRankings', () => {
  sharedCases('MemoryRankings', () => (loader) => new MemoryRankings(loader));

  it('rejects a read whose load fails, and loads again on the next read', async () => {
    const db = new FakeDb(2);
    const window: WindowKey = { siteId: 'fail', boardId: 'b', windowStart: 1 };
    for (const [i, member] of ['a', 'b', 'c', 'd', 'e'].entries()) db.commit(window, { member, score: i, reachedAt: BASE_AT, version: 1 });
    let calls = 0;
    const rankings = new MemoryRankings((w) => {
      calls += 1;
      const rows = db.loader(w);
      if (calls > 1) return rows;
      // The first load fails after its first batch.
      return (async function* () {
        for await (const batch of rows) {
          yield batch;
          throw new Error('database unavailable');
        }
      })();
    });
    await expect(pageOf(rankings, window, 0, 10)).rejects.toThrow('database unavailable');
    expect(calls).toBe(1);
    // A publish to the window while it is not held is dropped; its row is in the database.
    db.commit(window, { member: 'a', score: 99, reachedAt: BASE_AT + 1, version: 2 });
    await rankings.publish([{ ...window, member: 'a', score: 99, reachedAt: BASE_AT + 1, version: 2 }]);
    const expected = listing(new Map(db.snapshot(window).map((e) => [e.member, e])));
    expect(expected.map((row) => row.member)).toEqual(['a', 'e', 'd', 'c', 'b']);
    expect(await pageOf(rankings, window, 0, 10)).toEqual({ entries: expected, total: 5 });
    expect(calls).toBe(2);
    expect(await rankings.standing(window, 'c', 1)).toEqual(modelStanding(expected, 'c', 1));
    expect(calls).toBe(2);
  });

  it('a failed load rejects standing() too, and every concurrent reader of it', async () => {
    let calls = 0;
    const db = new FakeDb();
    const window: WindowKey = { siteId: 'fail2', boardId: 'b', windowStart: 1 };
    db.commit(window, { member: 'x', score: 1, reachedAt: BASE_AT, version: 1 });
    const rankings = new MemoryRankings((w) => {
      calls += 1;
      if (calls === 1) {
        return failingLoad('timeout');
      }
      return db.loader(w);
    });
    const results = await Promise.allSettled([rankings.standing(window, 'x', 0), pageOf(rankings, window, 0, 1)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    expect(await rankings.standing(window, 'x', 0)).toEqual({ rank: 1, score: 1, entries: [{ member: 'x', score: 1, reachedAt: BASE_AT, rank: 1 }] });
    expect(calls).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------
// RedisRankings, when a Redis server is available.

const redisUrl = process.env.TEST_REDIS_URL;

describe.each(redisUrl !== undefined && redisUrl !== '' ? [redisUrl] : [])('RedisRankings (%s)', (url) => {
  let redis: Redis;
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  let runs = 0;
  /** Each RedisRankings gets its own key namespace under the test's prefix. */
  const fresh = (): { prefix: string; make: Factory } => {
    const own = `${prefix}${(runs += 1)}:`;
    return { prefix: own, make: (loader) => new RedisRankings(redis, own, loader) };
  };

  beforeAll(() => {
    redis = connectRedis(url, (error) => console.error(error));
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  sharedCases('RedisRankings', () => fresh().make);

  it('gives exactly the answers of MemoryRankings on the same sequence', async () => {
    const seed = 99;
    const sequence = generate(seed);
    const memoryDb = new FakeDb();
    const memory = await runSequence(new MemoryRankings(memoryDb.loader), memoryDb, sequence, seed);
    const redisDb = new FakeDb();
    const inRedis = await runSequence(fresh().make(redisDb.loader), redisDb, sequence, seed);
    expect(inRedis.transcript.length).toBe(memory.transcript.length);
    expect(memory.transcript.length).toBeGreaterThan(500);
    expect(inRedis.transcript).toEqual(memory.transcript);
    expect(Object.fromEntries(inRedis.loads)).toEqual(Object.fromEntries(memory.loads));
  });

  it('never repeats a generation for a window whose keys all expired and loaded again', async () => {
    const { prefix: own, make } = fresh();
    const db = new FakeDb();
    const rankings = make(db.loader);
    const window: WindowKey = { siteId: 'regen', boardId: 'b', windowStart: 0 };
    db.commit(window, { member: 'm1', score: 10, reachedAt: BASE_AT, version: 1 });
    const before = await rankings.page(window, 0, 10);
    const keys = await redis.keys(`${own}*`);
    expect(keys).toHaveLength(4);
    await redis.del(...keys);
    db.commit(window, { member: 'm1', score: 12, reachedAt: BASE_AT + 1, version: 2 });
    const after = await rankings.page(window, 0, 10, before.generation);
    expect(after).not.toBe('unchanged');
    expect(after === 'unchanged' ? undefined : after.entries).toEqual([{ member: 'm1', score: 12, reachedAt: BASE_AT + 1, rank: 1 }]);
    expect(Number(after === 'unchanged' ? 0 : after.generation)).toBeGreaterThan(Number(before.generation));
  });

  it('reloads a window whose loaded marker expired, keeping the newer versions already in Redis', async () => {
    const { prefix: own, make } = fresh();
    const db = new FakeDb();
    const rankings = make(db.loader);
    const window: WindowKey = { siteId: 'exp', boardId: 'b', windowStart: 1_780_000_000_000 };
    db.commit(window, { member: 'm1', score: 10, reachedAt: BASE_AT + 1, version: 1 });
    db.commit(window, { member: 'm2', score: 5, reachedAt: BASE_AT + 2, version: 1 });
    db.commit(window, { member: 'm3', score: 5, reachedAt: BASE_AT + 3, version: 1 });
    expect((await pageOf(rankings, window, 0, 10)).total).toBe(3);
    expect(db.loads.get(wkey(window))).toBe(1);

    await rankings.publish([
      { ...window, member: 'm1', score: 1, reachedAt: BASE_AT + 10, version: 2 },
      { ...window, member: 'm2', score: 20, reachedAt: BASE_AT + 11, version: 3 },
    ]);
    // The rows read on reload lag behind for m1 and m2, and hold changes whose publish was lost.
    db.commit(window, { member: 'm3', score: 50, reachedAt: BASE_AT + 12, version: 2 });
    db.commit(window, { member: 'm4', score: 7, reachedAt: BASE_AT + 13, version: 1 });

    // The window's keys (a sorted set, a hash, the loaded marker, the generation) are the only ones under this prefix.
    const keys = (await redis.keys(`${own}*`)).sort();
    expect(keys).toHaveLength(4);
    const marker = keys.find((k) => k.endsWith(':loaded')) as string;
    expect(marker).toBeDefined();
    for (const key of keys) {
      const ttl = await redis.ttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(7 * 24 * 3600);
    }
    expect(await redis.del(marker)).toBe(1);

    const expected: RankedRow[] = [
      { member: 'm3', score: 50, reachedAt: BASE_AT + 12, rank: 1 },
      { member: 'm2', score: 20, reachedAt: BASE_AT + 11, rank: 2 },
      { member: 'm4', score: 7, reachedAt: BASE_AT + 13, rank: 3 },
      { member: 'm1', score: 1, reachedAt: BASE_AT + 10, rank: 4 },
    ];
    expect(await rankings.standing(window, 'm4', 1)).toEqual({ rank: 3, score: 7, entries: expected.slice(1, 4) });
    expect(db.loads.get(wkey(window))).toBe(2);
    expect(await pageOf(rankings, window, 0, 10)).toEqual({ entries: expected, total: 4 });
    expect(await redis.exists(marker)).toBe(1);
    expect(db.loads.get(wkey(window))).toBe(2);

    // The same, with page() as the first read after expiry.
    expect(await redis.del(marker)).toBe(1);
    db.commit(window, { member: 'm5', score: 20, reachedAt: BASE_AT, version: 1 });
    expect(await pageOf(rankings, window, 1, 2)).toEqual({
      entries: [
        { member: 'm5', score: 20, reachedAt: BASE_AT, rank: 2 },
        { member: 'm2', score: 20, reachedAt: BASE_AT + 11, rank: 2 },
      ],
      total: 5,
    });
    expect(db.loads.get(wkey(window))).toBe(3);
  });

  it('a window published to before its first read answers with the loaded rows and the updates, newest version winning', async () => {
    const { make } = fresh();
    const db = new FakeDb();
    const rankings = make(db.loader);
    const window: WindowKey = { siteId: 'cold', boardId: 'b', windowStart: 7 };
    db.commit(window, { member: 'a', score: 10, reachedAt: BASE_AT + 1, version: 2 });
    db.commit(window, { member: 'b', score: 20, reachedAt: BASE_AT + 2, version: 2 });
    db.commit(window, { member: 'c', score: 30, reachedAt: BASE_AT + 3, version: 1 });
    await rankings.publish([
      { ...window, member: 'a', score: 40, reachedAt: BASE_AT + 4, version: 3 }, // newer than its row
      { ...window, member: 'b', score: 99, reachedAt: BASE_AT + 5, version: 1 }, // older than its row
      { ...window, member: 'd', score: 2.5, reachedAt: BASE_AT + 6, version: 1 }, // no row read
      { ...window, member: 'c', score: 30, reachedAt: BASE_AT + 3, version: 1 }, // the same version as its row
    ]);
    expect(db.loads.get(wkey(window))).toBeUndefined();
    const expected: RankedRow[] = [
      { member: 'a', score: 40, reachedAt: BASE_AT + 4, rank: 1 },
      { member: 'c', score: 30, reachedAt: BASE_AT + 3, rank: 2 },
      { member: 'b', score: 20, reachedAt: BASE_AT + 2, rank: 3 },
      { member: 'd', score: 2.5, reachedAt: BASE_AT + 6, rank: 4 },
    ];
    expect(await pageOf(rankings, window, 0, 10)).toEqual({ entries: expected, total: 4 });
    expect(db.loads.get(wkey(window))).toBe(1);
    expect(await rankings.standing(window, 'b', 0)).toEqual({ rank: 3, score: 20, entries: [expected[2]] });
  });

  it('member ids with spaces, unicode, ":" and "{" round-trip and tie in code-unit order', async () => {
    const ids = ['Zoë', 'Zoe', 'Zoë Q', 'a b c', 'x:y', '{tag}', 'a{b}:c d', 'a\u0000b', '名前', 'e\u0301', ' lead'];
    const window: WindowKey = { siteId: 'odd', boardId: 'b', windowStart: 1 };
    const answers: unknown[][] = [];
    for (const make of [fresh().make, (loader: WindowLoader) => new MemoryRankings(loader)]) {
      const db = new FakeDb(3);
      // Half arrive as loaded rows, half as updates published after the load.
      ids.slice(0, 6).forEach((member) => db.commit(window, { member, score: 5, reachedAt: BASE_AT, version: 1 }));
      const rankings = make(db.loader);
      await rankings.warm(window);
      await rankings.publish(ids.slice(6).map((member) => ({ ...window, member, score: 5, reachedAt: BASE_AT, version: 1 })));
      await rankings.publish([{ ...window, member: 'Zoë Q', score: 6, reachedAt: BASE_AT + 1, version: 2 }]);
      const model: Model = new Map(ids.map((member) => [member, { member, score: 5, reachedAt: BASE_AT, version: 1 }]));
      merge(model, { member: 'Zoë Q', score: 6, reachedAt: BASE_AT + 1, version: 2 });
      const list = listing(model);
      const page = await pageOf(rankings, window, 0, 20);
      expect(page).toEqual({ entries: list, total: ids.length });
      expect(page.entries[0]?.member).toBe('Zoë Q');
      const mine: unknown[] = [page];
      for (const member of ids) {
        const standing = await rankings.standing(window, member, 1);
        expect(standing, member).toEqual(modelStanding(list, member, 1));
        mine.push(standing);
      }
      answers.push(mine);
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it('zero scores come back as 0, not -0', async () => {
    const { make } = fresh();
    const db = new FakeDb();
    const window: WindowKey = { siteId: 'zero', boardId: 'b', windowStart: 1 };
    db.commit(window, { member: 'loaded', score: 0, reachedAt: BASE_AT, version: 1 });
    db.commit(window, { member: 'below', score: -1, reachedAt: BASE_AT, version: 1 });
    const rankings = make(db.loader);
    await rankings.publish([{ ...window, member: 'published', score: 0, reachedAt: BASE_AT + 1, version: 1 }]);
    const page = await pageOf(rankings, window, 0, 10);
    expect(page.entries.map((e) => [e.member, e.rank])).toEqual([
      ['loaded', 1],
      ['published', 1],
      ['below', 3],
    ]);
    for (const entry of page.entries.slice(0, 2)) expect(Object.is(entry.score, 0), entry.member).toBe(true);
    expect(page.entries[2]?.score).toBe(-1);
    // A page starting at a zero score computes its rank from the count above it.
    const second = await pageOf(rankings, window, 1, 1);
    expect(second.entries).toEqual([{ member: 'published', score: 0, reachedAt: BASE_AT + 1, rank: 1 }]);
    expect(Object.is(second.entries[0]?.score, 0)).toBe(true);
    for (const member of ['loaded', 'published']) {
      const standing = await rankings.standing(window, member, 1);
      expect(standing?.rank, member).toBe(1);
      expect(Object.is(standing?.score, 0), member).toBe(true);
      for (const entry of standing?.entries ?? []) if (entry.score !== -1) expect(Object.is(entry.score, 0), `${member}: ${entry.member}`).toBe(true);
    }
  });

  it("answers the kept names of a standing's entries in their order: through ties, at both ends of the board, none where not kept", async () => {
    const { prefix: own } = fresh();
    const names = new SharedNames(redis, own, (error) => console.error(error));
    const db = new FakeDb();
    const window: WindowKey = { siteId: 'named', boardId: 'b', windowStart: 1 };
    // Seven members: ties at 5 listed by when they were reached, ids that sort the other way.
    const members = [
      { member: 'top', score: 9, reachedAt: BASE_AT },
      { member: 'z-first', score: 5, reachedAt: BASE_AT + 1 },
      { member: 'y-second', score: 5, reachedAt: BASE_AT + 2 },
      { member: 'x-third', score: 5, reachedAt: BASE_AT + 3 },
      { member: 'a\u0000b', score: 5, reachedAt: BASE_AT + 4 },
      { member: 'low', score: 1, reachedAt: BASE_AT },
      { member: 'last', score: 0, reachedAt: BASE_AT },
    ];
    for (const entry of members) db.commit(window, { ...entry, version: 1 });
    const rankings = new RedisRankings(redis, own, db.loader, names);
    await rankings.warm(window);
    const name = (member: string) => ({
      firstName: `F ${member}`,
      lastName: member === 'low' ? null : 'L "quoted" \\ \n',
      iconUrl: member === 'top' ? 'https://example.com/t.png' : null,
    });
    // Every member's name kept but y-second's; x-third is kept as having none.
    const kept = members.map((m) => m.member).filter((member) => member !== 'y-second');
    await names.keep(
      'named',
      await names.generation('named'),
      kept,
      new Map(kept.filter((member) => member !== 'x-third').map((member) => [member, name(member)])),
    );
    const expected = (member: string) =>
      member === 'y-second' ? undefined : member === 'x-third' ? { firstName: null, lastName: null, iconUrl: null } : name(member);

    const list = listing(new Map(members.map((m) => [m.member, { ...m, version: 1 }])));
    for (const [member, around] of [
      ['top', 2],
      ['z-first', 1],
      ['x-third', 50],
      ['a\u0000b', 0],
      ['last', 3],
    ] as const) {
      const standing = await rankings.standing(window, member, around, true);
      const model = modelStanding(list, member, around);
      expect({ rank: standing?.rank, score: standing?.score, entries: standing?.entries }, member).toEqual(model);
      expect(standing?.names?.names, member).toEqual(model?.entries.map((entry) => expected(entry.member)));
    }
    // Without names asked for, none are answered; a member not on the board has no standing.
    expect((await rankings.standing(window, 'top', 1))?.names).toBeUndefined();
    expect(await rankings.standing(window, 'nobody', 2, true)).toBeUndefined();
    // The generation comes with a standing that misses a name (its reader keeps what it reads under it).
    await names.forget('named', 'top');
    const missing = await rankings.standing(window, 'top', 0, true);
    expect(missing?.names).toEqual({ generation: await names.generation('named'), names: [undefined] });
    expect(missing?.names?.generation).not.toBe('');
  });

  it('a failed load rejects the read, leaves the window unloaded, and the next read loads it', async () => {
    const { make } = fresh();
    const db = new FakeDb();
    const window: WindowKey = { siteId: 'rfail', boardId: 'b', windowStart: 1 };
    db.commit(window, { member: 'a', score: 2, reachedAt: BASE_AT, version: 1 });
    let calls = 0;
    const rankings = make((w) => {
      calls += 1;
      if (calls > 1) return db.loader(w);
      return failingLoad('database unavailable');
    });
    await expect(pageOf(rankings, window, 0, 10)).rejects.toThrow('database unavailable');
    expect(await pageOf(rankings, window, 0, 10)).toEqual({ entries: [{ member: 'a', score: 2, reachedAt: BASE_AT, rank: 1 }], total: 1 });
    expect(calls).toBe(2);
  });
});
