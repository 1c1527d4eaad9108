// A program manager's whole round in the console, in one browser tab, on both stores (the issue's
// list, in its order): sign in; create a mission through the form, see the API's refusal on the
// field it names, fix it, save; dry-run an action and see the predicted outcome, with nothing
// written; log it for real and see it on the user's page and in the overview's chart; reverse it;
// restore the program version from before the mission; sign out. Each page's own file tests it in
// depth; this one tests that the pages work together, reached through the navigation.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgramDocument } from '../../src/modules/program/model.js';
import { ensureDemoSite, type DemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, configurations, type TestApp } from '../helpers/app.js';
import { hasBrowser, launchBrowser } from '../helpers/browser.js';
import { openConsole, type WebStorage } from './console-helpers.js';
import { poll } from './helpers.js';

const USER = 'flow-user';

describe.skipIf(!hasBrowser).each(configurations)('a program manager’s round in the console (%s)', (configuration) => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let demo: DemoSite;
  let headers: { authorization: string };

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

  const get = async <T>(url: string): Promise<T> => ((await t.app.inject({ method: 'GET', url, headers })).json() as { response: T }).response;
  const program = () => get<ProgramDocument>('/admin/program');
  const newestVersion = async () => (await get<Array<{ version: number }>>('/admin/program/versions?limit=1'))[0]?.version as number;
  const balance = async () =>
    (await get<{ categories: Array<{ name: string; balance: number }> }>(`/users/${USER}/point-balance`)).categories.find((c) => c.name === 'Points')?.balance;

  const go = async (page: Page, label: string, path: string) => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: label, exact: true }).click();
    await page.waitForURL(`${base}${path}`);
  };
  const field = (page: Page, path: string) => page.locator(`.entity-form [data-path="${path}"]`);
  const pick = async (page: Page, select: ReturnType<Page['locator']>, option: string) => {
    await select.click();
    await select.locator('sl-option', { hasText: option }).first().click();
  };
  /** Today's figure in the overview's actions-per-day chart, as its accessible summary says it. */
  const actionsToday = async (page: Page) => {
    const label = (await page.locator('canvas[data-chart="actions-per-day"]').getAttribute('aria-label')) ?? '';
    return Number(/today \(.+\) ([\d,]+)\.$/.exec(label)?.[1]?.replace(/,/g, '') ?? Number.NaN);
  };

  it('builds a mission, tries it, logs it, sees it, reverses it, restores the program and signs out', { timeout: 180_000 }, async () => {
    const before = await newestVersion();
    // Sign in: the console opens on the overview.
    const { page, problems, refused } = await openConsole(browser, base, '/console', demo.admin);
    try {
      await page.waitForURL(`${base}/console/overview`);
      await poll(() => actionsToday(page)).toBe(0);

      // A new mission through the form: refused on the amount, fixed, reviewed, saved.
      await go(page, 'Program', '/console/program');
      await page.locator('sl-button', { hasText: 'New mission' }).click();
      await page.waitForURL(`${base}/console/program/missions/~new`);
      await field(page, '/name').locator('input').fill('Watch a video');
      await pick(page, field(page, '/rules/0/action'), 'watch_video');
      await field(page, '/rules/0/goal').locator('input').fill('1');
      await page.locator('fieldset[data-path="/rewards/points"] > sl-button', { hasText: 'Add reward' }).click();
      await pick(page, field(page, '/rewards/points/0/category'), 'Points');
      await field(page, '/rewards/points/0/amount').locator('input').fill('-5');
      await page.locator('sl-button', { hasText: 'Review changes' }).click();
      await poll(() => field(page, '/rewards/points/0/amount').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('.entity-form [aria-invalid="true"]').count()).toBe(1);
      problems.length = 0; // the refusal (400) was the point
      await field(page, '/rewards/points/0/amount').locator('input').fill('30');
      await page.locator('sl-button', { hasText: 'Review changes' }).click();
      const review = page.locator('sl-dialog.review');
      await poll(() => review.getAttribute('open')).toBe('');
      await expect(review.locator('.review-changes').innerText()).resolves.toMatch(/New\s+Mission “Watch a video”/);
      await review.locator('sl-button', { hasText: 'Save' }).click();
      await page.waitForURL(/\/console\/program\/missions\/mission-\d+$/);
      const mission = (await program()).missions.find((m) => m.name === 'Watch a video');
      expect(mission).toMatchObject({ rules: [{ action: 'watch_video', goal: 1 }], rewards: { points: [{ category: 'Points', amount: 30 }] } });
      expect(await newestVersion()).toBe(before + 1);

      // Try it: the dry run predicts the completion and its points, and writes nothing.
      await go(page, 'Try it', '/console/try');
      await pick(page, page.locator('sl-select[name="action"]'), 'watch_video');
      await page.locator('sl-input[name="userId"] input').fill(USER);
      await page.locator('sl-input[name="value"] input').fill('1');
      await page.locator('sl-button[type="submit"]', { hasText: 'Try' }).click();
      const outcome = page.locator('section.outcome');
      await poll(() => outcome.locator('h2').innerText()).toBe('What would happen');
      await expect(outcome.locator('.missions').innerText()).resolves.toMatch(/Watch a video\s*Completed/);
      await expect(outcome.locator('.card.points').innerText()).resolves.toMatch(/Points\s*30\s*30/);
      // Nothing was written: no action recorded, no points.
      expect(await get(`/users/${USER}/actions`)).toEqual([]);
      expect(await balance()).toBe(0);

      // For real: the user's page shows the action, the completed mission and the points.
      await page.locator('sl-button', { hasText: 'Log it for real…' }).click();
      await page.locator('sl-dialog.log-real').getByRole('button', { name: 'Log it', exact: true }).click();
      await poll(() => outcome.locator('h2').innerText()).toBe('What happened');
      expect(await balance()).toBe(30);
      await outcome
        .getByRole('link', { name: `${USER}’s page` })
        .first()
        .click();
      await page.waitForURL(`${base}/console/people/${USER}`);
      await poll(() => page.locator('.card.points').innerText()).toMatch(/Points \(default\)\s*30/);
      await poll(() => page.locator('.actions .tabulator-row').allInnerTexts()).toEqual([expect.stringMatching(/watch_video\s*1\s*Reverse…/)]);
      await poll(() => page.locator('.missions .tabulator-row').allInnerTexts()).toContainEqual(expect.stringMatching(/Watch a video\s*100%\s*once/));

      // The overview's chart counts it today.
      await go(page, 'Overview', '/console/overview');
      await poll(async () => {
        await page.locator('sl-button', { hasText: 'Refresh' }).click();
        return actionsToday(page);
      }).toBe(1);

      // Reverse it from the user's page, after the confirmation shows the clawback. (The refreshes
      // above may still be answering: loading another page while they are would abort them.)
      await page.waitForLoadState('networkidle');
      await page.goto(`${base}/console/people/${USER}`);
      await page.locator('.actions .tabulator-row', { hasText: 'watch_video' }).locator('sl-button.reverse').click();
      const reverse = page.locator('sl-dialog.reverse-dialog');
      await poll(() =>
        reverse
          .locator('.clawback')
          .innerText()
          .catch(() => ''),
      ).toMatch(/Watch a video/);
      await expect(reverse.locator('.clawback').innerText()).resolves.toMatch(/Points\s*−30\s*0/);
      await reverse.getByRole('button', { name: 'Reverse' }).click();
      await poll(() => page.locator('.card.points').innerText()).toMatch(/Points \(default\)\s*0/);
      expect(await balance()).toBe(0);

      // Restore the program as it was before the mission.
      await go(page, 'History', '/console/history');
      await page.getByRole('button', { name: `Version ${before}`, exact: true }).click();
      const version = page.locator('section.version');
      await poll(() => version.locator('h2').innerText()).toMatch(new RegExp(`^Version ${before}`));
      await version.locator('sl-button', { hasText: 'Restore this version…' }).click();
      const restore = page.locator('sl-dialog.restore-version');
      await poll(() => restore.locator('.preview').innerText()).toMatch(/Watch a video/);
      await restore.locator('sl-button', { hasText: `Restore version ${before}` }).click();
      await poll(() => page.locator('sl-alert[variant="success"]').innerText()).toContain(`Version ${before} was restored`);
      expect((await program()).missions.map((m) => m.name)).not.toContain('Watch a video');
      expect(await newestVersion()).toBe(before + 2);

      // Sign out: the token is forgotten.
      await page.locator('sl-button', { hasText: 'Sign out' }).click();
      await page.locator('ql-sign-in form').waitFor();
      expect(await page.evaluate(() => (globalThis as unknown as { sessionStorage: WebStorage }).sessionStorage.length)).toBe(0);
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
