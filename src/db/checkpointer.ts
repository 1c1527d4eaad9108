// SQLite in WAL mode appends committed pages to the WAL file; a checkpoint copies them back into
// the database file and syncs it. Left to the connection that commits (wal_autocheckpoint), that
// work lands on the request path: with many small transactions it cost more than the transactions
// themselves. Here a worker thread with its own connection checkpoints every few milliseconds on
// the second core, and the serving connection checkpoints only as a backstop, when the WAL has
// grown past what the worker should ever leave behind.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The WAL size (pages) at which the serving connection checkpoints itself: the worker fell behind. */
export const BACKSTOP_PAGES = 20_000;
const INTERVAL_MS = 20;

// A worker from source text: it runs the same way under tsx, vitest and the built dist/.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.filename);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = ' + workerData.synchronous);
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage('stopped');
});
`;

export class Checkpointer {
  readonly #worker: Worker;
  #stopped: Promise<void> | undefined;

  constructor(filename: string, synchronous: string, onError: (message: string) => void) {
    this.#worker = new Worker(SOURCE, {
      eval: true,
      workerData: { filename, synchronous, intervalMs: INTERVAL_MS, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
    });
    this.#worker.on('message', (message: unknown) => {
      if (typeof message === 'object' && message !== null && 'error' in message) onError(String(message.error));
    });
    this.#worker.on('error', (error) => onError(error.message));
    // The worker never keeps the process alive on its own.
    this.#worker.unref();
  }

  /** A last checkpoint, then the worker's connection is closed. */
  stop(): Promise<void> {
    this.#stopped ??= new Promise<void>((resolve) => {
      const done = () => {
        void this.#worker.terminate().then(() => resolve());
      };
      this.#worker.on('message', (message) => message === 'stopped' && done());
      this.#worker.on('exit', () => resolve());
      // Waiting for the worker's answer must keep the process alive.
      this.#worker.ref();
      this.#worker.postMessage('stop');
      setTimeout(done, 2000).unref();
    });
    return this.#stopped;
  }
}
