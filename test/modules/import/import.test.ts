// POST /admin/import through the HTTP stack (docs/import.md), in both configurations: NDJSON lines
// of user and group actions with their original timestamps go through the engine in the file's
// order, and the summary says exactly what the database then holds (events, ledger, balances,
// completions); a run again records nothing (derived and given event ids); rejected lines are
// listed with their line numbers and change nothing; content types, the 10 MB limit, tokens and
// site isolation; CRLF files and a last line without a newline.
import http from 'node:http';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedEventId } from '../../../src/modules/import/lines.js';
import type { ImportSummary } from '../../../src/modules/import/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { expectBalancesMatchLedger } from '../../helpers/ledger.js';

// A site in UTC: read ×3 completes m-reader once (30); every share pays 5 (repeats suppressed);
// every login pays 1 (at most 2 a day); the group's meet ×2 completes m-team (100) again and again.
const program = {
  site: { name: 'Import', timezone: 'UTC' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read' }, { name: 'share', suppressRepeats: true }, { name: 'login', rateLimit: { max: 2, period: 'day' } }, { name: 'meet' }],
  groups: [{ id: 'g-team', name: 'Team' }],
  missions: [
    { id: 'm-reader', name: 'Reader', rules: [{ id: 'r-1', action: 'read', goal: 3 }], rewards: { points: [{ category: 'Points', amount: 30 }] } },
    {
      id: 'm-share',
      name: 'Sharer',
      rules: [{ id: 'r-1', action: 'share', goal: 1 }],
      rewards: { points: [{ category: 'Points', amount: 5 }] },
      repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
    },
    {
      id: 'm-login',
      name: 'Login',
      rules: [{ id: 'r-1', action: 'login', goal: 1 }],
      rewards: { points: [{ category: 'Points', amount: 1 }] },
      repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
    },
    {
      id: 'm-team',
      name: 'Team',
      party: 'group',
      rules: [{ id: 'r-1', action: 'meet', goal: 2 }],
      rewards: { points: [{ category: 'Points', amount: 100 }] },
      repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
    },
  ],
};

type Line = Record<string, unknown> | string;
const text = (line: Line) => (typeof line === 'string' ? line : JSON.stringify(line));
/** NDJSON: one line each, every line ended by a newline. */
const ndjson = (lines: Line[]) => lines.map((line) => `${text(line)}\n`).join('');
const iso = (at: string | number) => new Date(at).toISOString();
const MB = 1024 * 1024;

describe.each(configurations)('POST /admin/import (%s)', (configuration) => {
  let t: TestApp;
  let base: string | undefined;

  interface Site {
    siteId: string;
    admin: string;
    clients: TestSite;
  }
  /** A fresh site with the program (most tests have their own: their figures are the site's). */
  const newSite = async (): Promise<Site> => {
    const site = await t.createSite();
    const admin = await t.token(site.admin);
    const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program });
    expect(put.statusCode, put.body).toBe(200);
    return { siteId: site.siteId, admin, clients: site };
  };
  const post = (token: string | undefined, payload: string | Buffer, contentType: string | null = 'application/x-ndjson') =>
    t.app.inject({
      method: 'POST',
      url: '/admin/import',
      headers: { ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}), ...(contentType !== null ? { 'content-type': contentType } : {}) },
      payload,
    });
  const summaryOf = (response: LightMyRequestResponse): ImportSummary => {
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { response: ImportSummary }).response;
  };
  const importLines = async (site: Site, body: string | Buffer) => summaryOf(await post(site.admin, body));
  const problemOf = (response: LightMyRequestResponse) => response.json() as { status: number; code: string; detail: string };

  /** What the site's database holds, in a form that compares across runs and sites. */
  const stateOf = async (siteId: string) => {
    const db = t.database.db;
    const events = (
      await db
        .selectFrom('action_events')
        .select(['event_id', 'party_type', 'party_id', 'action', 'value', 'metadata', 'occurred_at', 'recorded', 'reason'])
        .where('site_id', '=', siteId)
        .execute()
    )
      .map((row) => ({ ...row, value: Number(row.value), occurred_at: Number(row.occurred_at), recorded: Number(row.recorded) }))
      .sort((a, b) => (a.event_id < b.event_id ? -1 : 1));
    const ledger = (
      await db
        .selectFrom('points_ledger')
        .select(['party_type', 'party_id', 'category', 'requested', 'credited', 'event_id', 'occurred_at'])
        .where('site_id', '=', siteId)
        .execute()
    )
      .map((row) => ({ ...row, requested: Number(row.requested), credited: Number(row.credited), occurred_at: Number(row.occurred_at) }))
      .sort((a, b) => (`${a.event_id}|${a.party_id}` < `${b.event_id}|${b.party_id}` ? -1 : 1));
    const completions = (
      await db
        .selectFrom('mission_completions')
        .select(['party_type', 'party_id', 'mission_id', 'event_id', 'completed_at'])
        .where('site_id', '=', siteId)
        .execute()
    )
      .map((row) => ({ ...row, completed_at: Number(row.completed_at) }))
      .sort((a, b) => (`${a.event_id}|${a.party_id}|${a.mission_id}` < `${b.event_id}|${b.party_id}|${b.mission_id}` ? -1 : 1));
    const balances = Object.fromEntries(
      (await db.selectFrom('point_balances').select(['party_type', 'party_id', 'category', 'balance']).where('site_id', '=', siteId).execute()).map((row) => [
        `${row.party_type}/${row.party_id}/${row.category}`,
        Number(row.balance),
      ]),
    );
    const progress = (
      await db.selectFrom('mission_progress').select(['party_type', 'party_id', 'mission_id', 'rule_id', 'current']).where('site_id', '=', siteId).execute()
    )
      .map((row) => ({ ...row, current: Number(row.current) }))
      .sort((a, b) => (`${a.party_type}|${a.party_id}|${a.mission_id}|${a.rule_id}` < `${b.party_type}|${b.party_id}|${b.mission_id}|${b.rule_id}` ? -1 : 1));
    return {
      events,
      recorded: events.filter((event) => event.recorded === 1).length,
      ledger,
      ledgerSum: ledger.reduce((sum, row) => sum + row.credited, 0),
      completions,
      balances,
      progress,
    };
  };
  /** The summary's figures are the database's: recorded events, completions and the ledger's sum. */
  const expectSummaryMatchesDatabase = async (siteId: string, summary: ImportSummary) => {
    const state = await stateOf(siteId);
    expect(state.recorded).toBe(summary.recorded);
    expect(state.events.filter((event) => event.recorded === 0).length).toBe(summary.suppressed.repeatSuppressed + summary.suppressed.rateLimited);
    expect(state.completions.length).toBe(summary.missionsCompleted);
    expect(state.ledgerSum).toBe(summary.pointsCredited);
    await expectBalancesMatchLedger(t.database.db, siteId);
    return state;
  };
  const history = async (site: Site, user: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/users/${user}/actions`, headers: { authorization: `Bearer ${site.admin}` } });
    expect(response.statusCode, response.body).toBe(200);
    return (
      response.json() as {
        response: Array<{ eventId: string; action: string; metadata: Record<string, string>; timestamp: string; receivedAt: string; userId?: string }>;
      }
    ).response;
  };

  interface RawAnswer {
    status?: number;
    body?: string;
    error?: string;
    /** The exchange was not over by the deadline (the request was then destroyed). */
    timedOut?: true;
  }
  /**
   * A real HTTP request to the listening app, its body written chunk by chunk, answered when the
   * exchange is over (the response read, or the connection gone). keepAlive: over a keep-alive
   * agent, as Node's global agent does; otherwise the request asks for Connection: close.
   */
  const rawPost = async (token: string, chunks: Buffer[], headers: Record<string, string>, options: { keepAlive?: boolean; deadlineMs?: number } = {}) => {
    base ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
    const agent = options.keepAlive === true ? new http.Agent({ keepAlive: true }) : false;
    try {
      return await new Promise<RawAnswer>((resolve) => {
        const answer: RawAnswer = {};
        const request = http.request(
          new URL('/admin/import', base),
          { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson', ...headers } },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (body += chunk));
            response.on('end', () => Object.assign(answer, { status: response.statusCode, body }));
          },
        );
        const timer = setTimeout(() => {
          answer.timedOut = true;
          request.destroy();
        }, options.deadlineMs ?? 20_000);
        request.on('error', (error) => (answer.error ??= (error as NodeJS.ErrnoException).code ?? error.message));
        request.on('close', () => {
          clearTimeout(timer);
          resolve(answer);
        });
        void (async () => {
          for (const chunk of chunks) {
            if (request.destroyed) return;
            if (!request.write(chunk)) {
              await new Promise<void>((resume) => {
                const done = () => {
                  request.off('drain', done).off('close', done);
                  resume();
                };
                request.on('drain', done).on('close', done);
              });
            }
          }
          if (!request.destroyed) request.end();
        })();
      });
    } finally {
      if (agent !== false) agent.destroy();
    }
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { clientRate: { rate: 100_000, burst: 100_000 } } });
  });
  afterAll(async () => t.close());

  it('imports user and group lines with their original timestamps; the summary is what the database holds, and the history shows the old times', async () => {
    const site = await newSite();
    const lines: Line[] = [
      { userId: 'ann', action: 'read', timestamp: '2025-03-01T09:00:00Z' },
      { userId: 'ann', action: 'Read', timestamp: '2025-03-02T09:00:00', metadata: { source: 'legacy' } },
      { groupId: 'g-team', action: 'meet', timestamp: '2025-03-02T10:00:00Z' },
      { userId: 'bob', action: 'share', timestamp: Date.parse('2025-03-03T09:00:00Z') / 1000, metadata: 'url:https' },
      { userId: 'ann', action: 'read', timestamp: '2025-03-03T10:00:00+01:00', eventId: 'legacy-3' },
      { groupId: 'g-team', action: 'meet', value: 2, timestamp: '2025-03-04T10:00:00Z' },
      { userId: 'bob', action: 'login', timestamp: Date.parse('2025-03-05T08:30:00Z') },
    ];
    // The last line without its newline.
    const summary = await importLines(site, ndjson(lines).slice(0, -1));
    expect(summary).toEqual({
      lines: 7,
      recorded: 7,
      duplicates: 0,
      suppressed: { repeatSuppressed: 0, rateLimited: 0 },
      rejected: 0,
      rejections: [],
      missionsCompleted: 4, // m-reader (ann), m-share and m-login (bob), m-team (g-team)
      pointsCredited: 30 + 5 + 1 + 100,
    });

    const state = await expectSummaryMatchesDatabase(site.siteId, summary);
    const idOf = (n: number) => derivedEventId(n, text(lines[n - 1] as Line));
    expect(state.events.map((event) => [event.event_id, event.party_type, event.party_id, event.action, event.occurred_at, event.recorded]).sort()).toEqual(
      [
        [idOf(1), 'user', 'ann', 'read', Date.parse('2025-03-01T09:00:00Z'), 1],
        [idOf(2), 'user', 'ann', 'read', Date.parse('2025-03-02T09:00:00Z'), 1],
        [idOf(3), 'group', 'g-team', 'meet', Date.parse('2025-03-02T10:00:00Z'), 1],
        [idOf(4), 'user', 'bob', 'share', Date.parse('2025-03-03T09:00:00Z'), 1],
        ['legacy-3', 'user', 'ann', 'read', Date.parse('2025-03-03T09:00:00Z'), 1],
        [idOf(6), 'group', 'g-team', 'meet', Date.parse('2025-03-04T10:00:00Z'), 1],
        [idOf(7), 'user', 'bob', 'login', Date.parse('2025-03-05T08:30:00Z'), 1],
      ].sort(),
    );
    expect(state.balances).toEqual({ 'user/ann/Points': 30, 'user/bob/Points': 6, 'group/g-team/Points': 100 });
    // Completions carry the time of the line that completed them.
    expect(state.completions.map((c) => [c.party_type, c.party_id, c.mission_id, c.event_id, c.completed_at]).sort()).toEqual(
      [
        ['user', 'ann', 'm-reader', 'legacy-3', Date.parse('2025-03-03T09:00:00Z')],
        ['user', 'bob', 'm-share', idOf(4), Date.parse('2025-03-03T09:00:00Z')],
        ['user', 'bob', 'm-login', idOf(7), Date.parse('2025-03-05T08:30:00Z')],
        ['group', 'g-team', 'm-team', idOf(6), Date.parse('2025-03-04T10:00:00Z')],
      ].sort(),
    );
    expect(state.ledger.every((row) => state.events.some((event) => event.event_id === row.event_id && event.occurred_at === row.occurred_at))).toBe(true);

    const annHistory = await history(site, 'ann');
    expect(annHistory.map((item) => [item.eventId, item.action, item.timestamp, item.metadata])).toEqual([
      ['legacy-3', 'read', '2025-03-03T09:00:00.000Z', {}],
      [idOf(2), 'read', '2025-03-02T09:00:00.000Z', { source: 'legacy' }],
      [idOf(1), 'read', '2025-03-01T09:00:00.000Z', {}],
    ]);
    for (const item of annHistory) expect(Date.parse(item.receivedAt)).toBeGreaterThan(Date.parse(item.timestamp));
    expect((await history(site, 'bob')).map((item) => item.timestamp)).toEqual([iso('2025-03-05T08:30:00Z'), iso('2025-03-03T09:00:00Z')]);
  });

  it('processes lines in file order: a count-3 mission completes on its third line, a back-to-back repeat is suppressed, the third login of a day is rate-limited', async () => {
    const site = await newSite();
    const lines: Line[] = [
      { userId: 'ann', action: 'read', timestamp: '2025-04-01T08:00:00Z' },
      { userId: 'ann', action: 'share', metadata: { url: 'a' }, timestamp: '2025-04-01T09:00:00Z' },
      { userId: 'ann', action: 'share', metadata: { url: 'a' }, timestamp: '2025-04-01T09:05:00Z' }, // the same as the last recorded: suppressed
      { userId: 'ann', action: 'read', timestamp: '2025-04-01T10:00:00Z' },
      { userId: 'ann', action: 'login', timestamp: '2025-04-02T08:00:00Z' },
      { userId: 'ann', action: 'login', timestamp: '2025-04-02T09:00:00Z' },
      { userId: 'ann', action: 'login', timestamp: '2025-04-02T10:00:00Z' }, // the third of that day: rate-limited
      { userId: 'ann', action: 'read', timestamp: '2025-04-02T11:00:00Z' }, // the third read: m-reader
      { userId: 'ann', action: 'login', timestamp: '2025-04-03T08:00:00Z' },
      { userId: 'ann', action: 'read', timestamp: '2025-04-03T09:00:00Z' }, // m-reader is done
      // Another user whose reads come newest first: the file's order, not the timestamps', decides.
      { userId: 'cy', action: 'read', timestamp: '2025-05-03T09:00:00Z' },
      { userId: 'cy', action: 'read', timestamp: '2025-05-02T09:00:00Z' },
      { userId: 'cy', action: 'read', timestamp: '2025-05-01T09:00:00Z' },
    ];
    const summary = await importLines(site, ndjson(lines));
    expect(summary).toEqual({
      lines: 13,
      recorded: 11,
      duplicates: 0,
      suppressed: { repeatSuppressed: 1, rateLimited: 1 },
      rejected: 0,
      rejections: [],
      missionsCompleted: 1 + 3 + 1 + 1, // one share, three logins, m-reader for ann and for cy
      pointsCredited: 5 + 3 + 30 + 30,
    });
    const state = await expectSummaryMatchesDatabase(site.siteId, summary);
    const idOf = (n: number) => derivedEventId(n, text(lines[n - 1] as Line));
    expect(
      state.events
        .filter((event) => event.recorded === 0)
        .map((event) => [event.event_id, event.reason])
        .sort(),
    ).toEqual(
      [
        [idOf(3), 'repeat_suppressed'],
        [idOf(7), 'rate_limited'],
      ].sort(),
    );
    const reader = state.completions.filter((c) => c.mission_id === 'm-reader');
    expect(reader.map((c) => [c.party_id, c.event_id, c.completed_at]).sort()).toEqual(
      [
        ['ann', idOf(8), Date.parse('2025-04-02T11:00:00Z')],
        ['cy', idOf(13), Date.parse('2025-05-01T09:00:00Z')],
      ].sort(),
    );
    expect(
      state.completions
        .filter((c) => c.mission_id === 'm-login')
        .map((c) => c.event_id)
        .sort(),
    ).toEqual([idOf(5), idOf(6), idOf(9)].sort());
    expect(state.balances).toEqual({ 'user/ann/Points': 38, 'user/cy/Points': 30 });
  });

  it('records nothing when the same body is sent again: every line is a duplicate and the database is unchanged (derived and given event ids)', async () => {
    const site = await newSite();
    const derived: Line[] = [
      { userId: 'ann', action: 'read', timestamp: '2025-06-01T08:00:00Z' },
      { userId: 'ann', action: 'read', timestamp: '2025-06-01T08:00:00Z' }, // the same text on another line: another action
      { userId: 'ann', action: 'read', timestamp: '2025-06-01T09:00:00Z' },
      { userId: 'bob', action: 'share', metadata: { url: 'x' }, timestamp: '2025-06-01T09:00:00Z' },
      { userId: 'bob', action: 'share', metadata: { url: 'x' }, timestamp: '2025-06-01T09:01:00Z' }, // suppressed
      { groupId: 'g-team', action: 'meet', timestamp: '2025-06-02T09:00:00Z' },
      { groupId: 'g-team', action: 'meet', timestamp: '2025-06-02T10:00:00Z' },
      '',
    ];
    const body = ndjson(derived);
    const first = await importLines(site, body);
    expect(first).toMatchObject({
      lines: 8,
      recorded: 6,
      duplicates: 0,
      suppressed: { repeatSuppressed: 1, rateLimited: 0 },
      rejected: 0,
      missionsCompleted: 3,
      pointsCredited: 30 + 5 + 100,
    });
    const before = await expectSummaryMatchesDatabase(site.siteId, first);
    expect(before.events).toHaveLength(7);

    const second = await importLines(site, body);
    expect(second).toEqual({
      lines: 8,
      recorded: 0,
      duplicates: 7,
      suppressed: { repeatSuppressed: 0, rateLimited: 0 },
      rejected: 0,
      rejections: [],
      missionsCompleted: 0,
      pointsCredited: 0,
    });
    expect(await stateOf(site.siteId)).toEqual(before);

    // Lines with their own event ids, one of them twice in the file: the second is a duplicate from the start.
    const given: Line[] = [
      { userId: 'dee', action: 'login', eventId: 'old-1', timestamp: '2025-06-03T08:00:00Z' },
      { userId: 'dee', action: 'login', eventId: 'old-2', timestamp: '2025-06-03T09:00:00Z' },
      { userId: 'dee', action: 'login', eventId: 'old-3', timestamp: '2025-06-03T10:00:00Z' }, // rate-limited
      { userId: 'dee', action: 'login', eventId: 'old-1', timestamp: '2025-06-03T08:00:00Z' },
      { groupId: 'g-team', action: 'meet', eventId: 'old-4', timestamp: '2025-06-04T08:00:00Z' },
    ];
    const givenFirst = await importLines(site, ndjson(given));
    expect(givenFirst).toMatchObject({
      lines: 5,
      recorded: 3,
      duplicates: 1,
      suppressed: { repeatSuppressed: 0, rateLimited: 1 },
      rejected: 0,
      missionsCompleted: 2,
      pointsCredited: 2,
    });
    const after = await stateOf(site.siteId);
    expect(
      after.events
        .map((event) => event.event_id)
        .filter((id) => id.startsWith('old-'))
        .sort(),
    ).toEqual(['old-1', 'old-2', 'old-3', 'old-4']);
    expect(after.ledgerSum).toBe(before.ledgerSum + 2);
    const givenSecond = await importLines(site, ndjson(given));
    expect(givenSecond).toEqual({
      lines: 5,
      recorded: 0,
      duplicates: 5,
      suppressed: { repeatSuppressed: 0, rateLimited: 0 },
      rejected: 0,
      rejections: [],
      missionsCompleted: 0,
      pointsCredited: 0,
    });
    expect(await stateOf(site.siteId)).toEqual(after);
    await expectBalancesMatchLedger(t.database.db, site.siteId);
  });

  it('resumes an interrupted import: the first lines, then the whole file, give exactly what one run gives', async () => {
    const [interrupted, uninterrupted] = [await newSite(), await newSite()];
    const lines: Line[] = [];
    for (let day = 1; day <= 6; day += 1) {
      for (const user of ['ann', 'bob']) {
        lines.push({ userId: user, action: 'login', timestamp: `2025-07-0${day}T08:00:00Z` });
        lines.push({ userId: user, action: 'login', timestamp: `2025-07-0${day}T09:00:00Z` });
        lines.push({ userId: user, action: 'login', timestamp: `2025-07-0${day}T10:00:00Z` });
        lines.push({ userId: user, action: 'read', timestamp: `2025-07-0${day}T11:00:00Z` });
        lines.push({ userId: user, action: 'share', metadata: { url: `u${day % 2}` }, timestamp: `2025-07-0${day}T12:00:00Z` });
      }
      lines.push({ groupId: 'g-team', action: 'meet', timestamp: `2025-07-0${day}T13:00:00Z` });
    }
    const whole = await importLines(uninterrupted, ndjson(lines));
    const part = await importLines(interrupted, ndjson(lines.slice(0, 29)));
    const rest = await importLines(interrupted, ndjson(lines));
    expect(rest.lines).toBe(whole.lines);
    expect(rest.duplicates).toBe(29 - part.rejected);
    expect(part.recorded + rest.recorded).toBe(whole.recorded);
    expect(part.suppressed.repeatSuppressed + rest.suppressed.repeatSuppressed).toBe(whole.suppressed.repeatSuppressed);
    expect(part.suppressed.rateLimited + rest.suppressed.rateLimited).toBe(whole.suppressed.rateLimited);
    expect(part.missionsCompleted + rest.missionsCompleted).toBe(whole.missionsCompleted);
    expect(part.pointsCredited + rest.pointsCredited).toBe(whole.pointsCredited);
    expect(whole).toMatchObject({ lines: 66, rejected: 0, suppressed: { rateLimited: 12, repeatSuppressed: 0 } });
    expect(await stateOf(interrupted.siteId)).toEqual(await stateOf(uninterrupted.siteId));
  });

  it('lists rejected lines with their line numbers and codes, changes nothing for them, and imports the rest of the file', async () => {
    const site = await newSite();
    const metadata = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, `v${i}`]));
    const lines: Line[] = [
      { userId: 'ann', action: 'read', eventId: 'e-ann', timestamp: '2025-08-01T08:00:00Z' },
      { userId: 'zed', action: 'dance', timestamp: '2025-08-01T08:01:00Z' },
      '{"userId": "zed", "action": "read"',
      { userId: 'zed', action: 'read', when: '2025-08-01T08:02:00Z' },
      { userId: 'zed', action: 'read', timestamp: '2025-02-30T10:00:00Z' },
      { userId: 'zed', action: 'read', metadata, timestamp: '2025-08-01T08:03:00Z' },
      '',
      { userId: 'zed', action: 'read', timestamp: new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString() },
      { userId: 'zed', action: 'read', eventId: 'e-ann', timestamp: '2025-08-01T08:04:00Z' },
      { userId: 'zed', action: 'read', value: 'lots', timestamp: '2025-08-01T08:05:00Z' },
      { groupId: 'g team', action: 'meet' },
      { userId: 'ann', action: 'read', timestamp: '2025-08-01T09:00:00Z' },
    ];
    const summary = await importLines(site, ndjson(lines));
    expect(summary).toMatchObject({
      lines: 12,
      recorded: 2,
      duplicates: 0,
      suppressed: { repeatSuppressed: 0, rateLimited: 0 },
      rejected: 9,
      missionsCompleted: 0,
      pointsCredited: 0,
    });
    expect(summary.rejections).toEqual([
      { line: 2, code: 'unknown_action', message: expect.stringContaining('dance') },
      { line: 3, code: 'validation_failed', message: 'The line is not JSON' },
      { line: 4, code: 'validation_failed', message: 'The line is invalid', errors: [{ path: 'when', message: 'is not a field of an import line' }] },
      { line: 5, code: 'validation_failed', message: 'The action is invalid', errors: [{ path: 'timestamp', message: expect.any(String) }] },
      { line: 6, code: 'validation_failed', message: 'The action is invalid', errors: [{ path: 'metadata', message: expect.stringContaining('at most 10') }] },
      { line: 8, code: 'validation_failed', message: 'The action is invalid', errors: [{ path: 'timestamp', message: 'is more than a day in the future' }] },
      { line: 9, code: 'event_id_conflict', message: expect.any(String) },
      {
        line: 10,
        code: 'validation_failed',
        message: 'The action is invalid',
        errors: [{ path: 'value', message: 'must be a number from -1,000,000,000 to 1,000,000,000' }],
      },
      { line: 11, code: 'validation_failed', message: 'The line is invalid', errors: [{ path: 'groupId', message: expect.any(String) }] },
    ]);
    const state = await expectSummaryMatchesDatabase(site.siteId, summary);
    expect(state.events.map((event) => [event.event_id, event.party_id])).toEqual(
      [
        ['e-ann', 'ann'],
        [derivedEventId(12, text(lines[11] as Line)), 'ann'],
      ].sort(),
    );
    // Nothing anywhere for the user whose every line was refused.
    const db = t.database.db;
    for (const table of ['action_events', 'parties', 'mission_progress', 'points_ledger', 'point_balances'] as const) {
      expect(await db.selectFrom(table).select('party_id').where('site_id', '=', site.siteId).where('party_id', '=', 'zed').execute(), table).toEqual([]);
    }
    expect(state.progress).toEqual([{ party_type: 'user', party_id: 'ann', mission_id: 'm-reader', rule_id: 'r-1', current: 2 }]);

    // Sent again: the two recorded lines are duplicates, the others are refused again.
    const again = await importLines(site, ndjson(lines));
    expect(again).toMatchObject({ lines: 12, recorded: 0, duplicates: 2, rejected: 9 });
    expect(again.rejections.map((rejection) => rejection.line)).toEqual([2, 3, 4, 5, 6, 8, 9, 10, 11]);
    expect(await stateOf(site.siteId)).toEqual(state);
  });

  it('counts every rejected line but lists the first 1000', async () => {
    const site = await newSite();
    const lines: Line[] = [];
    for (let n = 1; n <= 1203; n += 1) lines.push(n % 3 === 0 ? { userId: 'ann', action: 'read', colour: n } : `not json ${n}`);
    lines.push({ userId: 'ann', action: 'read', timestamp: '2025-09-01T08:00:00Z' });
    const summary = await importLines(site, ndjson(lines));
    expect(summary).toMatchObject({ lines: 1204, recorded: 1, rejected: 1203 });
    expect(summary.rejections).toHaveLength(1000);
    expect(summary.rejections.map((rejection) => rejection.line)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(summary.rejections[2]).toEqual({
      line: 3,
      code: 'validation_failed',
      message: 'The line is invalid',
      errors: [{ path: 'colour', message: 'is not a field of an import line' }],
    });
    expect(new Set(summary.rejections.map((rejection) => rejection.code))).toEqual(new Set(['validation_failed']));
    const state = await expectSummaryMatchesDatabase(site.siteId, summary);
    expect(state.events.map((event) => event.event_id)).toEqual([derivedEventId(1204, text(lines[1203] as Line))]);
  });

  describe('content types', () => {
    // One site: each accepted type imports a line for a user of its own; the refused ones, all for
    // the user "refused", must leave no trace of that user.
    let site: Site;
    beforeAll(async () => {
      site = await newSite();
    });
    const eventsOf = async (user: string) => (await stateOf(site.siteId)).events.filter((event) => event.party_id === user);
    const refused = ndjson([{ userId: 'refused', action: 'read', timestamp: '2025-10-01T08:00:00Z' }]);

    it.each(['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-ndjson; charset=utf-8', 'Application/JSONL'])(
      'accepts %s',
      async (contentType) => {
        const line = { userId: `ct-${contentType.replace(/[^a-z]/gi, '')}`, action: 'read', timestamp: '2025-10-01T08:00:00Z' };
        const summary = summaryOf(await post(site.admin, ndjson([line]), contentType));
        expect(summary).toMatchObject({ lines: 1, recorded: 1, rejected: 0 });
        expect((await eventsOf(line.userId)).map((event) => event.event_id)).toEqual([derivedEventId(1, text(line))]);
      },
    );

    it.each<[string, string | null, number | undefined]>([
      ['text/plain', 'text/plain', 415],
      ['application/octet-stream', 'application/octet-stream', 415],
      ['no Content-Type', null, 415],
      ['application/json', 'application/json', 415],
      ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded', 415],
    ])('refuses %s and records nothing', async (_name, contentType, status) => {
      const response = await post(site.admin, refused, contentType);
      expect(response.statusCode).not.toBe(200);
      if (status !== undefined) {
        expect(response.statusCode, response.body).toBe(status);
        expect(problemOf(response).code).toBe('unsupported_media_type');
      }
      expect(await eventsOf('refused')).toEqual([]);
      expect(
        await t.database.db.selectFrom('parties').select('party_id').where('site_id', '=', site.siteId).where('party_id', '=', 'refused').execute(),
      ).toEqual([]);
    });

    // The 415 names the types the endpoint takes, not the JSON and form bodies of other endpoints.
    it('names the NDJSON content types in its 415', async () => {
      const response = await post(site.admin, refused, 'text/plain');
      expect(response.statusCode).toBe(415);
      expect(problemOf(response).detail).toContain('ndjson');
    });
  });

  it('takes a body over the 1 MB of other endpoints (2 MB of lines)', async () => {
    const site = await newSite();
    const padding = ' '.repeat(110 * 1024);
    const lines = Array.from(
      { length: 20 },
      (_, i) => `{"userId": "ann",${padding}"action": "read", "timestamp": ${Date.parse('2025-10-02T00:00:00Z') + i * 1000}}`,
    );
    const payload = ndjson(lines);
    expect(payload.length).toBeGreaterThan(2 * MB);
    const summary = await importLines(site, payload);
    expect(summary).toMatchObject({ lines: 20, recorded: 20, rejected: 0, missionsCompleted: 1, pointsCredited: 30 });
    await expectSummaryMatchesDatabase(site.siteId, summary);
  });

  it('refuses a Content-Length over 10 MB with 413 payload_too_large before reading anything (inject: a real 11 MB body)', async () => {
    const site = await newSite();
    const line = `${JSON.stringify({ userId: 'ann', action: 'read', metadata: { pad: 'x'.repeat(900) } })}\n`;
    const payload = line.repeat(Math.ceil((11 * MB) / line.length));
    const response = await post(site.admin, payload);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(413);
    expect(problemOf(response)).toMatchObject({ code: 'payload_too_large', detail: expect.stringContaining('nothing was imported') });
    expect((await stateOf(site.siteId)).events).toEqual([]);
  });

  /** About 11 MB of lines (never read: refused on their length), in 64-line chunks. */
  const elevenMegabytes = () => {
    const line = Buffer.from(`${JSON.stringify({ userId: 'ann', action: 'read', metadata: { pad: 'x'.repeat(900) } })}\n`);
    const chunks = Array.from({ length: Math.ceil((11 * MB) / line.length / 64) }, () => Buffer.concat(Array.from({ length: 64 }, () => line)));
    return { chunks, length: chunks.reduce((sum, chunk) => sum + chunk.length, 0) };
  };

  it('refuses a real 11 MB body with its Content-Length over a socket: 413, the connection closed, nothing recorded', async () => {
    const site = await newSite();
    const { chunks, length } = elevenMegabytes();
    expect(length).toBeGreaterThan(10 * MB);
    const answer = await rawPost(site.admin, chunks, { 'content-length': String(length) });
    expect(answer.timedOut).toBeUndefined();
    expect(answer.status, JSON.stringify(answer).slice(0, 300)).toBe(413);
    expect((JSON.parse(answer.body ?? '{}') as { code?: string }).code).toBe('payload_too_large');
    expect((await stateOf(site.siteId)).events).toEqual([]);
  });

  // After the 413 for a Content-Length over 10 MB the server reads and drops the body, and closes the
  // connection when the client stops sending: Node's keep-alive client stops writing once the answer
  // has come, and must not stall.
  it('ends the exchange at once for a keep-alive client sending 11 MB with its Content-Length', async () => {
    const site = await newSite();
    const { chunks, length } = elevenMegabytes();
    const answer = await rawPost(site.admin, chunks, { 'content-length': String(length) }, { keepAlive: true, deadlineMs: 2000 });
    expect(answer.status).toBe(413);
    expect(answer.timedOut).toBeUndefined();
  });

  /** Three lines, then 11 blank lines of 1 MB each, sent without a length. */
  const overflowing = () => {
    const head = [1, 2, 3].map((n) => ({ userId: 'ann', action: 'read', timestamp: `2025-11-0${n}T08:00:00Z` }));
    return { head, chunks: [Buffer.from(ndjson(head)), ...Array.from({ length: 11 }, () => Buffer.from(`${' '.repeat(MB)}\n`))] };
  };
  /** The number of the site's events once the server is through with what it read (it goes on after the connection is gone). */
  const eventsSettled = async (siteId: string, expected: number) => {
    const count = async () => (await stateOf(siteId)).events.length;
    for (let i = 0; i < 100 && (await count()) < expected; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise((resolve) => setTimeout(resolve, 300));
    return count();
  };

  it('stops reading a body sent without a length once it passes 10 MB: the lines before were imported, and sent again are duplicates', async () => {
    const site = await newSite();
    const { head, chunks } = overflowing();
    const answer = await rawPost(site.admin, chunks, { 'transfer-encoding': 'chunked' });
    expect(answer.timedOut).toBeUndefined();
    expect(await eventsSettled(site.siteId, 3)).toBe(3);
    const state = await stateOf(site.siteId);
    expect(state.completions.map((c) => c.event_id)).toEqual([derivedEventId(3, text(head[2] as Line))]);
    const again = await importLines(site, ndjson(head));
    expect(again).toMatchObject({ lines: 3, recorded: 0, duplicates: 3 });
    expect(await stateOf(site.siteId)).toEqual(state);
  });

  // docs/import.md, "The endpoint": a body sent without a length stops at 10 MB with a 413 that
  // says which lines were imported.
  it('answers a body sent without a length that passes 10 MB with 413 payload_too_large naming the lines imported', async () => {
    const site = await newSite();
    const answer = await rawPost(site.admin, overflowing().chunks, { 'transfer-encoding': 'chunked' });
    await eventsSettled(site.siteId, 3);
    expect(answer.error).toBeUndefined();
    expect(answer.status).toBe(413);
    const problem = JSON.parse(answer.body ?? '{}') as { code?: string; detail?: string };
    expect(problem.code).toBe('payload_too_large');
    expect(problem.detail).toMatch(/lines 1–\d+ were imported/);
  });

  describe('security', () => {
    let site: Site;
    const lines = ndjson([{ userId: 'ann', action: 'read', timestamp: '2025-12-01T08:00:00Z' }]);

    beforeAll(async () => {
      site = await newSite();
    });

    it('answers 401 missing_token without a token, and records nothing', async () => {
      const response = await post(undefined, lines);
      expect(response.statusCode).toBe(401);
      expect(problemOf(response).code).toBe('missing_token');
      expect((await stateOf(site.siteId)).events).toEqual([]);
    });

    it.each<[string, () => Promise<string>]>([
      ["an app client's token", () => t.token(site.clients.app)],
      ['a user-level token of the app client', () => t.token(site.clients.app, 'ann')],
      ['a user-level token of the admin client (for the user the line names)', () => t.token(site.clients.admin, 'ann')],
    ])('answers 403 forbidden to %s, and records nothing', async (_name, tokenOf) => {
      const response = await post(await tokenOf(), lines);
      expect(response.statusCode, response.body).toBe(403);
      expect(problemOf(response).code).toBe('forbidden');
      expect((await stateOf(site.siteId)).events).toEqual([]);
      expect(await t.database.db.selectFrom('parties').select('party_id').where('site_id', '=', site.siteId).execute()).toEqual([]);
    });
  });

  it("keeps sites apart: site A's import never touches site B's users of the same ids, and B's event ids do not make A's lines duplicates", async () => {
    const [a, b] = [await newSite(), await newSite()];
    const lines: Line[] = [
      { userId: 'ann', action: 'read', eventId: 'shared-1', timestamp: '2025-12-02T08:00:00Z' },
      { userId: 'ann', action: 'read', timestamp: '2025-12-02T09:00:00Z' },
      { userId: 'ann', action: 'read', timestamp: '2025-12-02T10:00:00Z' },
      { groupId: 'g-team', action: 'meet', timestamp: '2025-12-02T11:00:00Z' },
      { groupId: 'g-team', action: 'meet', timestamp: '2025-12-02T12:00:00Z' },
    ];
    const onB = await importLines(b, ndjson(lines));
    expect(onB).toMatchObject({ recorded: 5, duplicates: 0, missionsCompleted: 2, pointsCredited: 130 });
    const bBefore = await stateOf(b.siteId);

    // The same file, with the same given and derived event ids, on site A.
    const onA = await importLines(a, ndjson(lines));
    expect(onA).toEqual(onB);
    const aState = await expectSummaryMatchesDatabase(a.siteId, onA);
    expect(aState.balances).toEqual({ 'user/ann/Points': 30, 'group/g-team/Points': 100 });
    expect(aState.events.map((event) => event.event_id)).toEqual(bBefore.events.map((event) => event.event_id));
    // A second import on A is all duplicates there, and B still has exactly what it had.
    expect(await importLines(a, ndjson(lines))).toMatchObject({ recorded: 0, duplicates: 5 });
    const share = { userId: 'ann', action: 'share', metadata: { url: 'a' }, timestamp: '2025-12-03T08:00:00Z' };
    const more = await importLines(a, ndjson([share]));
    expect(more).toMatchObject({ recorded: 1, pointsCredited: 5 });
    expect(await stateOf(b.siteId)).toEqual(bBefore);
    expect((await stateOf(a.siteId)).balances).toEqual({ 'user/ann/Points': 35, 'group/g-team/Points': 100 });
    expect((await history(b, 'ann')).map((item) => item.eventId)).not.toContain(derivedEventId(1, text(share)));
    expect(await history(b, 'ann')).toHaveLength(3);
    expect(await history(a, 'ann')).toHaveLength(4);
  });

  it('reads CRLF line endings, a blank CRLF line, a byte-order mark and a last line without a newline; the same file with LF is all duplicates', async () => {
    const site = await newSite();
    const lines: Line[] = [
      { userId: 'ann', action: 'read', timestamp: '2026-01-05T08:00:00Z' },
      { userId: 'ann', action: 'read', timestamp: '2026-01-05T09:00:00Z' },
      '',
      { groupId: 'g-team', action: 'meet', timestamp: '2026-01-05T10:00:00Z' },
      { userId: 'ann', action: 'read', timestamp: '2026-01-05T11:00:00Z' },
    ];
    const crlf = `\uFEFF${lines.map(text).join('\r\n')}`;
    const summary = await importLines(site, crlf);
    expect(summary).toEqual({
      lines: 5,
      recorded: 4,
      duplicates: 0,
      suppressed: { repeatSuppressed: 0, rateLimited: 0 },
      rejected: 0,
      rejections: [],
      missionsCompleted: 1,
      pointsCredited: 30,
    });
    const state = await expectSummaryMatchesDatabase(site.siteId, summary);
    // The line's text without its line break (nor the mark) makes the event id.
    expect(state.events.map((event) => event.event_id).sort()).toEqual([1, 2, 4, 5].map((n) => derivedEventId(n, text(lines[n - 1] as Line))).sort());
    expect((await history(site, 'ann')).map((item) => item.timestamp)).toEqual([
      '2026-01-05T11:00:00.000Z',
      '2026-01-05T09:00:00.000Z',
      '2026-01-05T08:00:00.000Z',
    ]);

    const lf = await importLines(site, lines.map(text).join('\n'));
    expect(lf).toMatchObject({ lines: 5, recorded: 0, duplicates: 4, rejected: 0 });
    expect(await stateOf(site.siteId)).toEqual(state);
  });
});
