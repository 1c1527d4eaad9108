// The batcher behind PostgreSQL's group commit and group reads (src/db/batcher.ts): what waits
// goes together, a key is in one batch at a time, and a failing batch is retried item by item.
import { describe, expect, it } from 'vitest';
import { Batcher } from '../../src/db/batcher.js';

/** A run that records each batch it is given and answers after the test lets it (`release`). */
function recorder(fail: (item: string) => Error | 'batch' | undefined = () => undefined) {
  const batches: string[][] = [];
  const pending: Array<() => void> = [];
  const run = (items: string[]) =>
    new Promise<Array<string | Error>>((resolve, reject) => {
      batches.push(items);
      pending.push(() => {
        if (items.length > 1 && items.some((item) => fail(item) === 'batch')) return reject(new Error('the batch failed'));
        if (items.length === 1 && fail(items[0] as string) === 'batch') return reject(new Error(`${items[0]} failed alone`));
        resolve(
          items.map((item) => {
            const error = fail(item);
            return error instanceof Error ? error : `done ${item}`;
          }),
        );
      });
    });
  const release = async () => {
    while (pending.length > 0) {
      (pending.shift() as () => void)();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { batches, run, release };
}

describe('Batcher', () => {
  it('sends what comes while batches run together in the next one, at most `max` at a time', async () => {
    const { batches, run, release } = recorder();
    const batcher = new Batcher(run, { inFlight: 2, max: 3 });
    const results = Promise.all(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((item) => batcher.submit(item)));
    await release();
    expect(await results).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((item) => `done ${item}`));
    expect(batches).toEqual([['a'], ['b'], ['c', 'd', 'e'], ['f', 'g']]);
  });

  it('keeps items sharing a key out of one batch and out of two running batches, in the order submitted', async () => {
    const { batches, run, release } = recorder();
    const batcher = new Batcher(run, { inFlight: 2, max: 10, keys: (item: string) => [item.slice(0, 1)] });
    const results = Promise.all(['x1', 'y1', 'x2', 'z1', 'x3', 'y2'].map((item) => batcher.submit(item)));
    await release();
    await results;
    // x1 and y1 run; x2 waits for x1, and goes with z1 while y1 still runs; y2 then goes alone, x3 after x2.
    expect(batches).toEqual([['x1'], ['y1'], ['x2', 'z1'], ['y2'], ['x3']]);
  });

  it('fails an item alone with its own error, and retries a batch that failed as a whole item by item', async () => {
    const { batches, run, release } = recorder((item) => (item === 'bad' ? new Error('bad is refused') : item === 'poison' ? 'batch' : undefined));
    const batcher = new Batcher(run, { inFlight: 1, max: 10 });
    const settled = Promise.allSettled(['first', 'ok', 'bad', 'poison', 'fine'].map((item) => batcher.submit(item)));
    await release();
    const outcome = (await settled).map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message));
    expect(outcome).toEqual(['done first', 'done ok', 'bad is refused', 'poison failed alone', 'done fine']);
    expect(batches).toEqual([['first'], ['ok', 'bad', 'poison', 'fine'], ['ok'], ['bad'], ['poison'], ['fine']]);
  });
});
