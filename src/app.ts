// buildApp(config): the whole HTTP application, plugins registered in a fixed order. Tests import
// this; src/server.ts runs it as a process.
import { randomUUID } from 'node:crypto';
import { Server as NetServer } from 'node:net';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { DestinationStream } from 'pino';
import type { Config } from './config.js';
import { openReachableDatabase, type Database } from './db/index.js';
import { AppError } from './errors.js';
import { ActionsRepository } from './modules/actions/repository.js';
import { leaderboardRoutes } from './modules/leaderboards/routes.js';
import { MemoryRankings, RedisRankings } from './modules/leaderboards/rankings.js';
import { LeaderboardService } from './modules/leaderboards/service.js';
import { actionHistoryRoutes } from './modules/actions/history.js';
import { actionRoutes } from './modules/actions/routes.js';
import { ReversalService } from './modules/actions/reversal.js';
import { reversalRoutes } from './modules/actions/reversal-routes.js';
import { ActionService } from './modules/actions/service.js';
import { AwardsRepository } from './modules/awards/repository.js';
import { awardRoutes } from './modules/awards/routes.js';
import { AwardService } from './modules/awards/service.js';
import { MarketplaceKeys } from './modules/awards/signing.js';
import { backupRoutes } from './modules/backup/routes.js';
import { BackupService } from './modules/backup/service.js';
import { GroupMembersRepository } from './modules/groups/repository.js';
import { groupMemberRoutes } from './modules/groups/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { importRoutes } from './modules/import/routes.js';
import { ImportService } from './modules/import/service.js';
import { LedgerRepository } from './modules/ledger/repository.js';
import { missionReadRoutes } from './modules/missions/routes.js';
import { MissionReadService } from './modules/missions/service.js';
import { pointsAdminRoutes } from './modules/points/routes.js';
import { QuizRepository } from './modules/quizzes/repository.js';
import { quizRoutes } from './modules/quizzes/routes.js';
import { QuizService } from './modules/quizzes/service.js';
import { RecognitionRepository } from './modules/recognitions/repository.js';
import { searchRoutes } from './modules/search/routes.js';
import { UserDirectory } from './modules/users/directory.js';
import { recognitionRoutes } from './modules/recognitions/routes.js';
import { RecognitionService } from './modules/recognitions/service.js';
import { PointsService } from './modules/points/service.js';
import { atAGlanceRoutes } from './modules/profile/at-a-glance.js';
import { CustomLevelsService } from './modules/profile/custom-levels.js';
import { PreferencesService } from './modules/profile/preferences.js';
import { SharedNames } from './modules/profile/shared-names.js';
import { preferencesRoutes } from './modules/profile/preferences-routes.js';
import { profileRoutes } from './modules/profile/routes.js';
import { ProfileService } from './modules/profile/service.js';
import { programAdminRoutes } from './modules/program/admin-routes.js';
import { definitionRoutes } from './modules/program/definition-routes.js';
import { ProgramRepository } from './modules/program/repository.js';
import { ProgramService } from './modules/program/service.js';
import { oauthRoutes } from './modules/oauth/routes.js';
import { OAuthService } from './modules/oauth/service.js';
import { resolveTokenSecret, TokenService } from './modules/oauth/tokens.js';
import { ClientRegistry } from './modules/sites/client-registry.js';
import { SitesRepository } from './modules/sites/repository.js';
import { maintenanceRoutes } from './modules/sites/maintenance-routes.js';
import { SitesService } from './modules/sites/service.js';
import { webhookDispatcher, type WebhookDispatcher } from './modules/webhooks/dispatcher.js';
import { WebhookRepository } from './modules/webhooks/repository.js';
import { webhookRoutes } from './modules/webhooks/routes.js';
import { WebhookSecrets } from './modules/webhooks/secrets.js';
import { uiRoutes } from './modules/ui/routes.js';
import { WebhookAdminService } from './modules/webhooks/service.js';
import { authPlugin } from './plugins/auth.js';
import { corsPlugin } from './plugins/cors.js';
import { dbPlugin } from './plugins/db.js';
import { Metrics, metricsPlugin } from './plugins/metrics.js';
import { MaintenanceSwitch, maintenancePlugin } from './plugins/maintenance.js';
import { parseForm } from './http/form.js';
import { idParamsPlugin } from './http/ids.js';
import { jsonBodyPlugin } from './http/json.js';
import { clientErrorHandler, errorsPlugin, frameworkErrors, sendProblem } from './plugins/errors.js';
import { openapiPlugin } from './plugins/openapi.js';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from './plugins/rate-limit-store.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { RequestLog } from './plugins/request-log.js';
import { checkRedis, connectRedis, RedisInvalidationBus, type InvalidationBus } from './plugins/redis.js';
import { VERSION } from './package.js';

export const BODY_LIMIT = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9\-_.:@+]{1,128}$/;

export interface BuildOptions {
  /** An open database to use (tests share one per file); otherwise one is opened from config and closed with the app. */
  database?: Database;
  /** Where logs go (tests capture them); defaults to stdout. */
  logStream?: DestinationStream;
  clock?: () => number;
}

/** Services built once per app; the CLI builds the same ones without HTTP. */
export interface Services {
  sites: SitesService;
  registry: ClientRegistry;
  programs: ProgramService;
  backups: BackupService;
  leaderboards: LeaderboardService;
  /** Delivers the outbox; serve() starts it (tests run rounds with runOnce()). */
  webhooks: WebhookDispatcher;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const clock = options.clock ?? Date.now;
  // An unreachable Redis or database fails here as one StartupError line (src/startup.ts).
  if (config.redisUrl !== undefined) await checkRedis(config.redisUrl);
  const database = options.database ?? (await openReachableDatabase(config.database));
  await database.migrate();

  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Tokens and secrets never reach the logs (the default serializers omit headers and bodies;
      // this is the second line of defence should a log call include them).
      redact: { paths: ['req.headers.authorization', '*.client_secret', '*.clientSecret', '*.access_token', '*.token'], censor: '[redacted]' },
      ...(options.logStream !== undefined ? { stream: options.logStream } : {}),
    },
    // One line per request, with the request id as `requestId` (src/plugins/request-log.ts).
    logController: new RequestLog(),
    bodyLimit: BODY_LIMIT,
    // Ids are up to 255 characters, URL-encoded up to three times that.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // SPEC §15: requests arriving while draining get our own 503 problem with Retry-After.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    ajv: { customOptions: { removeAdditional: false } },
    // Errors raised before routing (a path over the router's limits, not valid percent-encoding)
    // and requests that are not valid HTTP get the same problem+json and request id as every other error.
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const redisError = (error: unknown) => app.log.error({ err: error }, 'Redis connection failed; retrying');
  const redis: Redis | null = config.redisUrl !== undefined ? connectRedis(config.redisUrl, redisError) : null;
  const bus: InvalidationBus | undefined =
    config.redisUrl !== undefined ? new RedisInvalidationBus(config.redisUrl, config.redisPrefix, redisError) : undefined;
  const rateLimitStore: RateLimitStore = redis !== null ? new RedisRateLimitStore(redis, config.redisPrefix) : new MemoryRateLimitStore(clock);
  const metrics = new Metrics(database.db);
  const sitesRepository = new SitesRepository(database.db);
  const registry = new ClientRegistry(sitesRepository, {
    refreshSeconds: config.clientRefreshSeconds,
    bus,
    clock,
    onError: (error) => app.log.error({ err: error }, 'client registry refresh failed'),
  });
  const tokens = new TokenService(await resolveTokenSecret(database.db, config.tokenSecret), config.tokenTtlSeconds, clock);
  const programs = new ProgramService(database.db, new ProgramRepository(database.db, database.dialect), {
    bus,
    clock,
    allowPrivateNetworks: config.webhookAllowPrivateNetworks,
    onError: (error) => app.log.error({ err: error }, 'program invalidation failed'),
  });
  const backups = new BackupService(database.db, programs, clock);
  // Scale-out: users' names kept in Redis beside the boards, read with a standing's ranks.
  const sharedNames =
    redis !== null ? new SharedNames(redis, config.redisPrefix, (error) => app.log.error({ err: error }, 'keeping names beside the boards failed')) : undefined;
  const preferences = new PreferencesService(database.db, clock, {
    bus,
    shared: sharedNames,
    onError: (error) => app.log.error({ err: error }, 'name invalidation failed'),
  });
  const leaderboards = new LeaderboardService(
    database.db,
    programs,
    preferences,
    (load) => (redis !== null ? new RedisRankings(redis, config.redisPrefix, load, sharedNames) : new MemoryRankings(load)),
    {
      clock,
      onError: (error) => app.log.error({ err: error }, 'leaderboard update failed after its commit'),
      onLoad: (seconds) => metrics.leaderboardLoads.observe(seconds),
      names: sharedNames,
    },
  );
  const webhooks = webhookDispatcher({
    database,
    programs,
    preferences,
    allowPrivateNetworks: config.webhookAllowPrivateNetworks,
    clock,
    onError: (error) => app.log.error({ err: error }, 'webhook dispatch failed'),
    onAttempt: (delivered) => (delivered ? metrics.deliveries : metrics.deliveryFailures).inc(),
  });
  const services: Services = { sites: new SitesService(sitesRepository, registry, clock), registry, programs, backups, leaderboards, webhooks };
  const oauth = new OAuthService(sitesRepository, tokens, rateLimitStore, {
    failureLimit: config.tokenFailureLimit,
    failureWindowSeconds: config.tokenFailureWindowSeconds,
  });
  app.decorate('services', services);

  // Request lifecycle: request id echoed on every response; draining answers 503.
  let draining = false;
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (draining) {
      return sendProblem(
        reply,
        new AppError('shutting_down', 'This server is shutting down; retry on another connection', { headers: { 'retry-after': '5' } }),
      );
    }
    // GETs and DELETEs ignore a body and its Content-Type (SPEC §2: the samples send one on GETs).
    if (request.method === 'DELETE') {
      // Without these Fastify would still try to parse the body (as an unknown type: 415).
      delete request.headers['content-type'];
      delete request.headers['content-length'];
      delete request.headers['transfer-encoding'];
    }
  });
  // Answers sent while draining close their connection, those of requests in flight included, so
  // that no client sends its next request on a connection the node is about to close.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('preClose', async () => {
    draining = true;
    // SPEC §15: stop accepting connections at once, while the open ones stay to have their requests
    // answered (503 from now on). The net-level close: http.Server#close would also drop idle
    // keep-alive connections, resetting a request a client may be sending on one. Fastify closes
    // the server again after preClose (a no-op by then) and drops what is idle.
    // (A server that never listened, say its port was taken, has nothing to drain or to say.)
    if (app.server.listening) {
      NetServer.prototype.close.call(app.server);
      app.log.info('draining: new connections refused, requests on open ones answered 503');
    }
    registry.stop();
    await Promise.all([leaderboards.stop(), webhooks.stop()]);
  });
  app.addHook('onClose', async () => {
    await bus?.close();
    if (redis !== null) await redis.quit();
  });

  await app.register(errorsPlugin);
  await app.register(metricsPlugin, { metrics });
  await app.register(dbPlugin, { database, closeOnShutdown: options.database === undefined });
  app.removeContentTypeParser('text/plain');
  await app.register(jsonBodyPlugin);
  // No parser-level limit: the global 1 MB applies, and routes that take more (restore) raise it.
  await app.register(formbody, { parser: parseForm });
  await app.register(idParamsPlugin);
  await app.register(authPlugin, { tokens, registry });
  await app.register(rateLimitPlugin, { store: rateLimitStore, clientRate: config.clientRate, userRate: config.userRate, clock });
  await app.register(corsPlugin, { database, programs, clock });
  const maintenance = new MaintenanceSwitch(database.db, { bus, clock });
  await app.register(maintenancePlugin, { maintenance });
  await app.register(openapiPlugin, { version: VERSION });

  await app.register(healthRoutes);
  await app.register(oauthRoutes, { oauth });
  await app.register(definitionRoutes, { programs, db: database.db });
  await app.register(programAdminRoutes, { programs });
  await app.register(groupMemberRoutes, { members: new GroupMembersRepository(database.db), programs, clock });
  await app.register(backupRoutes, { backups });
  await app.register(maintenanceRoutes, { maintenance });
  const actionsRepository = new ActionsRepository();
  const ledger = new LedgerRepository(database.dialect);
  const actions = new ActionService(database, actionsRepository, ledger, programs, leaderboards, clock, config.partyCacheSize);
  await app.register(actionRoutes, { actions, metrics });
  await app.register(importRoutes, { imports: new ImportService(actions) });
  await app.register(reversalRoutes, { reversals: new ReversalService(database, actionsRepository, ledger, programs, leaderboards, clock) });
  const points = new PointsService(programs, actions, clock);
  await app.register(pointsAdminRoutes, { points });
  await app.register(actionHistoryRoutes, { db: database.db, programs });
  const profiles = new ProfileService(database.db, programs, clock);
  const missionReads = new MissionReadService(database.db, programs, clock);
  await app.register(profileRoutes, { profiles });
  await app.register(missionReadRoutes, { missions: missionReads });
  await app.register(preferencesRoutes, { preferences, customLevels: new CustomLevelsService(database, ledger, programs, clock) });
  await app.register(atAGlanceRoutes, { db: database.db, profiles, preferences, missions: missionReads, leaderboards });
  await app.register(leaderboardRoutes, { leaderboards });
  const users = new UserDirectory(database.db);
  await app.register(recognitionRoutes, {
    recognitions: new RecognitionService(database, new RecognitionRepository(database.db), users, ledger, actions, points, programs, preferences, clock),
  });
  await app.register(searchRoutes, { programs, users });
  await app.register(quizRoutes, { quizzes: new QuizService(database, new QuizRepository(database.db), ledger, actions, programs, clock) });
  await app.register(awardRoutes, {
    awards: new AwardService(
      database,
      new AwardsRepository(database.db),
      ledger,
      actions,
      programs,
      new MarketplaceKeys(database.db, clock),
      rateLimitStore,
      {
        failureLimit: config.otsFailureLimit,
        failureWindowSeconds: config.otsFailureWindowSeconds,
      },
      clock,
    ),
  });
  await app.register(webhookRoutes, {
    webhooks: new WebhookAdminService(new WebhookRepository(database), programs, {
      allowPrivateNetworks: config.webhookAllowPrivateNetworks,
      clock,
      onChange: () => webhooks.nudge(),
    }),
    secrets: new WebhookSecrets(programs, clock),
  });

  await app.register(uiRoutes, { tokens, sites: sitesRepository, demo: config.demoSite });

  await registry.start();
  await programs.start();
  await preferences.start();
  await maintenance.start();
  return app;
}
