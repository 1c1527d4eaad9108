// Numbers that would not fit the ledger (issue 23, item 1): an action's value has a finite range
// (docs/actions.md), a computed reward that is not a safe integer within the ledger's range is
// refused with 422 amount_out_of_range before anything is written, and the other writers (imports,
// recognitions, point adjustments, award debits, the program's own amounts) take bounded numbers.
// Each refusal leaves every table as it was, and a retry cannot record what the first try refused.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACTION_VALUE, MAX_POINTS } from '../../../src/engine/amounts.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';
import { rowCounts } from '../../helpers/ledger.js';

const START = Date.parse('2026-06-15T16:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);

interface Mission {
  id: string;
  rewards: { points: Array<{ category: string; amount: number }>; multiplier?: number };
  [key: string]: unknown;
}

/** The example program with a mission paying 1,000,000 Points × value × 1,000,000 per purchase. */
function program(): Record<string, unknown> {
  const example = exampleProgram<{ missions: Mission[] } & Record<string, unknown>>();
  const perUnit: Mission = {
    id: 'm-per-unit',
    name: 'Per unit',
    startDate: '2026-01-01T00:00:00',
    endDate: '2027-12-31T23:59:59',
    timezone: 'America/New_York',
    rules: [{ id: 'r-1', action: 'purchase', type: 'sum', goal: 1, metadata: [] }],
    rewards: { points: [{ category: 'Points', amount: 1_000_000 }], multiplier: 1_000_000 },
    repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
  };
  return { ...example, missions: [...example.missions, perUnit] };
}

describe.each(configurations)('amounts that would not fit the ledger (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;

  const inject = (method: 'POST' | 'PUT', url: string, token: string, payload: string | Record<string, unknown>, contentType?: string) =>
    t.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(contentType !== undefined
          ? { 'content-type': contentType }
          : typeof payload === 'string'
            ? { 'content-type': 'application/x-www-form-urlencoded' }
            : {}),
      },
      payload,
    });
  const expectProblem = (response: LightMyRequestResponse, status: number, code: string, path?: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = response.json() as { code: string; detail?: string; errors?: Array<{ path: string; message: string }> };
    expect(problem.code).toBe(code);
    if (path !== undefined) expect(problem.errors?.map((error) => error.path)).toContain(path);
    return problem;
  };
  /** Row counts of every table a write may touch, for the site. */
  const footprint = () =>
    rowCounts(t.database.db, site.siteId, [
      'parties',
      'action_events',
      'mission_progress',
      'mission_completions',
      'points_ledger',
      'point_balances',
      'point_earnings',
      'trophies',
      'outbox',
      'leaderboard_scores',
      'recognitions',
      'award_ledger',
    ]);

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock });
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    const put = await inject('PUT', '/admin/program', admin, program());
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => t.close());

  describe('an action value', () => {
    it.each([
      ['1e308 (JSON)', { action: 'purchase', value: 1e308 }],
      ['-1e308 (JSON)', { action: 'purchase', value: -1e308 }],
      ['just above the range (JSON)', { action: 'purchase', value: MAX_ACTION_VALUE + 1 }],
      ['just below the range (JSON)', { action: 'purchase', value: -MAX_ACTION_VALUE - 1 }],
      ['1e308 (form)', 'action=purchase&value=1e308'],
      ['Infinity (form)', 'action=purchase&value=Infinity'],
      ['a string of digits past the range (JSON)', { action: 'purchase', value: '10000000000' }],
    ])('outside the range is 400 validation_failed on value, and writes nothing: %s', async (_name, body) => {
      const before = await footprint();
      for (const url of ['/users/big/actions', '/users/big/actions?dryRun=true']) {
        expectProblem(await inject('POST', url, client, body), 400, 'validation_failed', 'value');
      }
      expect(await footprint()).toEqual(before);
    });

    it('at the edge of the range is recorded (a sum rule advances by it)', async () => {
      const response = await inject('POST', '/users/edge/actions', client, { action: 'purchase', value: -MAX_ACTION_VALUE });
      expect(response.statusCode, response.body).toBe(201);
      expect((response.json() as { response: { recorded: boolean } }).response.recorded).toBe(true);
    });
  });

  describe('a computed reward', () => {
    it('that is not a safe integer within the ledger range is 422 amount_out_of_range, writes nothing, and a retry does neither', async () => {
      const before = await footprint();
      // 1,000,000 × 1,000,000,000 × 1,000,000 = 1e21 points.
      for (const [url, body] of [
        ['/users/rich/actions', { action: 'purchase', value: MAX_ACTION_VALUE }],
        ['/users/rich/actions?dryRun=true', { action: 'purchase', value: MAX_ACTION_VALUE }],
        ['/users/rich/actions', `action=purchase&value=${MAX_ACTION_VALUE}`],
        ['/users/rich/actions', { action: 'purchase', value: MAX_ACTION_VALUE, eventId: 'big-1' }],
        ['/users/rich/actions', { action: 'purchase', value: MAX_ACTION_VALUE, eventId: 'big-1' }],
      ] as const) {
        const problem = expectProblem(await inject('POST', url, client, body), 422, 'amount_out_of_range');
        expect(JSON.stringify(problem)).toMatch(/Points/);
      }
      expect(await footprint()).toEqual(before);
      // The user's state is as if nothing had happened: an ordinary purchase pays as usual.
      const ordinary = await inject('POST', '/users/rich/actions', client, { action: 'purchase', value: 1, eventId: 'big-1' });
      expect(ordinary.statusCode, ordinary.body).toBe(201);
      const outcome = (ordinary.json() as { response: { pointsAwarded: Array<{ category: string; credited: number }> } }).response;
      expect(outcome.pointsAwarded).toContainEqual({ category: 'Points', requested: 1_000_000_000_000, credited: 1_000_000_000_000 });
    });

    it('that would take a balance past the integers the ledger holds exactly is 422, and nothing is stored', async () => {
      // A balance built by many of the largest rewards: one short of the last safe integer.
      await t.app.inject({ method: 'POST', url: '/users/full/actions', headers: { authorization: `Bearer ${client}` }, payload: { action: 'read_article' } });
      await t.database.db
        .updateTable('point_balances')
        .set({ balance: Number.MAX_SAFE_INTEGER - 5 })
        .where('site_id', '=', site.siteId)
        .where('party_id', '=', 'full')
        .where('category', '=', 'Points')
        .execute();
      const before = await footprint();
      const response = await inject('POST', '/users/full/actions', client, { action: 'purchase', value: 1, eventId: 'overflow' });
      expect(expectProblem(response, 422, 'amount_out_of_range').detail).toMatch(/Points balance/);
      expect(await footprint()).toEqual(before);
      const balance = await t.database.db
        .selectFrom('point_balances')
        .select('balance')
        .where('site_id', '=', site.siteId)
        .where('party_id', '=', 'full')
        .where('category', '=', 'Points')
        .executeTakeFirstOrThrow();
      expect(Number(balance.balance)).toBe(Number.MAX_SAFE_INTEGER - 5);
      // The same through an admin adjustment.
      expectProblem(await inject('POST', '/admin/users/full/points', admin, { category: 'Points', amount: 10, reason: 'bonus' }), 422, 'amount_out_of_range');
      expect(await footprint()).toEqual(before);
    });

    it('through an import is a rejected line, and the other lines are recorded', async () => {
      const before = await footprint();
      const lines = [
        { userId: 'imp', action: 'purchase', value: MAX_ACTION_VALUE, eventId: 'imp-big' },
        { userId: 'imp', action: 'purchase', value: 1e308, eventId: 'imp-huge' },
        { userId: 'imp', action: 'read_article', eventId: 'imp-ok' },
      ];
      const response = await inject('POST', '/admin/import', admin, lines.map((line) => JSON.stringify(line)).join('\n'), 'application/x-ndjson');
      expect(response.statusCode, response.body).toBe(200);
      const summary = (response.json() as { response: { recorded: number; rejected: number; rejections: Array<{ line: number; code: string }> } }).response;
      expect(summary).toMatchObject({ recorded: 1, rejected: 2 });
      expect(summary.rejections.map((rejection) => [rejection.line, rejection.code])).toEqual([
        [1, 'amount_out_of_range'],
        [2, 'validation_failed'],
      ]);
      const after = await footprint();
      expect(after.action_events).toBe((before.action_events ?? 0) + 1);
    });
  });

  describe('the other writers', () => {
    it.each([
      ['a point adjustment', '/admin/users/adj/points', { category: 'Points', amount: 1e300, reason: 'typo' }, 'body.amount'],
      ['an award debit', '/admin/users/adj/award-debits', { kind: 'purchase', amount: 1e300, reference: 'r-1' }, 'body.amount'],
    ])('%s with a huge amount is 400 validation_failed and writes nothing', async (_name, url, body, path) => {
      const before = await footprint();
      expectProblem(await inject('POST', url, admin, body), 400, 'validation_failed', path);
      expect(await footprint()).toEqual(before);
    });

    it.each([
      ['points', { exchangeId: 'x-kudos', categoryId: 'c-teamwork', recipients: ['bob'], points: 1e300 }, 'points'],
      ['points past the ledger range', { exchangeId: 'x-kudos', categoryId: 'c-teamwork', recipients: ['bob'], points: MAX_POINTS + 1 }, 'points'],
      ['an amount per recipient', { exchangeId: 'x-kudos', categoryId: 'c-teamwork', recipientPoints: { bob: 1e300 } }, 'recipientPoints.bob'],
    ])('a recognition with huge %s is 400 validation_failed and writes nothing', async (_name, body, path) => {
      const giver = await t.token(site.app, 'ann');
      const before = await footprint();
      const response = await inject('POST', '/users/ann/interactions-collection', giver, body);
      expectProblem(response, 400, 'validation_failed', path);
      expect(await footprint()).toEqual(before);
    });

    it.each([
      ['a mission reward', (p: { missions: Mission[] }) => ((p.missions[0] as Mission).rewards.points = [{ category: 'Points', amount: 1e300 }])],
      ['a multiplier', (p: { missions: Mission[] }) => ((p.missions[0] as Mission).rewards.multiplier = 1e300)],
      [
        'a reward one point past the ledger range',
        (p: { missions: Mission[] }) => ((p.missions[0] as Mission).rewards.points = [{ category: 'Points', amount: MAX_POINTS + 1 }]),
      ],
      [
        'a recognition budget',
        (p: { exchanges: Array<{ budget: { amount: number } }> }) => ((p.exchanges[0] as { budget: { amount: number } }).budget.amount = 1e300),
      ],
      ['a level threshold', (p: { levels: Array<{ threshold: number }> }) => ((p.levels[1] as { threshold: number }).threshold = 1e300)],
      ['a daily limit', (p: { pointCategories: Array<{ dailyLimit?: number }> }) => ((p.pointCategories[1] as { dailyLimit?: number }).dailyLimit = 1e300)],
    ])('a program with a huge number in %s is refused and the program stays as it was', async (_name, change) => {
      const changed = program();
      (change as (p: unknown) => void)(changed);
      const response = await inject('PUT', '/admin/program', admin, changed);
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect((response.json() as { code: string }).code).toMatch(/^(validation_failed|program_invalid)$/);
      const current = await t.app.inject({ method: 'GET', url: '/admin/program', headers: { authorization: `Bearer ${admin}` } });
      expect(JSON.stringify(current.json())).not.toMatch(/e\+300|1000000000001/);
    });
  });
});
