// Boosts in the console, in a real browser (docs/missions.md, "Boosts"): the program editor's
// Boosts tab lists the site's boosts and edits one through the form generated from the model; the
// Try it page says which boost multiplied a reward, and from what. axe-core finds no serious
// violation, and nothing is refused by the Content-Security-Policy.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoSite, type DemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, configurations, type TestApp } from '../helpers/app.js';
import { hasBrowser, launchBrowser, screenshot } from '../helpers/browser.js';
import { accessibilityViolations, openConsole } from './console-helpers.js';
import { poll } from './helpers.js';

describe.skipIf(!hasBrowser).each(configurations)('the console: boosts (%s)', (configuration) => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let demo: DemoSite;

  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { demoSite: true } });
    demo = (await ensureDemoSite(t.app.services.sites, t.app.services.backups)) as DemoSite;
    const headers = { authorization: `Bearer ${await t.token(demo.admin)}` };
    const boost = { id: 'b-launch', name: 'Launch week', multiplier: 2, start: '2026-01-01T00:00:00', end: '2030-12-31T23:59:59' };
    const created = await t.app.inject({ method: 'POST', url: '/admin/boosts', headers, payload: boost });
    expect(created.statusCode, created.body).toBe(201);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists and opens a boost in the program editor', { timeout: 60_000 }, async () => {
    const { page, problems, refused } = await openConsole(browser, base, '/console/program/boosts', demo.admin);
    try {
      const rows = page.locator('.entities .tabulator-row');
      await poll(() => rows.allInnerTexts()).toEqual([expect.stringMatching(/^Launch week\s*× 2\s*2026-01-01T00:00:00\s*2030-12-31T23:59:59$/)]);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-boosts-${configuration}`);
      await page.waitForLoadState('networkidle');
      await page.goto(`${base}/console/program/boosts/b-launch`);
      await poll(() => page.locator('.entity-form [data-path="/multiplier"]').evaluate((e: unknown) => (e as { value: unknown }).value)).toBe('2');
      for (const details of await page.locator('sl-details.form-section').all()) {
        await details.evaluate((element: unknown) => (element as { show(): Promise<void> }).show());
      }
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-boost-form-${configuration}`);
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('says on Try it which boost multiplied a reward', { timeout: 60_000 }, async () => {
    const { page, problems, refused } = await openConsole(browser, base, '/console/try', demo.admin);
    try {
      await page.locator('form.try-form').waitFor();
      await page.locator('sl-select[name="action"]').click();
      await page.locator('sl-select[name="action"] sl-option', { hasText: 'read_article' }).click();
      await page.locator('sl-input[name="userId"] input').fill('bo');
      await page.locator('sl-button[type="submit"]', { hasText: 'Try' }).click();
      const outcome = page.locator('section.outcome');
      await poll(() => outcome.locator('h2').innerText()).toBe('What would happen');
      const pointsCard = await outcome.locator('.card.points').innerText();
      expect(pointsCard).toMatch(/Points\s*20\s*20\s*× 2\s*Boosted by Launch week from 10\./);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-try-boost-${configuration}`);
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
