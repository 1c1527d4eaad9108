// What a newcomer sees when the environment is wrong at start-up: a port already in use, a
// DATABASE_URL or a REDIS_URL that cannot be reached. Each is one line on stderr that names the
// setting, its value without the password and what to do, and the process exits 1: `npm start`'s
// server (src/server.ts) and the CLI's `questline serve` and `questline worker`, as real processes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/spawned-server.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const PASSWORD = 'hunter2-secret';
const dir = mkdtempSync(join(tmpdir(), 'questline-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `node --import tsx <script> ...args` until it exits (SIGKILL after 60 s); its exit code and all it printed. */
function run(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', DEMO_SITE: 'false', REDIS_URL: '', TOKEN_SECRET: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The process exited 1 having printed exactly one line, on stderr, which matches `line`; returns it. */
function expectOneLine(result: { code: number | null; stdout: string; stderr: string }, line: RegExp): string {
  const printed = `${result.stdout}${result.stderr}`;
  expect(result.code, printed).toBe(1);
  expect(result.stdout, printed).toBe('');
  expect(result.stderr.trimEnd().split('\n'), printed).toHaveLength(1);
  expect(result.stderr.trimEnd()).toMatch(line);
  expect(printed).not.toContain(PASSWORD);
  return result.stderr.trimEnd();
}

const sqlite = (name: string) => `sqlite:${join(dir, name)}`;

describe('start-up failures are one line and exit 1', { timeout: 60_000 }, () => {
  let taken: Server;
  let takenPort: number;
  let closedPort: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    takenPort = (taken.address() as { port: number }).port;
    closedPort = await freePort();
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  const portInUse = () => new RegExp(`^questline: PORT=${takenPort}: 127\\.0\\.0\\.1:${takenPort} is already in use .*set PORT to a free port$`);

  it('a PORT in use (npm start)', async () => {
    expectOneLine(await run('src/server.ts', [], { PORT: String(takenPort), DATABASE_URL: sqlite('port.db') }), portInUse());
  });

  it('a PORT in use (questline serve)', async () => {
    expectOneLine(await run('src/cli/main.ts', ['serve'], { PORT: String(takenPort), DATABASE_URL: sqlite('port-cli.db') }), portInUse());
  });

  it('an unreachable DATABASE_URL, its password hidden', async () => {
    const line = expectOneLine(
      await run('src/server.ts', [], { PORT: '0', DATABASE_URL: `postgres://questline:${PASSWORD}@nohost/x` }),
      /^questline: DATABASE_URL=postgres:\/\/questline:\*\*\*@nohost\/x: cannot connect to PostgreSQL: the host name "nohost" does not resolve\. Start PostgreSQL there, or correct DATABASE_URL/,
    );
    expect(line).not.toMatch(/\n|\bat /);
  });

  it('a DATABASE_URL refusing connections (questline worker)', async () => {
    expectOneLine(
      await run('src/cli/main.ts', ['worker'], { DATABASE_URL: `postgres://questline:${PASSWORD}@127.0.0.1:${closedPort}/questline` }),
      new RegExp(
        `^questline: DATABASE_URL=postgres://questline:\\*\\*\\*@127\\.0\\.0\\.1:${closedPort}/questline: cannot connect to PostgreSQL: nothing accepts connections at 127\\.0\\.0\\.1:${closedPort}\\.`,
      ),
    );
  });

  it('an SQLite file that cannot be created', async () => {
    expectOneLine(
      await run('src/server.ts', [], { PORT: '0', DATABASE_URL: 'sqlite:/dev/null/q.db' }),
      /^questline: DATABASE_URL=sqlite:\/dev\/null\/q\.db: cannot open the SQLite file: .+\. Check that its directory/,
    );
  });

  it('an unreachable REDIS_URL, its password hidden (npm start)', async () => {
    expectOneLine(
      await run('src/server.ts', [], { PORT: '0', DATABASE_URL: sqlite('redis.db'), REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${closedPort}` }),
      new RegExp(
        `^questline: REDIS_URL=redis://:\\*\\*\\*@127\\.0\\.0\\.1:${closedPort}: cannot connect to Redis: nothing accepts connections at 127\\.0\\.0\\.1:${closedPort}\\. .*unset it`,
      ),
    );
  });

  it('an invalid setting stops `questline serve` with exit code 1 too', async () => {
    const result = await run('src/cli/main.ts', ['serve'], { PORT: 'abc', DATABASE_URL: sqlite('invalid.db') });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('PORT must be a number between 0 and 65535 (got "abc")');
  });

  it('an unreachable REDIS_URL (questline worker)', async () => {
    expectOneLine(
      await run('src/cli/main.ts', ['worker'], { DATABASE_URL: sqlite('redis-worker.db'), REDIS_URL: 'redis://nohost:6379' }),
      /^questline: REDIS_URL=redis:\/\/nohost:6379: cannot connect to Redis: the host name "nohost" does not resolve\./,
    );
  });
});
