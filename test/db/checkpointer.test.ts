// SQLite checkpoints run on a worker thread (src/db/checkpointer.ts), not on the serving
// connection, which checkpoints only past BACKSTOP_PAGES. What it must keep: the WAL stays short
// while transactions keep coming (the worker copies it back and SQLite starts it over), closing
// leaves everything in the database file, and closing never ends the process early.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.js';

const PAGE = 4096;

describe('SQLite background checkpoints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'questline-checkpoint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the WAL short under a stream of transactions, and leaves every row in the database file on close', async () => {
    const file = join(dir, 'stream.db');
    const database = openDatabase({ kind: 'sqlite', filename: file });
    await database.migrate();
    // 300 transactions of ~8 pages each, spread over ~1.5 s: ~2,400 WAL frames in all, far below
    // the backstop, so only the worker can have kept the file short.
    for (let i = 0; i < 300; i++) {
      await database.db
        .insertInto('sites')
        .values(Array.from({ length: 8 }, (_, j) => ({ site_id: `s-${i}-${j}`, name: 'x'.repeat(3000), timezone: 'UTC', created_at: 0 })))
        .execute();
      if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const walPages = statSync(`${file}-wal`).size / PAGE;
    expect(walPages).toBeLessThan(1200);
    await database.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reader = new Sqlite(file, { readonly: true });
    expect((reader.prepare('select count(*) as n from sites').get() as { n: number }).n).toBe(2400);
    reader.close();
  });

  it('does not let the process end before close() has finished', () => {
    // Closing waits for the worker's last checkpoint; the exit code set after it must survive.
    const script = `
      const { openDatabase } = await import(${JSON.stringify(new URL('../../src/db/index.ts', import.meta.url).pathname)});
      const database = openDatabase({ kind: 'sqlite', filename: ${JSON.stringify(join(dir, 'exit.db'))} });
      await database.migrate();
      await database.close();
      process.exit(3);
    `;
    let code = 0;
    try {
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'pipe' });
    } catch (error) {
      code = (error as { status: number }).status;
    }
    expect(code).toBe(3);
  });
});
