// What CLI commands work with: the configured database (migrated) and the services the server
// uses, built by the same buildServices (src/services.ts). Changes made here reach running nodes
// through Redis at once when REDIS_URL is set, and through their periodic refresh otherwise.
import type { Config } from '../config.js';
import { buildServices, openStorage, type ErrorReporter, type Services } from '../services.js';

export interface CliContext extends Services {
  /** Closes the Redis connections and the database. */
  close(): Promise<void>;
}

/** A failure off a command's path (a leaderboard update after its commit, Redis going away) on stderr: the command goes on. */
export const reportOnStderr: ErrorReporter = (error, what) => process.stderr.write(`questline: ${what}: ${errorText(error)}\n`);

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function openCliContext(config: Config, onError: ErrorReporter = reportOnStderr): Promise<CliContext> {
  const database = await openStorage(config);
  const services = await buildServices(config, { database, clock: Date.now, onError, metrics: null });
  // Names other nodes change are forgotten here too (the worker's webhook payloads carry them).
  await services.preferences.start();
  return {
    ...services,
    async close() {
      await services.close();
      await database.close();
    },
  };
}
