// The overview never misses a row written concurrently (docs/analytics.md): what a write set changed
// is folded exactly once, whatever node wrote it and in whatever order transactions committed.
// - Two nodes on one database log actions at once (some backdated, some reversed) while both
//   answer overviews (each folds): afterwards the overview equals the figures recomputed from the
//   history. On SQLite one node (two connections of one process to one file would wait for each
//   other's write lock on the one thread): its group commit interleaves the writes and the folds.
// - PostgreSQL: a write that took its time before the statement started (`now`, T1) and commits
//   after a later write (T2 > T1) has been folded: held up behind a lock on its party row, it
//   commits after the other action and after a view, and the next view counts it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { localDay } from '../../../src/engine/calendar.js';
import { openDatabase, type Database } from '../../../src/db/index.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { playProgram } from '../../helpers/fixtures.js';
import { mulberry32 } from '../../helpers/random.js';

const ZONE = 'America/New_York';
const START = Date.parse('2026-06-15T16:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);
const DAY = 86_400_000;

const program = { ...playProgram('Concurrent overview', []), site: { name: 'Concurrent overview', timezone: ZONE } };

interface Overview {
  days: string[];
  actions: { perDay: number[] };
  activeUsers: { perDay: number[] };
  points: Array<{ perDay: number[] }>;
  completions: { perDay: number[] };
}

describe.each(configurations)('overview under concurrent writes (%s)', (configuration) => {
  let t: TestApp;
  let second: { app: FastifyInstance; database: Database } | undefined;
  /** The nodes writing and viewing: two on PostgreSQL, one on SQLite. */
  const nodes = (): [FastifyInstance, FastifyInstance] => [t.app, second?.app ?? t.app];
  let site: TestSite;
  let admin: string;
  let client: string;

  const view = async (node: FastifyInstance): Promise<Overview> => {
    const response = await node.inject({ method: 'GET', url: '/admin/analytics/overview?days=7', headers: { authorization: `Bearer ${admin}` } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().response as Overview;
  };
  const log = async (node: FastifyInstance, userId: string, timestamp?: number) => {
    const response = await node.inject({
      method: 'POST',
      url: `/users/${userId}/actions`,
      headers: { authorization: `Bearer ${client}` },
      payload: { action: 'play', ...(timestamp !== undefined ? { timestamp } : {}) },
    });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { response: { eventId: string } }).response.eventId;
  };

  /** The week's figures recomputed from the history. */
  const truth = async (days: readonly string[]) => {
    const db = t.database.db;
    const byDay = (rows: Array<{ at: number; n: number }>) => {
      const out = days.map(() => 0);
      for (const { at, n } of rows) {
        const i = days.indexOf(localDay(Number(at), ZONE));
        if (i >= 0) out[i] = (out[i] as number) + Number(n);
      }
      return out;
    };
    const events = await db
      .selectFrom('action_events')
      .select(['occurred_at', 'party_id'])
      .where('site_id', '=', site.siteId)
      .where('recorded', '=', 1)
      .execute();
    const users = days.map((day) => new Set(events.filter((e) => localDay(Number(e.occurred_at), ZONE) === day).map((e) => e.party_id)).size);
    const ledger = await db.selectFrom('points_ledger').select(['occurred_at as at', 'credited as n']).where('site_id', '=', site.siteId).execute();
    const completions = await db
      .selectFrom('mission_completions')
      .select(['completed_at as at', (eb) => eb.lit(1).as('n')])
      .where('site_id', '=', site.siteId)
      .where('removed_at', 'is', null)
      .execute();
    return {
      actions: byDay(events.map((e) => ({ at: e.occurred_at, n: 1 }))),
      users,
      points: byDay(ledger),
      completions: byDay(completions),
    };
  };
  const figures = (o: Overview) => ({ actions: o.actions.perDay, users: o.activeUsers.perDay, points: o.points[0]?.perDay, completions: o.completions.perDay });

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock, config: { clientRate: { rate: 100000, burst: 100000 } } });
    if (configuration === 'scale-out') {
      // A second node: its own app, its own connection (pool) to the same database.
      const database = openDatabase(t.config.database);
      second = { app: await buildApp(t.config, { database, clock }), database };
    }
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
    await t.close();
  });

  it('counts every action two nodes logged while both folded, once', async () => {
    const random = mulberry32(26);
    const [one, two] = nodes();
    const reversals: Array<Promise<unknown>> = [];
    const views: Array<Promise<Overview>> = [];
    const work = Array.from({ length: 240 }, (_, i) => async () => {
      const node = i % 2 === 0 ? one : two;
      // A third of the actions backdated to one of the past six days.
      const timestamp = random() < 1 / 3 ? clock() - Math.ceil(random() * 6) * DAY + Math.floor(random() * DAY) - DAY / 2 : undefined;
      const userId = `user-${Math.floor(random() * 30)}`;
      const eventId = await log(node, userId, timestamp);
      if (i % 20 === 7) {
        const other = i % 2 === 0 ? two : one;
        reversals.push(other.inject({ method: 'DELETE', url: `/users/${userId}/actions/${eventId}`, headers: { authorization: `Bearer ${admin}` } }));
      }
      if (i % 15 === 0) views.push(view(i % 2 === 0 ? two : one));
    });
    // 8 requests in flight at once, the views among them.
    const queue = [...work];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) await next();
      }),
    );
    await Promise.all([...reversals, ...views]);
    const o = await view(two);
    expect(figures(o)).toEqual(await truth(o.days));
    expect(o.actions.perDay.reduce((a, b) => a + b, 0)).toBe(240);
  });

  it('reverses concurrently with views', async () => {
    const events = await t.database.db
      .selectFrom('action_events')
      .select(['event_id', 'party_id'])
      .where('site_id', '=', site.siteId)
      .where('reversed_at', 'is', null)
      .limit(20)
      .execute();
    const [one, two] = nodes();
    await Promise.all([
      ...events.map((e, i) =>
        (i % 2 === 0 ? one : two).inject({
          method: 'DELETE',
          url: `/users/${e.party_id}/actions/${e.event_id}`,
          headers: { authorization: `Bearer ${admin}` },
        }),
      ),
      view(one),
      view(two),
    ]);
    const o = await view(t.app);
    expect(figures(o)).toEqual(await truth(o.days));
    expect(o.actions.perDay.reduce((a, b) => a + b, 0)).toBe(240);
  });

  it.runIf(configuration === 'scale-out')('counts a write that commits after a later one and after a view', async () => {
    await log(t.app, 'slow');
    const before = await view(t.app);
    // Hold the party row of `slow`: its next write set waits for it (its `now` taken before).
    const database = t.config.database as { url: string; schema: string };
    const locker = new pg.Client({ connectionString: database.url, options: `-c search_path=${database.schema}` });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query("select 1 from parties where site_id = $1 and party_type = 'user' and party_id = 'slow' for update", [site.siteId]);
      const slow = log(t.app, 'slow', clock() - 2 * DAY);
      await sleep(300);
      // A later write commits, and a view folds it, while the earlier one still waits.
      const [, two] = nodes();
      await log(two, 'fast', clock() - 2 * DAY);
      const between = await view(two);
      expect(between.actions.perDay[4]).toBe((before.actions.perDay[4] as number) + 1);
      await locker.query('rollback');
      await slow;
    } finally {
      await locker.end();
    }
    const after = await view(t.app);
    expect(after.actions.perDay[4]).toBe((before.actions.perDay[4] as number) + 2);
    expect(after.completions.perDay[4]).toBe((before.completions.perDay[4] as number) + 2);
    expect(figures(after)).toEqual(await truth(after.days));
  });
});
