// SPEC §4: changing a mission's rules after users have progress keeps progress on unchanged rule
// ids, archives progress on removed rules, and says how many users were affected; a restore
// follows the same rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';
import { programToXml } from '../../../src/modules/backup/xml.js';
import { validateProgram } from '../../../src/modules/program/validate.js';

const example = exampleProgram<{ missions: Array<{ id: string; rules: unknown[] }> }>();

describe.each(configurations)('rule edits with progress (%s)', (configuration) => {
  let t: TestApp;
  let admin: string;
  let app: string;
  let siteId: string;

  const log = (userId: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/users/${userId}/actions`, headers: { authorization: `Bearer ${app}` }, payload });
  const progress = (userId: string) =>
    t.database.db
      .selectFrom('mission_progress')
      .select(['rule_id', 'current'])
      .where('site_id', '=', siteId)
      .where('party_id', '=', userId)
      .where('mission_id', '=', 'm-chef')
      .orderBy('rule_id')
      .execute();

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    const site = await t.createSite();
    siteId = site.siteId;
    admin = await t.token(site.admin);
    app = await t.token(site.app);
    expect((await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: example })).statusCode).toBe(
      200,
    );
    for (const user of ['ann', 'bob']) {
      expect((await log(user, { action: 'read_article' })).statusCode).toBe(201); // completes m-first-read, unlocking m-chef
      expect((await log(user, { action: 'watch_video', metadata: { genre: 'cooking' } })).statusCode).toBe(201);
    }
    expect((await log('ann', { action: 'read_article', metadata: { topic: 'recipe' } })).statusCode).toBe(201);
  });
  afterAll(async () => t.close());

  it('keeps progress on kept rule ids, archives it on removed ones, and reports the users affected', async () => {
    expect(await progress('ann')).toEqual([
      { rule_id: 'r-1', current: 1 },
      { rule_id: 'r-2', current: 1 },
    ]);
    const chef = example.missions.find((m) => m.id === 'm-chef') as { rules: Array<{ id: string }> };
    const edited = {
      ...chef,
      rules: [
        { ...chef.rules[0], goal: 3 },
        { id: 'r-3', action: 'share', type: 'count', goal: 1 },
      ],
    };
    const response = await t.app.inject({ method: 'PUT', url: '/admin/challenges/m-chef', headers: { authorization: `Bearer ${admin}` }, payload: edited });
    expect(response.statusCode).toBe(200);
    // Only ann had progress on r-2.
    expect(response.headers['questline-progress-archived']).toBe('parties=1, rows=1');
    expect(await progress('ann')).toEqual([{ rule_id: 'r-1', current: 1 }]);
    expect(await progress('bob')).toEqual([{ rule_id: 'r-1', current: 1 }]);
    const archived = await t.database.db
      .selectFrom('mission_progress_archive')
      .select(['party_id', 'rule_id', 'current'])
      .where('site_id', '=', siteId)
      .execute();
    expect(archived).toEqual([{ party_id: 'ann', rule_id: 'r-2', current: 1 }]);

    // The kept rule goes on from where it was: one more cooking video is 2 of the new goal of 3.
    const next = await log('ann', { action: 'watch_video', metadata: { genre: 'cooking' } });
    expect(await progress('ann')).toEqual([
      { rule_id: 'r-1', current: 2 },
      { rule_id: 'r-3', current: 0 },
    ]);
    expect(next.json().response.missionsCompleted).toEqual([]);
  });

  it('archives the progress of a mission a restore removes, and says so', async () => {
    const without = validateProgram({ ...example, missions: example.missions.filter((m) => m.id !== 'm-chef') });
    const response = await t.app.inject({
      method: 'POST',
      url: '/restore',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ type: '1', data: programToXml(without) }).toString(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().response.progressArchived).toEqual({ parties: 2, rows: 2 });
    expect(await progress('ann')).toEqual([]);
    expect(await progress('bob')).toEqual([]);
  });

  it('reports nothing archived when no rule is removed', async () => {
    const response = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: example });
    expect(response.statusCode).toBe(200);
    expect(response.headers['questline-progress-archived']).toBe('parties=0, rows=0');
  });
});
