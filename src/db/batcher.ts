// Group work for one round trip: items submitted while a batch runs wait, and go together in the
// next one. At most `inFlight` batches run at once and a batch takes at most `max` items, so
// that under load a round trip carries many items, and with none waiting an item goes at once.
// Used for PostgreSQL's group commit (src/modules/ledger/repository.ts) and group reads
// (src/modules/actions/repository.ts).
//
// Items that name the same key (a party) never share a batch nor run in two batches at once: a
// later one waits for the batch of the earlier one, so that they happen in the order submitted.
// A batch that fails as a whole is run again item by item, so that only the item that made it
// fail fails.

export interface BatcherOptions<T> {
  inFlight: number;
  max: number;
  /** The keys an item names: items sharing one are run one batch after the other. */
  keys?: (item: T) => readonly string[];
}

interface Waiting<T, R> {
  item: T;
  keys: readonly string[];
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export class Batcher<T, R> {
  readonly #waiting: Array<Waiting<T, R>> = [];
  /** The keys of the batches running and forming. */
  readonly #busy = new Set<string>();
  #running = 0;

  /**
   * `run` does a batch: for each item, in order, its result or the error it alone fails with.
   * When it throws, the batch failed as a whole.
   */
  constructor(
    private readonly run: (items: T[]) => Promise<Array<R | Error>>,
    private readonly options: BatcherOptions<T>,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ item, keys: this.options.keys?.(item) ?? [], resolve, reject });
      this.#next();
    });
  }

  #next(): void {
    while (this.#running < this.options.inFlight) {
      const batch: Array<Waiting<T, R>> = [];
      for (let i = 0; i < this.#waiting.length && batch.length < this.options.max;) {
        const waiting = this.#waiting[i] as Waiting<T, R>;
        if (waiting.keys.some((key) => this.#busy.has(key))) {
          i += 1;
          continue;
        }
        for (const key of waiting.keys) this.#busy.add(key);
        batch.push(waiting);
        this.#waiting.splice(i, 1);
      }
      if (batch.length === 0) return;
      this.#running += 1;
      void this.#settle(batch).finally(() => {
        for (const waiting of batch) for (const key of waiting.keys) this.#busy.delete(key);
        this.#running -= 1;
        this.#next();
      });
    }
  }

  async #settle(batch: Array<Waiting<T, R>>): Promise<void> {
    let results: Array<R | Error>;
    try {
      results = await this.run(batch.map((waiting) => waiting.item));
    } catch (error) {
      if (batch.length === 1) return (batch[0] as Waiting<T, R>).reject(error);
      await Promise.all(batch.map((waiting) => this.#settle([waiting])));
      return;
    }
    for (const [i, waiting] of batch.entries()) {
      const result = results[i] as R | Error;
      if (result instanceof Error) waiting.reject(result);
      else waiting.resolve(result);
    }
  }
}
