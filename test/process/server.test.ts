// The process as a newcomer runs it: on an empty database it creates the demo site and prints the
// `export` lines README's first calls use, which work when pasted into a shell; SIGTERM drains and
// exits 0; a later start creates no other site and says how to get new credentials, with a command
// that works. A server started on a non-loopback HOST serves no demo unless DEMO_SITE says so, and
// then warns.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/spawned-server.js';

const dir = mkdtempSync(join(tmpdir(), 'questline-process-'));
/** Every server started here: one a failed assertion left running is killed at the end. */
const children = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcessWithoutNullStreams;
  baseUrl: string;
  output: () => string;
}

const environment = (database: string, extra: Record<string, string> = {}) => ({
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: `sqlite:${join(dir, database)}`,
  LOG_LEVEL: 'info',
  REDIS_URL: '',
  TOKEN_SECRET: '',
  DEMO_SITE: '',
  ...extra,
});

async function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env: { ...process.env, ...env } });
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waited = 0; waited < 20_000; waited += 100) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
    if (match?.[1]) {
      const baseUrl = match[1];
      // Wait until the node answers (the demo site, when created, is printed before that matters).
      for (let i = 0; i < 50 && !(await fetch(`${baseUrl}/health/ready`)).ok; i++) await sleep(100);
      return { child, baseUrl, output: () => output };
    }
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${output}`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

async function waitFor(output: () => string, text: string): Promise<string> {
  for (let i = 0; i < 100 && !output().includes(text); i++) await sleep(100);
  return output();
}

/** Runs `script` in a shell (with curl and sed on its PATH); its output. */
function shell(script: string): string {
  const run = spawnSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

/** The variables a shell has after running `lines` (pasted as they were printed). */
function pasteIntoShell(lines: string[], names: string[]): Record<string, string> {
  const values = shell(`${lines.join('\n')}\n${names.map((name) => `printf '%s\\n' "$${name}"`).join('\n')}\n`).split('\n');
  return Object.fromEntries(names.map((name, i) => [name, values[i] as string]));
}

/** README's "First calls" commands, for a server at `baseUrl`. */
function readmeFirstCalls(baseUrl: string): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /## First calls\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no sh block under "## First calls"');
  return block.replaceAll('http://127.0.0.1:3000', baseUrl);
}

async function token(baseUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${baseUrl}/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const body = (await response.json()) as { access_token: string; token_type: string };
  expect(body.token_type).toBe('Bearer');
  return body.access_token;
}

const get = (baseUrl: string, path: string, bearer: string) => fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${bearer}` } });

describe('npm start on an empty database', () => {
  it('prints export lines that work pasted into a shell, exits 0 on SIGTERM, and says on a later start how to get new credentials', async () => {
    const env = environment('q.db');
    const server = await start(env);
    const banner = await waitFor(server.output, 'API reference');
    const exports = banner.split('\n').filter((line) => /^\s*export /.test(line));
    expect(exports, banner).toHaveLength(2);
    const pasted = pasteIntoShell(exports, ['CLIENT_ID', 'CLIENT_SECRET', 'ADMIN_CLIENT_ID', 'ADMIN_CLIENT_SECRET']);
    for (const [name, value] of Object.entries(pasted)) expect(value, name).toMatch(/^ql[cs]_\S{16,}$/);

    // The app client: the demo site holds the demo program.
    const appToken = await token(server.baseUrl, pasted.CLIENT_ID as string, pasted.CLIENT_SECRET as string);
    const challenges = await get(server.baseUrl, '/challenges', appToken);
    const ids = ((await challenges.json()) as { response: Array<{ id: string }> }).response.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['m-first-read', 'm-scholar']));
    // The console is named, and served.
    const consoleUrl = /The console, .*: (\S+\/console)$/m.exec(banner)?.[1];
    expect(consoleUrl, banner).toBe(`${server.baseUrl}/console`);
    expect((await fetch(consoleUrl as string)).status).toBe(200);
    // The admin client reads the program.
    const adminToken = await token(server.baseUrl, pasted.ADMIN_CLIENT_ID as string, pasted.ADMIN_CLIENT_SECRET as string);
    expect((await get(server.baseUrl, '/admin/program', adminToken)).status).toBe(200);
    // README's first calls, run in the shell the lines were pasted into: ann's action is recorded.
    const calls = shell(`${exports.join('\n')}\nset -e\n${readmeFirstCalls(server.baseUrl)}`);
    expect(calls).toContain('"id":"m-first-read"');
    expect(calls).toMatch(/"recorded":true/);
    expect(await stop(server.child)).toBe(0);

    const again = await start(env);
    const reminder = await waitFor(again.output, 'API reference');
    expect(reminder).not.toContain('created a demo site');
    expect(reminder).not.toContain(pasted.CLIENT_SECRET);
    // The command it gives makes a client of the demo site that gets a token.
    const command = /npx questline (client create --site demo --role app)\b/.exec(reminder);
    expect(command, reminder).not.toBeNull();
    const created = await runCli(env, (command?.[1] as string).split(' '));
    expect(created.code, created.stderr).toBe(0);
    const clientId = /client_id\s+(\S+)/.exec(created.stdout)?.[1];
    const clientSecret = /client_secret\s+(\S+)/.exec(created.stdout)?.[1];
    expect(clientId, created.stdout).toBeDefined();
    const newToken = await token(again.baseUrl, clientId as string, clientSecret as string);
    expect((await get(again.baseUrl, '/challenges', newToken)).status).toBe(200);
    expect(await stop(again.child)).toBe(0);
  }, 90_000);
});

describe('the demo on a HOST others can reach', () => {
  it('is off unless DEMO_SITE is set, and when it is set the server warns', async () => {
    const quiet = await start(environment('open.db', { HOST: '0.0.0.0' }));
    try {
      expect((await fetch(`${quiet.baseUrl}/demo`)).status).toBe(404);
      expect(quiet.output()).not.toContain('created a demo site');
    } finally {
      expect(await stop(quiet.child)).toBe(0);
    }

    const open = await start(environment('open-demo.db', { HOST: '0.0.0.0', DEMO_SITE: 'true' }));
    try {
      const output = await waitFor(open.output, 'DEMO_SITE is on');
      expect(output).toMatch(/DEMO_SITE is on and HOST is 0\.0\.0\.0: \/demo gives whoever reaches this server a user-level token/);
      expect((await fetch(`${open.baseUrl}/demo`)).status).toBe(200);
    } finally {
      expect(await stop(open.child)).toBe(0);
    }
  }, 60_000);
});
