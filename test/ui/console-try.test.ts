// The console's Try it page and a person's reversals and adjustments, in a real browser on both
// stores: a dry run of an action for a user shows the missions it moves, the points with the day's
// cap applied, the level change and the webhook it would send, and writes nothing; logged for real,
// it shows on the user's page; reversed there after a confirmation that shows the clawback, and an
// adjustment made with a reason, both show in the user's point history with the balances updated.
// Nothing is refused by the page's Content-Security-Policy, no request fails, and axe-core finds no
// serious violation on either page or in the dialogs.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoSite, type DemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, configurations, type TestApp } from '../helpers/app.js';
import { hasBrowser, launchBrowser, screenshot } from '../helpers/browser.js';
import { accessibilityViolations, signIn } from './console-helpers.js';
import { poll, watch } from './helpers.js';

const HOOKS = 'http://127.0.0.1:9/crm';

describe.skipIf(!hasBrowser).each(configurations)('the console: Try it and a person’s changes (%s)', (configuration) => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let demo: DemoSite;
  let headers: { authorization: string };

  const points = async (userId: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/users/${userId}/point-balance`, headers });
    return Object.fromEntries(
      (response.json() as { response: { categories: Array<{ name: string; balance: number }> } }).response.categories.map((c) => [c.name, c.balance]),
    );
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration, { config: { demoSite: true, webhookAllowPrivateNetworks: true } });
    demo = (await ensureDemoSite(t.app.services.sites, t.app.services.backups)) as DemoSite;
    headers = { authorization: `Bearer ${await t.token(demo.admin)}` };
    const call = async (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>, status = 201) => {
      const response = await t.app.inject({ method, url, headers, payload });
      expect(response.statusCode, response.body).toBe(status);
    };
    // Casey, in Sales: a first article (10 Points, the Reader badge), a purchase that earns today's
    // 200 Coins (the limit), and 60 Points from an admin: 70 Points, 30 short of the Regular level.
    await call('PUT', '/users/casey/preferences', { firstName: 'Casey', lastName: 'Quinn' }, 200);
    await call('PUT', '/admin/groups/g-sales/members/casey', {});
    await call('POST', '/users/casey/actions', { action: 'read_article' });
    await call('POST', '/users/casey/actions', { action: 'purchase', value: 100 });
    // One course of the three the Scholar mission asks for.
    await call('POST', '/users/casey/actions', { action: 'complete_course', value: 45 });
    await call('POST', '/admin/users/casey/points', { category: 'Points', amount: 60, reason: 'Joined the pilot' });
    // The CRM hears of level changes.
    await call('POST', '/admin/webhook-endpoints', { url: HOOKS, eventTypes: ['level.changed'], description: 'CRM' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Chooses an option of a Shoelace select. */
  const choose = async (page: Page, select: string, option: string) => {
    await page.locator(select).click();
    await page.locator(`${select} sl-option`, { hasText: option }).click();
  };

  it('dry-runs an action, logs it for real, reverses it from the person’s page and adjusts their points', { timeout: 90_000 }, async () => {
    // Without motion, Shoelace's dialogs and details open at once: axe never reads a half-faded colour.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    try {
      const { problems } = watch(page, base);
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text());
      });
      await page.goto(`${base}/console/try`);
      await signIn(page, demo.admin.clientId, demo.admin.clientSecret);
      await page.locator('form.try-form').waitFor();
      // The page suggests a test user, and says so.
      await expect(page.locator('sl-input[name="userId"]').getAttribute('value')).resolves.toBe('console-test');
      await expect(page.locator('sl-input[name="userId"]').getAttribute('help-text')).resolves.toMatch(/test user/);

      // Two cooking videos' worth of minutes for Casey, as a dry run.
      await choose(page, 'sl-select[name="action"]', 'watch_video');
      await page.locator('sl-input[name="userId"] input').fill('casey');
      await page.locator('sl-input[name="value"] input').fill('120');
      await page.locator('sl-button', { hasText: 'Add metadata' }).click();
      await page.locator('sl-input[label="Name 1"] input').fill('genre');
      await page.locator('sl-input[label="Value 1"] input').fill('cooking');
      await page.locator('sl-button[type="submit"]', { hasText: 'Try' }).click();

      const outcome = page.locator('section.outcome');
      await poll(() => outcome.locator('h2').innerText()).toBe('What would happen');
      await expect(outcome.locator('.dry-run-note').innerText()).resolves.toMatch(/nothing was saved/);
      // The marathon completes; the chef's mission moves (one video of two, no recipe yet).
      await expect(outcome.locator('.missions').innerText()).resolves.toMatch(/Learning marathon\s*Completed/);
      await expect(outcome.locator('.missions').innerText()).resolves.toMatch(/Little chef\s*25%/);
      // 40 Points; Coins are at today's limit, so the 10 the mission rewards are not credited, and it says why.
      const pointsCard = await outcome.locator('.card.points').innerText();
      expect(pointsCard).toMatch(/Points\s*40\s*40/);
      expect(pointsCard).toMatch(/Coins\s*10\s*0\s*Capped by the daily limit \(200 Coins a day\)/);
      await expect(outcome.locator('.card.level').innerText()).resolves.toMatch(/Rookie\s*→\s*Regular\s*up/);
      await expect(outcome.locator('.card.level').innerText()).resolves.toMatch(/Badges\s*No badge/);
      // The CRM would hear of the level change; the payload is there to read.
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-try-it-${configuration}`);
      const hooks = outcome.locator('.webhooks sl-details');
      await expect(hooks.count()).resolves.toBe(1);
      await expect(hooks.locator('[slot="summary"]').innerText()).resolves.toMatch(new RegExp(`level\\.changed\\s*to ${HOOKS}`));
      await hooks.locator('[slot="summary"]').click();
      await poll(() => hooks.locator('pre.payload').isVisible()).toBe(true);
      const payload = JSON.parse(await hooks.locator('pre.payload').innerText()) as { eventType: string; data: Record<string, unknown> };
      expect(payload).toMatchObject({ eventType: 'level.changed', data: { user: { userId: 'casey' }, to: { name: 'Regular' } } });
      expect(await accessibilityViolations(page)).toEqual([]);
      // Nothing was written.
      expect(await points('casey')).toMatchObject({ Points: 70, Coins: 200 });

      // For real, after a confirmation.
      await page.locator('sl-button', { hasText: 'Log it for real…' }).click();
      await page.locator('sl-dialog.log-real').getByRole('button', { name: 'Log it', exact: true }).click();
      await poll(() => outcome.locator('h2').innerText()).toBe('What happened');
      expect(await points('casey')).toMatchObject({ Points: 110, Coins: 200 });
      await outcome.getByRole('link', { name: 'casey’s page' }).first().click();
      await page.waitForURL(`${base}/console/people/casey`);

      // Casey's page: the action, the points, the missions and the history.
      await poll(() => page.locator('.card.points').innerText()).toMatch(/Points \(default\)\s*110/);
      await expect(page.locator('.card.level').innerText()).resolves.toMatch(/Regular/);
      const actionRows = () => page.locator('.actions .tabulator-row').allInnerTexts();
      await poll(actionRows).toHaveLength(4);
      expect(await actionRows()).toEqual([
        expect.stringMatching(/watch_video\s*120\s*Reverse…/),
        ...['purchase', 'complete_course', 'read_article'].map(() => expect.stringMatching(/purchase|complete_course|read_article/)),
      ]);
      await poll(() => page.locator('.missions .tabulator-row').allInnerTexts()).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/Little chef\s*25%/),
          expect.stringMatching(/Scholar\s*33%/),
          expect.stringMatching(/Learning marathon\s*100%\s*once/),
          expect.stringMatching(/First read\s*100%\s*once/),
        ]),
      );
      const historyRows = () => page.locator('.history .tabulator-row').allInnerTexts();
      await poll(historyRows).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/Points\s*\+40\s*Reward of “Learning marathon” \(watch_video\)/),
          expect.stringMatching(/Coins\s*0\s*Reward of “Learning marathon” \(watch_video\), capped \(the reward was 10\)/),
          expect.stringMatching(/Points\s*\+60\s*Adjustment by an admin: Joined the pilot/),
        ]),
      );
      expect(await accessibilityViolations(page)).toEqual([]);

      // Reverse it: the confirmation shows what it takes back before anything changes.
      await page.locator('.actions .tabulator-row', { hasText: 'watch_video' }).locator('sl-button.reverse').click();
      const reverse = page.locator('sl-dialog.reverse-dialog');
      await poll(() =>
        reverse
          .locator('.clawback')
          .innerText()
          .catch(() => ''),
      ).toMatch(/The completion of Learning marathon, with its 40 Points$/m);
      const clawback = await reverse.locator('.clawback').innerText();
      expect(clawback).toMatch(/Points\s*−40\s*70/);
      expect(clawback).toMatch(/Level: Regular → Rookie/);
      expect(clawback).toMatch(/All-time points -40 \(to 70\)/);
      expect(await points('casey')).toMatchObject({ Points: 110 });
      expect(await accessibilityViolations(page)).toEqual([]);
      await reverse.getByRole('button', { name: 'Reverse' }).click();
      await poll(() => page.locator('sl-alert.notice').innerText()).toMatch(/Reversed watch_video of .*: 40 Points taken back\./);
      await poll(() => page.locator('.card.points').innerText()).toMatch(/Points \(default\)\s*70/);
      await poll(() => actionRows().then((rows) => rows[0])).toMatch(/^[^\n]*\s*watch_video\s*120\s*\d+\/\d+\/\d{4}/);
      expect((await actionRows()).slice(1)).toEqual(Array.from({ length: 3 }, () => expect.stringMatching(/Reverse…/)));
      await poll(() => historyRows().then((rows) => rows[0])).toMatch(/Points\s*−40\s*Reversal of “Learning marathon” \(watch_video\)/);
      expect(await points('casey')).toMatchObject({ Points: 70 });

      // Adjust: a reason is required; then the credit shows with it.
      await page.locator('sl-button.adjust').click();
      const adjust = page.locator('sl-dialog.adjust-dialog');
      await adjust.locator('sl-input[name="amount"] input').fill('15');
      await adjust.getByRole('button', { name: 'Adjust', exact: true }).click();
      await poll(() => adjust.locator('sl-input[name="reason"]').getAttribute('help-text')).toMatch(/Say why/);
      expect(await accessibilityViolations(page)).toEqual([]);
      await adjust.locator('sl-input[name="reason"] input').fill('Goodwill for the outage');
      await adjust.getByRole('button', { name: 'Adjust', exact: true }).click();
      await poll(() => page.locator('sl-alert.notice').innerText()).toMatch(/Credited 15 Points \(Goodwill for the outage\): the balance is 85\./);
      await poll(() => page.locator('.card.points').innerText()).toMatch(/Points \(default\)\s*85/);
      await poll(() => historyRows().then((rows) => rows.slice(0, 2))).toEqual([
        expect.stringMatching(/Points\s*\+15\s*Adjustment by an admin: Goodwill for the outage/),
        expect.stringMatching(/Points\s*−40\s*Reversal of “Learning marathon”/),
      ]);
      expect(await points('casey')).toMatchObject({ Points: 85 });
      await poll(() => adjust.getAttribute('open')).toBeNull();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-person-changes-${configuration}`);
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
