// GET /users/{u}/ranked-challenges: the eligible list in the documented order, with scores and reasons.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const program = {
  site: { name: 'Ranking', timezone: 'UTC' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'a' }, { name: 'b' }],
  missions: [
    { id: 'm-plain', name: 'Plain', timezone: 'UTC', rules: [{ id: 'r', action: 'a', goal: 10 }] },
    { id: 'm-important', name: 'Important', timezone: 'UTC', importance: 5, rules: [{ id: 'r', action: 'b', goal: 10 }] },
    {
      id: 'm-featured',
      name: 'Featured',
      timezone: 'UTC',
      featuredStartDate: '2026-06-01T00:00:00',
      featuredEndDate: '2026-06-30T23:59:59',
      rules: [{ id: 'r', action: 'b', goal: 10 }],
    },
    { id: 'm-ending', name: 'Ending', timezone: 'UTC', endDate: '2026-06-16T12:00:00', rules: [{ id: 'r', action: 'b', goal: 10 }] },
    {
      id: 'm-next',
      name: 'Next',
      timezone: 'UTC',
      prerequisites: { missions: ['m-plain'] },
      rules: [{ id: 'r', action: 'b', goal: 10 }],
      rewards: { points: [{ category: 'Points', amount: 1000 }] },
    },
  ],
};

describe.each(configurations)('ranked challenges (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  const ranked = async (userId: string, token?: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/users/${userId}/ranked-challenges`,
      headers: { authorization: `Bearer ${token ?? (await t.token(site.app))}` },
    });
    return response;
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => NOW });
    site = await t.createSite();
    const admin = await t.token(site.admin);
    expect((await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program })).statusCode).toBe(
      200,
    );
  });
  afterAll(async () => t.close());

  it('orders the eligible missions by the documented score', async () => {
    const response = await ranked('ann');
    expect(response.statusCode).toBe(200);
    const list = response.json().response as Array<{ id: string; score: number; reasons: string[]; locked: boolean }>;
    // featured 30; ending in a day 20 × 6/7 = 17.14; importance 5 → 10; plain 0; m-next locked: 7.5 − 40.
    expect(list.map((m) => [m.id, m.score, m.reasons])).toEqual([
      ['m-featured', 30, ['featured']],
      ['m-ending', 17.14, ['expiring_soon']],
      ['m-important', 10, ['important']],
      ['m-plain', 0, []],
      ['m-next', -32.5, ['big_reward']],
    ]);
    expect(list.at(-1)?.locked).toBe(true);
    expect(response.headers['x-total-count']).toBe('5');
  });

  it('raises a mission when it is nearly done, and when it was just unlocked', async () => {
    const app = await t.token(site.app);
    for (let i = 0; i < 9; i++) {
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/users/bob/actions',
            headers: { authorization: `Bearer ${app}` },
            payload: { action: 'a', timestamp: NOW - 1000 },
          })
        ).statusCode,
      ).toBe(201);
    }
    const before = (await ranked('bob')).json().response as Array<{ id: string; score: number; reasons: string[] }>;
    expect(before.find((m) => m.id === 'm-plain')).toMatchObject({ score: 22.5, reasons: ['close_to_completion'] });
    await t.app.inject({
      method: 'POST',
      url: '/users/bob/actions',
      headers: { authorization: `Bearer ${app}` },
      payload: { action: 'a', timestamp: NOW - 1000 },
    });
    const after = (await ranked('bob')).json().response as Array<{ id: string; score: number; reasons: string[] }>;
    // m-plain completed (gone); m-next unlocked just now: 15 + 7.5.
    expect(after.map((m) => m.id)).toEqual(['m-featured', 'm-next', 'm-ending', 'm-important']);
    expect(after[1]).toMatchObject({ score: 22.5, reasons: ['recently_unlocked', 'big_reward'] });
  });

  it("refuses another user's list to a user-level token", async () => {
    expect((await ranked('ann', await t.token(site.app, 'ann'))).statusCode).toBe(200);
    expect((await ranked('bob', await t.token(site.app, 'ann'))).statusCode).toBe(403);
  });
});
