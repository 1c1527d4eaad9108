// A restore parses and validates its document synchronously: while it does, this process serves
// no other request, of any site. Restores therefore take turns: one at a time, in arrival order,
// and after each the next waits as long as it took (up to MAX_PAUSE_MS), so restores never hold
// more than about half of the process's time and other requests are served between them. A site
// has at most one restore waiting or running, and at most MAX_WAITING restores wait; beyond that
// a restore is refused with 429 restore_busy. A restore's preview reads its document as a restore
// does, so it takes its turn here too.
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../errors.js';

const MAX_WAITING = 8;
const MAX_PAUSE_MS = 2_000;

function busy(detail: string): AppError {
  return new AppError('restore_busy', detail, { headers: { 'retry-after': '1' } });
}

export class RestoreGate {
  readonly #sites = new Set<string>();
  readonly #waiting: Array<() => void> = [];
  #held = false;

  /** How many restores wait for their turn. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs the site's restore when its turn comes. */
  async run<T>(siteId: string, restore: () => T | Promise<T>): Promise<T> {
    if (this.#sites.has(siteId)) throw busy('Another restore of this site is in progress; retry when it is done');
    if (this.#waiting.length >= MAX_WAITING) throw busy('Too many restores are waiting; retry shortly');
    this.#sites.add(siteId);
    try {
      await this.#turn();
      const started = performance.now();
      try {
        return await restore();
      } finally {
        this.#release(performance.now() - started);
      }
    } finally {
      this.#sites.delete(siteId);
    }
  }

  #turn(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(tookMs: number): void {
    // The gate stays closed for a pause as long as the restore took (the requests that queued up
    // behind it are served meanwhile), then passes to the next restore in line, if any.
    void sleep(Math.min(tookMs, MAX_PAUSE_MS), undefined, { ref: false }).then(() => {
      const next = this.#waiting.shift();
      if (next === undefined) this.#held = false;
      else next();
    });
  }
}
