// Real server processes for process-level tests (crash, graceful shutdown under load, several
// nodes on one database): spawning `src/server.ts` (and the `questline` CLI) on a given database, a
// fresh PostgreSQL database for one, the HTTP calls a load makes over keep-alive agents, and the
// checks that compare what a database holds with what the API acknowledged.
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { openCliContext, type CliContext } from '../../src/cli/context.js';
import { loadConfig } from '../../src/config.js';
import { TEST_TOKEN_SECRET } from './app.js';

const ROOT = new URL('../..', import.meta.url).pathname;
/** What a spawned process keeps of its output (the start-up lines, then a tail). */
const OUTPUT_TAIL = 64 * 1024;

export interface SpawnedServer {
  child: ChildProcessWithoutNullStreams;
  port: number;
  baseUrl: string;
  output(): string;
  /** The log lines other than the per-request ones ("request"), all of them. */
  messages(): string[];
  /** Resolves with the exit code (null: killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The environment every spawned node gets: quiet rate limits, a shared token secret, no demo site, private webhooks allowed. */
export function serverEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    REDIS_URL: '',
    REDIS_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
    TOKEN_SECRET: TEST_TOKEN_SECRET,
    // Info: the "Server listening at" line tells the port (request lines are logged too, and dropped but for a tail).
    LOG_LEVEL: 'info',
    DEMO_SITE: 'false',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    USER_RATE_LIMIT_RPS: '100000',
    USER_RATE_LIMIT_BURST: '100000',
    CLIENT_RATE_LIMIT_RPS: '100000',
    CLIENT_RATE_LIMIT_BURST: '100000',
    ...extra,
  };
}

/** Every process spawned here: whatever still runs when the test process exits gets SIGKILL (afterAll is the usual way; this is for a start-up that failed half-way). */
const spawned = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/**
 * Spawns `node --import tsx src/server.ts` and waits until it listens and answers /health/ready.
 * With PORT 0 (serverEnv's) the port is read from the "Server listening at" line, which needs
 * LOG_LEVEL info or lower; with a given PORT (startServerOnFreePort) any LOG_LEVEL will do.
 */
export async function startServer(env: Record<string, string>): Promise<SpawnedServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: ROOT, env: { ...process.env, ...env } });
  spawned.add(child);
  let head = '';
  let tail = '';
  let partial = '';
  const messages: string[] = [];
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    if (head.length < OUTPUT_TAIL) head += text;
    else tail = (tail + text).slice(-OUTPUT_TAIL);
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (!line.includes('"msg":"request"')) messages.push(line);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const output = () => (tail === '' ? head : `${head}\n…\n${tail}`);
  const running = () => child.exitCode === null && child.signalCode === null;
  const ready = (port: number) =>
    fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
  const server = (port: number): SpawnedServer => ({ child, port, baseUrl: `http://127.0.0.1:${port}`, output, messages: () => messages, exited });
  const givenPort = env.PORT !== undefined && env.PORT !== '0' ? Number(env.PORT) : undefined;
  if (givenPort !== undefined) {
    for (let waited = 0; waited < 30_000 && running(); waited += 50) {
      if (await ready(givenPort)) return server(givenPort);
      await sleep(50);
    }
  } else {
    for (let waited = 0; waited < 30_000; waited += 50) {
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(head);
      if (match?.[1] !== undefined) {
        const port = Number(match[1]);
        for (let i = 0; i < 100; i++) {
          if (await ready(port)) return server(port);
          await sleep(50);
        }
        break;
      }
      if (!running()) break;
      await sleep(50);
    }
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${output()}`);
}

/** A port nobody listens on now (the OS's pick, closed again at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * startServer on a port picked beforehand, for a node that does not say its port (LOG_LEVEL warn,
 * which keeps per-request logging off a measurement); up to `attempts` ports should someone take
 * one between freePort() and listen().
 */
export async function startServerOnFreePort(env: Record<string, string>, attempts = 3): Promise<SpawnedServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServer({ ...env, PORT: String(await freePort()) });
    } catch (error) {
      if (attempt >= attempts || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

/** SIGKILLs a spawned server that is still running (afterAll: never leave a process behind). */
export async function killServer(server: SpawnedServer | undefined): Promise<void> {
  if (server === undefined || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGKILL');
  await server.exited;
}

/** Stops a spawned server gracefully: SIGTERM, then SIGKILL after `timeoutMs`; resolves with how it exited (at once for one that has exited already). */
export async function stopServer(server: SpawnedServer, timeoutMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.exited;
  const killer = setTimeout(() => server.child.kill('SIGKILL'), timeoutMs);
  server.child.kill('SIGTERM');
  try {
    return await server.exited;
  } finally {
    clearTimeout(killer);
  }
}

/** Runs the `questline` CLI (`src/cli/main.ts`) as a process with `env` and resolves with its exit code and output. */
export function runCli(env: Record<string, string>, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    spawned.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A database for spawned processes to share, on either dialect, with the environment they need beside DATABASE_URL. */
export interface ProcessDatabase {
  name: 'sqlite' | 'postgres';
  open(): Promise<{ databaseUrl: string; extraEnv: Record<string, string>; drop(): Promise<void> }>;
}

/** A SQLite file in a directory of its own. */
export const sqliteForProcesses: ProcessDatabase = {
  name: 'sqlite',
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'questline-process-'));
    return { databaseUrl: `sqlite:${join(dir, 'q.db')}`, extraEnv: {}, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  },
};

// A spawned process gets only DATABASE_URL, so it gets a database of its own (CREATE DATABASE):
// with a private schema in the shared test database, selected by `?options=-c search_path=…`,
// Kysely's migrator would take another schema's kysely_migration table for its own (it looks for
// the table in every schema when no migration schema is configured).
/** A fresh PostgreSQL database (TEST_DATABASE_URL's server), with TEST_REDIS_URL when set. */
export const postgresForProcesses: ProcessDatabase = {
  name: 'postgres',
  async open() {
    const fresh = await freshPostgresDatabase(process.env.TEST_DATABASE_URL as string);
    const redisUrl = process.env.TEST_REDIS_URL;
    const extraEnv: Record<string, string> = redisUrl !== undefined && redisUrl !== '' ? { REDIS_URL: redisUrl } : {};
    return { databaseUrl: fresh.url, extraEnv, drop: fresh.drop };
  },
};

/** A fresh PostgreSQL database (CREATE DATABASE through TEST_DATABASE_URL's connection) and its URL, for spawned processes. */
export async function freshPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ql_proc_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        // Wait for the connections of closed pools and killed processes to go away: forcing them
        // closed hands a client that is still ending an error nobody listens to any more.
        for (let i = 0; i < 50; i++) {
          const { rows } = await cleanup.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [name]);
          if (Number(rows[0]?.n) === 0) break;
          await sleep(100);
        }
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/** The services the `questline` CLI works with, on the given database (migrated): sites, clients, programs, the database itself. */
export function openContext(databaseUrl: string): Promise<CliContext> {
  return openCliContext(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', TOKEN_SECRET: TEST_TOKEN_SECRET, DEMO_SITE: 'false' }));
}

export interface HttpResult {
  /** Whether the request went out on a kept-alive connection (an error carries it as `reusedSocket` too). */
  reusedSocket: boolean;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP call over `agent`; rejects with the socket error (its `code`: ECONNRESET, ECONNREFUSED, …). */
export function call(agent: http.Agent, port: number, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ reusedSocket: request.reusedSocket, status: response.statusCode ?? 0, headers: response.headers, body: text }));
        response.on('error', reject);
      },
    );
    request.on('error', (error: Error & { reusedSocket?: boolean }) => {
      error.reusedSocket = request.reusedSocket;
      reject(error);
    });
    request.end(payload);
  });
}

/** A client-credentials token (TOKEN_SECRET is shared, so it stays valid across restarts). */
export async function clientToken(baseUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${baseUrl}/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * A site with an admin and an app client (as `questline site create` and `client create` make
 * them), a node started on its database, the program put through that node, and an app token.
 * The node is handed to `track` at once, so the caller's clean-up stops it whatever fails next.
 */
export async function startSiteWithProgram(
  databaseUrl: string,
  env: Record<string, string>,
  site: { siteId: string; name: string; program: unknown },
  track: (server: SpawnedServer) => void,
): Promise<{ server: SpawnedServer; token: string }> {
  const setup = await openContext(databaseUrl);
  await setup.sites.createSite({ siteId: site.siteId, name: site.name });
  const adminClient = await setup.sites.createClient(site.siteId, 'admin');
  const appClient = await setup.sites.createClient(site.siteId, 'app');
  await setup.close();
  const server = await startServer(env);
  track(server);
  const adminToken = await clientToken(server.baseUrl, adminClient.clientId, adminClient.clientSecret);
  const put = await fetch(`${server.baseUrl}/admin/program`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(site.program),
  });
  if (put.status !== 200) throw new Error(`PUT /admin/program: ${put.status} ${await put.text()}`);
  return { server, token: await clientToken(server.baseUrl, appClient.clientId, appClient.clientSecret) };
}

/** Runs `work` over `items` with at most `concurrency` at once. */
export async function pool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/** The event ids of one user's recorded actions, through GET /users/{u}/actions (every page). */
export async function historyEventIds(agent: http.Agent, port: number, token: string, userId: string): Promise<string[]> {
  const ids: string[] = [];
  let path = `/users/${userId}/actions?limit=500`;
  for (;;) {
    const page = await call(agent, port, 'GET', path, { authorization: `Bearer ${token}` });
    if (page.status !== 200) throw new Error(`GET ${path}: ${page.status} ${page.body}`);
    ids.push(...(JSON.parse(page.body) as { response: Array<{ eventId: string }> }).response.map((a) => a.eventId));
    const cursor = page.headers['x-next-cursor'];
    if (typeof cursor !== 'string') return ids;
    path = `/users/${userId}/actions?limit=500&cursor=${encodeURIComponent(cursor)}`;
  }
}

interface StoredOutcome {
  recorded: boolean;
  pointsAwarded: Array<{ category: string; requested: number; credited: number }>;
  missionsCompleted: Array<{ id: string; completionId: string }>;
}

/**
 * Every recorded decision of the site agrees with itself, action by action: the completions that
 * name an action event are those its stored outcome lists, its mission credits in the ledger are
 * the points the outcome lists, each completion has exactly one mission.completed event in the
 * outbox (none when the site has no achievementCallbackUrl: no one could receive it), and no
 * completion, credit or event names an action that is not there. With a
 * repeatable `goal`-step mission on `action`, each user's progress plus `goal` × completions is the
 * number of such actions recorded. Returns the problems found (none: every decision is whole).
 */
export async function decisionProblems(
  db: CliContext['database']['db'],
  siteId: string,
  steps?: { missionId: string; action: string; goal: number },
): Promise<string[]> {
  const problems: string[] = [];
  const events = await db.selectFrom('action_events').select(['event_id', 'party_id', 'action', 'recorded', 'outcome']).where('site_id', '=', siteId).execute();
  const completions = await db
    .selectFrom('mission_completions')
    .select(['completion_id', 'event_id', 'mission_id', 'party_id'])
    .where('site_id', '=', siteId)
    .execute();
  const credits = await db
    .selectFrom('points_ledger')
    .select(['cause_id', 'event_id', 'category', 'requested', 'credited'])
    .where('site_id', '=', siteId)
    .where('cause', '=', 'mission')
    .execute();
  const outbox = await db
    .selectFrom('outbox')
    .select(['event_id', 'payload'])
    .where('site_id', '=', siteId)
    .where('event_type', '=', 'mission.completed')
    .execute();

  const byEvent = new Map(events.map((e) => [e.event_id, e]));
  const completionsOf = new Map<string, string[]>();
  for (const c of completions) {
    if (!byEvent.has(c.event_id)) problems.push(`completion ${c.completion_id} names the action ${c.event_id}, which is not recorded`);
    completionsOf.set(c.event_id, [...(completionsOf.get(c.event_id) ?? []), c.completion_id]);
  }
  const creditsOf = new Map<string, string[]>();
  const completionIds = new Set(completions.map((c) => c.completion_id));
  for (const l of credits) {
    const eventId = String(l.event_id);
    if (!byEvent.has(eventId)) problems.push(`a ledger credit names the action ${eventId}, which is not recorded`);
    if (!completionIds.has(l.cause_id)) problems.push(`a ledger credit names the completion ${l.cause_id}, which is not there`);
    creditsOf.set(eventId, [...(creditsOf.get(eventId) ?? []), `${l.category}:${Number(l.requested)}:${Number(l.credited)}`]);
  }
  const announced = new Map<string, number>();
  for (const o of outbox) {
    const data = (JSON.parse(o.payload) as { data: { completionId: string; actionEventId: string } }).data;
    if (!byEvent.has(data.actionEventId)) problems.push(`outbox event ${o.event_id} names the action ${data.actionEventId}, which is not recorded`);
    announced.set(data.completionId, (announced.get(data.completionId) ?? 0) + 1);
  }
  const program = await db.selectFrom('site_programs').select('document').where('site_id', '=', siteId).executeTakeFirst();
  const callbackUrl =
    program === undefined ? undefined : (JSON.parse(program.document) as { site: { achievementCallbackUrl?: string } }).site.achievementCallbackUrl;
  const expected = callbackUrl !== undefined && callbackUrl !== '' ? 1 : 0;
  for (const completionId of completionIds) {
    if ((announced.get(completionId) ?? 0) !== expected)
      problems.push(`completion ${completionId} has ${announced.get(completionId) ?? 0} mission.completed events in the outbox, not ${expected}`);
  }
  for (const e of events) {
    const outcome = JSON.parse(e.outcome) as StoredOutcome;
    if (Boolean(Number(e.recorded)) !== outcome.recorded)
      problems.push(`action ${e.event_id}: recorded ${e.recorded} but its outcome says ${outcome.recorded}`);
    const listed = outcome.missionsCompleted.map((m) => m.completionId).sort();
    const stored = (completionsOf.get(e.event_id) ?? []).sort();
    if (JSON.stringify(listed) !== JSON.stringify(stored))
      problems.push(`action ${e.event_id}: outcome lists completions ${listed.join(',')} but the database holds ${stored.join(',')}`);
    const awarded = outcome.pointsAwarded.map((p) => `${p.category}:${p.requested}:${p.credited}`).sort();
    const ledger = (creditsOf.get(e.event_id) ?? []).sort();
    if (JSON.stringify(awarded) !== JSON.stringify(ledger))
      problems.push(`action ${e.event_id}: outcome awards ${awarded.join(',')} but the ledger holds ${ledger.join(',')}`);
  }
  if (steps !== undefined) {
    const done = new Map<string, number>();
    for (const c of completions) if (c.mission_id === steps.missionId) done.set(c.party_id, (done.get(c.party_id) ?? 0) + 1);
    const logged = new Map<string, number>();
    for (const e of events) if (e.action === steps.action && Number(e.recorded) === 1) logged.set(e.party_id, (logged.get(e.party_id) ?? 0) + 1);
    const progress = await db
      .selectFrom('mission_progress')
      .select(['party_id', 'current'])
      .where('site_id', '=', siteId)
      .where('mission_id', '=', steps.missionId)
      .execute();
    const current = new Map(progress.map((p) => [p.party_id, Number(p.current)]));
    for (const user of new Set([...logged.keys(), ...current.keys()])) {
      const expected = logged.get(user) ?? 0;
      const actual = (current.get(user) ?? 0) + steps.goal * (done.get(user) ?? 0);
      if (actual !== expected)
        problems.push(
          `user ${user}: ${expected} "${steps.action}" recorded, but progress ${current.get(user) ?? 0} + ${steps.goal} × ${done.get(user) ?? 0} completions of ${steps.missionId}`,
        );
    }
  }
  return problems;
}
