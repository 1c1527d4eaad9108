// The console's "Streaks" part of the program editor in a real browser: the list (the demo
// program's daily reading streak), a streak created through the form generated from the model (its
// action picked from the program's actions, a weekly period, freezes), reviewed and saved, then
// listed and opened again. Nothing is refused by the Content-Security-Policy, and axe-core finds no
// serious accessibility violation. Embedded configuration only (the form is the same on both stores).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgramDocument } from '../../src/modules/program/model.js';
import { ensureDemoSite, type DemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { hasBrowser, launchBrowser, screenshot } from '../helpers/browser.js';
import { accessibilityViolations, openConsole } from './console-helpers.js';
import { poll } from './helpers.js';

describe.skipIf(!hasBrowser)('streaks in the program editor (Chromium)', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let demo: DemoSite;
  let headers: { authorization: string };

  beforeAll(async () => {
    t = await buildTestApp('embedded', { config: { demoSite: true } });
    demo = (await ensureDemoSite(t.app.services.sites, t.app.services.backups)) as DemoSite;
    headers = { authorization: `Bearer ${await t.token(demo.admin)}` };
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const program = async () =>
    (JSON.parse((await t.app.inject({ method: 'GET', url: '/admin/program', headers })).body) as { response: ProgramDocument }).response;
  const control = (page: Page, path: string) => page.locator(`.entity-form [data-path="${path}"]`);

  it('creates a streak through the form, reviews and saves it', { timeout: 90_000 }, async () => {
    expect((await program()).streaks?.map((streak) => streak.id)).toEqual(['s-reading']);
    const { page, problems, refused } = await openConsole(browser, base, '/console/program/streaks', demo.admin);
    try {
      await page.locator('sl-button', { hasText: 'New streak' }).click();
      await control(page, '/id').locator('input').fill('s-learn');
      await control(page, '/name').locator('input').fill('Weekly learning');
      await control(page, '/action').click();
      await control(page, '/action').locator('sl-option[value="complete_course"]').click();
      await control(page, '/period').click();
      await control(page, '/period').locator('sl-option[value="week"]').click();
      await control(page, '/freezes/max').locator('input').fill('2');
      await control(page, '/freezes/max').locator('input').press('Tab');
      for (const details of await page.locator('sl-details.form-section').all()) {
        await details.evaluate((element: unknown) => (element as { show(): Promise<void> }).show());
      }
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'console-program-streak-form');
      await page.locator('sl-button', { hasText: 'Review changes' }).click();
      const dialog = page.locator('sl-dialog.review');
      await poll(() => dialog.getAttribute('open')).toBe('');
      await expect(dialog.locator('.review-changes').innerText()).resolves.toMatch(/New\s+Streak “Weekly learning”/);
      await dialog.locator('sl-button', { hasText: 'Save' }).click();
      await page.waitForURL(`${base}/console/program/streaks/s-learn`);
      expect((await program()).streaks).toEqual([
        expect.objectContaining({ id: 's-reading' }),
        expect.objectContaining({
          id: 's-learn',
          name: 'Weekly learning',
          action: 'complete_course',
          period: 'week',
          freezes: expect.objectContaining({ max: 2 }),
        }),
      ]);
      // (The saved page may still be loading its icons: leaving it meanwhile would abort them.)
      await page.waitForLoadState('networkidle');
      await page.goto(`${base}/console/program/streaks`);
      await poll(() => page.locator('.entities .tabulator-row').allInnerTexts()).toEqual([
        expect.stringMatching(/Daily reading[\s\S]*action read_article[\s\S]*day/),
        expect.stringMatching(/Weekly learning[\s\S]*action complete_course[\s\S]*week/),
      ]);
      await screenshot(page, 'console-program-streaks');
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
