// <ql-leaderboard> shows the winners of the board's last closed window (docs/ui.md, docs/leaderboards.md
// "Closed windows and prizes"), in real Chromium on a company's page of another origin: before any
// window closed it shows none; once the week closed, the winners in final order with shared ranks,
// their scores and what each was paid, the viewer's row marked; nothing overflows at 320 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestSite } from '../helpers/app.js';
import { hasBrowser, screenshot } from '../helpers/browser.js';
import { PRIZE_USERS, weeklyPrizeProgram } from '../helpers/fixtures.js';
import { poll, startHostPages, type BrowserGlobals, type HostPages } from './helpers.js';

describe.skipIf(!hasBrowser)('<ql-leaderboard> last winners (Chromium)', () => {
  let t: TestApp;
  let site: TestSite;
  let host: HostPages;
  let client: string;

  const call = async (method: 'POST' | 'PUT', url: string, token: string, payload: Record<string, unknown>) => {
    const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  };
  const open = async (viewport = { width: 800, height: 700 }) => {
    const bob = await t.token(site.app, 'bob');
    const company = await host.serve(
      (questline) => `<ql-leaderboard base-url="${questline}" user-id="bob" token="${bob}" leaderboard-id="lb-week" size="5"></ql-leaderboard>`,
    );
    const admin = await t.token(site.admin);
    await call('PUT', '/admin/program', admin, program(company.origin));
    await host.waitForPreflight(company.origin, '/leaderboards/lb-week/results');
    const { page: opened, ...watched } = await host.open(company.url, viewport);
    await opened.locator('ql-leaderboard [part="list"], ql-leaderboard [part="empty"]').first().waitFor({ timeout: 10_000 });
    await poll(() => opened.locator('ql-leaderboard [part="loading"]').count()).toBe(0);
    return { page: opened, ...watched };
  };
  const program = (origin: string) => weeklyPrizeProgram({ allowedOrigins: [origin] });

  beforeAll(async () => {
    t = await buildTestApp('embedded');
    site = await t.createSite();
    client = await t.token(site.app);
    await call('PUT', '/admin/program', await t.token(site.admin), program('https://example.com'));
    for (const [user, first, last] of PRIZE_USERS) await call('PUT', `/users/${user}/preferences`, client, { firstName: first, lastName: last });
    host = await startHostPages(t);
  });
  afterAll(async () => {
    await host?.close();
    await t?.close();
  });

  it('shows no winners before a window closed', async () => {
    const { page: opened, problems } = await open();
    expect(await opened.locator('ql-leaderboard [part="results"]').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("shows the last closed window's winners with their ranks, scores and prizes", async () => {
    // The closer sees the board now, the users score, and the week is closed a week later.
    const results = t.app.services.leaderboardResults;
    await results.sweep(Date.now());
    for (const [user, times] of [
      ['ann', 3],
      ['bob', 1],
      ['cat', 1],
    ] as const)
      for (let i = 0; i < times; i++) await call('POST', `/users/${user}/actions`, client, { action: 'small' });
    expect(await results.sweep(Date.now() + 8 * 86_400_000)).toBe(1);

    const { page: opened, problems } = await open();
    const winners = opened.locator('ql-leaderboard [part~="winner"]');
    await poll(() => winners.count()).toBe(3);
    expect(await opened.locator('ql-leaderboard [part="results-title"]').textContent()).toBe('Last winners');
    // The week's days in the site's calendar (Sunday to Saturday in New York), whatever the browser's zone.
    expect(await opened.locator('ql-leaderboard [part="results-window"]').textContent()).toMatch(/^\w{3} \d{1,2}, \d{4} – \w{3} \d{1,2}, \d{4}$/);
    const rows = (await winners.allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(rows).toEqual([
      'Rank #1 Ann Lee Score 30 +100 Points, Champion badge',
      'Rank #2 Bob Stone You Score 10 +10 Points',
      'Rank #2 Cat Ng Score 10 +10 Points',
    ]);
    expect(await opened.locator('ql-leaderboard [part~="winner"][aria-current="true"]').getAttribute('data-user')).toBe('bob');
    await screenshot(opened, 'ui-leaderboard-winners');
    expect(problems).toEqual([]);
  });

  it('fits a 320 px wide screen', async () => {
    const { page: opened } = await open({ width: 320, height: 800 });
    await poll(() => opened.locator('ql-leaderboard [part~="winner"]').count()).toBe(3);
    expect(await opened.evaluate(() => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await screenshot(opened, 'ui-leaderboard-winners-320');
  });
});
