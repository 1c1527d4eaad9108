// The console's overview over a long history (issue 26): a site of the benchmark program with
// BENCH_HISTORY_ACTIONS (default 1,000,000) recorded actions spread over the 90 days up to now,
// written straight into the database by SQL (seedHistory, which ./questline-server.ts runs before
// it listens when BENCH_HISTORY is set): 10,000 users; every fifth action completes a mission,
// with its points entry and a webhook delivery (2% failed for good, 1% pending); every 100th
// completion removed; a level reached every 40th; the users' active days. Then, over HTTP:
// the first 90-day overview (which builds the site's daily rollup from that history), views of
// 90 days one after the other (the median against the 300 ms target), and a view right after
// 5,000 more actions were logged (which folds what the background fold left). On SQLite, and on
// PostgreSQL when the bench has one.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../src/db/schema.js';
import { dayWindow, startOfDay } from '../src/modules/analytics/days.js';
import { clientToken, median, startQuestline, startServer, type Server } from './harness.js';
import { randomActionBody } from './workload.js';

export const HISTORY_ACTIONS = Number(process.env.BENCH_HISTORY_ACTIONS ?? 1_000_000);
const USERS = 10_000;
const VIEWS = 30;
const MORE_ACTIONS = 5_000;
const TARGET_MS = 300;
const HOUR = 3_600_000;

export interface OverviewFigures {
  store: string;
  /** The server's own line: how long writing the history took. */
  seeded: string;
  /** The first view, which built the rollup from the history (ms). */
  firstView: number;
  /** Views of 90 days with nothing to fold (ms). */
  p50: number;
  p90: number;
  /** A view right after MORE_ACTIONS actions were logged, which folded them (ms). */
  afterActions: number;
}

/**
 * Writes `actions` recorded actions of the benchmark program (and what they caused) for the site,
 * over the 90 days up to an hour before `now`, in one transaction of INSERT … SELECT statements.
 */
export async function seedHistory(
  db: Kysely<DatabaseSchema>,
  dialect: 'sqlite' | 'postgres',
  siteId: string,
  actions: number,
  now: number,
  timeZone: string,
): Promise<void> {
  const window = dayWindow(now, timeZone, 90);
  const start = window.from;
  const step = Math.floor((now - HOUR - start) / actions);
  const numbers = (count: number) =>
    dialect === 'postgres'
      ? sql`with recursive n(i) as (select generate_series(cast(0 as bigint), ${sql.lit(count - 1)}))`
      : sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${sql.lit(count - 1)})`;
  const at = sql`${sql.lit(start)} + i * ${sql.lit(step)}`;
  // Completion k is action 5k's.
  const completions = Math.ceil(actions / 5);
  const completedAt = sql`${sql.lit(start)} + i * ${sql.lit(5 * step)}`;
  const mission = sql`'m-' || (i % 60)`;
  await db.transaction().execute(async (trx) => {
    await sql`${numbers(actions)}
      insert into action_events (site_id, event_id, party_type, party_id, action, value, metadata, occurred_at, received_at, recorded, reason, outcome, reversed_at, reversal, groups)
      select ${siteId}, 'h-' || i, 'user', 'user-' || ((i * 7919) % ${sql.lit(USERS)}), 'action_' || (i % 25), 1, '{}', ${at}, ${at}, 1, null, '{}', null, null, null from n`.execute(
      trx,
    );
    await sql`${numbers(completions)}
      insert into mission_completions (site_id, completion_id, party_type, party_id, mission_id, window_start, event_id, completed_at, recorded_at, removed_at, badge_id)
      select ${siteId}, 'hc-' || i, 'user', 'user-' || ((5 * i * 7919) % ${sql.lit(USERS)}), ${mission}, 0, 'h-' || (5 * i), ${completedAt}, ${completedAt},
        case when i % 100 = 99 then ${completedAt} + 60000 else null end, null from n`.execute(trx);
    await sql`${numbers(completions)}
      insert into points_ledger (site_id, entry_id, party_type, party_id, category, requested, credited, cause, cause_id, event_id, reason, occurred_at, recorded_at)
      select ${siteId}, 'hp-' || i, 'user', 'user-' || ((5 * i * 7919) % ${sql.lit(USERS)}), case when (i % 60) % 3 = 0 then 'Coins' else 'Points' end,
        5 + (i % 10), 5 + (i % 10), 'mission', 'hc-' || i, 'h-' || (5 * i), null, ${completedAt}, ${completedAt} from n`.execute(trx);
    // The removed completions' points, taken back on the day of the credit.
    await sql`${numbers(completions)}
      insert into points_ledger (site_id, entry_id, party_type, party_id, category, requested, credited, cause, cause_id, event_id, reason, occurred_at, recorded_at)
      select ${siteId}, 'hr-' || i, 'user', 'user-' || ((5 * i * 7919) % ${sql.lit(USERS)}), case when (i % 60) % 3 = 0 then 'Coins' else 'Points' end,
        -(5 + (i % 10)), -(5 + (i % 10)), 'reversal', 'hc-' || i, 'h-' || (5 * i), null, ${completedAt}, ${completedAt} + 60000 from n where i % 100 = 99`.execute(
      trx,
    );
    await sql`${numbers(completions)}
      insert into level_changes (site_id, change_id, party_id, from_level, to_level, direction, event_id, changed_at)
      select ${siteId}, 'hl-' || i, 'user-' || ((5 * i * 7919) % ${sql.lit(USERS)}), 'l-' || (i % 4), 'l-' || (1 + i % 4), 'up', 'h-' || (5 * i), ${completedAt} from n where i % 40 = 0`.execute(
      trx,
    );
    await sql`${numbers(completions)}
      insert into webhook_deliveries (site_id, delivery_id, event_id, event_type, party_type, party_id, destination, status, attempts, retry_from, next_attempt_at,
        lease_owner, lease_until, last_attempt_at, last_url, last_status, last_error, delivered_at, created_at)
      select ${siteId}, 'hd-' || i, 'he-' || i, 'mission.completed', 'user', 'user-' || ((5 * i * 7919) % ${sql.lit(USERS)}), 'site:achievementCallbackUrl',
        case when i % 100 = 0 then 'dead' when i % 100 = 1 then 'pending' else 'delivered' end, 1, ${completedAt}, ${completedAt}, null, null,
        ${completedAt} + 1000, null, 200, null, case when i % 100 > 1 then ${completedAt} + 1000 else null end, ${completedAt} + 1000 from n`.execute(trx);
    // Each user's active days, as the action path marks them (the site's calendar day of each action).
    const bounds = window.days.map((day, i) => ({
      day,
      start: startOfDay(day, timeZone),
      end: i + 1 < window.days.length ? startOfDay(window.days[i + 1] as string, timeZone) : window.to,
    }));
    const days = sql.join(bounds.map((d) => sql`(${d.day}, cast(${d.start} as bigint), cast(${d.end} as bigint))`));
    await sql`insert into daily_active_users (site_id, day, user_id)
      select distinct e.site_id, d.column1, e.party_id from (values ${days}) as d join action_events e
        on e.site_id = ${siteId} and e.occurred_at >= d.column2 and e.occurred_at < d.column3`.execute(trx);
  });
  if (dialect === 'postgres') await sql`analyze`.execute(db);
  else await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
}

/** The overview over the history, on SQLite and (with `postgresUrl`, a fresh database) on PostgreSQL. */
export async function benchOverview(dir: string, postgresUrl: string | undefined): Promise<OverviewFigures[]> {
  const stores: Array<[string, () => Promise<Server>]> = [
    ['SQLite', () => startQuestline(dir, 'overview', { BENCH_HISTORY: String(HISTORY_ACTIONS), WEBHOOK_DISPATCHER: 'false' })],
    ...(postgresUrl !== undefined
      ? [
          [
            'PostgreSQL',
            () =>
              startServer(['bench/questline-server.ts'], {
                DATABASE_URL: postgresUrl,
                REDIS_URL: '',
                BENCH_HISTORY: String(HISTORY_ACTIONS),
                WEBHOOK_DISPATCHER: 'false',
                CLIENT_RATE_LIMIT_RPS: '1000000',
                CLIENT_RATE_LIMIT_BURST: '1000000',
              }),
          ] as [string, () => Promise<Server>],
        ]
      : []),
  ];
  const out: OverviewFigures[] = [];
  for (const [store, start] of stores) {
    const server = await start();
    try {
      const admin = { authorization: `Bearer ${(await clientToken(server, 'admin')).token}` };
      const app = { authorization: `Bearer ${(await clientToken(server)).token}` };
      const view = async (): Promise<number> => {
        const started = performance.now();
        const response = await fetch(`${server.url}/admin/analytics/overview?days=90`, { headers: admin });
        const body = (await response.json()) as { response?: { actions: { total: number } } };
        const ms = performance.now() - started;
        if (response.status !== 200 || body.response === undefined) throw new Error(`overview: ${response.status} ${JSON.stringify(body)}`);
        return ms;
      };
      const firstView = await view();
      const views: number[] = [];
      for (let i = 0; i < VIEWS; i++) views.push(await view());
      // More actions, 10 at a time, then one view that folds them.
      let logged = 0;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (logged < MORE_ACTIONS) {
            logged += 1;
            const { userId, body } = randomActionBody(USERS);
            const response = await fetch(`${server.url}/users/${userId}/actions`, {
              method: 'POST',
              headers: { ...app, 'content-type': 'application/json' },
              body,
            });
            await response.arrayBuffer();
          }
        }),
      );
      const afterActions = await view();
      views.sort((a, b) => a - b);
      out.push({
        store,
        seeded: (/HISTORY .*/.exec(server.output())?.[0] ?? '').replace(/^HISTORY /, ''),
        firstView,
        p50: median(views),
        p90: views[Math.floor(views.length * 0.9)] ?? 0,
        afterActions,
      });
    } finally {
      await server.stop();
    }
  }
  return out;
}

export const OVERVIEW_TARGET_MS = TARGET_MS;
