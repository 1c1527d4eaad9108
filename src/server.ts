// The process: configuration, logger, listen, graceful shutdown (SPEC §15: stop accepting, let
// in-flight requests finish within SHUTDOWN_TIMEOUT_MS, answer late arrivals with 503, exit).
import { pathToFileURL } from 'node:url';
import { buildApp } from './app.js';
import { ConfigError, isLoopback, loadConfig, type Config } from './config.js';
import { demoBanner, demoReminder, demoSiteExists, ensureDemoSite } from './modules/sites/demo-site.js';
import { listenFailed, StartupError } from './startup.js';

export async function serve(config: Config): Promise<void> {
  const app = await buildApp(config);
  const address = await app.listen({ port: config.port, host: config.host }).catch(async (error: unknown) => {
    await app.close();
    throw listenFailed(config.host, config.port, error);
  });
  if (config.demoSite) {
    const demo = await ensureDemoSite(app.services.sites, app.services.backups);
    if (demo !== undefined) process.stdout.write(`${demoBanner(demo, address, config.console)}\n`);
    else if (await demoSiteExists(app.services.sites)) process.stdout.write(`${demoReminder(address, config.console)}\n`);
    if (!isLoopback(config.host)) {
      app.log.warn(
        `DEMO_SITE is on and HOST is ${config.host}: /demo gives whoever reaches this server a user-level token of the demo site; set DEMO_SITE=false unless only you can reach it`,
      );
    }
  }
  // Reads wait for a window that is still loading, so the server listens meanwhile.
  app.services.leaderboards.warm((line) => app.log.info(line)).catch((error: unknown) => app.log.error({ err: error }, 'loading leaderboards failed'));
  if (config.webhookDispatcher) app.services.webhooks.start();
  // The overview's figures: what was written, added to the daily rollup (a view adds its site's first anyway).
  app.services.analytics.start();
  // Points of categories with an expiry rule, expired when due (docs/points.md).
  app.services.expiry.start();
  // Freezes used and runs broken by periods that ended without an action (streak.frozen, streak.broken).
  app.services.streaks.start();
  // Leaderboard windows that ended are closed and their prizes paid, once across nodes.
  app.services.leaderboardResults.start();

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const deadline = setTimeout(() => {
      app.log.warn('shutdown timed out; exiting with requests still open');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

export async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  await serve(config);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    // The environment's failures (a port in use, a database or Redis out of reach) are one line.
    if (error instanceof StartupError) process.stderr.write(`questline: ${error.message}\n`);
    else process.stderr.write(`questline failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
