// A background round repeated every interval until stopped: the loop the analytics fold, the
// leaderboards' closing, the streaks' and the point expiries' sweeps share. A round starts only
// after the previous one ended (rounds never overlap); a failing round is reported and the next one
// runs on time; stop() waits for the round in progress, which can ask stopping() to end early.
export class Periodic {
  #running = false;
  #stopping = false;
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly round: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Runs a round every intervalMs (the first after one interval) until stop(). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#stopping = false;
    const tick = () => {
      this.#round = this.round()
        .catch((error: unknown) => this.onError(error))
        .finally(() => {
          if (this.#running) this.#timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.#timer = setTimeout(tick, this.intervalMs);
  }

  /** No round starts any more; resolves when the one in progress has ended. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#stopping = true;
    clearTimeout(this.#timer);
    await this.#round;
  }

  /** Whether stop() was called: a long round checks it between its steps. */
  get stopping(): boolean {
    return this.#stopping;
  }
}
