// Issue 12, the crash test: a real server process under load is killed with SIGKILL and started
// again on the same database, on SQLite (always) and on PostgreSQL (when TEST_DATABASE_URL is set).
// - every action that got a 2xx is there afterwards: in GET /users/{u}/actions, and sent again it
//   answers 200 duplicate with the outcome that was acknowledged;
// - the requests in flight at the kill are whole or absent: sent again, they are recorded once;
// - no partial decision is visible: VerifyService finds no drift, on the database as the crash
//   left it and after the restart, and every action's completions, credits and outbox events agree
//   with its stored outcome;
// - the outbox delivers the rest: every mission.completed event reaches the webhook receiver.
// The figures (actions sent, acknowledged, checked; events delivered; times) are printed and
// written to test-artifacts/process/crash-<database>.json.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import type { ActionOutcome } from '../../src/modules/actions/service.js';
import { VerifyService } from '../../src/modules/verify/service.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import {
  call,
  decisionProblems,
  historyEventIds,
  killServer,
  openContext,
  pool,
  serverEnv,
  startServer,
  startSiteWithProgram,
  type SpawnedServer,
  postgresForProcesses,
  sqliteForProcesses,
  type ProcessDatabase,
} from '../helpers/spawned-server.js';

const CONCURRENCY = 32;
const USERS = 30;
const ACTIONS = ['play', 'read', 'earn'] as const;
/** Load before the kill: a random moment in 1–2 s, so that runs kill at different points of a decision. */
const LOAD_MS = () => 1000 + Math.floor(Math.random() * 1000);
/** The dispatcher's claim on a delivery (src/modules/webhooks/dispatcher.ts LEASE_MS): a dead node's claims lapse after it. */
const LEASE_MS = 60_000;
const DELIVERY_WAIT_MS = 30_000;
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'process');

const pgUrl = process.env.TEST_DATABASE_URL;
const hasPostgres = pgUrl !== undefined && pgUrl !== '';

/** Repeatable missions on each action (Points, Points every second `read`, capped Coins), levels on Points. */
function crashProgram(callbackUrl: string): Record<string, unknown> {
  const repeatable = { period: 'none', maxPerPeriod: 1000 };
  return {
    site: { name: 'Crash', timezone: 'UTC', levelType: 'points', achievementCallbackUrl: callbackUrl },
    pointCategories: [
      { name: 'Points', isDefault: true },
      { name: 'Coins', isDefault: false, dailyLimit: 50 },
    ],
    actions: ACTIONS.map((name) => ({ name })),
    levels: [
      { id: 'l-1', name: 'Rookie', threshold: 0 },
      { id: 'l-2', name: 'Regular', threshold: 100 },
      { id: 'l-3', name: 'Expert', threshold: 400 },
    ],
    missions: [
      {
        id: 'm-play',
        name: 'Play',
        rules: [{ id: 'r-1', action: 'play', type: 'count', goal: 1 }],
        rewards: { points: [{ category: 'Points', amount: 10 }] },
        repeatableWindow: repeatable,
      },
      {
        id: 'm-read',
        name: 'Read twice',
        rules: [{ id: 'r-1', action: 'read', type: 'count', goal: 2 }],
        rewards: { points: [{ category: 'Points', amount: 25 }] },
        repeatableWindow: repeatable,
      },
      {
        id: 'm-earn',
        name: 'Earn',
        rules: [{ id: 'r-1', action: 'earn', type: 'count', goal: 1 }],
        rewards: { points: [{ category: 'Coins', amount: 10 }] },
        repeatableWindow: repeatable,
      },
    ],
    leaderboards: [{ id: 'lb-points', name: 'Points', metric: { type: 'points', category: 'Points' }, period: 'allTime', party: 'user' }],
  };
}

interface Sent {
  eventId: string;
  userId: string;
  action: string;
  status?: number;
  outcome?: ActionOutcome;
  body?: string;
  error?: string;
}

function crashSuite(target: ProcessDatabase) {
  const servers: Array<SpawnedServer | undefined> = [];
  const contexts: CliContext[] = [];
  const agents: http.Agent[] = [];
  let receiver: Receiver | undefined;
  let drop: (() => Promise<void>) | undefined;

  afterAll(async () => {
    for (const server of servers) await killServer(server);
    for (const agent of agents) agent.destroy();
    for (const context of contexts) await context.close().catch(() => undefined);
    await receiver?.close();
    await drop?.();
  });

  it('SIGKILL under load loses nothing acknowledged, leaves no partial decision, and the outbox delivers the rest', async () => {
    const began = Date.now();
    const opened = await target.open();
    drop = opened.drop;
    receiver = await startReceiver();
    const env = serverEnv(opened.databaseUrl, opened.extraEnv);

    const siteId = `crash-${randomBytes(3).toString('hex')}`;
    const { server: first, token } = await startSiteWithProgram(
      opened.databaseUrl,
      env,
      { siteId, name: 'Crash test', program: crashProgram(receiver.url) },
      (server) => servers.push(server),
    );
    const auth = { authorization: `Bearer ${token}` };

    // The load: CONCURRENCY loops over keep-alive connections, each action with a new eventId.
    const loadAgent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    agents.push(loadAgent);
    const sent: Sent[] = [];
    let stop = false;
    let counter = 0;
    const loops = Array.from({ length: CONCURRENCY }, async () => {
      while (!stop) {
        const n = counter++;
        const item: Sent = {
          eventId: `ev-${n}-${randomBytes(4).toString('hex')}`,
          userId: `u-${n % USERS}`,
          action: ACTIONS[Math.floor(Math.random() * ACTIONS.length)] as string,
        };
        sent.push(item);
        try {
          const response = await call(loadAgent, first.port, 'POST', `/users/${item.userId}/actions`, auth, { action: item.action, eventId: item.eventId });
          item.status = response.status;
          if (response.status >= 200 && response.status < 300) item.outcome = (JSON.parse(response.body) as { response: ActionOutcome }).response;
          else item.body = response.body;
        } catch (error) {
          item.error = (error as NodeJS.ErrnoException).code ?? String(error);
        }
      }
    });
    const loadStarted = Date.now();
    const loadMs = LOAD_MS();
    // At least loadMs of load, and until more than 100 actions are acknowledged (a loaded machine
    // answers fewer in the same time), at most 60 s.
    const acknowledgedNow = () => sent.filter((s) => s.outcome !== undefined).length;
    while (Date.now() - loadStarted < loadMs || (acknowledgedNow() <= 120 && Date.now() - loadStarted < 60_000)) await sleep(50);
    const acknowledgedBeforeKill = sent.filter((s) => s.outcome !== undefined).length;
    first.child.kill('SIGKILL');
    const killedAt = Date.now();
    stop = true;
    const death = await first.exited;
    expect(death.signal).toBe('SIGKILL');
    await Promise.all(loops);
    const receivedAtKill = new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));

    const acknowledged = sent.filter((s) => s.status !== undefined && s.status >= 200 && s.status < 300);
    const inFlight = sent.filter((s) => s.error !== undefined);
    const refused = sent.filter((s) => s.status !== undefined && (s.status < 200 || s.status >= 300));
    // Under load nothing is turned away: every answer before the kill was a 201.
    expect(refused.map((s) => `${s.status} ${s.body}`)).toEqual([]);
    expect(acknowledged.every((s) => s.status === 201 && s.outcome?.recorded === true && s.outcome.duplicate === false)).toBe(true);
    expect(acknowledged.length).toBeGreaterThan(100);
    // Answers the server wrote just before it died still arrive after the signal: acknowledged too.
    expect(acknowledged.length).toBeGreaterThanOrEqual(acknowledgedBeforeKill);

    // The database as the crash left it, before any process touched it again.
    const crashed = await openContext(opened.databaseUrl);
    contexts.push(crashed);
    const db = crashed.database.db;
    const steps = { missionId: 'm-read', action: 'read', goal: 2 };
    const presentAfterCrash = new Set((await db.selectFrom('action_events').select('event_id').where('site_id', '=', siteId).execute()).map((r) => r.event_id));
    const driftAfterCrash = await new VerifyService(db, crashed.programs).verify([siteId]);
    expect(driftAfterCrash.drift).toEqual([]);
    expect(await decisionProblems(db, siteId, steps)).toEqual([]);
    const missing = acknowledged.filter((s) => !presentAfterCrash.has(s.eventId)).map((s) => s.eventId);
    expect(missing).toEqual([]);
    const inFlightPresent = inFlight.filter((s) => presentAfterCrash.has(s.eventId));
    const inFlightAbsent = inFlight.filter((s) => !presentAfterCrash.has(s.eventId));
    // Nothing else is there: every recorded action is one the load sent.
    const sentIds = new Set(sent.map((s) => s.eventId));
    expect([...presentAfterCrash].filter((id) => !sentIds.has(id))).toEqual([]);
    // The dead node's claims on deliveries: each lapses within LEASE_MS of the kill.
    const deadClaims = await db
      .selectFrom('webhook_deliveries')
      .select(['delivery_id', 'event_id', 'lease_until'])
      .where('site_id', '=', siteId)
      .where('lease_owner', 'is not', null)
      .execute();
    for (const claim of deadClaims) expect(Number(claim.lease_until)).toBeLessThanOrEqual(killedAt + LEASE_MS);

    // Started again on the same database.
    const restartBegan = Date.now();
    const second = await startServer(env);
    servers.push(second);
    const restartMs = Date.now() - restartBegan;
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    agents.push(agent);

    // Every acknowledged action is in its user's history...
    const histories = new Map<string, Set<string>>();
    for (let u = 0; u < USERS; u++) histories.set(`u-${u}`, new Set(await historyEventIds(agent, second.port, token, `u-${u}`)));
    expect(acknowledged.filter((s) => histories.get(s.userId)?.has(s.eventId) !== true).map((s) => s.eventId)).toEqual([]);
    // ...and sent again it is a duplicate with the outcome that was acknowledged.
    const checkStarted = Date.now();
    const mismatches: string[] = [];
    await pool(acknowledged, CONCURRENCY, async (s) => {
      const again = await call(agent, second.port, 'POST', `/users/${s.userId}/actions`, auth, { action: s.action, eventId: s.eventId });
      const outcome = again.status === 200 ? (JSON.parse(again.body) as { response: ActionOutcome }).response : undefined;
      if (!isDeepStrictEqual(outcome, { ...s.outcome, duplicate: true })) mismatches.push(`${s.eventId}: ${again.status} ${again.body}`);
    });
    expect(mismatches).toEqual([]);
    const acknowledgedCheckMs = Date.now() - checkStarted;

    // The requests in flight at the kill: those that are there answer as duplicates, the others are
    // recorded now, once.
    const inFlightProblems: string[] = [];
    await pool(inFlight, CONCURRENCY, async (s) => {
      const again = await call(agent, second.port, 'POST', `/users/${s.userId}/actions`, auth, { action: s.action, eventId: s.eventId });
      const expected = presentAfterCrash.has(s.eventId) ? 200 : 201;
      const outcome = (JSON.parse(again.body) as { response?: ActionOutcome }).response;
      if (again.status !== expected || outcome?.recorded !== true || outcome.duplicate !== (expected === 200))
        inFlightProblems.push(`${s.eventId}: expected ${expected}, got ${again.status} ${again.body}`);
    });
    expect(inFlightProblems).toEqual([]);
    const eventCounts = await db
      .selectFrom('action_events')
      .select(['event_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('site_id', '=', siteId)
      .where('event_id', 'in', inFlight.length > 0 ? inFlight.map((s) => s.eventId) : ['-'])
      .groupBy('event_id')
      .execute();
    expect(eventCounts.length).toBe(inFlight.length);
    expect(eventCounts.every((row) => Number(row.n) === 1)).toBe(true);

    // Still no drift, and every decision whole, with the in-flight actions recorded.
    expect((await new VerifyService(db, crashed.programs).verify([siteId])).drift).toEqual([]);
    expect(await decisionProblems(db, siteId, steps)).toEqual([]);

    // The outbox delivers the rest. A delivery the dead node had claimed waits for its claim to
    // lapse (LEASE_MS after the claim, checked above); rather than wait a minute, the test moves
    // those claims' expiry to now, as the clock would.
    const deliveryStarted = Date.now();
    const events = (await db.selectFrom('outbox').select('event_id').where('site_id', '=', siteId).where('event_type', '=', 'mission.completed').execute()).map(
      (r) => r.event_id,
    );
    const receivedIds = () => new Set(receiver!.received.map((r) => String(r.headers['webhook-id'])));
    const deliveredBeforeKill = events.filter((id) => receivedAtKill.has(id)).length;
    const deadClaimIds = deadClaims.map((c) => c.delivery_id);
    const heldByDeadNode = new Set(deadClaims.map((c) => c.event_id));
    const undelivered = () => {
      const got = receivedIds();
      return events.filter((id) => !got.has(id));
    };
    // First everything but what the dead node still holds...
    for (let waited = 0; waited < DELIVERY_WAIT_MS && undelivered().some((id) => !heldByDeadNode.has(id)); waited += 100) await sleep(100);
    expect(undelivered().filter((id) => !heldByDeadNode.has(id))).toEqual([]);
    // ...then what it held, once its claims have lapsed.
    const heldUndelivered = undelivered().length;
    if (deadClaimIds.length > 0) {
      await db
        .updateTable('webhook_deliveries')
        .set({ lease_until: Date.now() - 1 })
        .where('site_id', '=', siteId)
        .where('delivery_id', 'in', deadClaimIds)
        .where('lease_owner', 'is not', null)
        .execute();
    }
    for (let waited = 0; waited < DELIVERY_WAIT_MS && undelivered().length > 0; waited += 100) await sleep(100);
    expect(undelivered()).toEqual([]);
    const deliveryMs = Date.now() - deliveryStarted;
    const pendingRows = await db.selectFrom('webhook_deliveries').select('status').where('site_id', '=', siteId).where('status', '!=', 'delivered').execute();
    // The last attempts' outcomes are recorded shortly after the receiver answered them.
    for (let waited = 0; waited < 5000 && pendingRows.length > 0; waited += 100) {
      await sleep(100);
      pendingRows.splice(
        0,
        pendingRows.length,
        ...(await db.selectFrom('webhook_deliveries').select('status').where('site_id', '=', siteId).where('status', '!=', 'delivered').execute()),
      );
    }
    expect(pendingRows).toEqual([]);

    const figures = {
      database: target.name,
      concurrency: CONCURRENCY,
      users: USERS,
      loadMsBeforeKill: killedAt - loadStarted,
      sent: sent.length,
      acknowledged: acknowledged.length,
      acknowledgedCheckedAfterKill: acknowledged.length,
      acknowledgedArrivingAfterSignal: acknowledged.length - acknowledgedBeforeKill,
      inFlightAtKill: inFlight.length,
      inFlightPresent: inFlightPresent.length,
      inFlightAbsentThenRecordedOnce: inFlightAbsent.length,
      recordedAfterCrash: presentAfterCrash.size,
      verifiedAfterCrash: driftAfterCrash.checked,
      restartMs,
      acknowledgedCheckMs,
      missionCompletedEvents: events.length,
      deliveredBeforeKill,
      deliveredAfterRestart: events.length - deliveredBeforeKill,
      deliveriesClaimedByDeadNode: deadClaimIds.length,
      heldByDeadNodeUndeliveredAtRestart: heldUndelivered,
      receiverRequests: receiver.received.length,
      deliveryMs,
      totalMs: Date.now() - began,
    };
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, `crash-${target.name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`crash test (${target.name}): ${JSON.stringify(figures)}`);
  }, 120_000);
}

describe('crash: SIGKILL under load, then restart (SQLite)', () => crashSuite(sqliteForProcesses));
describe.skipIf(!hasPostgres)('crash: SIGKILL under load, then restart (PostgreSQL)', () => crashSuite(postgresForProcesses));
