// What CLI commands work with: the configured database (migrated) and the same services the
// server uses. Changes made here reach running nodes through Redis at once when REDIS_URL is set,
// and through their periodic refresh otherwise.
import type { Config } from '../config.js';
import { openReachableDatabase, type Database } from '../db/index.js';
import { ActionsRepository } from '../modules/actions/repository.js';
import { ActionService } from '../modules/actions/service.js';
import { BackupService } from '../modules/backup/service.js';
import { LedgerRepository } from '../modules/ledger/repository.js';
import { ProgramRepository } from '../modules/program/repository.js';
import { ProgramService } from '../modules/program/service.js';
import { ClientRegistry } from '../modules/sites/client-registry.js';
import { SitesRepository } from '../modules/sites/repository.js';
import { SitesService } from '../modules/sites/service.js';
import { MemoryRankings, RedisRankings } from '../modules/leaderboards/rankings.js';
import { LeaderboardService } from '../modules/leaderboards/service.js';
import { PreferencesService } from '../modules/profile/preferences.js';
import { SharedNames } from '../modules/profile/shared-names.js';
import { checkRedis, connectRedis, RedisInvalidationBus, type InvalidationBus } from '../plugins/redis.js';

export interface CliContext {
  database: Database;
  sites: SitesService;
  programs: ProgramService;
  backups: BackupService;
  /** With Redis, the boards every node reads; otherwise this process's own (rebuilt by each server on start). */
  leaderboards: LeaderboardService;
  preferences: PreferencesService;
  /** The action engine's service, as the server's (imports log through it). */
  actions: ActionService;
  close(): Promise<void>;
}

export async function openCliContext(config: Config): Promise<CliContext> {
  if (config.redisUrl !== undefined) await checkRedis(config.redisUrl);
  const database = await openReachableDatabase(config.database);
  await database.migrate();
  const redisError = (error: unknown) =>
    process.stderr.write(`questline: Redis connection failed (${error instanceof Error ? error.message : String(error)}); retrying\n`);
  const bus: InvalidationBus | undefined =
    config.redisUrl !== undefined ? new RedisInvalidationBus(config.redisUrl, config.redisPrefix, redisError) : undefined;
  const repository = new SitesRepository(database.db);
  const registry = new ClientRegistry(repository, { refreshSeconds: config.clientRefreshSeconds, bus });
  const programs = new ProgramService(database.db, new ProgramRepository(database.db, database.dialect), {
    bus,
    allowPrivateNetworks: config.webhookAllowPrivateNetworks,
  });
  const redis = config.redisUrl !== undefined ? connectRedis(config.redisUrl, redisError) : undefined;
  const sharedNames = redis !== undefined ? new SharedNames(redis, config.redisPrefix) : undefined;
  const preferences = new PreferencesService(database.db, Date.now, { bus, shared: sharedNames });
  await preferences.start();
  const leaderboards = new LeaderboardService(
    database.db,
    programs,
    preferences,
    (load) => (redis !== undefined ? new RedisRankings(redis, config.redisPrefix, load, sharedNames) : new MemoryRankings(load)),
    { names: sharedNames },
  );
  return {
    database,
    sites: new SitesService(repository, registry),
    programs,
    backups: new BackupService(database.db, programs),
    leaderboards,
    preferences,
    actions: new ActionService(database, new ActionsRepository(), new LedgerRepository(database.dialect), programs, leaderboards),
    async close() {
      await bus?.close();
      await redis?.quit();
      await database.close();
    },
  };
}
