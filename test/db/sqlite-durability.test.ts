// SQLITE_SYNCHRONOUS (docs/deployment.md): NORMAL by default (a commit survives a process crash),
// FULL on request (a commit also survives a power loss: fsync on every commit).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { SqliteSynchronous } from '../../src/config.js';
import { openDatabase } from '../../src/db/index.js';

describe('SQLite durability setting', () => {
  const dir = mkdtempSync(join(tmpdir(), 'questline-durability-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // SQLite reports synchronous as a number: 1 NORMAL, 2 FULL.
  it.each<[SqliteSynchronous | undefined, number]>([
    [undefined, 1],
    ['NORMAL', 1],
    ['FULL', 2],
  ])('opens with synchronous %s (PRAGMA synchronous = %i), in WAL mode', async (synchronous, expected) => {
    const database = openDatabase({
      kind: 'sqlite',
      filename: join(dir, `${synchronous ?? 'default'}.db`),
      ...(synchronous !== undefined ? { synchronous } : {}),
    });
    try {
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db);
      expect(rows[0]?.synchronous).toBe(expected);
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
    } finally {
      await database.close();
    }
  });
});
