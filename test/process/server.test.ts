// The process as a newcomer runs it: on an empty database it creates the demo site and prints
// credentials that work; SIGTERM drains and exits 0; a second start does not create another site.
// A server started on a non-loopback HOST serves no demo unless DEMO_SITE says so, and then warns.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'questline-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

describe('npm start on an empty database', () => {
  it('creates a demo site whose printed credentials get a token, and exits 0 on SIGTERM', async () => {
    const server = await start(environment('q.db'));
    const banner = await waitFor(server.output, 'API reference');
    const app = /app client\s+(\S+)\s+secret\s+(\S+)/.exec(banner);
    expect(app, banner).not.toBeNull();
    const response = await fetch(`${server.baseUrl}/oauth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: app![1]!, client_secret: app![2]! }),
    });
    expect(response.status).toBe(200);
    const { access_token: token, token_type: tokenType } = (await response.json()) as { access_token: string; token_type: string };
    expect(tokenType).toBe('Bearer');
    // The demo site holds the demo program.
    const challenges = await fetch(`${server.baseUrl}/challenges`, { headers: { authorization: `Bearer ${token}` } });
    const ids = ((await challenges.json()) as { response: Array<{ id: string }> }).response.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['m-first-read', 'm-scholar']));
    expect(await stop(server.child)).toBe(0);

    const again = await start(environment('q.db'));
    await sleep(500);
    expect(again.output()).not.toContain('created a demo site');
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
