// The SQLite driver commits concurrent transactions in groups (src/db/sqlite-dialect.ts). What it
// must keep: every caller is answered only once its writes are durable (visible to another
// connection), a failed transaction undoes only itself, and a group never exceeds its size.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';

describe('SQLite group commit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'questline-group-commit-'));
  const file = join(dir, 'q.db');
  let database: Database;
  let observer: Sqlite.Database;

  beforeAll(async () => {
    database = openDatabase({ kind: 'sqlite', filename: file });
    await database.migrate();
    observer = new Sqlite(file, { readonly: true });
  });
  afterAll(async () => {
    observer.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const siteCount = (prefix: string) => (observer.prepare('select count(*) as n from sites where site_id like ?').get(`${prefix}%`) as { n: number }).n;
  const insertSite = (siteId: string) =>
    database.db.transaction().execute(async (trx) => {
      await trx.insertInto('sites').values({ site_id: siteId, name: siteId, timezone: 'UTC', created_at: 0 }).execute();
      // A yield inside the transaction lets the others queue up behind it.
      await new Promise((resolve) => setImmediate(resolve));
      return siteId;
    });

  it('answers each transaction only when another connection can see its writes', async () => {
    const seen = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        insertSite(`durable-${String(i).padStart(2, '0')}`).then((siteId) => (observer.prepare('select 1 from sites where site_id = ?').get(siteId) ? 1 : 0)),
      ),
    );
    expect(seen).toEqual(Array.from({ length: 50 }, () => 1));
    expect(siteCount('durable-')).toBe(50);
  });

  it('undoes only the transaction that failed', async () => {
    const results = await Promise.allSettled([
      insertSite('undo-a'),
      database.db.transaction().execute(async (trx) => {
        await trx.insertInto('sites').values({ site_id: 'undo-b', name: 'b', timezone: 'UTC', created_at: 0 }).execute();
        throw new Error('changed my mind');
      }),
      insertSite('undo-c'),
      // A constraint violation in the middle of a group.
      database.db.transaction().execute(async (trx) => {
        await trx.insertInto('sites').values({ site_id: 'undo-d', name: 'd', timezone: 'UTC', created_at: 0 }).execute();
        await trx.insertInto('sites').values({ site_id: 'undo-a', name: 'again', timezone: 'UTC', created_at: 0 }).execute();
      }),
      insertSite('undo-e'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    const ids = (observer.prepare("select site_id from sites where site_id like 'undo-%' order by site_id").all() as Array<{ site_id: string }>).map(
      (r) => r.site_id,
    );
    expect(ids).toEqual(['undo-a', 'undo-c', 'undo-e']);
  });

  it('serves reads and single statements between grouped transactions', async () => {
    const [, count] = await Promise.all([
      insertSite('mixed-1'),
      database.db
        .selectFrom('sites')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      insertSite('mixed-2'),
    ]);
    expect(Number(count.n)).toBeGreaterThan(0);
    expect(siteCount('mixed-')).toBe(2);
  });
});
