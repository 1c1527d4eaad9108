// The floor of workload (b), points per action (./workload.ts pointsProgram()): the write set
// Questline writes on SQLite for one such action, replayed with raw better-sqlite3 and none of its
// code. The statements are those Questline runs (src/modules/ledger/sqlite.ts), as a trace of its
// statements shows them (./trace.ts); test/bench/floors.test.ts runs the same users' actions
// through both and compares what each reads and writes, table by table, so that this file cannot
// drift from Questline unnoticed. One transaction per request:
// - the party's read, then its update guarded by the version read, with its level when that
//   changes (on a first action, its row is inserted first, as Questline's lock creates it);
// - progress of the repeatable mission (back to 0) and, up to the 10th action, of the badge mission;
// - the repeatable mission's completion (and the badge mission's at the 10th), its ledger entry,
//   the balance upsert (returning the balance), the day's and the year's earnings;
// - at the 10th action the trophy; when the balance crosses a level's threshold the level change;
// - the day's active-user row on a party's first action of the day, the board's score upsert
//   (returning the score), the action event with its outcome, and what the set changed in the
//   overview's figures (src/db/analytics-changes.ts).
// No outbox row: Questline writes a webhook event only for a site with a destination for it, and
// the bench's site has none.
// The floor decides nothing an engine would: it knows from the balance the statement returns how
// many actions the party has logged (every one pays 10 points).
import { randomUUID } from 'node:crypto';
import type Sqlite from 'better-sqlite3';

const LEVELS = [0, 100, 500, 2000, 10_000].map((threshold, i) => ({ id: `l-${i}`, name: `Level ${i}`, threshold }));
const BADGE_AT = 10;
const POINTS = 10;

/** The transaction of one (b) action for `userId` of `site`; returns the response's JSON. */
export function pointsFloor(db: Sqlite.Database, site: string): (userId: string, body: string) => string {
  const readParty = db.prepare('select last_recorded, level_id, version, sequence from parties where site_id = ? and party_type = ? and party_id = ?');
  const createParty = db.prepare(
    "insert into parties (site_id, party_type, party_id, created_at, last_recorded, level_id, sequence, version) values (?, 'user', ?, ?, null, null, 0, 0) on conflict (site_id, party_type, party_id) do nothing returning last_recorded, level_id, version, sequence",
  );
  const saveParty = db.prepare(
    "update parties set version = ?, last_recorded = ?, sequence = ? where site_id = ? and party_type = 'user' and party_id = ? and version = ? returning version",
  );
  const savePartyAndLevel = db.prepare(
    "update parties set version = ?, last_recorded = ?, sequence = ?, level_id = ? where site_id = ? and party_type = 'user' and party_id = ? and version = ? returning version",
  );
  const setProgress = db.prepare(
    "insert into mission_progress (site_id, party_type, party_id, mission_id, rule_id, window_start, current, updated_at) values (?, 'user', ?, ?, 'r-1', 0, ?, ?) on conflict (site_id, party_type, party_id, mission_id, rule_id) do update set window_start = excluded.window_start, current = excluded.current, updated_at = excluded.updated_at",
  );
  const insertCompletion = db.prepare(
    "insert into mission_completions (site_id, completion_id, party_type, party_id, mission_id, window_start, event_id, completed_at, recorded_at, removed_at, badge_id) values (?, ?, 'user', ?, ?, 0, ?, ?, ?, null, ?)",
  );
  const insertLedger = db.prepare(
    "insert into points_ledger (site_id, entry_id, party_type, party_id, category, requested, credited, cause, cause_id, event_id, reason, occurred_at, recorded_at) values (?, ?, 'user', ?, 'Points', ?, ?, 'mission', ?, ?, null, ?, ?)",
  );
  const addBalance = db.prepare(
    "insert into point_balances (site_id, party_type, party_id, category, balance, lifetime) values (?, 'user', ?, 'Points', ?, ?) on conflict (site_id, party_type, party_id, category) do update set balance = point_balances.balance + excluded.balance, lifetime = point_balances.lifetime + excluded.lifetime returning balance, lifetime",
  );
  const addEarnings = db.prepare(
    "insert into point_earnings (site_id, party_type, party_id, category, period, period_start, earned) values (?, 'user', ?, 'Points', ?, ?, ?) on conflict (site_id, party_type, party_id, category, period, period_start) do update set earned = point_earnings.earned + excluded.earned",
  );
  const addTrophy = db.prepare(
    "insert into trophies (site_id, party_type, party_id, badge_id, earned_count, first_earned_at, last_earned_at) values (?, 'user', ?, ?, 1, ?, ?) on conflict (site_id, party_type, party_id, badge_id) do update set earned_count = trophies.earned_count + 1, first_earned_at = min(trophies.first_earned_at, excluded.first_earned_at), last_earned_at = max(trophies.last_earned_at, excluded.last_earned_at)",
  );
  const insertLevelChange = db.prepare(
    "insert into level_changes (site_id, change_id, party_id, from_level, to_level, direction, event_id, changed_at) values (?, ?, ?, ?, ?, 'up', ?, ?)",
  );
  const markActive = db.prepare('insert into daily_active_users (site_id, day, user_id) values (?, ?, ?) on conflict (site_id, day, user_id) do nothing');
  const addScore = db.prepare(
    "insert into leaderboard_scores (site_id, board_id, window_start, party_id, score, reached_at, version) values (?, 'lb-all', 0, ?, ?, ?, 1) on conflict (site_id, board_id, window_start, party_id) do update set score = leaderboard_scores.score + excluded.score, reached_at = excluded.reached_at, version = leaderboard_scores.version + 1 returning score, version",
  );
  const insertEvent = db.prepare(
    "insert into action_events (site_id, event_id, party_type, party_id, action, value, metadata, occurred_at, received_at, recorded, reason, outcome, reversed_at, reversal, groups) values (?, ?, 'user', ?, 'visit', 1, '{}', ?, ?, 1, null, ?, null, null, null)",
  );
  const insertChanges = db.prepare('insert into analytics_changes (site_id, change_id, changes) values (?, ?, ?)');
  // Questline marks a user active once a day, knowing from its cache whether it has; so does the floor.
  const active = new Set<string>();

  return db.transaction((userId: string, body: string) => {
    const now = Date.now();
    const at = new Date(now).toISOString();
    const day = at.slice(0, 10);
    const eventId = randomUUID();
    type Party = { level_id: string | null; version: number; sequence: number };
    // A new party's row is created first (as Questline's lock does), then saved like any other.
    const party = (readParty.get(site, 'user', userId) ?? createParty.get(site, userId, now)) as Party;
    const { balance } = addBalance.get(site, userId, POINTS, POINTS) as { balance: number };
    const actions = balance / POINTS;
    const level = LEVELS.findLast((l) => l.threshold <= balance) as (typeof LEVELS)[number];
    const previous = LEVELS.findLast((l) => l.threshold <= balance - POINTS) as (typeof LEVELS)[number];

    const completions = [{ mission: 'm-every', id: `cmp_${randomUUID()}`, badge: null as string | null }];
    if (actions === BADGE_AT) completions.push({ mission: 'm-regular', id: `cmp_${randomUUID()}`, badge: 'b-regular' });
    setProgress.run(site, userId, 'm-every', 0, now);
    if (actions <= BADGE_AT) setProgress.run(site, userId, 'm-regular', actions, now);
    for (const completion of completions) {
      insertCompletion.run(site, completion.id, userId, completion.mission, eventId, now, now, completion.badge);
    }
    insertLedger.run(site, `pts_${randomUUID()}`, userId, POINTS, POINTS, (completions[0] as { id: string }).id, eventId, now, now);
    addEarnings.run(site, userId, 'day', Date.parse(day), POINTS);
    addEarnings.run(site, userId, 'year', Date.UTC(new Date(now).getUTCFullYear(), 0, 1), POINTS);
    if (actions === BADGE_AT) addTrophy.run(site, userId, 'b-regular', now, now);
    if (level.id !== previous.id) insertLevelChange.run(site, `lvl_${randomUUID()}`, userId, previous.id, level.id, eventId, now);
    // The party's event sequence moves with its outbox rows: none here. Its level is written when it changes.
    const saved =
      level.id !== previous.id
        ? savePartyAndLevel.get(party.version + 1, body, party.sequence, level.id, site, userId, party.version)
        : saveParty.get(party.version + 1, body, party.sequence, site, userId, party.version);
    if (saved === undefined) throw new Error('a stale party');
    if (!active.has(`${day}\u0000${userId}`)) {
      markActive.run(site, day, userId);
      active.add(`${day}\u0000${userId}`);
    }
    addScore.get(site, userId, POINTS, now);
    const outcome = JSON.stringify({
      eventId,
      recorded: true,
      duplicate: false,
      timestamp: at,
      pointsAwarded: [{ category: 'Points', requested: POINTS, credited: POINTS }],
      missionsCompleted: completions.map((c) => ({ id: c.mission, name: c.mission, completionId: c.id })),
      progress: [
        { challengeId: 'm-every', percentComplete: 100 },
        { challengeId: 'm-regular', percentComplete: Math.min(100, actions * 10) },
      ],
    });
    insertEvent.run(site, eventId, userId, now, now, outcome);
    const changes: Array<[string, number, string, number]> = [
      ['a', now, 'visit', 1],
      ['p', now, 'Points', POINTS],
      ...completions.map((c): [string, number, string, number] => ['c', now, c.mission, 1]),
      ...(level.id !== previous.id ? [['l', now, level.id, 1] as [string, number, string, number]] : []),
    ];
    insertChanges.run(site, randomUUID(), JSON.stringify(changes));
    return outcome;
  });
}
