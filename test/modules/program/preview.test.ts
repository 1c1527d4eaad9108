// POST /admin/program/preview through the HTTP stack (issue 26): what saving a proposed program
// would do (the version it would be, what it changes, the missions whose progress would reset and
// how many parties' rows, the site settings it changes), with the same validation errors as PUT
// /admin/program, and nothing written: not the program, its version, its history, the progress or
// the cached snapshot. Only the site's own admin client previews, and only against its own site.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { expectProblem } from '../../helpers/problem.js';
import { programWrites } from '../../helpers/program-writes.js';
import { exampleProgram } from '../../helpers/fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
const EXAMPLE = exampleProgram<Loose>();

const rule = (id: string, action: string) => ({ id, action, type: 'count', goal: 5, metadata: [] });
const mission = (id: string, rules: unknown[]) => ({ id, name: `Mission ${id}`, startDate: '2026-01-01T00:00:00', endDate: '2027-12-31T23:59:59', rules });

/** m1 counts play (r-a) and read (r-b); m2 counts play (r-c). */
function current(): Loose {
  return {
    site: { name: 'Preview', timezone: 'UTC' },
    pointCategories: [{ name: 'Points', isDefault: true }],
    actions: [{ name: 'play' }, { name: 'read' }],
    missions: [mission('m1', [rule('r-a', 'play'), rule('r-b', 'read')]), mission('m2', [rule('r-c', 'play')])],
  };
}

/** m1 without r-b and with r-a's goal changed, m2 gone, the site renamed and moved. */
function proposed(): Loose {
  const program = current();
  program.site = { name: 'Preview renamed', timezone: 'Europe/Paris' };
  program.missions = [mission('m1', [{ ...rule('r-a', 'play'), goal: 8 }])];
  return program;
}

describe.each(configurations)('program preview (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;

  /** `token` null: no Authorization header. */
  const call = (method: 'POST' | 'PUT', url: string, payload: unknown, token: string | null = admin) =>
    t.app.inject({ method, url, headers: token !== null ? { authorization: `Bearer ${token}` } : {}, payload: payload as object });
  const preview = (payload: unknown, token: string | null = admin) => call('POST', '/admin/program/preview', payload, token);
  const log = async (userId: string, action: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/users/${userId}/actions`,
      headers: { authorization: `Bearer ${await t.token(site.app)}` },
      payload: { action },
    });
    expect(response.statusCode, response.body).toBe(201);
  };

  const written = (siteId = site.siteId) => programWrites(t, siteId);

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    admin = await t.token(site.admin);
    expect((await call('PUT', '/admin/program', current())).statusCode).toBe(200);
    await log('ann', 'play'); // m1 r-a, m2 r-c
    await log('ann', 'read'); // m1 r-b
    await log('bob', 'read'); // m1 r-b
  });
  afterAll(async () => t.close());

  it('answers what saving would do, and writes nothing', async () => {
    const before = await written();
    const response = await preview(proposed());
    expect(response.statusCode, response.body).toBe(200);
    const version = before.program?.version as number;
    expect(response.json().response).toEqual({
      version: version + 1,
      currentVersion: version,
      summary: {
        site: { added: 0, changed: 1, removed: 0, reordered: false },
        missions: { added: 0, changed: 1, removed: 1, reordered: false },
      },
      changes: [
        { part: 'site', id: null, change: 'changed', patch: expect.arrayContaining([{ op: 'replace', path: '/name', value: 'Preview renamed' }]) },
        { part: 'missions', id: 'm2', change: 'removed', before: expect.objectContaining({ id: 'm2' }) },
        { part: 'missions', id: 'm1', change: 'changed', patch: expect.arrayContaining([{ op: 'replace', path: '/rules/0/goal', value: 8 }]) },
      ],
      progressReset: {
        parties: 2,
        rows: 3,
        missions: [
          { missionId: 'm1', name: 'Mission m1', missionRemoved: false, ruleIds: ['r-b'], parties: 2, rows: 2 },
          { missionId: 'm2', name: 'Mission m2', missionRemoved: true, ruleIds: ['r-c'], parties: 1, rows: 1 },
        ],
      },
      siteChanges: [
        { field: 'name', from: 'Preview', to: 'Preview renamed' },
        { field: 'timezone', from: 'UTC', to: 'Europe/Paris' },
      ],
    });
    expect(await written()).toEqual(before);
  });

  it('foretells what the save then does: the same version, archived progress and site changes', async () => {
    const foretold = (await preview({ response: proposed() })).json().response;
    const saved = await call('PUT', '/admin/program', proposed());
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.headers['questline-progress-archived']).toBe(`parties=${foretold.progressReset.parties}, rows=${foretold.progressReset.rows}`);
    const after = await written();
    expect(after.program?.version).toBe(foretold.version);
    expect(after.site).toMatchObject({ name: 'Preview renamed', timezone: 'Europe/Paris' });
    expect(after.archive).toHaveLength(3);
    expect(after.versions.at(-1)?.summary).toBe(JSON.stringify(foretold.summary));

    // Previewing the program as it is now changes nothing and resets nobody's progress.
    const same = (await preview(proposed())).json().response;
    expect(same).toMatchObject({
      version: foretold.version + 1,
      summary: {},
      changes: [],
      progressReset: { parties: 0, rows: 0, missions: [] },
      siteChanges: [],
    });
    expect((await call('PUT', '/admin/program', current())).statusCode).toBe(200);
  });

  const invalid: Array<[string, () => unknown, number, string]> = [
    ['a mission without rules', () => ({ ...EXAMPLE, missions: [{ ...EXAMPLE.missions[0], rules: undefined }] }), 400, 'validation_failed'],
    ['an unknown field', () => ({ ...EXAMPLE, theme: 'dark' }), 400, 'validation_failed'],
    ['a JSON array', () => [EXAMPLE], 400, 'validation_failed'],
    ['a rule on an unknown action', () => ({ ...EXAMPLE, actions: EXAMPLE.actions.slice(1) }), 422, 'program_invalid'],
    ['an unknown time zone', () => ({ ...EXAMPLE, site: { ...EXAMPLE.site, timezone: 'Mars/Olympus' } }), 422, 'program_invalid'],
    ['a refused callback URL', () => ({ ...EXAMPLE, site: { ...EXAMPLE.site, achievementCallbackUrl: 'http://10.0.0.5/hook' } }), 422, 'program_invalid'],
  ];

  it.each(invalid)('refuses %s with the errors and paths PUT /admin/program gives, writing nothing', async (_name, body, status, code) => {
    const before = await written();
    const previewed = expectProblem(await preview(body()), status, code);
    expect(previewed.errors.length).toBeGreaterThan(0);
    const put = expectProblem(await call('PUT', '/admin/program', body()), status, code);
    expect(previewed.errors).toEqual(put.errors);
    expect(previewed.detail).toBe(put.detail);
    expect(await written()).toEqual(before);
  });

  it('refuses a body that is not JSON with 400 malformed_body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/admin/program/preview',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: '{"site":',
    });
    expectProblem(response, 400, 'malformed_body');
  });

  it('never shows the webhook secret a proposed program carries, and keeps the current one', async () => {
    const secret = 'whsec_preview-only-0123456789';
    const before = await written();
    const response = await preview({ ...current(), site: { ...current().site, webhookSecret: secret } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).not.toContain(secret);
    expect(response.body).not.toContain(secret.slice(-4));
    expect(await written()).toEqual(before);
  });

  it('counts progress on thousands of removed rules (statements of whole missions), each party once', async () => {
    const wide = await t.createSite();
    const token = await t.token(wide.admin);
    const rules = Array.from({ length: 50 }, (_, i) => rule(`r-${i}`, 'play'));
    const program = { ...current(), missions: Array.from({ length: 60 }, (_, i) => mission(`w-${i}`, rules)) };
    expect((await call('PUT', '/admin/program', program, token)).statusCode).toBe(200);
    const appToken = await t.token(wide.app);
    for (const user of ['ann', 'bob']) {
      const logged = await t.app.inject({
        method: 'POST',
        url: `/users/${user}/actions`,
        headers: { authorization: `Bearer ${appToken}` },
        payload: { action: 'play' },
      });
      expect(logged.statusCode, logged.body).toBe(201);
    }
    const response = await preview({ ...current(), missions: [] }, token);
    expect(response.statusCode, response.body).toBe(200);
    const { progressReset } = response.json().response;
    expect({ parties: progressReset.parties, rows: progressReset.rows }).toEqual({ parties: 2, rows: 6_000 });
    expect(progressReset.missions).toHaveLength(60);
    for (const reset of progressReset.missions) expect(reset).toMatchObject({ missionRemoved: true, parties: 2, rows: 100 });
    expect(progressReset.missions[59].ruleIds).toHaveLength(50);
    const saved = await call('PUT', '/admin/program', { ...current(), missions: [] }, token);
    expect(saved.headers['questline-progress-archived']).toBe('parties=2, rows=6000');
  });

  describe('security', () => {
    it('needs a token, a valid one, and an admin client token', async () => {
      const before = await written();
      expectProblem(await preview(proposed(), null), 401, 'missing_token');
      expectProblem(await preview(proposed(), 'not-a-token'), 401, 'invalid_token');
      expectProblem(await preview(proposed(), await t.token(site.admin, 'ann')), 403, 'forbidden');
      expectProblem(await preview(proposed(), await t.token(site.app)), 403, 'forbidden');
      expect(await written()).toEqual(before);
    });

    it("another site's admin previews against its own site: none of this site's progress or version shows", async () => {
      const other = await t.createSite();
      const before = await written();
      const response = await preview(proposed(), await t.token(other.admin));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().response).toMatchObject({
        version: 1,
        currentVersion: 0,
        progressReset: { parties: 0, rows: 0, missions: [] },
        siteChanges: [
          { field: 'name', from: `Test site ${other.siteId}`, to: 'Preview renamed' },
          { field: 'timezone', from: 'America/Los_Angeles', to: 'Europe/Paris' },
        ],
      });
      expect(await written()).toEqual(before);
      expect((await written(other.siteId)).program).toBeUndefined();
    });
  });
});
