// What the ledger tells the overview with each write set it writes (src/db/analytics-changes.ts),
// through the HTTP stack on both stores: an action that completes a mission says it was recorded,
// credited points, completed the mission and reached a level, each at the action's timestamp; an
// action not recorded says nothing; an adjustment says its points; a reversal takes back the
// completion and the points at the instant they counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChanges, type AnalyticsChange } from '../../../src/db/analytics-changes.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { playProgram } from '../../helpers/fixtures.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');

describe.each(configurations)('the analytics changes of write sets (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let app: string;
  const seen = new Set<string>();

  /** The changes written since the last call, in a stable order. */
  const written = async (): Promise<AnalyticsChange[]> => {
    const rows = await t.database.db.selectFrom('analytics_changes').selectAll().where('site_id', '=', site.siteId).execute();
    const fresh = rows.filter((row) => !seen.has(row.change_id));
    for (const row of fresh) seen.add(row.change_id);
    return fresh.flatMap((row) => parseChanges(row.changes)).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  };
  const send = async (method: 'POST' | 'DELETE', url: string, token: string, payload?: Record<string, unknown>) => {
    const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload !== undefined ? { payload } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().response as Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => NOW });
    site = await t.createSite();
    admin = await t.token(site.admin);
    app = await t.token(site.app);
    const program = playProgram('Changes', []);
    program.actions = [{ name: 'play' }, { name: 'share', suppressRepeats: true }];
    program.levels = [{ id: 'l-rookie', name: 'Rookie', threshold: 10 }];
    await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program });
    await written();
  });
  afterAll(async () => t.close());

  it('says what an action that completes a mission did, at its timestamp', async () => {
    const at = Date.parse('2026-06-10T23:30:00Z');
    await send('POST', '/users/ann/actions', app, { action: 'play', timestamp: at, eventId: 'ann-1' });
    expect(await written()).toEqual([
      ['a', at, 'play', 1],
      ['c', at, 'm-play', 1],
      ['l', at, 'l-rookie', 1],
      ['p', at, 'Points', 10],
    ]);
  });

  it('says nothing of an action that is not recorded', async () => {
    await send('POST', '/users/bob/actions', app, { action: 'share' });
    expect(await written()).toEqual([['a', NOW, 'share', 1]]);
    await send('POST', '/users/bob/actions', app, { action: 'share' });
    expect(await written()).toEqual([]);
  });

  it("says an adjustment's points, when it is made", async () => {
    await send('POST', '/admin/users/ann/points', admin, { category: 'Points', amount: -3, reason: 'correction' });
    expect(await written()).toEqual([['p', NOW, 'Points', -3]]);
  });

  it('takes back a reversed completion and its points at the instant they counted (the level change down is not a level reached)', async () => {
    await send('DELETE', '/users/ann/actions/ann-1', admin);
    const at = Date.parse('2026-06-10T23:30:00Z');
    expect(await written()).toEqual([
      ['c', at, 'm-play', -1],
      ['p', at, 'Points', -10],
    ]);
    // A second reversal changes nothing.
    await send('DELETE', '/users/ann/actions/ann-1', admin);
    expect(await written()).toEqual([]);
  });
});
