// buildApp(config): the HTTP application: the Fastify instance, its lifecycle hooks, the plugins
// in a fixed order and the route modules. The routes receive the services of src/services.ts.
// Tests import this; src/server.ts runs it as a process.
import { randomUUID } from 'node:crypto';
import { Server as NetServer } from 'node:net';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { AppError } from './errors.js';
import { actionHistoryRoutes } from './modules/actions/history.js';
import { reversalRoutes } from './modules/actions/reversal-routes.js';
import { actionRoutes } from './modules/actions/routes.js';
import { analyticsRoutes } from './modules/analytics/routes.js';
import { awardRoutes } from './modules/awards/routes.js';
import { backupRoutes } from './modules/backup/routes.js';
import { groupMemberRoutes } from './modules/groups/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { importRoutes } from './modules/import/routes.js';
import { leaderboardRoutes } from './modules/leaderboards/routes.js';
import { leaderboardResultRoutes } from './modules/leaderboard-results/routes.js';
import { missionDefinitionRoutes } from './modules/missions/definition-routes.js';
import { missionReadRoutes } from './modules/missions/routes.js';
import { oauthRoutes } from './modules/oauth/routes.js';
import { pointsAdminRoutes } from './modules/points/routes.js';
import { atAGlanceRoutes } from './modules/profile/at-a-glance.js';
import { preferencesRoutes } from './modules/profile/preferences-routes.js';
import { profileRoutes } from './modules/profile/routes.js';
import { programAdminRoutes } from './modules/program/admin-routes.js';
import { programVersionRoutes } from './modules/program/version-routes.js';
import { definitionRoutes } from './modules/program/definition-routes.js';
import { quizRoutes } from './modules/quizzes/routes.js';
import { recognitionRoutes } from './modules/recognitions/routes.js';
import { searchRoutes } from './modules/search/routes.js';
import { streakRoutes } from './modules/streaks/routes.js';
import { maintenanceRoutes } from './modules/sites/maintenance-routes.js';
import { uiRoutes } from './modules/ui/routes.js';
import { consoleRoutes } from './modules/console/routes.js';
import { userAdminRoutes } from './modules/users/routes.js';
import { WebhookRepository } from './modules/webhooks/repository.js';
import { webhookRoutes } from './modules/webhooks/routes.js';
import { parseForm } from './http/form.js';
import { idParamsPlugin } from './http/ids.js';
import { jsonBodyPlugin } from './http/json.js';
import { RequestLog } from './http/request-log.js';
import { Metrics } from './infra/metrics.js';
import { VERSION } from './package.js';
import { authPlugin } from './plugins/auth.js';
import { corsPlugin } from './plugins/cors.js';
import { dbPlugin } from './plugins/db.js';
import { clientErrorHandler, errorsPlugin, frameworkErrors, sendProblem } from './plugins/error-handler.js';
import { maintenancePlugin } from './plugins/maintenance-gate.js';
import { metricsPlugin } from './plugins/metrics-endpoint.js';
import { openapiPlugin } from './plugins/openapi.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { buildServices, openStorage, type Services } from './services.js';

export const BODY_LIMIT = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9\-_.:@+]{1,128}$/;

export interface BuildOptions {
  /** An open database to use (tests share one per file); otherwise one is opened from config and closed with the app. */
  database?: Database;
  /** Where logs go (tests capture them); defaults to stdout. */
  logStream?: DestinationStream;
  clock?: () => number;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const database = await openStorage(config, options.database);
  const app = Fastify(fastifyOptions(config, options.logStream)).withTypeProvider<TypeBoxTypeProvider>();
  const outbox = new WebhookRepository(database);
  const metrics = new Metrics(() => outbox.outboxDepth());
  const services = await buildServices(config, {
    database,
    clock: options.clock ?? Date.now,
    onError: (error, what) => app.log.error({ err: error }, what),
    metrics,
  });
  app.decorate('services', services);
  addLifecycleHooks(app, services);
  await registerPlugins(app, config, services, { metrics, closeDatabase: options.database === undefined });
  await registerRoutes(app, config, services, metrics);
  await services.start();
  return app;
}

function fastifyOptions(config: Config, logStream: DestinationStream | undefined): FastifyServerOptions {
  return {
    logger: {
      level: config.logLevel,
      // Tokens and secrets never reach the logs (the default serializers omit headers and bodies;
      // this is the second line of defence should a log call include them).
      redact: { paths: ['req.headers.authorization', '*.client_secret', '*.clientSecret', '*.access_token', '*.token'], censor: '[redacted]' },
      ...(logStream !== undefined ? { stream: logStream } : {}),
    },
    // One line per request, with the request id as `requestId` (src/http/request-log.ts).
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
  };
}

/** Request id echoed on every response; draining (from close()) answers 503 and closes connections; the services stop, then disconnect. */
function addLifecycleHooks(app: FastifyInstance, services: Services): void {
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
    await services.stop();
  });
  app.addHook('onClose', async () => services.close());
}

/** Infrastructure, in this order: errors and metrics first (they see everything), then bodies, ids, auth, limits. */
async function registerPlugins(
  app: FastifyInstance,
  config: Config,
  services: Services,
  { metrics, closeDatabase }: { metrics: Metrics; closeDatabase: boolean },
): Promise<void> {
  const { database, clock } = services;
  await app.register(errorsPlugin);
  await app.register(metricsPlugin, { metrics });
  await app.register(dbPlugin, { database, closeOnShutdown: closeDatabase });
  app.removeContentTypeParser('text/plain');
  await app.register(jsonBodyPlugin);
  // No parser-level limit: the global 1 MB applies, and routes that take more (restore) raise it.
  await app.register(formbody, { parser: parseForm });
  await app.register(idParamsPlugin);
  await app.register(authPlugin, { tokens: services.tokens, registry: services.registry });
  await app.register(rateLimitPlugin, { store: services.rateLimitStore, clientRate: config.clientRate, userRate: config.userRate, clock });
  await app.register(corsPlugin, { programs: services.programs, clock });
  await app.register(maintenancePlugin, { maintenance: services.maintenance });
  await app.register(openapiPlugin, { version: VERSION });
}

/** The route modules, each with the services it calls. */
async function registerRoutes(app: FastifyInstance, config: Config, services: Services, metrics: Metrics): Promise<void> {
  const { programs, preferences, leaderboards } = services;
  await app.register(healthRoutes);
  await app.register(oauthRoutes, { oauth: services.oauth });
  await app.register(missionDefinitionRoutes, { programs, missionReads: services.missionReads });
  await app.register(definitionRoutes, { programs });
  await app.register(programAdminRoutes, { programs });
  await app.register(programVersionRoutes, { programs });
  await app.register(groupMemberRoutes, { members: services.groupMembers, programs, clock: services.clock });
  await app.register(backupRoutes, { backups: services.backups });
  await app.register(maintenanceRoutes, { maintenance: services.maintenance });
  await app.register(actionRoutes, { actions: services.actions, metrics });
  await app.register(importRoutes, { imports: services.imports });
  await app.register(reversalRoutes, { reversals: services.reversals });
  await app.register(pointsAdminRoutes, { points: services.points });
  await app.register(actionHistoryRoutes, { actions: services.actions, programs });
  await app.register(analyticsRoutes, { analytics: services.analytics });
  await app.register(profileRoutes, { profiles: services.profiles });
  await app.register(streakRoutes, { streaks: services.streaks });
  await app.register(missionReadRoutes, { missions: services.missionReads });
  await app.register(preferencesRoutes, { preferences, customLevels: services.customLevels });
  await app.register(atAGlanceRoutes, {
    actions: services.actions,
    profiles: services.profiles,
    preferences,
    missions: services.missionReads,
    leaderboards,
    programs,
  });
  await app.register(leaderboardRoutes, { leaderboards });
  await app.register(leaderboardResultRoutes, { results: services.leaderboardResults });
  await app.register(recognitionRoutes, { recognitions: services.recognitions });
  await app.register(searchRoutes, { programs, users: services.users });
  await app.register(userAdminRoutes, { users: services.users });
  await app.register(quizRoutes, { quizzes: services.quizzes });
  await app.register(awardRoutes, { awards: services.awards });
  await app.register(webhookRoutes, { webhooks: services.webhookAdmin, secrets: services.webhookSecrets });
  await app.register(uiRoutes, { tokens: services.tokens, sites: services.sites, demo: config.demoSite, console: config.console });
  if (config.console) await app.register(consoleRoutes);
}
