// The console's Program history and Backups pages in a real browser, on both stores: two program
// changes made through the API listed with the client that made them and their changes in words;
// an earlier version restored from the console after the dialog previewed it (the program is then
// that version's document); a backup made and downloaded as its XML file, the program changed, and
// that file restored after the preview showed the change back; malformed and invalid files refused
// with the server's words and location. axe-core finds no serious violation, and nothing is refused
// by the Content-Security-Policy.
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoSite, type DemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, configurations, type TestApp } from '../helpers/app.js';
import { hasBrowser, launchBrowser, screenshot } from '../helpers/browser.js';
import { accessibilityViolations, openConsole } from './console-helpers.js';
import { poll } from './helpers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Program = any;

describe.skipIf(!hasBrowser).each(configurations)('the console’s history and backups in Chromium (%s)', (configuration) => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let demo: DemoSite;
  let headers: { authorization: string };

  const program = async (): Promise<Program> => {
    const read = await t.app.inject({ method: 'GET', url: '/admin/program', headers });
    expect(read.statusCode).toBe(200);
    const { response } = read.json() as { response: Program };
    delete response.site.webhookSecret;
    return response;
  };
  /** Saves the program with `edit` applied to it, through the API; the version it wrote. */
  const change = async (edit: (draft: Program) => void): Promise<number> => {
    const draft = await program();
    edit(draft);
    const saved = await t.app.inject({ method: 'PUT', url: '/admin/program', headers, payload: draft });
    expect(saved.statusCode, saved.body).toBe(200);
    const versions = await t.app.inject({ method: 'GET', url: '/admin/program/versions?limit=1', headers });
    return (versions.json() as { response: Array<{ version: number }> }).response[0]?.version as number;
  };
  const mission = (draft: Program, id: string) => draft.missions.find((m: { id: string }) => m.id === id);

  const open = (path: string) => openConsole(browser, base, path, demo.admin, { acceptDownloads: true });

  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { demoSite: true } });
    demo = (await ensureDemoSite(t.app.services.sites, t.app.services.backups)) as DemoSite;
    headers = { authorization: `Bearer ${await t.token(demo.admin)}` };
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists two changes with their client and diff, and restores the earlier version after previewing it', { timeout: 90_000 }, async () => {
    const richer = await change((draft) => {
      mission(draft, 'm-first-read').rewards.points[0].amount = 20;
    });
    const renamed = await change((draft) => {
      mission(draft, 'm-chef').name = 'Master chef';
    });
    const { page, problems, refused } = await open('/console/history');
    try {
      const rows = () => page.locator('.versions .tabulator-row').allInnerTexts();
      const client = demo.admin.clientId;
      await poll(async () => (await rows()).slice(0, 2)).toEqual([
        expect.stringMatching(new RegExp(`^Version ${renamed}\\s*.+\\s*${client} \\(you\\)\\s*1 mission changed$`)),
        expect.stringMatching(new RegExp(`^Version ${richer}\\s*.+\\s*${client} \\(you\\)\\s*1 mission changed$`)),
      ]);
      // The newest version is shown first: the renamed mission, in words.
      const version = page.locator('section.version');
      await poll(() => version.locator('h2').innerText()).toMatch(new RegExp(`^Version ${renamed}\\s*current$`));
      await expect(version.locator('.change').innerText()).resolves.toMatch(/Mission ‘Master chef’[\s\S]*Name changed from ‘Little chef’ to ‘Master chef’/);

      // A version is selected with the keyboard too: its name is a button.
      await page.getByRole('button', { name: `Version ${richer}`, exact: true }).focus();
      await page.keyboard.press('Enter');
      await poll(() => version.locator('h2').innerText()).toBe(`Version ${richer}`);
      await expect(version.locator('.change').innerText()).resolves.toMatch(/Mission ‘First read’[\s\S]*Reward changed from 10 to 20 Points$/m);
      // jsondiffpatch's view of the mission shows the amount before and after.
      await expect(version.locator('.visual-diff .jsondiffpatch-modified').innerText()).resolves.toMatch(/amount\s*10\s*20/);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-history-${configuration}`);

      // Restore it: the dialog says what restoring would do before anything is done.
      await version.locator('sl-button', { hasText: 'Restore this version…' }).click();
      const dialog = page.locator('sl-dialog.restore-version');
      await poll(() => dialog.locator('.preview').innerText()).toMatch(/Mission ‘Little chef’[\s\S]*Name changed from ‘Master chef’ to ‘Little chef’/);
      await expect(dialog.locator('.preview').innerText()).resolves.toMatch(/Nobody’s mission progress resets/);
      expect(await accessibilityViolations(page)).toEqual([]);
      await dialog.locator('sl-button', { hasText: `Restore version ${richer}` }).click();

      await poll(async () => (await rows())[0]).toMatch(
        new RegExp(`^Version ${renamed + 1}\\s*.+\\s*${client} \\(you\\)\\s*Restored version ${richer}: 1 mission changed$`),
      );
      await expect(page.locator('sl-alert[variant="success"]').innerText()).resolves.toContain(`Version ${richer} was restored`);
      const kept = await t.app.inject({ method: 'GET', url: `/admin/program/versions/${richer}`, headers });
      expect(await program()).toEqual((kept.json() as { response: { document: Program } }).response.document);
      expect(problems).toEqual([]);
      expect(refused).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('makes and downloads a backup, restores it from the file after a preview, and refuses broken files', { timeout: 90_000 }, async () => {
    const { page, problems, refused } = await open('/console/backups');
    try {
      await poll(() => page.locator('.backups .tabulator-placeholder').innerText()).toMatch(/No backup yet/);
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.locator('sl-input.backup-name input').fill('Before the spring campaign');
      await page.locator('sl-button', { hasText: 'Make a backup now' }).click();
      const rows = page.locator('.backups .tabulator-row');
      await poll(() => rows.allInnerTexts()).toEqual([expect.stringMatching(/^Before the spring campaign\s*\d+\/\d+\/\d{4}, [\s\S]*bk_/)]);
      const before = await program();

      // The download carries the token (fetched, then saved from a Blob) and a readable name.
      const [download] = await Promise.all([page.waitForEvent('download'), rows.first().locator('sl-button', { hasText: 'Download XML' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^questline-demo-backup-\d{4}-\d\d-\d\d-\d{4}\.xml$/);
      const file = (await download.path()) as string;
      const xml = readFileSync(file, 'utf8');
      const list = await t.app.inject({ method: 'GET', url: '/backup', headers });
      const [stored] = (list.json() as { response: Array<{ id: string }> }).response;
      expect(xml).toBe((await t.app.inject({ method: 'GET', url: `/backup/${stored?.id}`, headers })).body);
      expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Nitro /);

      // The program changes; restoring the file previews the change back, then applies it.
      await change((draft) => {
        mission(draft, 'm-chef').name = 'Chef in training';
        mission(draft, 'm-chef').rewards.points[0].amount = 75;
      });
      await page.locator('input#backup-file').setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/xml', buffer: Buffer.from(xml) });
      const dialog = page.locator('sl-dialog.restore-backup');
      await poll(() => dialog.locator('.preview').innerText()).toMatch(/Mission ‘Little chef’[\s\S]*Name changed from ‘Chef in training’ to ‘Little chef’/);
      await expect(dialog.locator('.preview').innerText()).resolves.toMatch(/Reward changed from 75 to 50 Points$/m);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-backups-${configuration}`);
      await dialog.locator('sl-button', { hasText: 'Restore' }).last().click();
      await poll(() => page.locator('sl-alert[variant="success"]').innerText()).toMatch(
        /^questline-demo-backup-.*\.xml was restored: the program is now version \d+\.$/,
      );
      expect(await program()).toEqual(before);

      // A stored backup restores from the list the same way: preview, then restore.
      await change((draft) => {
        mission(draft, 'm-first-read').name = 'Very first read';
      });
      await rows.first().locator('sl-button', { hasText: 'Restore…' }).click();
      await poll(() => dialog.locator('.preview').innerText()).toMatch(/Mission ‘First read’[\s\S]*Name changed from ‘Very first read’ to ‘First read’/);
      await expect(dialog.getAttribute('label')).resolves.toBe('Restore Before the spring campaign?');
      await dialog.locator('sl-button', { hasText: 'Restore' }).last().click();
      await poll(() => page.locator('sl-alert[variant="success"]').innerText()).toMatch(
        /^Before the spring campaign was restored: the program is now version \d+\.$/,
      );
      expect(await program()).toEqual(before);
      expect(problems).toEqual([]);

      // A malformed file, then an invalid program: the server's words, with where, and nothing changes.
      await page.locator('input#backup-file').setInputFiles({
        name: 'broken.xml',
        mimeType: 'application/xml',
        buffer: Buffer.from('<Nitro>\n  <SiteConfiguration name="x">\n  </Configuration>\n</Nitro>'),
      });
      const refusal = page.locator('sl-alert.refusal');
      await poll(() => refusal.innerText()).toMatch(/broken\.xml cannot be restored\. Malformed XML at line 3, column 3: Expected closing tag/);
      await page.locator('input#backup-file').setInputFiles({
        name: 'invalid.xml',
        mimeType: 'application/xml',
        buffer: Buffer.from(xml.replace('action="read_article"', 'action="teleport"')),
      });
      await poll(() => refusal.innerText()).toMatch(
        /invalid\.xml cannot be restored[\s\S]*SiteConfiguration\/Missions\/Mission\[1\]\/Rules\/Rule\[1\]\/@action: .*teleport/,
      );
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-backups-refused-${configuration}`);
      expect(await program()).toEqual(before);
      expect(problems).toEqual([expect.stringMatching(/^400 POST .*\/restore\/preview$/), expect.stringMatching(/^422 POST .*\/restore\/preview$/)]);
      expect(refused).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
