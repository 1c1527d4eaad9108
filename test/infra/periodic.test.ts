// The background loop the sweeps share: rounds never overlap, a failed round is reported and the
// next still runs, and stop() waits for the round in progress and starts no other.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Periodic } from '../../src/infra/periodic.js';

describe('Periodic', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs a round every interval, the next only after the previous ended', async () => {
    let running = 0;
    let most = 0;
    let rounds = 0;
    const periodic = new Periodic(
      100,
      async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 250));
        running -= 1;
        rounds += 1;
      },
      () => undefined,
    );
    periodic.start();
    await vi.advanceTimersByTimeAsync(99);
    expect(rounds).toBe(0);
    // 100 ms wait + 250 ms round, three times.
    await vi.advanceTimersByTimeAsync(3 * 350 - 99);
    expect(rounds).toBe(3);
    expect(most).toBe(1);
    await periodic.stop();
  });

  it('reports a failed round and runs the next one', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const periodic = new Periodic(
      10,
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database away');
      },
      (error) => errors.push(error),
    );
    periodic.start();
    await vi.advanceTimersByTimeAsync(25);
    expect(calls).toBe(2);
    expect(errors).toEqual([new Error('database away')]);
    await periodic.stop();
  });

  it('stop() waits for the round in progress, tells it to stop, and starts no other', async () => {
    const seen: boolean[] = [];
    let ended = false;
    const periodic: Periodic = new Periodic(
      10,
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen.push(periodic.stopping);
        ended = true;
      },
      () => undefined,
    );
    periodic.start();
    await vi.advanceTimersByTimeAsync(20);
    const stopped = periodic.stop();
    await vi.advanceTimersByTimeAsync(100);
    await stopped;
    expect(ended).toBe(true);
    expect(seen).toEqual([true]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(seen).toEqual([true]);
  });
});
