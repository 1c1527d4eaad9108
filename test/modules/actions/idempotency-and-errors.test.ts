// POST /users/{u}/actions through the HTTP stack (SPEC §5 steps 1–2, §3): a repeated eventId
// returns the original outcome and writes nothing; reusing it for another user or action is 409 and
// reveals nothing; bad input is refused with field errors and writes nothing; user-level tokens
// log only clientLoggable actions for their own user; sites are separate.
import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { EXAMPLE_PROGRAM_PATH as examplePath } from '../../helpers/fixtures.js';
import { rowCounts } from '../../helpers/ledger.js';

const example = JSON.parse(readFileSync(examplePath, 'utf8')) as Record<string, unknown>;

// Noon in New York on 2026-06-15, inside every mission's dates.
const START = Date.parse('2026-06-15T16:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);

type Body = string | Record<string, unknown>;
interface Problem {
  status: number;
  code: string;
  requestId: string;
  errors?: Array<{ path: string; message: string }>;
}

describe.each(configurations)('action idempotency, input errors and security (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;

  const post = (url: string, token: string | undefined, payload: Body) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
        ...(typeof payload === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      payload,
    });
  const outcomeOf = (response: LightMyRequestResponse) => (response.json() as { response: ActionOutcome }).response;
  const expectProblem = (response: LightMyRequestResponse, status: number, code: string): Problem => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = response.json() as Problem;
    expect(problem).toMatchObject({ status, code, requestId: response.headers['x-request-id'] });
    return problem;
  };

  const db = () => t.database.db;
  /** Row counts of every table an action writes, for a site. */
  const footprint = (siteId = site.siteId) =>
    rowCounts(db(), siteId, ['parties', 'action_events', 'mission_progress', 'mission_completions', 'points_ledger', 'point_balances', 'trophies', 'outbox']);

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock });
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: example });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => t.close());

  describe('idempotency', () => {
    it('answers the same eventId again with 200, duplicate true and the original outcome, writing nothing more', async () => {
      const first = await post('/users/idem/actions', client, { action: 'read_article', eventId: 'evt-1' });
      expect(first.statusCode, first.body).toBe(201);
      const original = outcomeOf(first);
      expect(original.missionsCompleted.map((m) => m.id)).toEqual(['m-first-read']);
      const before = await footprint();

      // Resent as JSON, as a form, with a later timestamp, other metadata and the action in another case.
      const resends: Body[] = [
        { action: 'read_article', eventId: 'evt-1' },
        'action=read_article&eventId=evt-1',
        { action: 'READ_ARTICLE', eventId: 'evt-1', value: 7, metadata: { topic: 'recipe' }, timestamp: '2026-06-15T11:00:00' },
      ];
      for (const body of resends) {
        const again = await post('/users/idem/actions', client, body);
        expect(again.statusCode, again.body).toBe(200);
        expect(outcomeOf(again)).toEqual({ ...original, duplicate: true });
      }
      expect(await footprint()).toEqual(before);
      const where = (table: 'action_events' | 'mission_completions' | 'points_ledger') =>
        db().selectFrom(table).selectAll().where('site_id', '=', site.siteId).where('party_id', '=', 'idem').execute();
      expect(await where('action_events')).toHaveLength(1);
      expect(await where('mission_completions')).toHaveLength(1);
      expect(await where('points_ledger')).toHaveLength(1);
    });

    it('returns a not-recorded outcome again as it was (repeat_suppressed), still not recorded', async () => {
      const share = { action: 'share', metadata: 'url:x' };
      expect((await post('/users/idem-share/actions', client, share)).statusCode).toBe(201);
      const suppressed = await post('/users/idem-share/actions', client, { ...share, eventId: 'evt-share' });
      expect(outcomeOf(suppressed)).toMatchObject({ recorded: false, reason: 'repeat_suppressed', duplicate: false });
      const again = await post('/users/idem-share/actions', client, { ...share, eventId: 'evt-share' });
      expect(again.statusCode).toBe(200);
      expect(outcomeOf(again)).toEqual({ ...outcomeOf(suppressed), duplicate: true });
    });

    it.each([
      ['another user', '/users/bob/actions', { action: 'read_article', eventId: 'evt-1' }],
      ['another action', '/users/idem/actions', { action: 'watch_video', eventId: 'evt-1' }],
      ['another user and action', '/users/bob/actions', 'action=watch_video&eventId=evt-1'],
      ['a group', '/groups/g-sales/actions', { action: 'read_article', eventId: 'evt-1' }],
    ])('refuses the eventId reused for %s with 409 event_id_conflict, revealing nothing of the first', async (_kind, url, body) => {
      const before = await footprint();
      const problem = expectProblem(await post(url, client, body), 409, 'event_id_conflict');
      expect(JSON.stringify(problem)).not.toMatch(/idem|read_article|First read|m-first-read|cmp_|Points/i);
      expect(problem.errors).toBeUndefined();
      expect(await footprint()).toEqual(before);
    });
  });

  describe('bad input', () => {
    const pairs = Array.from({ length: 11 }, (_, i) => `k${i}:v${i}`).join(',');
    const cases: Array<[string, string, Body, number, string, string | undefined]> = [
      ['user id with a space', '/users/a%20b/actions', { action: 'read_article' }, 400, 'validation_failed', undefined],
      ['value that is not a number (JSON)', '/users/ann/actions', { action: 'purchase', value: 'abc' }, 400, 'validation_failed', 'value'],
      ['value that is not a number (form)', '/users/ann/actions', 'action=purchase&value=ten', 400, 'validation_failed', 'value'],
      ['value that is not finite', '/users/ann/actions', 'action=purchase&value=Infinity', 400, 'validation_failed', 'value'],
      ['11 metadata pairs', '/users/ann/actions', `action=share&metadata=${encodeURIComponent(pairs)}`, 400, 'validation_failed', 'metadata'],
      [
        '11 metadata pairs (JSON)',
        '/users/ann/actions',
        { action: 'share', metadata: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i])) },
        400,
        'validation_failed',
        'metadata',
      ],
      ['metadata without a colon', '/users/ann/actions', 'action=share&metadata=nocolon', 400, 'validation_failed', 'metadata'],
      ['a nested metadata value', '/users/ann/actions', { action: 'share', metadata: { a: { b: 1 } } }, 400, 'validation_failed', 'metadata.a'],
      ['a bad timestamp', '/users/ann/actions', { action: 'read_article', timestamp: 'yesterday' }, 400, 'validation_failed', 'timestamp'],
      [
        'an impossible date (no offset)',
        '/users/ann/actions',
        { action: 'read_article', timestamp: '2026-02-30T10:00:00' },
        400,
        'validation_failed',
        'timestamp',
      ],
      [
        'an impossible date (with an offset)',
        '/users/ann/actions',
        { action: 'read_article', timestamp: '2026-02-31T10:00:00Z' },
        400,
        'validation_failed',
        'timestamp',
      ],
      ['a timestamp more than a day ahead', '/users/ann/actions', { action: 'read_article', timestamp: 'FUTURE' }, 400, 'validation_failed', 'timestamp'],
      ['an unknown action', '/users/ann/actions', { action: 'dance' }, 422, 'unknown_action', undefined],
      ['a 256-character eventId', '/users/ann/actions', { action: 'read_article', eventId: 'e'.repeat(256) }, 400, 'validation_failed', 'eventId'],
      ['an empty eventId', '/users/ann/actions', { action: 'read_article', eventId: '' }, 400, 'validation_failed', 'eventId'],
      ['no action', '/users/ann/actions', { value: 3 }, 400, 'validation_failed', 'action'],
      ['an empty form body', '/users/ann/actions', 'action=', 400, 'validation_failed', 'action'],
    ];

    it.each(cases)('refuses %s with the documented error and writes nothing', async (_name, url, body, status, code, path) => {
      const payload = typeof body === 'object' && body.timestamp === 'FUTURE' ? { ...body, timestamp: new Date(clock() + 25 * 3600_000).toISOString() } : body;
      const before = await footprint();
      const problem = expectProblem(await post(url, client, payload), status, code);
      if (path !== undefined) expect(problem.errors).toContainEqual({ path, message: expect.any(String) });
      expect(await footprint()).toEqual(before);
    });

    it('accepts a timestamp less than a day ahead and a 255-character eventId', async () => {
      const response = await post('/users/ann/actions', client, {
        action: 'watch_video',
        eventId: 'e'.repeat(255),
        timestamp: new Date(clock() + 23 * 3600_000).toISOString(),
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(outcomeOf(response).eventId).toBe('e'.repeat(255));
    });
  });

  describe('security', () => {
    it('answers 401 without a token or with a forged one, writing nothing', async () => {
      const before = await footprint();
      expectProblem(await post('/users/ann/actions', undefined, { action: 'read_article' }), 401, 'missing_token');
      expectProblem(await post('/users/ann/actions', 'not.a.token', { action: 'read_article' }), 401, 'invalid_token');
      expect(await footprint()).toEqual(before);
    });

    it('lets a user-level token log only clientLoggable actions, and only for its own user', async () => {
      const user = await t.token(site.app, 'ula');
      const before = await footprint();
      expectProblem(await post('/users/ula/actions', user, { action: 'read_article' }), 403, 'forbidden');
      expect(await footprint()).toEqual(before);

      const put = await t.app.inject({
        method: 'PUT',
        url: '/admin/actions/read_article',
        headers: { authorization: `Bearer ${admin}` },
        payload: { name: 'read_article', clientLoggable: true },
      });
      expect(put.statusCode, put.body).toBe(200);
      const logged = await post('/users/ula/actions', user, 'action=read_article');
      expect(logged.statusCode, logged.body).toBe(201);
      expect(outcomeOf(logged).missionsCompleted.map((m) => m.id)).toEqual(['m-first-read']);

      const after = await footprint();
      for (const [url, body] of [
        ['/users/ula/actions', { action: 'watch_video' }],
        ['/users/ula/actions', { action: 'QUIZ_COMPLETED', metadata: { quiz_id: 'q-safety', passed: true } }],
        ['/users/bob/actions', { action: 'read_article' }],
        ['/users/ULA/actions', { action: 'read_article' }],
        ['/groups/g-sales/actions', { action: 'read_article' }],
      ] as const) {
        expectProblem(await post(url, user, body), 403, 'forbidden');
      }
      expect(await footprint()).toEqual(after);
      const events = await db()
        .selectFrom('action_events')
        .select(['party_id', 'action'])
        .where('site_id', '=', site.siteId)
        .where('party_id', 'in', ['ula', 'bob', 'ULA'])
        .execute();
      expect(events).toEqual([{ party_id: 'ula', action: 'read_article' }]);
    });

    it("logs a token's actions into its own site only: programs, data and eventIds are separate", async () => {
      const other = await t.createSite();
      const otherAdmin = await t.token(other.admin);
      const otherClient = await t.token(other.app);
      const program = {
        site: { name: 'Other', timezone: 'Europe/Paris' },
        pointCategories: [{ name: 'Points', isDefault: true }],
        actions: [{ name: 'read_article' }],
      };
      const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${otherAdmin}` }, payload: program });
      expect(put.statusCode, put.body).toBe(200);
      const before = await footprint();

      const theirs = await post('/users/zoe/actions', otherClient, { action: 'read_article', eventId: 'shared-evt' });
      expect(theirs.statusCode, theirs.body).toBe(201);
      expect(outcomeOf(theirs)).toMatchObject({
        eventId: 'shared-evt',
        recorded: true,
        duplicate: false,
        missionsCompleted: [],
        pointsAwarded: [],
        progress: [],
      });
      expect(await footprint()).toEqual(before);
      expectProblem(await post('/users/zoe/actions', otherClient, { action: 'watch_video' }), 422, 'unknown_action');

      const ours = await post('/users/zoe/actions', client, { action: 'read_article', eventId: 'shared-evt' });
      expect(ours.statusCode, ours.body).toBe(201);
      expect(outcomeOf(ours)).toMatchObject({ eventId: 'shared-evt', duplicate: false, missionsCompleted: [{ id: 'm-first-read' }] });
      // evt-1 belongs to the first site's user idem; in the other site it is free.
      expect((await post('/users/zoe/actions', otherClient, { action: 'read_article', eventId: 'evt-1' })).statusCode).toBe(201);

      const rows = await db().selectFrom('action_events').select(['site_id', 'party_id']).where('event_id', '=', 'shared-evt').orderBy('site_id').execute();
      expect(rows.map((row) => row.site_id).sort()).toEqual([other.siteId, site.siteId].sort());
      expect(await footprint(other.siteId)).toMatchObject({ action_events: 2, points_ledger: 0, point_balances: 0, mission_completions: 0, outbox: 0 });
    });
  });
});
