// GET /challenges for a user-level token shows only what that user may see (SPEC §3, §6): never
// always_hidden; hidden_until_unlocked once its prerequisite missions are done; hidden_until_earned
// once earned. Client-level tokens see every definition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missionsVisibleTo } from '../../../src/modules/missions/visibility.js';
import { validateProgram } from '../../../src/modules/program/validate.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

const program = {
  site: { name: 'Visibility', timezone: 'UTC' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'a' }, { name: 'c' }],
  missions: [
    { id: 'm-open', name: 'Open', rules: [{ id: 'r', action: 'a', goal: 1 }] },
    {
      id: 'm-unlocked',
      name: 'After open',
      hidden: 'hidden_until_unlocked',
      prerequisites: { missions: ['m-open'] },
      rules: [{ id: 'r', action: 'a', goal: 5 }],
    },
    { id: 'm-earned', name: 'Surprise', hidden: 'hidden_until_earned', rules: [{ id: 'r', action: 'c', goal: 1 }] },
    { id: 'm-never', name: 'Internal', hidden: 'always_hidden', rules: [{ id: 'r', action: 'c', goal: 1 }] },
  ],
};

describe('missionsVisibleTo', () => {
  const { missions } = validateProgram(program);
  it.each([
    ['nothing completed', [], ['m-open']],
    ['the prerequisite completed', ['m-open'], ['m-open', 'm-unlocked']],
    ['the surprise earned', ['m-earned'], ['m-open', 'm-earned']],
    ['everything completed', ['m-open', 'm-earned', 'm-never'], ['m-open', 'm-unlocked', 'm-earned']],
  ])('%s', (_name, completed, visible) => {
    expect(missionsVisibleTo(missions, new Set(completed)).map((m) => m.id)).toEqual(visible);
  });
});

describe.each(configurations)('GET /challenges per user (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  const ids = async (token: string) =>
    (
      (await t.app.inject({ method: 'GET', url: '/challenges', headers: { authorization: `Bearer ${token}` } })).json() as { response: Array<{ id: string }> }
    ).response.map((m) => m.id);
  const log = async (userId: string, action: string) => {
    const app = await t.token(site.app);
    expect(
      (await t.app.inject({ method: 'POST', url: `/users/${userId}/actions`, headers: { authorization: `Bearer ${app}` }, payload: { action } })).statusCode,
    ).toBe(201);
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    const admin = await t.token(site.admin);
    expect((await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: program })).statusCode).toBe(
      200,
    );
  });
  afterAll(async () => t.close());

  it('unlocks and reveals missions as the user completes them, and never shows always_hidden ones', async () => {
    const ann = await t.token(site.app, 'ann');
    expect(await ids(ann)).toEqual(['m-open']);
    await log('ann', 'a');
    expect(await ids(ann)).toEqual(['m-open', 'm-unlocked']);
    await log('ann', 'c');
    expect(await ids(ann)).toEqual(['m-open', 'm-unlocked', 'm-earned']);
    // Another user's completions reveal nothing to bob.
    expect(await ids(await t.token(site.app, 'bob'))).toEqual(['m-open']);
    // Client-level tokens read every definition.
    expect(await ids(await t.token(site.app))).toEqual(['m-open', 'm-unlocked', 'm-earned', 'm-never']);
  });
});
