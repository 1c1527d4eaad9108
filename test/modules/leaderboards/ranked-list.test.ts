// RankedList, the in-process order-statistic list behind a leaderboard window (SPEC §7): listing
// order (score high to low, then earliest reachedAt, then member id), shared ranks for ties
// (1, 2, 2, 4), the version guard on set, rank/position/countAbove/slice, edge cases, and a
// seeded model-based randomized run (many ties, block splits past 1,024 entries, blocks emptied
// and removed) checked against a naive sorted array after every few hundred operations.
import { describe, expect, it } from 'vitest';
import { RankedList, type RankedEntry } from '../../../src/modules/leaderboards/ranked-list.js';
import { mulberry32 } from '../../helpers/random.js';

type Ranked = RankedEntry & { rank: number };

const entry = (member: string, score: number, reachedAt = 0, version = 1): RankedEntry => ({ member, score, reachedAt, version });

function listOf(entries: readonly RankedEntry[]): RankedList {
  const list = new RankedList();
  for (const e of entries) expect(list.set({ ...e })).toBe(true);
  return list;
}

/** The listing order, written independently of the list: score desc, reachedAt asc, member asc (code units). */
function compare(a: RankedEntry, b: RankedEntry): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.reachedAt !== b.reachedAt) return a.reachedAt - b.reachedAt;
  return a.member < b.member ? -1 : a.member > b.member ? 1 : 0;
}

/** The model's listing with ranks: one more than the entries with a strictly higher score. */
function naiveListing(model: ReadonlyMap<string, RankedEntry>): Ranked[] {
  const sorted = [...model.values()].sort(compare);
  const out: Ranked[] = [];
  sorted.forEach((e, i) => {
    const previous = out[i - 1];
    out.push({ ...e, rank: previous !== undefined && previous.score === e.score ? previous.rank : i + 1 });
  });
  return out;
}

const key = (e: Ranked) => `${e.member}|${e.score}|${e.reachedAt}|${e.version}|#${e.rank}`;
/** One line per entry: comparing a whole listing as one string keeps the randomized run fast. */
const lines = (entries: readonly Ranked[]) => entries.map(key).join('\n');

describe('RankedList ordering and ties', () => {
  it('scores [50, 40, 40, 10] rank 1, 2, 2, 4', () => {
    const list = listOf([entry('d', 10), entry('b', 40), entry('a', 50), entry('c', 40)]);
    expect(list.slice(0, 10).map((e) => [e.member, e.score, e.rank])).toEqual([
      ['a', 50, 1],
      ['b', 40, 2],
      ['c', 40, 2],
      ['d', 10, 4],
    ]);
    expect(['a', 'b', 'c', 'd'].map((m) => list.rank(m))).toEqual([1, 2, 2, 4]);
    expect(['a', 'b', 'c', 'd'].map((m) => list.position(m))).toEqual([0, 1, 2, 3]);
  });

  it('among equal scores, the earlier reachedAt is listed first, then the member id ascending', () => {
    const list = listOf([entry('a', 40, 300), entry('z', 40, 100), entry('m', 40, 200), entry('c', 40, 200), entry('b', 40, 200), entry('top', 41, 999)]);
    expect(list.slice(0, 10).map((e) => [e.member, e.rank])).toEqual([
      ['top', 1],
      ['z', 2],
      ['b', 2],
      ['c', 2],
      ['m', 2],
      ['a', 2],
    ]);
    expect(list.position('z')).toBe(1);
    expect(list.position('a')).toBe(5);
  });

  it('member ids compare by code units, not numerically or by locale', () => {
    const list = listOf([entry('u9', 1), entry('u10', 1), entry('U2', 1), entry('u1', 1)]);
    expect(list.slice(0, 10).map((e) => e.member)).toEqual(['U2', 'u1', 'u10', 'u9']);
  });

  it('a page that starts inside a tie carries the tie’s shared rank', () => {
    const list = listOf([entry('a', 50), entry('b', 40), entry('c', 40), entry('d', 40), entry('e', 10)]);
    expect(list.slice(2, 3).map((e) => [e.member, e.rank])).toEqual([
      ['c', 2],
      ['d', 2],
      ['e', 5],
    ]);
  });
});

describe('RankedList version guard', () => {
  const cases: Array<{ name: string; version: number; applied: boolean }> = [
    { name: 'an older version does not overwrite', version: 4, applied: false },
    { name: 'an equal version does not overwrite', version: 5, applied: false },
    { name: 'a newer version moves the member', version: 6, applied: true },
  ];

  it.each(cases)('$name (stored 5, incoming $version)', ({ version, applied }) => {
    const list = listOf([entry('a', 50, 0, 1), entry('b', 40, 0, 5), entry('c', 30, 0, 1)]);
    expect(list.set(entry('b', 60, 10, version))).toBe(applied);
    expect(list.size).toBe(3);
    if (applied) {
      expect(list.get('b')).toEqual(entry('b', 60, 10, version));
      expect(list.slice(0, 10).map((e) => [e.member, e.rank])).toEqual([
        ['b', 1],
        ['a', 2],
        ['c', 3],
      ]);
      expect(list.rank('b')).toBe(1);
      expect(list.countAbove(45)).toBe(2);
    } else {
      expect(list.get('b')).toEqual(entry('b', 40, 0, 5));
      expect(list.slice(0, 10).map((e) => [e.member, e.rank])).toEqual([
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ]);
      expect(list.rank('b')).toBe(2);
      expect(list.countAbove(45)).toBe(1);
    }
  });

  it('a newer version can lower a score too', () => {
    const list = listOf([entry('a', 50, 0, 1), entry('b', 40, 0, 1)]);
    expect(list.set(entry('a', 10, 0, 2))).toBe(true);
    expect(list.slice(0, 10).map((e) => [e.member, e.score, e.rank])).toEqual([
      ['b', 40, 1],
      ['a', 10, 2],
    ]);
  });

  it('delete removes the member and reports whether it was there', () => {
    const list = listOf([entry('a', 50), entry('b', 40), entry('c', 40)]);
    expect(list.delete('b')).toBe(true);
    expect(list.delete('b')).toBe(false);
    expect(list.delete('nobody')).toBe(false);
    expect(list.size).toBe(2);
    expect(list.get('b')).toBeUndefined();
    expect(list.rank('b')).toBeUndefined();
    expect(list.slice(0, 10).map((e) => [e.member, e.rank])).toEqual([
      ['a', 1],
      ['c', 2],
    ]);
  });
});

describe('RankedList edge cases', () => {
  it('an empty list', () => {
    const list = new RankedList();
    expect(list.size).toBe(0);
    expect(list.get('a')).toBeUndefined();
    expect(list.rank('a')).toBeUndefined();
    expect(list.position('a')).toBeUndefined();
    expect(list.countAbove(0)).toBe(0);
    expect(list.countAbove(-Infinity)).toBe(0);
    expect(list.slice(0, 10)).toEqual([]);
    expect(list.delete('a')).toBe(false);
  });

  const five = [entry('a', 50), entry('b', 40), entry('c', 40), entry('d', 20), entry('e', -5)];
  const slices: Array<{ name: string; offset: number; limit: number; expected: string[] }> = [
    { name: 'the whole list', offset: 0, limit: 5, expected: ['a', 'b', 'c', 'd', 'e'] },
    { name: 'a limit past the end stops at the end', offset: 3, limit: 100, expected: ['d', 'e'] },
    { name: 'the last entry', offset: 4, limit: 1, expected: ['e'] },
    { name: 'offset equal to size', offset: 5, limit: 10, expected: [] },
    { name: 'offset beyond size', offset: 50, limit: 10, expected: [] },
    { name: 'limit 0', offset: 0, limit: 0, expected: [] },
    { name: 'limit 0 in the middle', offset: 2, limit: 0, expected: [] },
    { name: 'a negative limit', offset: 0, limit: -1, expected: [] },
  ];

  it.each(slices)('slice: $name (offset $offset, limit $limit)', ({ offset, limit, expected }) => {
    expect(
      listOf(five)
        .slice(offset, limit)
        .map((e) => e.member),
    ).toEqual(expected);
  });

  const counts: Array<{ name: string; score: number; expected: number }> = [
    { name: 'higher than all', score: 51, expected: 0 },
    { name: 'equal to the top', score: 50, expected: 0 },
    { name: 'between', score: 45, expected: 1 },
    { name: 'equal to a tie (the tie is not above)', score: 40, expected: 1 },
    { name: 'just below a tie', score: 39.5, expected: 3 },
    { name: 'equal to the lowest', score: -5, expected: 4 },
    { name: 'lower than all', score: -6, expected: 5 },
    { name: 'minus infinity', score: -Infinity, expected: 5 },
    { name: 'plus infinity', score: Infinity, expected: 0 },
  ];

  it.each(counts)('countAbove: $name ($score) → $expected', ({ score, expected }) => {
    expect(listOf(five).countAbove(score)).toBe(expected);
  });

  it('a single entry', () => {
    const list = listOf([entry('only', 7, 3, 9)]);
    expect(list.slice(0, 1)).toEqual([{ ...entry('only', 7, 3, 9), rank: 1 }]);
    expect(list.rank('only')).toBe(1);
    expect(list.position('only')).toBe(0);
  });
});

describe('RankedList across block boundaries', () => {
  // Blocks split past 1,024 entries: sizes around and well past the split, inserted in orders
  // that always hit the front, always the back, or alternate.
  const orders: Array<{ name: string; n: number; score: (i: number) => number }> = [
    { name: '1,024 ascending scores (no split yet)', n: 1024, score: (i) => i },
    { name: '1,025 ascending scores (first split)', n: 1025, score: (i) => i },
    { name: '1,025 descending scores', n: 1025, score: (i) => -i },
    { name: '3,000 ascending scores', n: 3000, score: (i) => i },
    { name: '3,000 descending scores', n: 3000, score: (i) => -i },
    { name: '3,000 alternating ends', n: 3000, score: (i) => (i % 2 === 0 ? i : -i) },
    { name: '3,000 in seven ties', n: 3000, score: (i) => i % 7 },
  ];

  it.each(orders)('$name', ({ n, score }) => {
    const model = new Map<string, RankedEntry>();
    const list = new RankedList();
    for (let i = 0; i < n; i++) {
      const e = entry(`m${i}`, score(i), n - i);
      model.set(e.member, e);
      list.set({ ...e });
    }
    const want = naiveListing(model);
    expect(list.slice(0, n).map(key)).toEqual(want.map(key));
    want.forEach((e, i) => {
      if (list.position(e.member) !== i) expect(list.position(e.member), e.member).toBe(i);
      if (list.rank(e.member) !== e.rank) expect(list.rank(e.member), e.member).toBe(e.rank);
    });
    for (const offset of [0, 511, 512, 513, 1023, 1024, 1025, 2047, 2048, n - 1]) {
      expect(list.slice(offset, 600).map(key), `offset ${offset}`).toEqual(want.slice(offset, offset + 600).map(key));
    }
  });
});

describe('RankedList against a naive model (seeded, randomized)', () => {
  const MEMBERS = 3000;
  const OPERATIONS = 20_000;
  const CHECK_EVERY = 250;
  /** Scores in a small range, so that there are many ties, and reachedAt too, so ties go to the member id. */
  const SCORES = { min: -3, max: 12 };
  const REACHED = 20;

  function check(list: RankedList, model: ReadonlyMap<string, RankedEntry>, random: () => number, when: string): void {
    const int = (n: number) => Math.floor(random() * n);
    const want = naiveListing(model);
    expect(list.size, when).toBe(model.size);
    expect(lines(list.slice(0, list.size)), when).toBe(lines(want));

    // rank, position and get for a sample of members, present or not.
    const wantPosition = new Map(want.map((e, i) => [e.member, i]));
    const sample = Array.from({ length: 60 }, () => `u${int(MEMBERS)}`);
    const seen = (member: string) => {
      const e = list.get(member);
      return [member, e && `${e.score}|${e.reachedAt}|${e.version}`, list.position(member), list.rank(member)];
    };
    const expected = (member: string) => {
      const position = wantPosition.get(member);
      const e = position === undefined ? undefined : want[position];
      return [member, e && `${e.score}|${e.reachedAt}|${e.version}`, position, e?.rank];
    };
    expect(sample.map(seen), `${when}: get, position and rank`).toEqual(sample.map(expected));

    // countAbove for every score in range, around it and between integers.
    const scores: number[] = [];
    for (let score = SCORES.min - 2; score <= SCORES.max + 2; score += 0.5) scores.push(score);
    expect(
      scores.map((score) => [score, list.countAbove(score)]),
      `${when}: countAbove`,
    ).toEqual(scores.map((score) => [score, want.filter((e) => e.score > score).length]));

    // Random pages, some crossing block boundaries, some past the end.
    for (let s = 0; s < 12; s++) {
      const offset = int(model.size + 20);
      const limit = int(1300);
      expect(lines(list.slice(offset, limit)), `${when}: slice(${offset}, ${limit})`).toBe(lines(want.slice(offset, offset + limit)));
    }
  }

  it('20,000 operations over 3,000 members, then everything deleted', () => {
    const random = mulberry32(0x5eed_2026);
    const int = (n: number) => Math.floor(random() * n);
    const list = new RankedList();
    const model = new Map<string, RankedEntry>();
    let clock = 0;
    let maxSize = 0;
    const counts = { applied: 0, stale: 0, deleted: 0, missingDeletes: 0, checks: 0 };
    const fresh = (member: string): RankedEntry => ({
      member,
      score: SCORES.min + int(SCORES.max - SCORES.min + 1),
      reachedAt: int(REACHED),
      version: ++clock,
    });

    for (let op = 1; op <= OPERATIONS; op++) {
      const member = `u${int(MEMBERS)}`;
      const current = model.get(member);
      const roll = random();
      if (op === OPERATIONS / 2) {
        // Delete a run of 1,100 consecutive entries in listing order: at least one whole block
        // empties and is removed from the middle of the list.
        const start = int(Math.max(1, model.size - 1100));
        for (const e of naiveListing(model).slice(start, start + 1100)) {
          expect(list.delete(e.member)).toBe(true);
          model.delete(e.member);
          counts.deleted++;
        }
        check(list, model, random, `after deleting a run at op ${op}`);
      } else if (roll < 0.2) {
        const deleted = list.delete(member);
        if (deleted !== (current !== undefined)) expect(deleted, `op ${op}: delete ${member}`).toBe(current !== undefined);
        model.delete(member);
        if (deleted) counts.deleted++;
        else counts.missingDeletes++;
      } else if (roll < 0.35 && current !== undefined) {
        // A stale update: an older or equal version, with another score; it must change nothing.
        const stale: RankedEntry = { ...fresh(member), version: current.version - int(3) };
        if (list.set(stale)) expect.fail(`op ${op}: stale set ${member} (version ${stale.version} over ${current.version}) was applied`);
        counts.stale++;
      } else {
        const next = fresh(member);
        if (!list.set({ ...next })) expect.fail(`op ${op}: set ${member} with a newer version was refused`);
        model.set(member, next);
        counts.applied++;
      }
      maxSize = Math.max(maxSize, model.size);
      if (op % CHECK_EVERY === 0) {
        check(list, model, random, `after op ${op}`);
        counts.checks++;
      }
    }

    // Drain: delete everyone in a random order, checking as the blocks empty and disappear.
    const everyone = [...model.keys()];
    for (let i = everyone.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [everyone[i], everyone[j]] = [everyone[j] as string, everyone[i] as string];
    }
    everyone.forEach((member, i) => {
      expect(list.delete(member)).toBe(true);
      model.delete(member);
      if (i % CHECK_EVERY === 0) check(list, model, random, `draining, ${i + 1} deleted`);
    });

    expect(list.size).toBe(0);
    expect(list.slice(0, 10)).toEqual([]);
    expect(list.countAbove(SCORES.min - 1)).toBe(0);
    for (const member of everyone.slice(0, 50)) {
      expect(list.rank(member)).toBeUndefined();
      expect(list.position(member)).toBeUndefined();
      expect(list.get(member)).toBeUndefined();
    }

    // The run really exercised what it is meant to: several blocks, every kind of operation.
    expect(maxSize).toBeGreaterThan(2 * 1024);
    expect(counts.checks).toBe(OPERATIONS / CHECK_EVERY);
    expect(counts.applied).toBeGreaterThan(10_000);
    expect(counts.stale).toBeGreaterThan(1_000);
    expect(counts.deleted).toBeGreaterThan(2_000);
    expect(counts.missingDeletes).toBeGreaterThan(100);

    // And the list is usable again after being emptied.
    expect(list.set(entry('again', 1, 0, ++clock))).toBe(true);
    expect(list.slice(0, 5)).toEqual([{ ...entry('again', 1, 0, clock), rank: 1 }]);
  });
});
