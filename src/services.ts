// buildServices(config, deps): the service graph, built in one place for the server, `questline
// worker` and the other CLI commands. The server's routes receive these services (src/app.ts), the
// commands too (src/cli/context.ts). What a service needs is required by type, the clock and where
// failures off the request path go (after a commit, in the background) included, so that no
// process builds a service without them.
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import { openReachableDatabase, type Database } from './db/index.js';
import { ActionsRepository } from './modules/actions/repository.js';
import { AnalyticsRepository } from './modules/analytics/repository.js';
import { AnalyticsService } from './modules/analytics/service.js';
import { StreakService } from './modules/streaks/service.js';
import { ReversalService } from './modules/actions/reversal.js';
import { ActionService } from './modules/actions/service.js';
import { AwardsRepository } from './modules/awards/repository.js';
import { AwardService } from './modules/awards/service.js';
import { MarketplaceKeys } from './modules/awards/sign-in-tokens.js';
import { BackupService } from './modules/backup/service.js';
import { GroupMembersRepository } from './modules/groups/repository.js';
import { GroupService } from './modules/groups/service.js';
import { ImportService } from './modules/import/service.js';
import { MemoryRankings, RedisRankings } from './modules/leaderboards/rankings.js';
import { LeaderboardService } from './modules/leaderboards/service.js';
import { LeaderboardResultsService } from './modules/leaderboard-results/service.js';
import { LedgerRepository } from './modules/ledger/repository.js';
import { MissionReadService } from './modules/missions/service.js';
import { OAuthService } from './modules/oauth/service.js';
import { resolveTokenSecret, TokenService } from './modules/oauth/tokens.js';
import { PointsService } from './modules/points/service.js';
import { CustomLevelsService } from './modules/profile/custom-levels.js';
import { PreferencesService } from './modules/users/preferences.js';
import { ProfileService } from './modules/profile/service.js';
import { ExpiryService } from './modules/expiry/service.js';
import { SharedNames } from './modules/users/shared-names.js';
import { ProgramRepository } from './modules/program/repository.js';
import { ProgramService } from './modules/program/service.js';
import { QuizRepository } from './modules/quizzes/repository.js';
import { QuizService } from './modules/quizzes/service.js';
import { RecognitionRepository } from './modules/recognitions/repository.js';
import { RecognitionService } from './modules/recognitions/service.js';
import { ClientRegistry } from './modules/sites/client-registry.js';
import { MaintenanceSwitch } from './modules/sites/maintenance.js';
import { SitesRepository } from './modules/sites/repository.js';
import { SitesService } from './modules/sites/service.js';
import { UserDirectory } from './modules/users/directory.js';
import { webhookDispatcher, type WebhookDispatcher } from './modules/webhooks/dispatcher.js';
import { WebhookRepository } from './modules/webhooks/repository.js';
import { WebhookSecrets } from './modules/webhooks/signing-secrets.js';
import { WebhookAdminService } from './modules/webhooks/service.js';
import type { Metrics } from './infra/metrics.js';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from './infra/rate-limit-store.js';
import { checkRedis, connectRedis, RedisInvalidationBus, type InvalidationBus } from './infra/redis.js';

/** Where a failure off the request path goes (the server's log, the CLI's stderr); `what` says what failed. */
export type ErrorReporter = (error: unknown, what: string) => void;

export interface ServiceDeps {
  /** The migrated database (openStorage); whoever opened it closes it. */
  database: Database;
  clock: () => number;
  onError: ErrorReporter;
  /** The server's metrics (leaderboard loads, webhook attempts); null where nothing reads them (the CLI). */
  metrics: Metrics | null;
}

/** Scale-out (REDIS_URL): the kept connection, the invalidation bus and names kept beside the boards. */
export interface RedisPieces {
  redis: Redis | null;
  bus: InvalidationBus | undefined;
  sharedNames: SharedNames | undefined;
  /** In Redis with REDIS_URL, so that every node counts against the same buckets; in process otherwise. */
  rateLimitStore: RateLimitStore;
}

/** Sites, clients, programs and what every writer and reader shares. */
export interface CoreServices {
  database: Database;
  /** The clock every service reads (tests set it). */
  clock: () => number;
  sites: SitesService;
  registry: ClientRegistry;
  tokens: TokenService;
  oauth: OAuthService;
  programs: ProgramService;
  maintenance: MaintenanceSwitch;
  backups: BackupService;
  /** Group membership: the admin routes' repository, and a user's groups as the other modules read them. */
  groupMembers: GroupMembersRepository;
  groups: GroupService;
  preferences: PreferencesService;
  leaderboards: LeaderboardService;
  /** Delivers the outbox; serve() and `questline worker` start it (tests run rounds with runOnce()). */
  webhooks: WebhookDispatcher;
}

/** What the routes and commands that record and read a site's state call. */
export interface DomainServices {
  actions: ActionService;
  imports: ImportService;
  reversals: ReversalService;
  points: PointsService;
  customLevels: CustomLevelsService;
  profiles: ProfileService;
  missionReads: MissionReadService;
  users: UserDirectory;
  recognitions: RecognitionService;
  quizzes: QuizService;
  awards: AwardService;
  webhookAdmin: WebhookAdminService;
  webhookSecrets: WebhookSecrets;
  /** The console's overview; serve() starts its background fold (tests fold through the overview). */
  analytics: AnalyticsService;
  /** Point expiry: serve() starts its background sweep. */
  expiry: ExpiryService;
  /** Users' streaks; serve() starts the sweep that announces freezes and breaks. */
  streaks: StreakService;
  /** Closes leaderboard windows and pays their prizes; serve() starts its sweep (tests sweep directly). */
  leaderboardResults: LeaderboardResultsService;
}

export interface Services extends RedisPieces, CoreServices, DomainServices {
  /** A serving node's background work: the client registry's refresh, and other nodes' invalidations heard. */
  start(): Promise<void>;
  /** Stops the background work and waits for what is in flight (leaderboard loads, webhook attempts). */
  stop(): Promise<void>;
  /** Closes the Redis connections (the database is closed by whoever opened it). */
  close(): Promise<void>;
}

/**
 * The database the graph works on, migrated: `given` (tests share one per file), or one opened
 * from config. An unreachable Redis or database fails here as one StartupError line (src/startup.ts).
 */
export async function openStorage(config: Config, given?: Database): Promise<Database> {
  if (config.redisUrl !== undefined) await checkRedis(config.redisUrl);
  const database = given ?? (await openReachableDatabase(config.database));
  await database.migrate();
  return database;
}

export async function buildServices(config: Config, deps: ServiceDeps): Promise<Services> {
  const pieces = redisPieces(config, deps);
  const core = await coreServices(config, deps, pieces);
  const domain = domainServices(config, deps, core, pieces.rateLimitStore);
  return {
    ...pieces,
    ...core,
    ...domain,
    async start() {
      await core.registry.start();
      await core.programs.start();
      await core.preferences.start();
      await core.maintenance.start();
    },
    async stop() {
      core.registry.stop();
      await Promise.all([
        core.leaderboards.stop(),
        core.webhooks.stop(),
        domain.analytics.stop(),
        domain.expiry.stop(),
        domain.streaks.stop(),
        domain.leaderboardResults.stop(),
      ]);
    },
    async close() {
      await pieces.bus?.close();
      if (pieces.redis !== null) await pieces.redis.quit();
    },
  };
}

function redisPieces(config: Config, { clock, onError }: ServiceDeps): RedisPieces {
  if (config.redisUrl === undefined) return { redis: null, bus: undefined, sharedNames: undefined, rateLimitStore: new MemoryRateLimitStore(clock) };
  const redisError = (error: unknown) => onError(error, 'Redis connection failed; retrying');
  const redis = connectRedis(config.redisUrl, redisError);
  return {
    redis,
    bus: new RedisInvalidationBus(config.redisUrl, config.redisPrefix, redisError),
    // Users' names kept in Redis beside the boards, read with a standing's ranks.
    sharedNames: new SharedNames(redis, config.redisPrefix, (error) => onError(error, 'keeping names beside the boards failed')),
    rateLimitStore: new RedisRateLimitStore(redis, config.redisPrefix),
  };
}

async function coreServices(config: Config, deps: ServiceDeps, pieces: RedisPieces): Promise<CoreServices> {
  const { database, clock, onError } = deps;
  const { bus, sharedNames } = pieces;
  const sitesRepository = new SitesRepository(database.db);
  const registry = new ClientRegistry(sitesRepository, {
    refreshSeconds: config.clientRefreshSeconds,
    bus,
    clock,
    onError: (error) => onError(error, 'client registry refresh failed'),
  });
  const sites = new SitesService(sitesRepository, registry, clock);
  const tokens = new TokenService(await resolveTokenSecret(sites, config.tokenSecret), config.tokenTtlSeconds, clock);
  const programs = new ProgramService(database.db, new ProgramRepository(database.db, database.dialect), {
    bus,
    clock,
    allowPrivateNetworks: config.webhookAllowPrivateNetworks,
    onError: (error) => onError(error, 'program invalidation failed'),
  });
  const preferences = new PreferencesService(database.db, clock, {
    bus,
    shared: sharedNames,
    onError: (error) => onError(error, 'name invalidation failed'),
  });
  const groupMembers = new GroupMembersRepository(database.db);
  const groups = new GroupService(groupMembers);
  const { leaderboards, webhooks } = afterCommit(config, deps, pieces, programs, groups, preferences);
  return {
    database,
    clock,
    sites,
    registry,
    tokens,
    oauth: new OAuthService(sites, tokens, pieces.rateLimitStore, {
      failureLimit: config.tokenFailureLimit,
      failureWindowSeconds: config.tokenFailureWindowSeconds,
    }),
    programs,
    maintenance: new MaintenanceSwitch(sitesRepository, { bus, clock }),
    backups: new BackupService(database.db, programs, clock),
    groupMembers,
    groups,
    preferences,
    leaderboards,
    webhooks,
  };
}

/** What a commit sets going: board scores into the ranking structures, and the outbox's deliveries. */
function afterCommit(
  config: Config,
  { database, clock, onError, metrics }: ServiceDeps,
  { redis, sharedNames }: RedisPieces,
  programs: ProgramService,
  groups: GroupService,
  preferences: PreferencesService,
): Pick<CoreServices, 'leaderboards' | 'webhooks'> {
  const leaderboards = new LeaderboardService(
    database.db,
    programs,
    groups,
    preferences,
    (load) => (redis !== null ? new RedisRankings(redis, config.redisPrefix, load, sharedNames) : new MemoryRankings(load)),
    {
      clock,
      onError: (error) => onError(error, 'leaderboard update failed after its commit'),
      onLoad: (seconds) => metrics?.leaderboardLoads.observe(seconds),
      names: sharedNames,
    },
  );
  const webhooks = webhookDispatcher({
    database,
    programs,
    preferences,
    allowPrivateNetworks: config.webhookAllowPrivateNetworks,
    clock,
    onError: (error) => onError(error, 'webhook dispatch failed'),
    onAttempt: (delivered) => (delivered ? metrics?.deliveries : metrics?.deliveryFailures)?.inc(),
  });
  return { leaderboards, webhooks };
}

function domainServices(config: Config, { database, clock, onError }: ServiceDeps, core: CoreServices, rateLimitStore: RateLimitStore): DomainServices {
  const { programs, leaderboards, preferences, groups } = core;
  const actionsRepository = new ActionsRepository();
  const ledger = new LedgerRepository(database.dialect);
  const actions = new ActionService(database, actionsRepository, ledger, programs, leaderboards, groups, clock, config.partyCacheSize);
  const points = new PointsService(programs, actions, database, ledger, clock);
  const users = new UserDirectory(database.db);
  const expiry = new ExpiryService(database.db, programs, actions, {
    clock,
    sweepIntervalMs: config.pointExpirySweepMs,
    graceMs: config.pointExpiryGraceMs,
    onError: (error) => onError(error, 'point expiry sweep failed'),
  });
  const profiles = new ProfileService(database.db, programs, expiry, clock);
  const otsLimits = { failureLimit: config.otsFailureLimit, failureWindowSeconds: config.otsFailureWindowSeconds };
  const marketplace = new MarketplaceKeys(core.sites, clock);
  const webhookAdmin = new WebhookAdminService(new WebhookRepository(database), programs, {
    allowPrivateNetworks: config.webhookAllowPrivateNetworks,
    clock,
    onChange: () => core.webhooks.nudge(),
  });
  return {
    actions,
    imports: new ImportService(actions),
    reversals: new ReversalService(database, actionsRepository, ledger, programs, leaderboards, groups, clock, expiry),
    points,
    customLevels: new CustomLevelsService(database, ledger, programs, clock),
    profiles,
    missionReads: new MissionReadService(database.db, programs, groups, clock, profiles),
    users,
    recognitions: new RecognitionService(database, new RecognitionRepository(database.db), users, ledger, actions, points, programs, preferences, clock),
    quizzes: new QuizService(database, new QuizRepository(database.db), ledger, actions, programs, clock),
    awards: new AwardService(database, new AwardsRepository(database.db), ledger, actions, programs, marketplace, rateLimitStore, otsLimits, clock),
    webhookAdmin,
    webhookSecrets: new WebhookSecrets(programs, clock),
    analytics: new AnalyticsService(new AnalyticsRepository(database), programs, actions, webhookAdmin, {
      clock,
      foldIntervalMs: config.analyticsFoldMs,
      onError: (error) => onError(error, 'analytics fold failed'),
    }),
    expiry,
    streaks: new StreakService(database, ledger, programs, clock, {
      sweepIntervalMs: config.streakSweepMs,
      onError: (error) => onError(error, 'streak sweep failed'),
    }),
    leaderboardResults: new LeaderboardResultsService(database.db, programs, actions, points, preferences, {
      clock,
      intervalMs: config.leaderboardCloseMs,
      graceMs: config.leaderboardCloseGraceMs,
      closingsPerRound: 100,
      onError: (error) => onError(error, 'closing leaderboard windows failed'),
    }),
  };
}
