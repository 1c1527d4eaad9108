// The console's program editor in a real browser, on both stores: a mission created through the
// form, refused by the API with the error on the very field it names, fixed, reviewed (the preview
// lists the new mission) and saved; an existing mission's rule renamed, whose review says whose
// progress would reset, saved without undoing another admin's change made meanwhile; the JSON view
// editing a field the form then shows; an action with a rate limit; a category in use refused on
// delete, saying where; a group's members added and removed; award settings. Nothing is refused by the Content-Security-Policy, and axe-core finds no serious
// accessibility violation.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgramDocument } from '../../src/modules/program/model.js';
import { ensureDemoSite, type DemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, configurations, type TestApp } from '../helpers/app.js';
import { hasBrowser, launchBrowser, screenshot, SCREENSHOTS } from '../helpers/browser.js';
import { accessibilityViolations, openConsole } from './console-helpers.js';
import { poll } from './helpers.js';

interface Control {
  getAttribute(name: string): string | null;
  value: unknown;
  helpText: string;
}

describe.skipIf(!hasBrowser).each(configurations)('the program editor in Chromium (%s)', (configuration) => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let demo: DemoSite;
  let headers: { authorization: string };

  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { demoSite: true } });
    demo = (await ensureDemoSite(t.app.services.sites, t.app.services.backups)) as DemoSite;
    headers = { authorization: `Bearer ${await t.token(demo.admin)}` };
    // Two people on their way to Scholar (three courses): progress on its rule r-1.
    for (const userId of ['sam', 'kim']) {
      const logged = await t.app.inject({ method: 'POST', url: `/users/${userId}/actions`, headers, payload: { action: 'complete_course', value: 30 } });
      expect(logged.statusCode).toBe(201);
    }
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const program = async () =>
    (JSON.parse((await t.app.inject({ method: 'GET', url: '/admin/program', headers })).body) as { response: ProgramDocument }).response;

  const open = (path: string) => openConsole(browser, base, path, demo.admin);

  const control = (page: Page, path: string) => page.locator(`.entity-form [data-path="${path}"]`);
  const state = (page: Page, path: string) =>
    control(page, path).evaluate((element: unknown) => {
      const c = element as Control;
      return { invalid: c.getAttribute('aria-invalid'), help: c.helpText, value: c.value };
    });
  const reviewOpen = (page: Page) => poll(() => page.locator('sl-dialog.review').getAttribute('open')).toBe('');
  async function pick(page: Page, path: string, value: string): Promise<void> {
    await control(page, path).click();
    await control(page, path).locator(`sl-option[value="${value}"]`).click();
  }

  it('creates a mission through the form: the refused field says why, is fixed, reviewed and saved', { timeout: 90_000 }, async () => {
    const { page, problems, refused } = await open('/console/program');
    try {
      // The missions of the demo program, each a link to its editor.
      const rows = page.locator('.entities .tabulator-row');
      await poll(() => rows.count()).toBe((await program()).missions.length);
      await expect(rows.allInnerTexts()).resolves.toContainEqual(expect.stringMatching(/^Scholar\s*m-scholar\s*complete_course × 3\s*not hidden$/));
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-program-${configuration}`);

      await page.locator('sl-button', { hasText: 'New mission' }).click();
      await page.waitForURL(`${base}/console/program/missions/~new`);
      await control(page, '/name').locator('input').fill('Read 5 articles');
      await pick(page, '/rules/0/action', 'read_article');
      await control(page, '/rules/0/goal').locator('input').fill('5');
      await page.locator('fieldset[data-path="/rewards/points"] > sl-button', { hasText: 'Add reward' }).click();
      await pick(page, '/rewards/points/0/category', 'Points');
      await control(page, '/rewards/points/0/amount').locator('input').fill('-5');

      // The preview refuses it (as the save would): the message shows on the amount, and only there.
      const answer = page.waitForResponse((response) => response.url().endsWith('/admin/program/preview'));
      await page.locator('sl-button', { hasText: 'Review changes' }).click();
      const refusal = (await (await answer).json()) as { code: string; errors: Array<{ path: string; message: string }> };
      expect(refusal.code).toBe('validation_failed');
      const [error] = refusal.errors;
      expect(error?.path).toMatch(/^missions\.\d+\.rewards\.points\.0\.amount$/);
      await poll(() => state(page, '/rewards/points/0/amount')).toMatchObject({ invalid: 'true', help: error?.message });
      expect(await page.locator('.entity-form [aria-invalid="true"]').count()).toBe(1);
      await expect(page.locator('.error-note').innerText()).resolves.toMatch(/marked in red/);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-mission-editor-${configuration}`);
      problems.length = 0; // the refusal above was expected (400)

      // Fixed, the review lists the new mission; saving writes it.
      await control(page, '/rewards/points/0/amount').locator('input').fill('25');
      await control(page, '/rewards/points/0/amount').locator('input').press('Tab');
      await poll(() => state(page, '/rewards/points/0/amount')).toMatchObject({ invalid: null, value: '25' });
      await page.locator('sl-button', { hasText: 'Review changes' }).click();
      const dialog = page.locator('sl-dialog.review');
      await reviewOpen(page);
      await expect(dialog.locator('.review-changes').innerText()).resolves.toMatch(/New\s+Mission “Read 5 articles”/);
      await expect(dialog.innerText()).resolves.toMatch(/No one’s progress resets/);
      expect(await accessibilityViolations(page)).toEqual([]);
      await dialog.locator('sl-button', { hasText: 'Save' }).click();
      await page.waitForURL(/\/console\/program\/missions\/mission-\d+$/);
      await poll(() => page.locator('sl-alert[variant="success"]').first().innerText()).toMatch(/Mission “Read 5 articles” saved/);

      const saved = (await program()).missions.find((mission) => mission.name === 'Read 5 articles');
      expect(saved).toMatchObject({ rules: [{ id: 'rule-1', action: 'read_article', goal: 5 }], rewards: { points: [{ category: 'Points', amount: 25 }] } });
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('renames a rule, says whose progress would reset, and keeps the JSON view and the form in step', { timeout: 90_000 }, async () => {
    const { page, problems, refused } = await open('/console/program/missions/m-scholar');
    try {
      await poll(() => state(page, '/name')).toMatchObject({ value: 'Scholar' });
      await control(page, '/rules/0/id').locator('input').fill('r-courses');

      // The JSON view shows the renamed rule; an edit there (the name) shows in the form.
      await page.locator('sl-tab', { hasText: 'JSON' }).click();
      const editor = page.locator('ql-json-editor .cm-content');
      await poll(() => editor.innerText()).toMatch(/"id": "r-courses"/);
      expect(await accessibilityViolations(page)).toEqual([]);
      const scholar = (await program()).missions.find((mission) => mission.id === 'm-scholar');
      const json = { ...scholar, rules: scholar?.rules.map((rule) => ({ ...rule, id: 'r-courses' })) };
      await editor.click();
      await page.keyboard.press('Control+a');
      await page.keyboard.press('Backspace');
      // On one line: a browser's editable text turns runs of typed spaces into no-break spaces.
      await page.keyboard.insertText(JSON.stringify({ ...json, name: 'Scholar of the year' }));
      await page.locator('sl-tab', { hasText: 'Form' }).click();
      await poll(() => state(page, '/name')).toMatchObject({ value: 'Scholar of the year' });

      await page.locator('sl-button', { hasText: 'Review changes' }).click();
      const dialog = page.locator('sl-dialog.review');
      await reviewOpen(page);
      await expect(dialog.locator('.review-reset').innerText()).resolves.toMatch(/Progress of “Scholar” would reset for 2 users/);
      await expect(dialog.locator('.review-changes').innerText()).resolves.toMatch(/Changed\s+Mission “Scholar of the year”: Name; Rules › 1 › Rule id/);
      expect(await accessibilityViolations(page)).toEqual([]);
      // The dialog's overlay covers the window, not the whole page: this one is of the window.
      await page.screenshot({ path: join(SCREENSHOTS, `console-program-review-${configuration}.png`) });
      // Meanwhile another admin renames another mission: saving this one keeps their change.
      const binge = (await program()).missions.find((mission) => mission.id === 'm-binge');
      const other = await t.app.inject({ method: 'PUT', url: '/admin/challenges/m-binge', headers, payload: { ...binge, name: 'Marathon' } });
      expect(other.statusCode).toBe(200);
      await dialog.locator('sl-button', { hasText: 'Save' }).click();
      await poll(async () => (await program()).missions.find((mission) => mission.id === 'm-scholar')?.name).toBe('Scholar of the year');
      expect((await program()).missions.find((mission) => mission.id === 'm-binge')?.name).toBe('Marathon');
      expect((await program()).missions.find((mission) => mission.id === 'm-scholar')?.rules.map((rule) => rule.id)).toEqual(['r-courses']);
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('edits the other parts with the same forms: an action, a category in use, a group and its members, award settings', { timeout: 90_000 }, async () => {
    const { page, problems, refused } = await open('/console/program/actions');
    try {
      // An action with a rate limit: an optional object, switched on.
      await page.locator('sl-button', { hasText: 'New action' }).click();
      await control(page, '/name').locator('input').fill('comment');
      await page.locator('fieldset[data-path="/rateLimit"] > sl-switch').click();
      await control(page, '/rateLimit/max').locator('input').fill('3');
      await control(page, '/rateLimit/max').locator('input').press('Tab');
      await pick(page, '/rateLimit/period', 'hour');
      await page.locator('sl-button', { hasText: 'Review changes' }).click();
      const dialog = page.locator('sl-dialog.review');
      await reviewOpen(page);
      await expect(dialog.locator('.review-changes').innerText()).resolves.toMatch(/New\s+Action “comment”/);
      await dialog.locator('sl-button', { hasText: 'Save' }).click();
      await page.waitForURL(`${base}/console/program/actions/comment`);
      expect((await program()).actions.find((action) => action.name === 'comment')).toMatchObject({ rateLimit: { max: 3, period: 'hour' } });

      // A category missions reward cannot go: the review says where it is used, in words.
      await page.getByRole('navigation', { name: 'Parts of the program' }).getByRole('link', { name: 'Point categories' }).click();
      await page.locator('.entities a', { hasText: 'Coins' }).click();
      await page.waitForURL(`${base}/console/program/point-categories/Coins`);
      await page.locator('sl-button', { hasText: 'Delete' }).click();
      await poll(() => page.locator('sl-alert.unplaced').innerText()).toMatch(
        /Mission “Little chef” › Rewards › Points › 2 › Category: point category "Coins" does not exist/,
      );
      expect((await program()).pointCategories.map((category) => category.name)).toContain('Coins');
      expect(problems).toEqual([expect.stringMatching(/^422 POST .*\/admin\/program\/preview$/)]);
      problems.length = 0;

      // A group's members apply at once.
      await page.goto(`${base}/console/program/groups/g-emea`);
      await page.locator('ql-group-members sl-input input').fill('kim');
      await page.locator('ql-group-members sl-button', { hasText: 'Add to the group' }).click();
      await poll(() => page.locator('ql-group-members .tabulator-row').allInnerTexts()).toEqual([expect.stringMatching(/^kim/)]);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-group-editor-${configuration}`);
      const members = async () =>
        JSON.parse((await t.app.inject({ method: 'GET', url: '/admin/groups/g-emea/members', headers })).body) as { response: Array<{ userId: string }> };
      expect((await members()).response.map((member) => member.userId)).toEqual(['kim']);
      await page.locator('ql-group-members button', { hasText: 'Remove' }).click();
      await poll(async () => (await members()).response).toEqual([]);

      // Award settings: one form, the currency refused on its field, then saved.
      await page.getByRole('navigation', { name: 'Parts of the program' }).getByRole('link', { name: 'Award settings' }).click();
      await poll(() => state(page, '/currency')).toMatchObject({ value: 'USD' });
      await control(page, '/currency').locator('input').fill('usd');
      await page.locator('sl-button', { hasText: 'Review changes' }).click();
      await poll(() => state(page, '/currency')).toMatchObject({ invalid: 'true', help: expect.stringMatching(/pattern/) });
      problems.length = 0; // the refusal (400)
      await control(page, '/currency').locator('input').fill('EUR');
      await page.locator('sl-button', { hasText: 'Review changes' }).click();
      await reviewOpen(page);
      await expect(dialog.locator('.review-changes').innerText()).resolves.toMatch(/Changed\s+Award settings: Currency/);
      await dialog.locator('sl-button', { hasText: 'Save' }).click();
      await poll(async () => (await program()).awardSettings?.currency).toBe('EUR');
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('opens every part of the program in its form, each accessible', { timeout: 120_000 }, async () => {
    const demoProgram = await program();
    const parts: Array<[string, string]> = [
      ['levels', demoProgram.levels[0]?.id ?? ''],
      ['badges', demoProgram.badges[0]?.id ?? ''],
      ['leaderboards', demoProgram.leaderboards[0]?.id ?? ''],
      ['exchanges', demoProgram.exchanges[0]?.id ?? ''],
      ['quizzes', demoProgram.quizzes[0]?.id ?? ''],
      ['missions', 'm-chef'],
    ];
    const { page, problems, refused } = await open('/console/program/levels');
    try {
      for (const [part, id] of parts) {
        // Each address loaded afresh, once the last page's requests (its icons) are done: leaving earlier aborts them.
        await page.waitForLoadState('networkidle');
        await page.goto(`${base}/console/program/${part}`);

        await poll(() => page.locator('.entities .tabulator-row').count()).toBeGreaterThan(0);
        expect(await accessibilityViolations(page)).toEqual([]);
        await page.waitForLoadState('networkidle');
        await page.goto(`${base}/console/program/${part}/${id}`);
        await poll(() => state(page, '/id')).toMatchObject({ value: id });
        // Closed sections open, for the check to see every field.
        for (const details of await page.locator('sl-details.form-section').all()) {
          await details.evaluate((element: unknown) => (element as { show(): Promise<void> }).show());
        }
        expect(await accessibilityViolations(page)).toEqual([]);
        await screenshot(page, `console-program-${part}-${configuration}`);
      }
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
