// Minimum levels and excluded groups through the HTTP stack (docs/missions.md, "Prerequisites"):
// a mission whose level the user has not reached is listed as locked (hidden, with
// hidden_until_unlocked) and does not advance, until the user reaches the level (by points, or by
// an admin's assignment with custom levels); members of an excluded group neither see it in any read
// (list, ranking, at-a-glance, progress: 404 to their token) nor advance it. Both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

const mission = (id: string, action: string, prerequisites: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Mission ${id}`,
  rules: [{ id: 'r-1', action, type: 'count', goal: 2, metadata: [] }],
  rewards: { points: [{ category: 'Points', amount: 10 }] },
  prerequisites: { groups: [], missions: [], ...prerequisites },
  ...extra,
});

const levels = [
  { id: 'l-1', name: 'Rookie', threshold: 0 },
  { id: 'l-2', name: 'Regular', threshold: 100 },
];

const program = (levelType: 'points' | 'custom') => ({
  site: { name: 'Eligibility', timezone: 'UTC', levelType },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [
    { name: 'play', clientLoggable: true },
    { name: 'grind', clientLoggable: true },
  ],
  levels,
  groups: [
    { id: 'g-staff', name: 'Staff' },
    { id: 'g-other', name: 'Other' },
  ],
  missions: [
    mission('m-regular', 'play', { minLevel: 'l-2' }),
    mission('m-regular-hidden', 'play', { minLevel: 'l-2' }, { hidden: 'hidden_until_unlocked' }),
    mission('m-no-staff', 'play', { excludedGroups: ['g-staff'] }),
    // 100 points in one go: the way to level 2.
    {
      ...mission('m-grind', 'grind', {}),
      rules: [{ id: 'r-1', action: 'grind', type: 'count', goal: 1, metadata: [] }],
      rewards: { points: [{ category: 'Points', amount: 100 }] },
    },
  ],
});

describe.each(configurations)('minimum levels and excluded groups (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;

  const get = async (url: string, token = client) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  const listed = async (user: string) => {
    const response = await get(`/users/${user}/challenges`);
    expect(response.statusCode, response.body).toBe(200);
    return Object.fromEntries(
      response.json<{ response: Array<{ id: string; locked: boolean; lockedReason?: string }> }>().response.map((m) => [m.id, m.lockedReason ?? m.locked]),
    );
  };
  const ranked = async (user: string) =>
    (await get(`/users/${user}/ranked-challenges`))
      .json<{ response: Array<{ id: string }> }>()
      .response.map((m) => m.id)
      .sort();
  const definitions = async (token: string) =>
    (await get('/challenges', token))
      .json<{ response: Array<{ id: string }> }>()
      .response.map((m) => m.id)
      .sort();
  const log = async (user: string, action: string) => {
    const response = await t.app.inject({ method: 'POST', url: `/users/${user}/actions`, headers: { authorization: `Bearer ${client}` }, payload: { action } });
    expect(response.statusCode, response.body).toBe(201);
    return response
      .json<{ response: ActionOutcome }>()
      .response.progress.map((p) => p.challengeId)
      .sort();
  };
  const adminPut = async (url: string, payload: Record<string, unknown>) => {
    const response = await t.app.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${admin}` }, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    await adminPut('/admin/program', program('points'));
    await adminPut('/admin/groups/g-staff/members/sam', {});
    await adminPut('/admin/groups/g-other/members/ann', {});
  });
  afterAll(async () => t.close());

  it('holds a mission back below its minimum level (points), locked in the list, until the level is reached', async () => {
    expect(await listed('ann')).toEqual({ 'm-regular': 'Reach level Regular', 'm-no-staff': false, 'm-grind': false });
    expect(await ranked('ann')).toEqual(['m-grind', 'm-no-staff', 'm-regular']);
    // Below the level, playing advances only the unrestricted mission.
    expect(await log('ann', 'play')).toEqual(['m-no-staff']);
    const annToken = await t.token(site.app, 'ann');
    // hidden_until_unlocked: a user-level token cannot read it before the level; the locked one it can.
    expect((await get('/users/ann/challenges/m-regular-hidden/progress', annToken)).statusCode).toBe(404);
    expect((await get('/users/ann/challenges/m-regular/progress', annToken)).statusCode).toBe(200);
    expect(await definitions(annToken)).toEqual(['m-grind', 'm-no-staff', 'm-regular']);
    // Exactly the threshold (100 points) reaches Regular.
    expect(await log('ann', 'grind')).toEqual(['m-grind']);
    expect(await listed('ann')).toEqual({ 'm-regular': false, 'm-regular-hidden': false, 'm-no-staff': false });
    expect(await log('ann', 'play')).toEqual(['m-no-staff', 'm-regular', 'm-regular-hidden']);
    expect((await get('/users/ann/challenges/m-regular-hidden/progress', annToken)).statusCode).toBe(200);
    expect(await definitions(annToken)).toEqual(['m-grind', 'm-no-staff', 'm-regular', 'm-regular-hidden']);
  });

  it('hides a mission from members of an excluded group in every read, and their actions do not advance it', async () => {
    expect(Object.keys(await listed('sam'))).not.toContain('m-no-staff');
    expect(await ranked('sam')).not.toContain('m-no-staff');
    const samToken = await t.token(site.app, 'sam');
    const progress = await get('/users/sam/challenges/m-no-staff/progress', samToken);
    expect(progress.statusCode).toBe(404);
    expect(progress.json()).toMatchObject({ code: 'not_found' });
    // The program's own systems (a client token) may still read it.
    expect((await get('/users/sam/challenges/m-no-staff/progress')).statusCode).toBe(200);
    expect(await log('sam', 'play')).toEqual([]);
    expect(await definitions(samToken)).toEqual(['m-grind', 'm-regular']);
    expect(await definitions(client)).toEqual(['m-grind', 'm-no-staff', 'm-regular', 'm-regular-hidden']);
    const glance = await get('/users/sam/at-a-glance', samToken);
    expect(glance.statusCode, glance.body).toBe(200);
    // m-grind only: the level-locked missions count as eligible (locked), the excluded one does not.
    expect(glance.json<{ response: { missions: { eligible: number } } }>().response.missions.eligible).toBe(2);
    // Another user's token learns nothing of sam's missions.
    expect((await get('/users/sam/challenges', await t.token(site.app, 'ann'))).statusCode).toBe(403);
  });

  it('with custom levels, follows the level an admin assigns', async () => {
    await adminPut('/admin/program', program('custom'));
    // No level assigned: the lowest level, whatever the points.
    await log('cy', 'grind');
    expect((await listed('cy'))['m-regular']).toBe('Reach level Regular');
    expect(await log('cy', 'play')).toEqual(['m-no-staff']);
    await adminPut('/admin/users/cy/level', { levelId: 'l-2' });
    expect((await listed('cy'))['m-regular']).toBe(false);
    expect(await log('cy', 'play')).toEqual(['m-no-staff', 'm-regular', 'm-regular-hidden']);
    // Back down: held back again (m-no-staff is done by now: nothing moves).
    await adminPut('/admin/users/cy/level', { levelId: 'l-1' });
    expect(await log('cy', 'play')).toEqual([]);
    expect((await listed('cy'))['m-regular']).toBe('Reach level Regular');
  });
});
