// <ql-leaderboard> pins the viewer's own row under the top rows when they are ranked below them
// (docs/ui.md), in real Chromium on a company's page of another origin, on both stores: with twelve
// people ahead (and one tied, who reached the score first), Vic sees the top ten, a gap, and their
// own row at the shared rank the board answers, marked as theirs; Ann, in the top ten, gets no
// pinned row and no request for her standing; on a board of ten places Vic is pinned at #13 all the
// same; Zed, unranked, reads that he is not on the board (one standing read when the list is full;
// none when it lists everyone); a page's `texts` word the row, and `texts` that are not a JSON
// object are ignored.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../helpers/app.js';
import { hasBrowser, screenshot } from '../helpers/browser.js';
import { body, caller } from '../helpers/http.js';
import { poll, startHostPages, type BrowserGlobals, type HostPages } from './helpers.js';

/** Twelve people ahead of Vic (120 down to 10 points), then Tia and Vic with 5 each, Tia first. */
const AHEAD = Array.from({ length: 12 }, (_, i) => [`u${String(i + 1).padStart(2, '0')}`, 120 - i * 10] as const);

describe.skipIf(!hasBrowser).each(configurations)('<ql-leaderboard> pins the viewer (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let host: HostPages;

  const call = caller(() => t);
  const program = (origin: string) => ({
    site: { name: 'Acme', timezone: 'America/New_York', allowedOrigins: [origin] },
    pointCategories: [{ name: 'Points', isDefault: true }],
    actions: [{ name: 'read' }],
    leaderboards: [
      { id: 'lb-all', name: 'All-time points', metric: { type: 'points', category: 'Points' }, period: 'allTime', size: 20 },
      { id: 'lb-ten', name: 'Top ten', metric: { type: 'points', category: 'Points' }, period: 'allTime', size: 10 },
    ],
  });

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    const admin = await t.token(site.admin);
    body(await call('PUT', '/admin/program', admin, program('https://example.com')));
    for (const [user, amount] of [...AHEAD, ['tia', 5] as const, ['vic', 5] as const])
      body(await call('POST', `/admin/users/${user}/points`, admin, { category: 'Points', amount, reason: 'Seed' }), 201);
    const client = await t.token(site.app);
    for (const [user, firstName, lastName] of [
      ['u01', 'Ann', 'Lee'],
      ['vic', 'Vic', 'Moreau'],
      ['tia', 'Tia', 'Brandt'],
    ] as const)
      body(await call('PUT', `/users/${user}/preferences`, client, { firstName, lastName }));
    host = await startHostPages(t);
  });
  afterAll(async () => {
    await host?.close();
    await t?.close();
  });

  /** A company page with one leaderboard per viewer (`attributes` added to it), every list shown. */
  const open = async (viewers: Array<{ id: string; user: string; attributes?: string }>, width = 1100) => {
    const tokens = new Map<string, string>();
    for (const { user } of viewers) tokens.set(user, await t.token(site.app, user));
    const company = await host.serve(
      (questline) =>
        viewers
          .map(
            ({ id, user, attributes }) =>
              `<ql-leaderboard id="${id}" base-url="${questline}" user-id="${user}" token="${tokens.get(user)}" ${attributes ?? 'leaderboard-id="lb-all"'}></ql-leaderboard>`,
          )
          .join('\n'),
      'font-family: sans-serif; display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 300px), 1fr)); gap: 16px; align-items: start; max-width: 1060px',
    );
    body(await call('PUT', '/admin/program', await t.token(site.admin), program(company.origin)));
    await host.waitForPreflight(company.origin, '/leaderboards/lb-all/leaders');
    const opened = await host.newPage({ width, height: 900 });
    const standings: string[] = [];
    opened.page.on('request', (request) => {
      if (/\/leaderboards\/lb-[a-z]+\/leaders\/[^/?]+/.test(request.url())) standings.push(new URL(request.url()).pathname);
    });
    await opened.page.goto(company.url, { waitUntil: 'domcontentloaded' });
    for (const { id } of viewers) await opened.page.locator(`#${id} [part="list"]`).waitFor({ timeout: 10_000 });
    await poll(() => opened.page.locator('[part="loading"]').count()).toBe(0);
    return { ...opened, standings };
  };
  const rowsOf = async (page: Page, selector: string) => (await page.locator(selector).allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());

  it('pins a viewer ranked below the top ten under it, at the rank the board answers; none for a viewer in it, with no extra request', async () => {
    const { page, problems, standings } = await open([
      { id: 'vic', user: 'vic' },
      { id: 'ann', user: 'u01' },
    ]);

    const vic = page.locator('#vic');
    expect(await vic.getByRole('list', { name: 'Top entries' }).getByRole('listitem').count()).toBe(10);
    const pinned = vic.getByRole('list', { name: 'Your position' }).getByRole('listitem');
    await pinned.waitFor();
    // Tia reached 5 first: both share rank 13 and Tia is listed first, so Vic is at #13, not #14.
    expect(await rowsOf(page, '#vic [part~="pinned"] li')).toEqual(['Rank #13 Vic Moreau You Score 5']);
    expect(await pinned.getAttribute('aria-current')).toBe('true');
    expect(await pinned.getAttribute('part')).toBe('entry viewer pinned');
    expect(await vic.locator('[part="gap"]').isVisible()).toBe(true);
    expect(await vic.locator('[part="not-ranked"]').count()).toBe(0);
    // The pinned row comes after the top list, visibly below its last row.
    const [last, own] = [await vic.locator('[part="list"] li').last().boundingBox(), await pinned.boundingBox()];
    expect(own?.y).toBeGreaterThan((last?.y ?? 0) + (last?.height ?? 0));

    const ann = page.locator('#ann');
    expect(await rowsOf(page, '#ann [part="list"] li[aria-current="true"]')).toEqual(['Rank #1 Ann Lee You Score 120']);
    expect(await ann.locator('[part~="pinned"], [part="gap"], [part="not-ranked"]').count()).toBe(0);
    // Vic's page read Vic's standing once (its own row only); Ann's read none.
    expect(standings).toEqual(['/leaderboards/lb-all/leaders/vic']);
    await screenshot(page, `ui-leaderboard-pinned-${configuration}`);
    expect(problems).toEqual([]);
  });

  it("pins a viewer beyond the board's size at their real rank", async () => {
    const { page, problems } = await open([{ id: 'vic', user: 'vic', attributes: 'leaderboard-id="lb-ten"' }]);
    await page.locator('#vic').getByRole('list', { name: 'Your position' }).waitFor();
    // The board lists ten places; Vic's rank counts every score of the window.
    expect(await rowsOf(page, '#vic [part~="pinned"] li')).toEqual(['Rank #13 Vic Moreau You Score 5']);
    expect(problems).toEqual([]);
  });

  it('tells an unranked viewer so, reading their standing only when the list is full', async () => {
    const { page, problems, standings } = await open([
      { id: 'full', user: 'zed' },
      // `texts` that is not a JSON object leaves the block its own words (and breaks nothing).
      { id: 'everyone', user: 'zed', attributes: 'leaderboard-id="lb-all" size="20" texts="{oops"' },
    ]);
    for (const id of ['full', 'everyone']) {
      await poll(() => page.locator(`#${id} [part="not-ranked"]`).textContent()).toBe('You are not on this leaderboard yet.');
      expect(await page.locator(`#${id} [part~="pinned"], #${id} [part="gap"]`).count()).toBe(0);
    }
    expect(await page.locator('#everyone [part="list"] li').count()).toBe(14);
    // Ten rows of twenty: Zed may be ranked below, so the block asks once; fourteen rows of twenty list every score.
    expect(standings).toEqual(['/leaderboards/lb-all/leaders/zed']);
    await screenshot(page, `ui-leaderboard-not-ranked-${configuration}`);
    expect(problems).toEqual([]);
  });

  it("words the pinned row in the page's texts, and fits 320 px", async () => {
    const texts = JSON.stringify({ you: 'Vous', yourPosition: 'Votre place' }).replaceAll('"', '&quot;');
    const { page, problems } = await open([{ id: 'vic', user: 'vic', attributes: `leaderboard-id="lb-all" texts="${texts}"` }], 320);
    const pinned = page.locator('#vic').getByRole('list', { name: 'Votre place' });
    await pinned.waitFor();
    expect(await pinned.locator('[part="viewer-tag"]').textContent()).toBe('Vous');
    expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await screenshot(page, `ui-leaderboard-pinned-320-${configuration}`);
    expect(problems).toEqual([]);
  });
});
