// POST /restore/preview through the HTTP stack (issue 26): what restoring a backup would do, a
// stored one (type 0) or a document sent with the request (type 1), answered as POST
// /admin/program/preview answers (the changes against the current program, whose progress would
// reset, the site settings it changes) and restoring nothing; refused with exactly the errors POST
// /restore gives (malformed XML with its line and column, field errors by XML location). Only the
// site's admin client previews, against its own site and its own backups.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { expectProblem } from '../../helpers/problem.js';
import { programWrites } from '../../helpers/program-writes.js';

const rule = (id: string, action: string, goal = 5) => ({ id, action, type: 'count', goal, metadata: [] });
const mission = (id: string, rules: unknown[]) => ({ id, name: `Mission ${id}`, startDate: '2026-01-01T00:00:00', endDate: '2027-12-31T23:59:59', rules });

/** m1 counts play (r-a) and read (r-b); m2 counts play (r-c). */
const current = () => ({
  site: { name: 'Restore preview', timezone: 'UTC' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'play' }, { name: 'read' }],
  missions: [mission('m1', [rule('r-a', 'play'), rule('r-b', 'read')]), mission('m2', [rule('r-c', 'play')])],
});

/** m1 without r-b and with r-a's goal 8, m2 gone, the site renamed and moved. */
const smaller = () => ({
  ...current(),
  site: { name: 'Restore preview, smaller', timezone: 'Europe/Paris' },
  missions: [mission('m1', [rule('r-a', 'play', 8)])],
});

describe.each(configurations)('restore preview (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  /** A stored backup of current(), and the document of smaller() as another site backs it up. */
  let saved: { id: string; xml: string };
  let smallerXml: string;

  const auth = (token: string | null) => (token === null ? {} : { authorization: `Bearer ${token}` });
  /** POST `url`, form-urlencoded as the interface document sends a restore. */
  const form = (url: string, fields: Record<string, string>, token: string | null = admin) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...auth(token), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const preview = (fields: Record<string, string>, token: string | null = admin) => form('/restore/preview', fields, token);
  const json = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, headers: auth(token), ...(payload === undefined ? {} : { payload }) });

  async function backupOf(token: string): Promise<{ id: string; xml: string }> {
    const created = await json('POST', '/backup', token, { name: 'preview test' });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = (created.json() as { response: { id: string } }).response;
    return { id, xml: (await json('GET', `/backup/${id}`, token)).body };
  }

  const written = (siteId = site.siteId) => programWrites(t, siteId);

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    admin = await t.token(site.admin);
    expect((await json('PUT', '/admin/program', admin, current())).statusCode).toBe(200);
    const app = await t.token(site.app);
    for (const [userId, action] of [
      ['ann', 'play'], // m1 r-a, m2 r-c
      ['ann', 'read'], // m1 r-b
      ['bob', 'read'], // m1 r-b
    ] as const) {
      const logged = await json('POST', `/users/${userId}/actions`, app, { action });
      expect(logged.statusCode, logged.body).toBe(201);
    }
    saved = await backupOf(admin);
    const other = await t.createSite();
    const otherAdmin = await t.token(other.admin);
    expect((await json('PUT', '/admin/program', otherAdmin, smaller())).statusCode).toBe(200);
    smallerXml = (await backupOf(otherAdmin)).xml;
  });
  afterAll(async () => t.close());

  it('answers what restoring a document would do, restores nothing, and foretells what the restore then does', async () => {
    const before = await written();
    const response = await preview({ type: '1', data: smallerXml });
    expect(response.statusCode, response.body).toBe(200);
    const version = before.program?.version as number;
    const foretold = response.json().response;
    expect(foretold).toEqual({
      version: version + 1,
      currentVersion: version,
      summary: {
        site: { added: 0, changed: 1, removed: 0, reordered: false },
        missions: { added: 0, changed: 1, removed: 1, reordered: false },
      },
      changes: [
        { part: 'site', id: null, change: 'changed', patch: expect.arrayContaining([{ op: 'replace', path: '/name', value: 'Restore preview, smaller' }]) },
        { part: 'missions', id: 'm2', change: 'removed', before: expect.objectContaining({ id: 'm2', name: 'Mission m2' }) },
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
        { field: 'name', from: 'Restore preview', to: 'Restore preview, smaller' },
        { field: 'timezone', from: 'UTC', to: 'Europe/Paris' },
      ],
    });
    expect(await written()).toEqual(before);

    // The restore does what the preview said.
    const restored = await form('/restore', { type: '1', data: smallerXml });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().response).toMatchObject({
      version: foretold.version,
      progressArchived: { parties: foretold.progressReset.parties, rows: foretold.progressReset.rows },
      siteChanges: foretold.siteChanges,
    });
    expect((await written()).archive).toHaveLength(3);
  });

  it('previews a stored backup by its id (type 0), in JSON too: the way back to it', async () => {
    const before = await written();
    const response = await json('POST', '/restore/preview', admin, { type: '0', data: saved.id });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().response).toMatchObject({
      currentVersion: before.program?.version,
      summary: { site: { changed: 1 }, missions: { added: 1, changed: 1, removed: 0 } },
      changes: [
        { part: 'site', change: 'changed' },
        { part: 'missions', id: 'm1', change: 'changed', patch: expect.arrayContaining([{ op: 'replace', path: '/rules/0/goal', value: 5 }]) },
        { part: 'missions', id: 'm2', change: 'added', after: expect.objectContaining({ id: 'm2' }) },
      ],
      progressReset: { parties: 0, rows: 0, missions: [] },
      siteChanges: [
        { field: 'name', from: 'Restore preview, smaller', to: 'Restore preview' },
        { field: 'timezone', from: 'Europe/Paris', to: 'UTC' },
      ],
    });
    expect(await written()).toEqual(before);
    // Restored, the program is the backup's again, and previewing it once more changes nothing.
    expect((await form('/restore', { type: '0', data: saved.id })).statusCode).toBe(200);
    const again = await preview({ type: '1', data: saved.xml });
    expect(again.json().response).toMatchObject({ summary: {}, changes: [], progressReset: { parties: 0, rows: 0 }, siteChanges: [] });
  });

  const replaced = (xml: string, from: string | RegExp, to: string) => {
    const result = xml.replace(from, to);
    expect(result, `pattern ${String(from)} not found`).not.toBe(xml);
    return result;
  };

  const refused: Array<[string, () => Record<string, string>, number, string, RegExp]> = [
    ['malformed XML', () => ({ type: '1', data: replaced(saved.xml, '</Missions>', '</Mission>') }), 400, 'malformed_xml', /^line \d+, column \d+$/],
    ['an empty document', () => ({ type: '1', data: '' }), 400, 'malformed_xml', /./],
    [
      'an unknown attribute',
      () => ({ type: '1', data: replaced(saved.xml, '<Mission id="m2"', '<Mission colour="red" id="m2"') }),
      400,
      'validation_failed',
      /^SiteConfiguration\/Missions\/Mission\[2\]\/@colour$/,
    ],
    [
      'a rule on an action that does not exist',
      () => ({ type: '1', data: replaced(saved.xml, 'action="read"', 'action="teleport"') }),
      422,
      'program_invalid',
      /^SiteConfiguration\/Missions\/Mission\[1\]\/Rules\/Rule\[2\]\/@action$/,
    ],
    [
      'a callback URL on a private address',
      () => ({ type: '1', data: replaced(saved.xml, '<SiteConfiguration ', '<SiteConfiguration achievementCallbackUrl="http://10.0.0.5/hook" ') }),
      422,
      'program_invalid',
      /^SiteConfiguration\/@achievementCallbackUrl$/,
    ],
    ['type 2', () => ({ type: '2', data: saved.xml }), 400, 'validation_failed', /^body\.type$/],
    ['no data', () => ({ type: '1' }), 400, 'validation_failed', /data/],
  ];

  it.each(refused)('refuses %s with the errors POST /restore gives, changing nothing', async (_name, fields, status, code, path) => {
    const before = await written();
    const previewed: LightMyRequestResponse = await preview(fields());
    const body = expectProblem(previewed, status, code);
    expect(body.errors?.[0]?.path ?? '').toMatch(path);
    const restored = expectProblem(await form('/restore', fields()), status, code);
    expect({ detail: body.detail, errors: body.errors }).toEqual({ detail: restored.detail, errors: restored.errors });
    expect(await written()).toEqual(before);
  });

  it('says where malformed XML breaks, by line and column', async () => {
    const body = expectProblem(
      await preview({ type: '1', data: '<Nitro>\n  <SiteConfiguration name="x">\n  </Configuration>\n</Nitro>' }),
      400,
      'malformed_xml',
    );
    expect(body.detail).toBe(
      "Malformed XML at line 3, column 3: Expected closing tag 'SiteConfiguration' (opened in line 2, col 3) instead of closing tag 'Configuration'.",
    );
    expect(body.errors).toEqual([{ path: 'line 3, column 3', message: expect.stringContaining("closing tag 'Configuration'") }]);
  });

  it('answers 404 for a backup id the site does not have', async () => {
    expectProblem(await preview({ type: '0', data: 'bk_00000000-0000-7000-8000-000000000000' }), 404, 'not_found');
  });

  describe('security', () => {
    it('needs a token, a valid one, and an admin client token that is no user token', async () => {
      const before = await written();
      const fields = { type: '1', data: smallerXml };
      expectProblem(await preview(fields, null), 401, 'missing_token');
      expectProblem(await preview(fields, 'not-a-token'), 401, 'invalid_token');
      expectProblem(await preview(fields, await t.token(site.admin, 'ann')), 403, 'forbidden');
      expectProblem(await preview(fields, await t.token(site.app)), 403, 'forbidden');
      expectProblem(await preview(fields, await t.token(site.app, 'ann')), 403, 'forbidden');
      expect(await written()).toEqual(before);
    });

    it("another site's admin previews against its own site, and never this site's backups", async () => {
      const other = await t.createSite();
      const otherAdmin = await t.token(other.admin);
      const before = await written();
      expectProblem(await preview({ type: '0', data: saved.id }, otherAdmin), 404, 'not_found');
      const response = await preview({ type: '1', data: saved.xml }, otherAdmin);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().response).toMatchObject({
        version: 1,
        currentVersion: 0,
        progressReset: { parties: 0, rows: 0, missions: [] },
        siteChanges: expect.arrayContaining([{ field: 'name', from: `Test site ${other.siteId}`, to: 'Restore preview' }]),
      });
      expect(response.body).not.toContain('ann');
      expect(await written()).toEqual(before);
      expect((await written(other.siteId)).program).toBeUndefined();
    });
  });
});
