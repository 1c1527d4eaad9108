// The console's Leaderboards page lists a board's closed windows (docs/console.md "Leaderboards",
// docs/leaderboards.md "Closed windows and prizes"), in real Chromium on both stores, signed in as
// the site's admin: before any window closed it says so, and that an all-time board without an end
// never closes; once two weeks have closed (the closer's sweep on a test clock), each is listed
// newest first with its days, its winners in final order with shared ranks, their scores and the
// prizes paid. axe-core finds no serious violation, and nothing is refused by the CSP.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClosedWindow } from '../../src/modules/leaderboard-results/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../helpers/app.js';
import { hasBrowser, launchBrowser, screenshot } from '../helpers/browser.js';
import { body, caller } from '../helpers/http.js';
import { PRIZE_USERS, weeklyPrizeProgram } from '../helpers/fixtures.js';
import { accessibilityViolations, openConsole } from './console-helpers.js';
import { poll } from './helpers.js';

const DAY = 86_400_000;
// Wednesday 2026-11-04, noon in New York: its week (from Sunday) is Nov 1–7.
const WEDNESDAY_NOON = Date.parse('2026-11-04T17:00:00Z');

// Besides the weekly board with prizes, an all-time board without an end: it never closes.
const program = weeklyPrizeProgram({}, [{ id: 'lb-all', name: 'All-time points', metric: { type: 'points', category: 'Points' }, period: 'allTime' }]);

describe.skipIf(!hasBrowser).each(configurations)('the console: closed leaderboard windows (%s)', (configuration) => {
  let now = WEDNESDAY_NOON;
  let t: TestApp;
  let site: TestSite;
  let base: string;
  let browser: Browser;

  const call = caller(() => t);
  const closedWindows = async () => body<ClosedWindow[]>(await call('GET', '/leaderboards/lb-week/results', await t.token(site.admin)));
  const rows = (page: Page) => page.locator('.closed-windows .tabulator-row');
  const chooseBoard = async (page: Page, name: string) => {
    const select = page.locator('sl-select[label="Leaderboard"]');
    await select.click();
    await select.locator('sl-option', { hasText: name }).click();
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => now });
    site = await t.createSite();
    body(await call('PUT', '/admin/program', await t.token(site.admin), program));
    const app = await t.token(site.app);
    for (const [user, firstName, lastName] of PRIZE_USERS) body(await call('PUT', `/users/${user}/preferences`, app, { firstName, lastName }));
    // The closer sees the boards (it starts from the window holding now).
    await t.app.services.leaderboardResults.sweep(now);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('says no window has closed yet, and that an all-time board without an end never closes', { timeout: 60_000 }, async () => {
    const { page, problems, refused } = await openConsole(browser, base, '/console/leaderboards', site.admin);
    try {
      const empty = page.locator('.closed-windows .tabulator-placeholder');
      await poll(() => empty.innerText()).toBe('No window has closed yet: once the current window ends, its winners and the prizes paid to them show here.');
      expect(await rows(page).count()).toBe(0);
      await expect(page.locator('ql-leaderboard-results .pager').innerText()).resolves.toMatch(/^None/);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-leaderboard-results-empty-${configuration}`);
      await chooseBoard(page, 'All-time points');
      await poll(() => empty.innerText()).toBe('This all-time board never closes (it has no end), so it has no winners.');
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('lists the closed windows newest first, with their winners, scores and the prizes paid', { timeout: 60_000 }, async () => {
    // Week of Nov 1: Ann 30, Bob and Cat 10 each. It closes on the next Wednesday; its prizes are
    // paid then, in the week of Nov 8, where they count (Ann 100, Bob and Cat 10), and that week
    // closes a week later.
    const app = await t.token(site.app);
    for (const [user, times] of [
      ['ann', 3],
      ['bob', 1],
      ['cat', 1],
    ] as const)
      for (let i = 0; i < times; i++) body(await call('POST', `/users/${user}/actions`, app, { action: 'small' }), 201);
    for (const days of [7, 14]) {
      now = WEDNESDAY_NOON + days * DAY;
      await t.app.services.leaderboardResults.sweep(now);
    }
    expect((await closedWindows()).map((w) => [w.firstDay, w.lastDay])).toEqual([
      ['2026-11-08', '2026-11-14'],
      ['2026-11-01', '2026-11-07'],
    ]);

    const { page, problems, refused } = await openConsole(browser, base, '/console/leaderboards', site.admin);
    try {
      await poll(() => rows(page).count()).toBe(2);
      const cells = async (row: number) =>
        (await rows(page).nth(row).locator('.tabulator-cell').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
      const winners = (annScore: number) =>
        `#1 Ann Lee ann · score ${annScore} +100 Points, Champion badge #2 Bob Stone bob · score 10 +10 Points #2 Cat Ng cat · score 10 +10 Points`;
      // Each closed when the sweep ran (noon in New York), shown in the reader's zone.
      const closedAt = (iso: string) =>
        page.evaluate((at) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)), iso);
      expect(await cells(0)).toEqual(['Nov 8, 2026 – Nov 14, 2026', await closedAt('2026-11-18T17:00:00Z'), winners(100)]);
      expect(await cells(1)).toEqual(['Nov 1, 2026 – Nov 7, 2026', await closedAt('2026-11-11T17:00:00Z'), winners(30)]);
      await expect(page.locator('ql-leaderboard-results .pager').innerText()).resolves.toMatch(/^1–2 of 2/);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-leaderboard-results-${configuration}`);
      // The all-time board has no closed window; back on the weekly one, the list is there again.
      await chooseBoard(page, 'All-time points');
      await poll(() => rows(page).count()).toBe(0);
      await chooseBoard(page, 'Weekly stars');
      await poll(() => rows(page).count()).toBe(2);
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
