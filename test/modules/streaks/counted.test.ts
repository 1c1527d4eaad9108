// What an action counts in a streak, and what its reversal takes back, through the HTTP stack on
// both stores (docs/streaks.md#what-counts): an action dated ahead of now counts today, and
// `questline verify` agrees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerifyService } from '../../../src/modules/verify/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

const HOUR = 3_600_000;

/** s-read: daily, 50 Points at 2 days. */
const program = (extra: Record<string, unknown> = {}) => ({
  site: { name: 'Counted', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read' }, { name: 'quiz' }],
  streaks: [
    { id: 's-read', name: 'Reading', action: 'read', period: 'day', milestones: [{ length: 2, rewards: { points: [{ category: 'Points', amount: 50 }] } }] },
  ],
  ...extra,
});

describe.each(configurations)('streak counting (%s)', (configuration) => {
  let t: TestApp;
  let now = Date.parse('2026-03-01T00:00:00Z');

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => now, config: { tokenTtlSeconds: 365 * 86_400 } });
  });
  afterAll(async () => t.close());

  /** A new site with the program, and its admin's and app's calls. */
  const siteWith = async (document: unknown) => {
    const site: TestSite = await t.createSite();
    const admin = await t.token(site.admin);
    const app = await t.token(site.app);
    const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, status: number, payload?: unknown) => {
      const response = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
      expect(response.statusCode, response.body).toBe(status);
      return response.body === '' ? undefined : (response.json() as { response: Record<string, unknown> }).response;
    };
    await call('PUT', '/admin/program', admin, 200, document);
    return {
      site,
      call,
      admin,
      log: (user: string, extra: Record<string, unknown> = {}, action = 'read') => call('POST', `/users/${user}/actions`, app, 201, { action, ...extra }),
      streak: async (user: string) => ((await call('GET', `/users/${user}/streaks`, app, 200)) as unknown as Array<Record<string, unknown>>)[0],
      points: async (user: string) => ((await call('GET', `/users/${user}/point-balance`, app, 200)) as { balance: number }).balance,
      verify: async () => (await new VerifyService(t.database.db, t.app.services.programs).verify([site.siteId])).drift,
    };
  };

  it('an action dated ahead of now counts today: the next day still extends the run and pays its milestone', async () => {
    const s = await siteWith(program());
    now = Date.parse('2026-03-10T14:00:00Z'); // Tuesday 10:00 in New York
    await s.log('ann');
    now = Date.parse('2026-03-11T03:30:00Z'); // Tuesday 23:30; the client's clock says Wednesday 00:30
    const ahead = await s.log('ann', { timestamp: '2026-03-11T04:30:00Z' });
    expect(ahead).not.toHaveProperty('streaksExtended'); // Tuesday counted already
    now = Date.parse('2026-03-11T15:00:00Z'); // Wednesday 11:00
    const wednesday = await s.log('ann');
    expect(wednesday?.streaksExtended).toEqual([
      expect.objectContaining({ period: '2026-03-11', current: 2, milestones: [expect.objectContaining({ length: 2 })] }),
    ]);
    expect(await s.streak('ann')).toMatchObject({ current: 2, doneThisPeriod: true, nextMilestone: null });
    expect(await s.points('ann')).toBe(50);
    expect(await s.verify()).toEqual([]);
    // Ahead on the last day of a run, it extends the run today.
    now = Date.parse('2026-03-12T03:59:00Z'); // Wednesday 23:59
    await s.log('bob', { timestamp: '2026-03-12T04:30:00Z' });
    expect(await s.streak('bob')).toMatchObject({ current: 1, doneThisPeriod: true, periodStart: '2026-03-11' });
    expect(await s.verify()).toEqual([]);
    now += HOUR;
    expect(await s.streak('bob')).toMatchObject({ current: 1, doneThisPeriod: false, periodStart: '2026-03-12' });
  });
});
