// buildTestApp(): an app on a fresh SQLite file, or a fresh PostgreSQL schema (with Redis under a
// fresh key prefix), per test file. Tests run in both configurations of SPEC §1: `configurations`
// is ['embedded'] everywhere and adds 'scale-out' when TEST_DATABASE_URL and TEST_REDIS_URL are set.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import { routeErrorCodes, SERVER_WIDE_ERRORS } from '../../src/plugins/openapi-errors.js';
import type { ClientCredentials } from '../../src/modules/sites/service.js';

export type ConfigurationName = 'embedded' | 'scale-out';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

export const configurations: ConfigurationName[] = databaseUrl !== undefined && databaseUrl !== '' ? ['embedded', 'scale-out'] : ['embedded'];

export const TEST_TOKEN_SECRET = 'test-token-secret-0123456789abcdef0123456789';

/** A fresh, migrated database for one configuration, and how to throw it away. */
export async function freshDatabase(name: ConfigurationName): Promise<{ config: Config['database']; database: Database; drop(): Promise<void> }> {
  if (name === 'embedded') {
    const dir = mkdtempSync(join(tmpdir(), 'questline-test-'));
    const config = { kind: 'sqlite' as const, filename: join(dir, 'questline.db') };
    const database = openDatabase(config);
    await database.migrate();
    return {
      config,
      database,
      async drop() {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (databaseUrl === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const config = { kind: 'postgres' as const, url: databaseUrl, poolSize: 5, schema };
  const database = openDatabase(config);
  await database.migrate();
  return {
    config,
    database,
    async drop() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: databaseUrl });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
}

/** The configuration tests run with: quiet, fixed token secret, no demo site. */
export function testConfig(name: ConfigurationName, database: Config['database'], overrides: Partial<Config> = {}): Config {
  const base = loadConfig({ LOG_LEVEL: 'silent', TOKEN_SECRET: TEST_TOKEN_SECRET, DEMO_SITE: 'false' });
  return {
    ...base,
    database,
    redisUrl: name === 'scale-out' ? redisUrl : undefined,
    redisPrefix: `test:${randomBytes(6).toString('hex')}:`,
    ...overrides,
  };
}

export interface TestSite {
  siteId: string;
  admin: ClientCredentials;
  app: ClientCredentials;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
  /** Creates a site with an admin and an app client. */
  createSite(siteId?: string): Promise<TestSite>;
  /** A token for the client; a user-level one when userId is given. */
  token(client: ClientCredentials, userId?: string): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<Config>;
  clock?: () => number;
  logStream?: DestinationStream;
}

export async function buildTestApp(name: ConfigurationName, options: TestAppOptions = {}): Promise<TestApp> {
  const fresh = await freshDatabase(name);
  const config = testConfig(name, fresh.config, options.config);
  const app = await buildApp(config, {
    database: fresh.database,
    ...(options.clock !== undefined ? { clock: options.clock } : {}),
    ...(options.logStream !== undefined ? { logStream: options.logStream } : {}),
  });
  const undocumented = checkReference(app);
  let siteCounter = 0;
  return {
    app,
    config,
    database: fresh.database,
    async createSite(siteId) {
      siteCounter += 1;
      const id = siteId ?? `site-${siteCounter}-${randomBytes(3).toString('hex')}`;
      await app.services.sites.createSite({ siteId: id, name: `Test site ${id}` });
      return {
        siteId: id,
        admin: await app.services.sites.createClient(id, 'admin'),
        app: await app.services.sites.createClient(id, 'app'),
      };
    },
    async token(client, userId) {
      const response = await app.inject({
        method: 'POST',
        url: '/oauth/token/',
        payload: {
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
          ...(userId !== undefined ? { xoauth_end_user_id: userId } : {}),
        },
      });
      if (response.statusCode !== 200) throw new Error(`token request failed: ${response.statusCode} ${response.body}`);
      return (response.json() as { access_token: string }).access_token;
    },
    async close() {
      await app.close();
      await fresh.drop();
      if (undocumented.size > 0) {
        throw new Error(
          `The API reference (GET /docs/json) does not say what these routes answered; declare each code in the route schema's \`errors\` (src/plugins/openapi.ts):\n${[...undocumented].join('\n')}`,
        );
      }
    },
  };
}

/**
 * Holds every answer of the file's tests against the OpenAPI document: a problem whose code the
 * route does not document (routeErrorCodes), and a `Deprecation` header from a route whose schema
 * marks nothing deprecated. What it finds fails the file when the app closes.
 */
function checkReference(app: FastifyInstance): Set<string> {
  const found = new Set<string>();
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions;
    // An unmatched path (route_not_found), the reference's own pages and hidden routes (the blocks'
    // bundle, the console, /demo) have no operation in the reference.
    if (route.url === undefined || route.config.access === undefined || route.schema?.hide === true) return payload;
    const operation = `${request.method} ${route.url}`;
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/problem+json') && typeof payload === 'string') {
      const { code } = JSON.parse(payload) as { code: string };
      const documented: readonly string[] = [...routeErrorCodes(route), ...SERVER_WIDE_ERRORS];
      if (!documented.includes(code)) found.add(`${operation} answered ${code}`);
    }
    if (reply.getHeader('deprecation') !== undefined && !JSON.stringify(route.schema ?? {}).includes('"deprecated":true')) {
      found.add(`${operation} sent a Deprecation header, but its schema marks nothing deprecated`);
    }
    return payload;
  });
  return found;
}
