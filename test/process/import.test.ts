// Issue 13, bulk import: `questline import --site SITE FILE.ndjson` as a real process, on SQLite
// (always) and on PostgreSQL (a fresh database, when TEST_DATABASE_URL is set).
// - killed with SIGKILL midway and run again, an import ends where an uninterrupted run of the same
//   file ends: the second run skips what the first recorded (its derived event ids are the same),
//   records the rest, and site A (interrupted) and site B (uninterrupted) hold the same events,
//   outcomes, balances, ledger sums, cap totals, progress, completions, levels and trophies, with no
//   drift (VerifyService) and every decision whole (decisionProblems);
// - the command's interface (on SQLite): progress on stderr and the summary on stdout (no
//   terminal), --json as one JSON document, exit code 1 when a line was rejected and 0 otherwise,
//   2 for a missing file, 1 for an unknown site.
// The figures (lines, recorded at the kill, the second run's counts, times) are printed and written
// to test-artifacts/process/import-<database>.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import type { ImportSummary } from '../../src/modules/import/service.js';
import { VerifyService } from '../../src/modules/verify/service.js';
import { mulberry32 } from '../helpers/random.js';
import { decisionProblems, openContext, serverEnv, postgresForProcesses, sqliteForProcesses, type ProcessDatabase } from '../helpers/spawned-server.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'process');
const pgUrl = process.env.TEST_DATABASE_URL;
const hasPostgres = pgUrl !== undefined && pgUrl !== '';

/** Lines of the generated history (blank and invalid ones included). */
const LINES = 4000;
const USERS = 50;
/** The kill comes once the database holds this share of the file's events. */
const KILL_AT = 0.25;
const DAY = 24 * 3600 * 1000;

/**
 * Count missions (repeatable, once with a badge, daily-repeatable with a cap, one on metadata), a
 * sum mission with a badge, a Coins category capped at 30 a day, back-to-back repeats suppressed on
 * `share`, a rate limit of 2 a day on `post`, and levels on Points.
 */
function importProgram(): Record<string, unknown> {
  const forever = { period: 'none', maxPerPeriod: 100_000 };
  return {
    site: { name: 'Import', timezone: 'UTC', levelType: 'points' },
    pointCategories: [
      { name: 'Points', isDefault: true },
      { name: 'Coins', isDefault: false, dailyLimit: 30 },
    ],
    actions: [
      { name: 'play' },
      { name: 'read' },
      { name: 'earn' },
      { name: 'buy' },
      { name: 'share', suppressRepeats: true },
      { name: 'post', rateLimit: { max: 2, period: 'day' } },
    ],
    badges: [
      { id: 'b-reader', name: 'Reader' },
      { id: 'b-buyer', name: 'Buyer' },
    ],
    levels: [
      { id: 'l-1', name: 'Rookie', threshold: 0 },
      { id: 'l-2', name: 'Regular', threshold: 100 },
      { id: 'l-3', name: 'Expert', threshold: 400 },
      { id: 'l-4', name: 'Master', threshold: 1000 },
    ],
    missions: [
      {
        id: 'm-play',
        name: 'Play',
        rules: [{ id: 'r-1', action: 'play', type: 'count', goal: 1 }],
        rewards: { points: [{ category: 'Points', amount: 5 }] },
        repeatableWindow: forever,
      },
      {
        id: 'm-read',
        name: 'Read three',
        rules: [{ id: 'r-1', action: 'read', type: 'count', goal: 3 }],
        rewards: { points: [{ category: 'Points', amount: 20 }], badge: 'b-reader' },
      },
      {
        id: 'm-read-daily',
        name: 'Read twice a day',
        timezone: 'UTC',
        rules: [{ id: 'r-1', action: 'read', type: 'count', goal: 2 }],
        rewards: { points: [{ category: 'Points', amount: 10 }] },
        repeatableWindow: { period: 'day', maxPerPeriod: 1 },
      },
      {
        id: 'm-news',
        name: 'News',
        rules: [{ id: 'r-1', action: 'read', type: 'count', goal: 2, metadata: [{ name: 'topic', value: 'news' }] }],
        rewards: { points: [{ category: 'Points', amount: 15 }] },
        repeatableWindow: forever,
      },
      {
        id: 'm-buy',
        name: 'Spend 100',
        rules: [{ id: 'r-1', action: 'buy', type: 'sum', goal: 100 }],
        rewards: { points: [{ category: 'Points', amount: 30 }], badge: 'b-buyer' },
        repeatableWindow: forever,
      },
      {
        id: 'm-earn',
        name: 'Earn',
        rules: [{ id: 'r-1', action: 'earn', type: 'count', goal: 1 }],
        rewards: { points: [{ category: 'Coins', amount: 10 }] },
        repeatableWindow: forever,
      },
      {
        id: 'm-share',
        name: 'Share twice',
        rules: [{ id: 'r-1', action: 'share', type: 'count', goal: 2 }],
        rewards: { points: [{ category: 'Points', amount: 5 }] },
        repeatableWindow: forever,
      },
      {
        id: 'm-post',
        name: 'Post',
        rules: [{ id: 'r-1', action: 'post', type: 'count', goal: 1 }],
        rewards: {
          points: [
            { category: 'Coins', amount: 4 },
            { category: 'Points', amount: 2 },
          ],
        },
        repeatableWindow: forever,
      },
    ],
  };
}

interface History {
  text: string;
  lines: number;
  blank: number;
  /** Lines the import must reject (each with its line number and code). */
  invalid: Array<{ line: number; code: string }>;
  withOwnId: number;
  /** Lines that repeat an earlier line's own event id (same user and action). */
  resent: number;
  first: number;
  last: number;
}

/**
 * A program's history as NDJSON, seeded: sessions of 1–9 actions of one of USERS users (some users
 * far busier than others), a few minutes apart, spread over six months that end three days ago,
 * with timestamps in every accepted form; most lines without an eventId, some with one (a few
 * sent twice), some blank, a few invalid.
 */
function history(seed: number, now: number): History {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  // Whole days back from today (UTC), so that a seed makes the same history, day for day.
  const end = Math.floor(now / DAY) * DAY - 3 * DAY;
  const start = end - 180 * DAY;
  const out: string[] = [];
  const invalid: History['invalid'] = [];
  const ownIds: Array<{ id: string; line: string }> = [];
  let blank = 0;
  let withOwnId = 0;
  let resent = 0;
  let first = Infinity;
  let last = -Infinity;
  const stamp = (at: number): string | number => {
    first = Math.min(first, at);
    last = Math.max(last, at);
    const form = random();
    if (form < 0.55) return new Date(at).toISOString();
    if (form < 0.7) return at;
    if (form < 0.8) return at / 1000;
    if (form < 0.9) return new Date(at).toISOString().replace('Z', '+00:00');
    // Local time (the site's zone is UTC), whole seconds.
    return new Date(at).toISOString().slice(0, 19);
  };
  const push = (line: string) => out.push(line);
  const bad = (line: string, code = 'validation_failed') => {
    push(line);
    invalid.push({ line: out.length, code });
  };
  // About 5.3 lines a session: the sessions end before `end`.
  const sessions = Math.ceil(LINES / 4);
  const step = (end - start) / sessions;
  for (let s = 0; out.length < LINES - 20; s++) {
    // Busy users: u-0..u-9 get half the sessions.
    const user = `u-${random() < 0.5 ? Math.floor(random() * 10) : Math.floor(random() * USERS)}`;
    // Whole seconds, so that every form of the timestamp says the same instant.
    let at = Math.round((start + s * step + random() * step * 0.3) / 1000) * 1000;
    const actions = 1 + Math.floor(random() * 9);
    for (let a = 0; a < actions; a++) {
      at += 60_000 + Math.floor(random() * 20 * 60) * 1000;
      const roll = random();
      const line: Record<string, unknown> = { userId: user };
      if (roll < 0.3) line.action = random() < 0.05 ? 'Play' : 'play';
      else if (roll < 0.55) {
        line.action = 'read';
        if (random() < 0.4) line.metadata = { topic: pick(['news', 'sport', 'tech']) };
      } else if (roll < 0.7) line.action = 'earn';
      else if (roll < 0.8) {
        line.action = 'buy';
        line.value = pick([5, 12.5, 20, 35, 50, 80]);
      } else if (roll < 0.9) {
        line.action = 'share';
        line.value = pick([1, 1, 2]);
      } else line.action = 'post';
      line.timestamp = stamp(at);
      if (random() < 0.15) {
        line.eventId = `src-${out.length + 1}-${Math.floor(random() * 1e6)}`;
        withOwnId += 1;
      }
      const text = JSON.stringify(line);
      push(text);
      if (line.eventId !== undefined) ownIds.push({ id: line.eventId as string, line: text });
      // Back-to-back repeats of a share: the same action, value and metadata a minute later.
      if (line.action === 'share' && random() < 0.5) {
        at += 60_000;
        push(JSON.stringify({ ...line, eventId: undefined, timestamp: stamp(at) }));
      }
      // An exporter that wrote an event twice: the same line (its own id) again, after a blank line.
      if (line.eventId !== undefined && random() < 0.05) {
        resent += 1;
        withOwnId += 1;
        out.push('');
        blank += 1;
        push(text);
      }
      if (random() < 0.002) {
        push(random() < 0.5 ? '' : '   ');
        blank += 1;
      }
    }
    // The invalid lines, spread over the file.
    if (s % 60 === 30) {
      const n = invalid.length;
      const u = `u-${n % USERS}`;
      const ts = new Date(start + s * step).toISOString();
      const cases: Array<() => void> = [
        () => bad('{not json'),
        () => bad('[1,2,3]'),
        () => bad(JSON.stringify({ userId: u, action: 'play', color: 'red', timestamp: ts })),
        () => bad(JSON.stringify({ action: 'play', timestamp: ts })),
        () => bad(JSON.stringify({ userId: u, groupId: 'g-1', action: 'play', timestamp: ts })),
        () => bad(JSON.stringify({ userId: u, action: 'dance', timestamp: ts }), 'unknown_action'),
        () => bad(JSON.stringify({ userId: u, action: 'play', timestamp: '2025-02-30T10:00:00Z' })),
        () => bad(JSON.stringify({ userId: u, action: 'play', timestamp: new Date(now + 30 * DAY).toISOString() })),
        () => bad(JSON.stringify({ userId: 'not an id!', action: 'play', timestamp: ts })),
        () => bad(JSON.stringify({ userId: u, action: 'buy', value: 'a lot', timestamp: ts })),
        // Another action under an event id used before: a conflict.
        () => {
          const used = ownIds[0];
          if (used === undefined) return bad('{}');
          const parsed = JSON.parse(used.line) as Record<string, unknown>;
          bad(JSON.stringify({ ...parsed, action: parsed.action === 'earn' ? 'play' : 'earn' }), 'event_id_conflict');
        },
      ];
      cases[n % cases.length]?.();
    }
  }
  if (last > end) throw new Error('the generated history runs past its end');
  return { text: `${out.join('\n')}\n`, lines: out.length, blank, invalid, withOwnId, resent, first, last };
}

interface Run {
  child: ChildProcess;
  /** The exit code (null: killed), the signal, and all the process printed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number }>;
}

type PrintedSummary = ImportSummary & { siteId: string; file: string };

/** Every import process this file spawns: SIGKILLed in afterAll should one still run. */
const children = new Set<ChildProcess>();

/** Spawns `node --import tsx src/cli/main.ts import --site SITE FILE [--json]` with `env`. */
function startImport(env: Record<string, string>, args: string[]): Run {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'import', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Awaited<Run['exited']>>((resolve) =>
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    }),
  );
  return { child, exited };
}

async function importJson(
  env: Record<string, string>,
  siteId: string,
  file: string,
): Promise<{ code: number | null; summary: PrintedSummary; ms: number; stderr: string }> {
  const result = await startImport(env, ['--site', siteId, file, '--json']).exited;
  let summary: PrintedSummary;
  try {
    summary = JSON.parse(result.stdout) as PrintedSummary;
  } catch {
    throw new Error(`import printed no JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
  return { code: result.code, summary, ms: result.ms, stderr: result.stderr };
}

/** The figures of the summary `questline import` prints without --json (and its rejected lines' numbers and codes). */
function humanSummary(stdout: string, file: string): Omit<ImportSummary, 'rejections'> & { rejections: Array<{ line: number; code: string }> } {
  const figure = (pattern: RegExp): number[] => {
    const match = pattern.exec(stdout);
    if (match === null) throw new Error(`no ${String(pattern)} in the summary:\n${stdout}`);
    return match.slice(1).map(Number);
  };
  const [lines] = figure(new RegExp(`^Imported ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (\\d+) lines?$`, 'm'));
  const [recorded, missionsCompleted, pointsCredited] = figure(/^ {2}recorded +(\d+) \((\d+) missions? completed, (-?\d+) points? credited\)$/m);
  const [duplicates] = figure(/^ {2}already recorded +(\d+)$/m);
  const [repeatSuppressed, rateLimited] = figure(/^ {2}suppressed +(\d+) back-to-back repeats?, (\d+) over a rate limit$/m);
  const [rejected] = figure(/^ {2}rejected +(\d+)$/m);
  const rejections = [...stdout.matchAll(/^ {2}line (\d+): ([a-z_]+): /gm)].map((m) => ({ line: Number(m[1]), code: m[2] as string }));
  return {
    lines: lines as number,
    recorded: recorded as number,
    duplicates: duplicates as number,
    suppressed: { repeatSuppressed: repeatSuppressed as number, rateLimited: rateLimited as number },
    rejected: rejected as number,
    rejections,
    missionsCompleted: missionsCompleted as number,
    pointsCredited: pointsCredited as number,
  };
}

/** The plain progress lines `questline import` writes on stderr without a terminal. */
function progressLines(stderr: string, file: string): Array<{ percent: number; lines: number; recorded: number; duplicates: number; rejected: number }> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith(`import ${file}: `))
    .map((line) => {
      const match = /: (\d+)%: (\d+) lines?, (\d+) recorded, (\d+) duplicates?, (\d+) rejected, \d+ lines\/s$/.exec(line);
      if (match === null) throw new Error(`not a progress line: ${line}`);
      const [percent, lines, recorded, duplicates, rejected] = match.slice(1).map(Number) as [number, number, number, number, number];
      return { percent, lines, recorded, duplicates, rejected };
    });
}

const suppressedOf = (s: Pick<ImportSummary, 'suppressed'>) => s.suppressed.repeatSuppressed + s.suppressed.rateLimited;

async function eventCount(db: CliContext['database']['db'], siteId: string): Promise<number> {
  const row = await db
    .selectFrom('action_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const sortRows = <T>(rows: T[]): T[] =>
  rows
    .map((row) => JSON.stringify(row))
    .sort()
    .map((text) => JSON.parse(text) as T);

/**
 * What a site holds after an import, without the ids each run makes anew (completion, ledger
 * entry and level change ids): events with their stored outcomes, balances, ledger sums, cap
 * totals, progress, completions, levels, level changes, trophies and outbox events.
 */
async function siteState(db: CliContext['database']['db'], siteId: string) {
  const n = (value: unknown) => Number(value);
  const events = await db
    .selectFrom('action_events')
    .select(['event_id', 'party_type', 'party_id', 'action', 'occurred_at', 'value', 'metadata', 'recorded', 'reason', 'outcome'])
    .where('site_id', '=', siteId)
    .execute();
  const balances = await db
    .selectFrom('point_balances')
    .select(['party_type', 'party_id', 'category', 'balance', 'lifetime'])
    .where('site_id', '=', siteId)
    .execute();
  const ledger = await db
    .selectFrom('points_ledger')
    .select((eb) => [
      'party_type',
      'party_id',
      'category',
      'cause',
      eb.fn.sum<number>('credited').as('credited'),
      eb.fn.sum<number>('requested').as('requested'),
      eb.fn.countAll<number>().as('entries'),
    ])
    .where('site_id', '=', siteId)
    .groupBy(['party_type', 'party_id', 'category', 'cause'])
    .execute();
  const credits = await db
    .selectFrom('points_ledger')
    .select(['party_id', 'category', 'requested', 'credited', 'event_id', 'occurred_at'])
    .where('site_id', '=', siteId)
    .execute();
  const earnings = await db
    .selectFrom('point_earnings')
    .select(['party_type', 'party_id', 'category', 'period', 'period_start', 'earned'])
    .where('site_id', '=', siteId)
    .execute();
  const progress = await db
    .selectFrom('mission_progress')
    .select(['party_type', 'party_id', 'mission_id', 'rule_id', 'window_start', 'current'])
    .where('site_id', '=', siteId)
    .execute();
  const completions = await db
    .selectFrom('mission_completions')
    .select(['party_type', 'party_id', 'mission_id', 'window_start', 'event_id', 'completed_at', 'removed_at', 'badge_id'])
    .where('site_id', '=', siteId)
    .execute();
  const parties = await db.selectFrom('parties').select(['party_type', 'party_id', 'level_id', 'last_recorded']).where('site_id', '=', siteId).execute();
  const levelChanges = await db
    .selectFrom('level_changes')
    .select(['party_id', 'from_level', 'to_level', 'direction', 'event_id', 'changed_at'])
    .where('site_id', '=', siteId)
    .execute();
  const trophies = await db
    .selectFrom('trophies')
    .select(['party_type', 'party_id', 'badge_id', 'earned_count', 'first_earned_at', 'last_earned_at'])
    .where('site_id', '=', siteId)
    .execute();
  const outbox = await db.selectFrom('outbox').select(['event_type', 'party_type', 'party_id', 'occurred_at']).where('site_id', '=', siteId).execute();
  const completionsPerMission = new Map<string, number>();
  for (const c of completions)
    completionsPerMission.set(`${c.party_id} ${c.mission_id}`, (completionsPerMission.get(`${c.party_id} ${c.mission_id}`) ?? 0) + 1);
  return {
    events: sortRows(
      events.map((e) => {
        const outcome = JSON.parse(e.outcome) as { missionsCompleted: Array<{ id: string; completionId?: string }> } & Record<string, unknown>;
        return {
          eventId: e.event_id,
          party: `${e.party_type}:${e.party_id}`,
          action: e.action,
          occurredAt: n(e.occurred_at),
          value: n(e.value),
          metadata: e.metadata,
          recorded: n(e.recorded),
          reason: e.reason,
          outcome: { ...outcome, missionsCompleted: outcome.missionsCompleted.map((m) => m.id) },
        };
      }),
    ),
    balances: sortRows(balances.map((b) => ({ party: `${b.party_type}:${b.party_id}`, category: b.category, balance: n(b.balance), lifetime: n(b.lifetime) }))),
    ledgerSums: sortRows(
      ledger.map((l) => ({
        party: `${l.party_type}:${l.party_id}`,
        category: l.category,
        cause: l.cause,
        credited: n(l.credited),
        requested: n(l.requested),
        entries: n(l.entries),
      })),
    ),
    credits: sortRows(
      credits.map((c) => ({
        party: c.party_id,
        category: c.category,
        requested: n(c.requested),
        credited: n(c.credited),
        eventId: c.event_id,
        occurredAt: n(c.occurred_at),
      })),
    ),
    capTotals: sortRows(
      earnings.map((e) => ({ party: `${e.party_type}:${e.party_id}`, category: e.category, period: e.period, start: n(e.period_start), earned: n(e.earned) })),
    ),
    progress: sortRows(
      progress.map((p) => ({
        party: `${p.party_type}:${p.party_id}`,
        mission: p.mission_id,
        rule: p.rule_id,
        windowStart: n(p.window_start),
        current: n(p.current),
      })),
    ),
    completionsPerUserAndMission: [...completionsPerMission.entries()].sort(),
    completions: sortRows(
      completions.map((c) => ({
        party: `${c.party_type}:${c.party_id}`,
        mission: c.mission_id,
        windowStart: n(c.window_start),
        eventId: c.event_id,
        completedAt: n(c.completed_at),
        removedAt: c.removed_at === null ? null : Number(c.removed_at),
        badge: c.badge_id,
      })),
    ),
    levels: sortRows(parties.map((p) => ({ party: `${p.party_type}:${p.party_id}`, level: p.level_id, lastRecorded: p.last_recorded }))),
    levelChanges: sortRows(
      levelChanges.map((l) => ({ party: l.party_id, from: l.from_level, to: l.to_level, direction: l.direction, eventId: l.event_id, at: n(l.changed_at) })),
    ),
    trophies: sortRows(
      trophies.map((t) => ({
        party: `${t.party_type}:${t.party_id}`,
        badge: t.badge_id,
        count: n(t.earned_count),
        first: n(t.first_earned_at),
        last: n(t.last_earned_at),
      })),
    ),
    outbox: sortRows(outbox.map((o) => ({ type: o.event_type, party: `${o.party_type}:${o.party_id}`, at: n(o.occurred_at) }))),
  };
}

function importSuite(target: ProcessDatabase, { cliInterface }: { cliInterface: boolean }) {
  let dir: string;
  let databaseUrl: string;
  let env: Record<string, string>;
  let drop: (() => Promise<void>) | undefined;
  let context: CliContext | undefined;
  const now = Date.now();
  const file = () => join(dir, 'history.ndjson');
  const generated = history(0x13_1337, now);
  const crlfFile = () => join(dir, 'clean-crlf.ndjson');
  let crlfRun: Run['exited'] | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'questline-import-'));
    writeFileSync(file(), generated.text);
    const opened = await target.open();
    drop = opened.drop;
    databaseUrl = opened.databaseUrl;
    env = serverEnv(databaseUrl, opened.extraEnv);
    context = await openContext(databaseUrl);
  }, 60_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await context?.close().catch(() => undefined);
    await drop?.();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  async function newSite(prefix: string): Promise<string> {
    const siteId = `${prefix}-${randomBytes(3).toString('hex')}`;
    await context!.sites.createSite({ siteId, name: `Import ${prefix}` });
    await context!.programs.replace({ siteId, clientId: null }, importProgram());
    return siteId;
  }

  it('killed midway and run again, an import ends as an uninterrupted run of the same file does', async () => {
    const db = context!.database.db;
    const siteA = await newSite('import-a');
    const siteB = await newSite('import-b');
    const nonBlank = generated.lines - generated.blank;
    // Every valid line stores one event but a line resent with its own id.
    const expectedEvents = nonBlank - generated.invalid.length - generated.resent;

    // Site A: the import, SIGKILLed once the database holds a quarter of the file's events.
    const killed = startImport(env, ['--site', siteA, file()]);
    let atKill = 0;
    let exitedEarly = false;
    void killed.exited.then(() => (exitedEarly = true));
    for (;;) {
      atKill = await eventCount(db, siteA);
      if (atKill >= expectedEvents * KILL_AT || exitedEarly) break;
      await sleep(10);
    }
    const endedBeforeKill = exitedEarly;
    killed.child.kill('SIGKILL');
    const death = await killed.exited;
    const killedAfterMs = death.ms;
    expect(endedBeforeKill, `the import ended before the kill:\n${death.stdout}\n${death.stderr}`).toBe(false);
    expect(death.signal).toBe('SIGKILL');
    // Really midway: some of the file is recorded, not all of it.
    const afterKill = await eventCount(db, siteA);
    expect(afterKill).toBeGreaterThanOrEqual(atKill);
    expect(afterKill).toBeGreaterThan(0);
    expect(afterKill).toBeLessThan(expectedEvents * 0.9);
    // What the kill left is whole already.
    expect((await new VerifyService(db, context!.programs).verify([siteA])).drift).toEqual([]);
    expect(await decisionProblems(db, siteA)).toEqual([]);

    // Run again, to the end (as a person would: no --json); meanwhile site B: one uninterrupted run
    // of the same file (--json).
    const [second, whole] = await Promise.all([startImport(env, ['--site', siteA, file()]).exited, importJson(env, siteB, file())]);
    const a = humanSummary(second.stdout, file());
    const b = whole.summary;
    // The progress on stderr: a line every 5 s and the last, moving forward, the last at 100%
    // with the summary's figures.
    const progress = progressLines(second.stderr, file());
    expect(progress.length, second.stderr).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeLessThanOrEqual(Math.ceil(second.ms / 5000) + 1);
    for (const [i, p] of progress.entries()) if (i > 0) expect(p.lines).toBeGreaterThan((progress[i - 1] as (typeof progress)[number]).lines);
    expect(progress.at(-1)).toEqual({ percent: 100, lines: a.lines, recorded: a.recorded, duplicates: a.duplicates, rejected: a.rejected });
    expect(second.stdout).not.toContain(`import ${file()}: `);
    for (const [run, summary] of [
      ['rerun', a],
      ['uninterrupted', b],
    ] as const) {
      expect(summary.lines, run).toBe(generated.lines);
      // Every non-blank line is accounted for, once.
      expect(summary.duplicates + summary.recorded + suppressedOf(summary) + summary.rejected, run).toBe(nonBlank);
      // The invalid lines, with their line numbers and codes.
      expect(summary.rejected, run).toBe(generated.invalid.length);
      expect(
        summary.rejections.map((r) => ({ line: r.line, code: r.code })),
        run,
      ).toEqual(generated.invalid);
    }
    expect(second.code).toBe(1);
    expect(whole.code).toBe(1);
    expect(b.siteId).toBe(siteB);
    // The rerun skipped what the killed run recorded (and the resent lines), recorded the rest.
    expect(a.duplicates).toBeGreaterThan(0);
    expect(a.recorded).toBeGreaterThan(0);
    expect(a.duplicates).toBe(afterKill + generated.resent);
    expect(b.duplicates).toBe(generated.resent);
    expect(afterKill + a.recorded + suppressedOf(a)).toBe(expectedEvents);
    expect(b.recorded + suppressedOf(b)).toBe(expectedEvents);
    expect(b.suppressed.repeatSuppressed).toBeGreaterThan(0);
    expect(b.suppressed.rateLimited).toBeGreaterThan(0);
    expect(b.missionsCompleted).toBeGreaterThan(0);
    expect(b.pointsCredited).toBeGreaterThan(0);

    // The two sites hold the same history and the same state.
    const [stateA, stateB] = [await siteState(db, siteA), await siteState(db, siteB)];
    expect(stateA.events.length).toBe(expectedEvents);
    expect(stateB.events.length).toBe(expectedEvents);
    for (const key of Object.keys(stateB) as Array<keyof typeof stateB>) expect(stateA[key], key).toEqual(stateB[key]);
    // (party, action, occurred_at, value, recorded, reason), as the issue names them.
    const tuples = (state: typeof stateA) =>
      state.events
        .map((e) => [e.party, e.action, e.occurredAt, e.value, e.recorded, e.reason])
        .map((t) => JSON.stringify(t))
        .sort();
    expect(tuples(stateA)).toEqual(tuples(stateB));
    // Event ids are per site: the same derived ids on both, and each one on one line of the file.
    const idsA = stateA.events.map((e) => e.eventId);
    const derived = idsA.filter((id) => id.startsWith('imp-'));
    expect(new Set(idsA).size).toBe(idsA.length);
    expect(derived.length).toBe(expectedEvents - (generated.withOwnId - generated.resent));
    expect(derived.every((id) => /^imp-[A-Za-z0-9_-]{32}$/.test(id))).toBe(true);
    expect(idsA.filter((id) => id.startsWith('src-')).length).toBe(generated.withOwnId - generated.resent);
    expect(stateB.events.map((e) => e.eventId)).toEqual(idsA);
    const perSite = await db
      .selectFrom('action_events')
      .select('site_id')
      .where('event_id', '=', derived[0] as string)
      .execute();
    expect(perSite.map((r) => r.site_id).sort()).toEqual([siteA, siteB].sort());
    // The program's parts were all exercised: completions of every mission, capped days, levels, badges.
    const missions = new Set(stateB.completions.map((c) => c.mission));
    expect([...missions].sort()).toEqual(['m-buy', 'm-earn', 'm-news', 'm-play', 'm-post', 'm-read', 'm-read-daily', 'm-share']);
    expect(stateB.credits.some((c) => c.category === 'Coins' && c.credited < c.requested)).toBe(true);
    expect(stateB.capTotals.some((c) => c.category === 'Coins' && c.period === 'day' && c.earned === 30)).toBe(true);
    expect(new Set(stateB.levels.map((l) => l.level)).size).toBeGreaterThanOrEqual(3);
    expect(stateB.trophies.some((t) => t.badge === 'b-buyer' && t.count > 1)).toBe(true);
    expect(stateB.trophies.filter((t) => t.badge === 'b-reader').every((t) => t.count === 1)).toBe(true);
    expect(stateB.balances.length).toBeGreaterThan(USERS);
    // The original timestamps, not the import's time.
    const times = stateB.events.map((e) => e.occurredAt as number);
    expect(Math.min(...times)).toBe(generated.first);
    expect(Math.max(...times)).toBe(generated.last);

    // No drift on either site, and every decision whole.
    const verify = await new VerifyService(db, context!.programs).verify([siteA, siteB]);
    expect(verify.drift).toEqual([]);
    expect(verify.checked.ledgerEntries).toBe(stateA.credits.length + stateB.credits.length);
    expect(await decisionProblems(db, siteA)).toEqual([]);
    expect(await decisionProblems(db, siteB)).toEqual([]);

    const figures = {
      database: target.name,
      lines: generated.lines,
      blankLines: generated.blank,
      invalidLines: generated.invalid.length,
      linesWithOwnEventId: generated.withOwnId,
      resentLines: generated.resent,
      events: expectedEvents,
      recordedAtKill: afterKill,
      killedAfterMs,
      rerun: {
        recorded: a.recorded,
        duplicates: a.duplicates,
        suppressed: a.suppressed,
        rejected: a.rejected,
        missionsCompleted: a.missionsCompleted,
        pointsCredited: a.pointsCredited,
        ms: second.ms,
      },
      uninterrupted: {
        recorded: b.recorded,
        duplicates: b.duplicates,
        suppressed: b.suppressed,
        rejected: b.rejected,
        missionsCompleted: b.missionsCompleted,
        pointsCredited: b.pointsCredited,
        ms: whole.ms,
      },
      completions: stateB.completions.length,
      ledgerEntries: stateB.credits.length,
      levelChanges: stateB.levelChanges.length,
    };
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, `import-${target.name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`import test (${target.name}): ${JSON.stringify(figures)}`);
  }, 120_000);

  // The command's interface is the same on every database: checked on SQLite (the PostgreSQL run
  // above checks --json and exit code 1 on its database too).
  it.runIf(cliInterface)(
    'prints progress on stderr and the summary on stdout, --json as one document; exit 1 with a rejected line, 0 without, 2 for a missing file, 1 for an unknown site',
    async () => {
      const siteId = await newSite('import-cli');
      const otherSite = await newSite('import-cli2');
      const clean = join(dir, 'clean.ndjson');
      const mixed = join(dir, 'mixed.ndjson');
      const nowhere = join(dir, 'nowhere.ndjson');
      const at = (days: number) => new Date(now - days * DAY).toISOString();
      writeFileSync(
        clean,
        [
          { userId: 'ann', action: 'play', timestamp: at(10) },
          { userId: 'ann', action: 'buy', value: 120, timestamp: at(9) },
          { userId: 'bob', action: 'earn', timestamp: at(8) },
        ]
          .map((l) => JSON.stringify(l))
          .join('\n') + '\n\n',
      );
      writeFileSync(
        mixed,
        [
          JSON.stringify({ userId: 'cy', action: 'play', timestamp: at(5) }),
          '{"userId":"cy","action":"fly"}',
          '',
          JSON.stringify({ userId: 'cy', action: 'read', eventId: 'e-1', timestamp: at(4) }),
        ].join('\n'),
      );

      // All at once (the CLI takes a while to start): the clean file, the mixed one with --json and
      // (into another site) without, a missing file, an unknown site.
      // The CRLF copy of the clean file goes into a site of its own, for the test after this one.
      writeFileSync(crlfFile(), readFileSync(clean, 'utf8').replace(/\n/g, '\r\n'));
      crlfRun = startImport(env, ['--site', await newSite('import-crlf'), crlfFile()]).exited;
      const [human, json, mixedHuman, missing, unknown] = await Promise.all([
        startImport(env, ['--site', siteId, clean]).exited,
        startImport(env, ['--site', siteId, mixed, '--json']).exited,
        startImport(env, ['--site', otherSite, mixed]).exited,
        startImport(env, ['--site', siteId, nowhere, '--json']).exited,
        startImport(env, ['--site', 'no-such-site', clean, '--json']).exited,
      ]);

      // No terminal: the progress (one line, a short import's last) on stderr, the summary on stdout; exit 0.
      expect(human.code, human.stderr).toBe(0);
      const progress = human.stderr.split('\n').filter((line) => line.startsWith(`import ${clean}: `));
      expect(progress).toHaveLength(1);
      expect(progress[0]).toMatch(
        new RegExp(`^import ${clean.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 100%: 4 lines, 3 recorded, 0 duplicates, 0 rejected, \\d+ lines/s$`),
      );
      expect(human.stderr).not.toContain('\r');
      expect(human.stdout).not.toContain(`import ${clean}: `);
      expect(human.stdout).toContain(`Imported ${clean}: 4 lines`);
      expect(human.stdout).toMatch(/recorded\s+3 \(3 missions completed, 45 points credited\)/);
      expect(human.stdout).toMatch(/already recorded\s+0/);
      expect(human.stdout).toMatch(/rejected\s+0\n?$/);

      // --json: one JSON document on stdout with every figure, no progress on stderr; a rejected line: exit 1.
      expect(json.code, json.stderr).toBe(1);
      expect(json.stdout.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(json.stdout)).toEqual({
        siteId,
        file: mixed,
        lines: 4,
        recorded: 2,
        duplicates: 0,
        suppressed: { repeatSuppressed: 0, rateLimited: 0 },
        rejected: 1,
        rejections: [{ line: 2, code: 'unknown_action', message: 'The site has no action "fly"' }],
        missionsCompleted: 1,
        pointsCredited: 5,
      });
      expect(json.stderr).not.toContain('import ');
      // Without --json, the rejected line is listed with its number in the summary; exit 1 too.
      expect(mixedHuman.code).toBe(1);
      expect(mixedHuman.stdout).toMatch(/recorded\s+2 \(1 mission completed, 5 points credited\)/);
      expect(mixedHuman.stdout).toMatch(/rejected\s+1\n\s+line 2: unknown_action: The site has no action "fly"/);
      expect(mixedHuman.stderr).toMatch(/import .*mixed\.ndjson: 100%: 4 lines, 2 recorded, 0 duplicates, 1 rejected/);

      // What they said is what the database holds: ann's, bob's and cy's actions, nothing else.
      const db = context!.database.db;
      const balances = await db
        .selectFrom('point_balances')
        .select(['party_id', 'category', 'balance'])
        .where('site_id', '=', siteId)
        .orderBy('party_id')
        .orderBy('category')
        .execute();
      expect(balances.map((b) => [b.party_id, b.category, Number(b.balance)])).toEqual([
        ['ann', 'Points', 35],
        ['bob', 'Coins', 10],
        ['cy', 'Points', 5],
      ]);
      expect(await eventCount(db, siteId)).toBe(5);
      expect(await eventCount(db, otherSite)).toBe(2);

      // A file that is not there: a usage error (2).
      expect(missing.code).toBe(2);
      expect(JSON.parse(missing.stdout)).toMatchObject({ error: 'usage' });
      expect(missing.stderr).toContain(`cannot read ${nowhere}`);
      // A site that does not exist: exit 1, not_found, nothing imported anywhere.
      expect(unknown.code).toBe(1);
      expect(JSON.parse(unknown.stdout)).toMatchObject({ error: 'not_found' });
      expect(unknown.stderr).toContain('Site "no-such-site" does not exist');
      expect(await eventCount(db, 'no-such-site')).toBe(0);
    },
    60_000,
  );

  // The progress is the share of the file read: a CRLF file (a Windows export) ends at 100% too.
  it.runIf(cliInterface)('the progress of a CRLF file ends at 100%', async () => {
    const run = await (crlfRun as NonNullable<typeof crlfRun>);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/recorded\s+3 \(3 missions completed, 45 points credited\)/);
    const progress = progressLines(run.stderr, crlfFile());
    expect(progress.at(-1)).toMatchObject({ lines: 4, recorded: 3 });
    expect(progress.at(-1)?.percent).toBe(100);
  });
}

describe('questline import as a process: kill midway, run again, compare (SQLite)', () => importSuite(sqliteForProcesses, { cliInterface: true }));
describe.skipIf(!hasPostgres)('questline import as a process: kill midway, run again, compare (PostgreSQL)', () =>
  importSuite(postgresForProcesses, { cliInterface: false }),
);
