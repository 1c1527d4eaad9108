// The floors of issue 24's benchmark (bench/floor-*.ts) run what Questline runs for the same
// actions, no more and no less: a floor that drifted from Questline's write set would make the
// ratio against it meaningless. Workload (b)'s is written by hand (bench/floor-points.ts): the
// same users' actions must read and write each table as often as Questline's, as a trace of
// Questline's statements shows them (bench/trace.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { pointsFloor } from '../../bench/floor-points.js';
import { perTable, segment, startRecording, tracePerTable } from '../../bench/trace.js';
import { pointsActionBody, pointsProgram } from '../../bench/workload.js';
import { openDatabase } from '../../src/db/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** The bench's servers have no client rate limit of their own either. */
const UNLIMITED = { config: { clientRate: { rate: 1_000_000, burst: 1_000_000 } } };

async function logActions(t: TestApp, token: string, bodies: Array<{ userId: string; body: string }>, concurrency: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const { userId, body } = bodies[next++] as { userId: string; body: string };
        const response = await t.app.inject({ method: 'POST', url: `/users/${userId}/actions`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: body });
        expect(response.statusCode).toBe(201);
      }
    }),
  );
}

describe('floor (b): points per action, written by hand', () => {
  it("reads and writes each table as often as Questline for the same users' actions", async () => {
    const users = 20;
    // Each user logs 15 actions: a badge at the 10th, a level at 100 points.
    const bodies = Array.from({ length: users * 15 }, (_, i) => ({ ...pointsActionBody(1), userId: `user-${i % users}` }));
    const t = await buildTestApp('embedded', UNLIMITED);
    const dir = mkdtempSync(join(tmpdir(), 'questline-floor-b-'));
    try {
      const site = await t.createSite();
      await t.app.services.programs.replace(site.siteId, pointsProgram());
      const token = await t.token(site.app);
      const recording = startRecording();
      await logActions(t, token, bodies, 1);
      const questline = segment(recording.stop());
      expect(questline.actions).toHaveLength(bodies.length);

      const filename = join(dir, 'floor.db');
      const database = openDatabase({ kind: 'sqlite', filename });
      await database.migrate();
      await database.close();
      const db = new Sqlite(filename);
      const floor = pointsFloor(db, 'floor');
      const replaying = startRecording();
      for (const { userId, body } of bodies) floor(userId, body);
      const statements = replaying.stop();
      db.close();
      expect(perTable(statements.map((s) => s.sql), bodies.length)).toEqual(tracePerTable(questline));
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
