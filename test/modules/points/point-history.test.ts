// GET /admin/users/{u}/point-history, on both stores: every entry of a user's ledger, newest first,
// with what caused it (a mission's reward with its action, an admin's adjustment with its reason,
// a reversal), paged with X-Total-Count; refused to every token but the site admin's, and never
// showing another site's entries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import type { PointEntry } from '../../../src/modules/points/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';
import { body, caller } from '../../helpers/http.js';
import { expectProblem } from '../../helpers/problem.js';

const START = Date.parse('2026-06-15T16:00:00Z');
const started = Date.now();
const clock = () => START + (Date.now() - started);

describe.each(configurations)('point history (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let app: string;
  let logged: ActionOutcome;

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock, config: { clientRate: { rate: 100_000, burst: 100_000 } } });
    site = await t.createSite();
    admin = await t.token(site.admin);
    app = await t.token(site.app);
    body(await call('PUT', '/admin/program', admin, exampleProgram()));
    // An adjustment, an action whose mission pays 10 Points, a debit, then the action reversed.
    body(await call('POST', '/admin/users/ann/points', admin, { category: 'Points', amount: 25, reason: 'Welcome bonus' }), 201);
    logged = body<ActionOutcome>(await call('POST', '/users/ann/actions', app, { action: 'read_article', eventId: 'ev-read' }), 201);
    body(await call('POST', '/admin/users/ann/points', admin, { category: 'Coins', amount: -5, reason: 'Duplicate order' }), 201);
    body(await call('DELETE', '/users/ann/actions/ev-read', admin));
    // Someone else's entry, on the same site.
    body(await call('POST', '/admin/users/bob/points', admin, { category: 'Points', amount: 7, reason: 'Not Ann' }), 201);
  });
  afterAll(async () => {
    await t.close();
  });

  const call = caller(() => t);

  it("lists the user's entries newest first: the reversal, the debit with its reason, the mission's reward, the adjustment", async () => {
    const response = await call('GET', '/admin/users/ann/point-history', admin);
    const entries = body<PointEntry[]>(response);
    expect(response.headers['x-total-count']).toBe('4');
    const completionId = logged.missionsCompleted[0]?.completionId;
    const mission = { id: 'm-first-read', name: 'First read' };
    expect(entries.map(({ entryId: _id, recordedAt: _at, occurredAt: _when, ...entry }) => entry)).toEqual([
      {
        category: 'Points',
        amount: -10,
        requested: -10,
        cause: 'reversal',
        causeId: completionId,
        eventId: 'ev-read',
        action: 'read_article',
        mission,
        reason: null,
      },
      {
        category: 'Coins',
        amount: -5,
        requested: -5,
        cause: 'adjustment',
        causeId: entries[1]?.entryId,
        eventId: null,
        action: null,
        mission: null,
        reason: 'Duplicate order',
      },
      {
        category: 'Points',
        amount: 10,
        requested: 10,
        cause: 'mission',
        causeId: completionId,
        eventId: 'ev-read',
        action: 'read_article',
        mission,
        reason: null,
      },
      {
        category: 'Points',
        amount: 25,
        requested: 25,
        cause: 'adjustment',
        causeId: entries[3]?.entryId,
        eventId: null,
        action: null,
        mission: null,
        reason: 'Welcome bonus',
      },
    ]);
    // The reversal counts where the credit counted (its caps); it was written last.
    expect(entries[0]?.occurredAt).toBe(entries[2]?.occurredAt);
    expect(Date.parse(entries[0]?.recordedAt as string)).toBeGreaterThanOrEqual(Date.parse(entries[1]?.recordedAt as string));
  });

  it('pages with limit and offset, and a user with no entry has an empty history', async () => {
    const second = await call('GET', '/admin/users/ann/point-history?limit=2&offset=1', admin);
    expect(body<PointEntry[]>(second).map((entry) => entry.cause)).toEqual(['adjustment', 'mission']);
    expect(second.headers['x-total-count']).toBe('4');
    const nobody = await call('GET', '/admin/users/nobody/point-history', admin);
    expect(body<PointEntry[]>(nobody)).toEqual([]);
    expect(nobody.headers['x-total-count']).toBe('0');
  });

  it('refuses bad parameters with problem+json', async () => {
    expectProblem(await call('GET', '/admin/users/ann/point-history?limit=0', admin), 400, 'validation_failed');
    expectProblem(await call('GET', '/admin/users/ann/point-history?offset=-1', admin), 400, 'validation_failed');
    expectProblem(await call('GET', '/admin/users/not%20an%20id/point-history', admin), 400, 'validation_failed');
  });

  it("is the site admin's alone, and another site's admin sees nothing of this site", async () => {
    const url = '/admin/users/ann/point-history';
    expectProblem(await call('GET', url), 401, 'missing_token');
    expectProblem(await call('GET', url, 'not-a-token'), 401, 'invalid_token');
    expectProblem(await call('GET', url, app), 403, 'forbidden');
    expectProblem(await call('GET', url, await t.token(site.app, 'ann')), 403, 'forbidden');
    const other = await t.createSite();
    const foreign = await call('GET', url, await t.token(other.admin));
    expect(body<PointEntry[]>(foreign)).toEqual([]);
    expect(foreign.headers['x-total-count']).toBe('0');
  });
});
