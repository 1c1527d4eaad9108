// An order-statistic list for one leaderboard window in process: members ordered by score
// (highest first), then by when they reached it (earliest first), then by id. Entries live in
// sorted blocks of a few hundred; finding a member's block is a binary search over the blocks'
// last entries, so an update, a rank and a page each cost O(log n) comparisons plus one pass over
// the block sizes (a few thousand integers at a million members), with no per-node allocation.
// Ties share a rank (1, 2, 2, 4): a member's rank is one more than the members with a higher score.

export interface RankedEntry {
  member: string;
  score: number;
  reachedAt: number;
  /** Raised by every change of the member's score: an older update never overwrites a newer one. */
  version: number;
}

const BLOCK = 512;

/** `a` is listed before `b`. */
function before(a: RankedEntry, b: RankedEntry): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.reachedAt !== b.reachedAt) return a.reachedAt < b.reachedAt;
  return a.member < b.member;
}

export class RankedList {
  readonly #blocks: RankedEntry[][] = [];
  readonly #members = new Map<string, RankedEntry>();

  get size(): number {
    return this.#members.size;
  }

  get(member: string): Readonly<RankedEntry> | undefined {
    return this.#members.get(member);
  }

  /** Sets a member's score, unless the list already holds a newer version of it (the list keeps its own copy). */
  set(update: RankedEntry): boolean {
    const entry = { member: update.member, score: update.score, reachedAt: update.reachedAt, version: update.version };
    const current = this.#members.get(entry.member);
    if (current !== undefined) {
      if (current.version >= entry.version) return false;
      this.#remove(current);
    }
    this.#insert(entry);
    this.#members.set(entry.member, entry);
    return true;
  }

  delete(member: string): boolean {
    const current = this.#members.get(member);
    if (current === undefined) return false;
    this.#remove(current);
    this.#members.delete(member);
    return true;
  }

  /** 1-based rank with ties shared, or undefined for a member not on the list. */
  rank(member: string): number | undefined {
    const entry = this.#members.get(member);
    return entry === undefined ? undefined : this.countAbove(entry.score) + 1;
  }

  /** 0-based position in the listing order. */
  position(member: string): number | undefined {
    const entry = this.#members.get(member);
    if (entry === undefined) return undefined;
    const b = this.#blockOf(entry);
    const block = this.#blocks[b] as RankedEntry[];
    return this.#sizesBefore(b) + block.indexOf(entry, this.#lowerBound(block, entry));
  }

  /** Members with a score higher than `score`. */
  countAbove(score: number): number {
    // The first block whose last entry does not score higher holds the boundary.
    let lo = 0;
    let hi = this.#blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = this.#blocks[mid] as RankedEntry[];
      if ((block[block.length - 1] as RankedEntry).score > score) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.#blocks.length) return this.size;
    const block = this.#blocks[lo] as RankedEntry[];
    let i = 0;
    let j = block.length;
    while (i < j) {
      const mid = (i + j) >>> 1;
      if ((block[mid] as RankedEntry).score > score) i = mid + 1;
      else j = mid;
    }
    return this.#sizesBefore(lo) + i;
  }

  /** Entries from position `offset` (0-based), at most `limit`, each with its shared rank. */
  slice(from: number, limit: number): Array<RankedEntry & { rank: number }> {
    const offset = Math.max(0, Math.floor(from));
    const out: Array<RankedEntry & { rank: number }> = [];
    if (limit <= 0 || offset >= this.size) return out;
    let b = 0;
    let skipped = 0;
    while (b < this.#blocks.length && skipped + (this.#blocks[b] as RankedEntry[]).length <= offset) skipped += (this.#blocks[b++] as RankedEntry[]).length;
    let i = offset - skipped;
    let position = offset;
    let previous: (RankedEntry & { rank: number }) | undefined;
    for (; b < this.#blocks.length && out.length < limit; b++, i = 0) {
      const block = this.#blocks[b] as RankedEntry[];
      for (; i < block.length && out.length < limit; i++, position++) {
        const entry = block[i] as RankedEntry;
        const rank = previous === undefined ? this.countAbove(entry.score) + 1 : previous.score === entry.score ? previous.rank : position + 1;
        previous = { member: entry.member, score: entry.score, reachedAt: entry.reachedAt, version: entry.version, rank };
        out.push(previous);
      }
    }
    return out;
  }

  #sizesBefore(block: number): number {
    let n = 0;
    for (let i = 0; i < block; i++) n += (this.#blocks[i] as RankedEntry[]).length;
    return n;
  }

  /** The block an entry belongs in: the first whose last entry is not listed before it. */
  #blockOf(entry: RankedEntry): number {
    let lo = 0;
    let hi = this.#blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = this.#blocks[mid] as RankedEntry[];
      if (before(block[block.length - 1] as RankedEntry, entry)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first index in the block whose entry is not listed before `entry`. */
  #lowerBound(block: RankedEntry[], entry: RankedEntry): number {
    let lo = 0;
    let hi = block.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(block[mid] as RankedEntry, entry)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #insert(entry: RankedEntry): void {
    if (this.#blocks.length === 0) {
      this.#blocks.push([entry]);
      return;
    }
    const b = Math.min(this.#blockOf(entry), this.#blocks.length - 1);
    const block = this.#blocks[b] as RankedEntry[];
    block.splice(this.#lowerBound(block, entry), 0, entry);
    if (block.length > 2 * BLOCK) this.#blocks.splice(b + 1, 0, block.splice(BLOCK));
  }

  #remove(entry: RankedEntry): void {
    const b = this.#blockOf(entry);
    const block = this.#blocks[b] as RankedEntry[];
    block.splice(block.indexOf(entry, this.#lowerBound(block, entry)), 1);
    if (block.length === 0) this.#blocks.splice(b, 1);
  }
}
