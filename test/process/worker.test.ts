// `questline worker` as a process: it delivers what servers wrote to the outbox (a server running
// with WEBHOOK_DISPATCHER=false delivers nothing itself), and on SIGTERM it finishes and exits 0.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/index.js';
import { testConfig } from '../helpers/app.js';
import { playProgram } from '../helpers/fixtures.js';
import { startReceiver } from '../helpers/receiver.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'questline-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('questline worker', () => {
  it('delivers the events a server wrote, and exits 0 on SIGTERM', async () => {
    const receiver = await startReceiver();
    const filename = join(dir, 'q.db');
    const database = openDatabase({ kind: 'sqlite', filename });
    // The API node: it writes events but leaves their delivery to workers. Its program names a loopback
    // receiver, which every node must allow (callback URLs are checked when written).
    const app = await buildApp(testConfig('embedded', { kind: 'sqlite', filename }, { webhookDispatcher: false, webhookAllowPrivateNetworks: true }), {
      database,
    });
    let worker: ReturnType<typeof spawn> | undefined;
    try {
      await app.services.sites.createSite({ siteId: 'w', name: 'Worker site' });
      const admin = await app.services.sites.createClient('w', 'admin');
      const token = (
        await app.inject({
          method: 'POST',
          url: '/oauth/token/',
          payload: { grant_type: 'client_credentials', client_id: admin.clientId, client_secret: admin.clientSecret },
        })
      ).json().access_token as string;
      const program = playProgram('Worker', []);
      program.site = { ...(program.site as object), achievementCallbackUrl: receiver.url };
      expect((await app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${token}` }, payload: program })).statusCode).toBe(
        200,
      );
      for (const eventId of ['ev-1', 'ev-2']) {
        expect(
          (await app.inject({ method: 'POST', url: '/users/ann/actions', headers: { authorization: `Bearer ${token}` }, payload: { action: 'play', eventId } }))
            .statusCode,
        ).toBe(201);
      }
      await sleep(300);
      expect(receiver.received).toHaveLength(0);

      let output = '';
      worker = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'worker'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: `sqlite:${filename}`, REDIS_URL: '', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      worker.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      worker.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      for (let waited = 0; waited < 20_000 && receiver.received.length < 2; waited += 100) await sleep(100);
      expect(receiver.received.map((r) => JSON.parse(r.body).data.actionEventId).sort(), output).toEqual(['ev-1', 'ev-2']);

      const exited = new Promise<number | null>((resolve) => worker?.on('exit', (code) => resolve(code)));
      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toContain('worker: stopped');
      const delivered = await database.db.selectFrom('webhook_deliveries').select(['status', 'lease_owner']).where('site_id', '=', 'w').execute();
      expect(delivered).toEqual([
        { status: 'delivered', lease_owner: null },
        { status: 'delivered', lease_owner: null },
      ]);
    } finally {
      if (worker?.exitCode === null) worker.kill('SIGKILL');
      await app.close();
      await database.close();
      await receiver.close();
    }
  }, 60_000);
});
