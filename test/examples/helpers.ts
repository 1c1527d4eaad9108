// What the examples' tests share: Questline as `npm start` runs it for a newcomer (a process on an
// empty database that creates the demo site and prints its credentials), on SQLite and, when
// TEST_DATABASE_URL is set, on PostgreSQL (with Redis when TEST_REDIS_URL is set), and an example
// run as the README says, `npm run example:…`, with those credentials in its environment.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  killServer,
  postgresForProcesses,
  serverEnv,
  sqliteForProcesses,
  startServer,
  type ProcessDatabase,
  type SpawnedServer,
} from '../helpers/spawned-server.js';

const ROOT = new URL('../..', import.meta.url).pathname;

const pgUrl = process.env.TEST_DATABASE_URL;
/** The databases the examples are run against: SQLite always, PostgreSQL when the tests have one. */
export const exampleDatabases: ProcessDatabase[] = pgUrl !== undefined && pgUrl !== '' ? [sqliteForProcesses, postgresForProcesses] : [sqliteForProcesses];

/** The variables the demo banner's two `export` lines set. */
export interface DemoCredentials {
  CLIENT_ID: string;
  CLIENT_SECRET: string;
  ADMIN_CLIENT_ID: string;
  ADMIN_CLIENT_SECRET: string;
}

export interface DemoQuestline {
  server: SpawnedServer;
  credentials: DemoCredentials;
  /** The environment an example gets: QUESTLINE_URL and the credentials, as a newcomer pastes them. */
  exampleEnv: Record<string, string>;
  close(): Promise<void>;
}

/** A Questline process on a fresh database with the demo site it creates, and the credentials its banner printed. */
export async function startDemoQuestline(database: ProcessDatabase): Promise<DemoQuestline> {
  const { databaseUrl, extraEnv, drop } = await database.open();
  let server: SpawnedServer | undefined;
  try {
    server = await startServer(serverEnv(databaseUrl, { ...extraEnv, DEMO_SITE: 'true' }));
    // The banner follows the "listening" line.
    for (let waited = 0; waited < 10_000 && !/export ADMIN_CLIENT_ID=/.test(server.output()); waited += 50) await sleep(50);
    const credentials: Record<string, string> = {};
    for (const match of server.output().matchAll(/^\s*export (.+)$/gm))
      for (const pair of (match[1] ?? '').split(' ')) {
        const [name, value] = pair.split('=');
        if (name !== undefined && value !== undefined) credentials[name] = value;
      }
    for (const name of ['CLIENT_ID', 'CLIENT_SECRET', 'ADMIN_CLIENT_ID', 'ADMIN_CLIENT_SECRET'])
      if (credentials[name] === undefined) throw new Error(`the demo banner printed no ${name}:\n${server.output()}`);
    const started = server;
    return {
      server,
      credentials: credentials as unknown as DemoCredentials,
      exampleEnv: { QUESTLINE_URL: server.baseUrl, ...credentials },
      async close() {
        await killServer(started);
        await drop();
      },
    };
  } catch (error) {
    await killServer(server);
    await drop();
    throw error;
  }
}

export interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The variables of the test's own environment an example must not see: it gets only what a newcomer's shell has plus `env`. */
const EXAMPLE_VARIABLES = ['QUESTLINE_URL', 'CLIENT_ID', 'CLIENT_SECRET', 'ADMIN_CLIENT_ID', 'ADMIN_CLIENT_SECRET', 'QUESTLINE_USER_ID', 'EXAMPLE_PORT'];

function exampleProcessEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of EXAMPLE_VARIABLES) delete base[name];
  return { ...base, ...env };
}

/**
 * Starts `npm run <script>` at the repository root, as the README tells a newcomer to, in a process
 * group of its own: npm starts tsx, which starts node, and stopExample ends them all.
 */
export function spawnExample(script: string, env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn('npm', ['run', '--silent', script], { cwd: ROOT, env: exampleProcessEnv(env), detached: true });
}

/** Ends an example's process group (npm and what it started). */
export function stopExample(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Runs `npm run <script>` to its end (at most `timeoutMs`) and resolves with its exit code and output. */
export function runExample(script: string, env: Record<string, string>, timeoutMs = 60_000): Promise<ExampleRun> {
  return new Promise((resolve) => {
    const child = spawnExample(script, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => stopExample(child, 'SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Polls `read` until it gives a value `done` accepts (for hooks, where expect.poll cannot run); throws with the last value after `timeoutMs`. */
export async function waitUntil<T>(what: string, read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  let value = await read();
  for (let waited = 0; !done(value); waited += 100) {
    if (waited >= timeoutMs) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await sleep(100);
    value = await read();
  }
  return value;
}
