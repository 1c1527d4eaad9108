// The UI blocks embedded on a company's own page, another origin (SPEC §14, docs/ui.md "Embedding on
// another origin"): the page loads /elements/questline.js from the service and places <ql-points> and
// <ql-recognize> with a user-level token its server issued. From an origin in the site's
// allowedOrigins the blocks show their data and a recognition is sent (a JSON POST with a bearer
// token: the browser preflights it). From an origin not allowed they show an error and no data, and
// a write attempted from that page is refused: nothing is recorded. The default request rates apply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoSite, type DemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { hasBrowser, screenshot } from '../helpers/browser.js';
import { balanceOf, imagesOf, numberIn, poll, startHostPages, type BrowserGlobals, type HostPages } from './helpers.js';

interface SiteSettings {
  name: string;
  timezone: string;
  allowedOrigins: string[];
  [setting: string]: unknown;
}

/** The body of a company's page that embeds two blocks for `userId` with the token its server got for them. */
const companyBlocks = (token: string, userId: string) => (questline: string) => `<h1>Acme intranet</h1>
<ql-points base-url="${questline}" user-id="${userId}" token="${token}"></ql-points>
<ql-recognize base-url="${questline}" user-id="${userId}" token="${token}" exchange-id="x-kudos"></ql-recognize>`;

/** The body of a company's page with the blocks that show icons, for `userId`. */
const iconBlocks =
  (token: string, userId: string) => (questline: string) => `<ql-missions base-url="${questline}" user-id="${userId}" token="${token}"></ql-missions>
<ql-trophy-case base-url="${questline}" user-id="${userId}" token="${token}"></ql-trophy-case>`;

describe.skipIf(!hasBrowser)('UI blocks embedded on another origin (Chromium)', () => {
  let t: TestApp;
  let host: HostPages;
  let base: string;
  let appToken: string;
  let adminToken: string;
  let alexToken: string;
  let demo: DemoSite;

  const call = async (method: 'GET' | 'PUT', url: string, token: string, payload?: Record<string, unknown>) => {
    const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload !== undefined ? { payload } : {}) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
    return response;
  };
  const actionCount = async (userId: string) => Number((await call('GET', `/users/${userId}/actions?limit=1`, appToken)).headers['x-total-count']);
  const received = async (userId: string) =>
    (
      (await call('GET', `/users/${userId}/interactions-collection?type=received`, appToken)).json() as {
        response: Array<{ comment: string; giver: { userId: string }; pointsReceived: number }>;
      }
    ).response;
  const openPage = async (url: string) => {
    const { page, ...watched } = await host.newPage({ width: 1024, height: 900 });
    const answers: Array<{ method: string; path: string; status: number; allowOrigin: string | undefined }> = [];
    page.on('response', (response) => {
      if (response.url().startsWith(base)) {
        answers.push({
          method: response.request().method(),
          path: new URL(response.url()).pathname,
          status: response.status(),
          allowOrigin: response.headers()['access-control-allow-origin'],
        });
      }
    });
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    return { page, answers, ...watched };
  };

  beforeAll(async () => {
    t = await buildTestApp('embedded', { config: { demoSite: true } });
    const created = await ensureDemoSite(t.app.services.sites, t.app.services.backups);
    if (created === undefined) throw new Error('the demo site was not created');
    demo = created;
    appToken = await t.token(demo.app);
    adminToken = await t.token(demo.admin);
    alexToken = await t.token(demo.app, 'alex');
    // The first visit of /demo seeds alex's colleagues (sam, kim, lee), whom the recipient search finds.
    expect((await t.app.inject({ method: 'GET', url: '/demo' })).statusCode).toBe(200);
    host = await startHostPages(t);
    base = host.base;
  });
  afterAll(async () => {
    await host?.close();
    await t?.close();
  });

  it('from an allowed origin the blocks show their data and a recognition is sent (CORS with preflight)', async () => {
    const company = await host.serve(companyBlocks(alexToken, 'alex'));
    expect(company.origin).not.toBe(base);

    // Allow the page's origin; every other site setting stays as it was.
    const before = ((await call('GET', '/admin/site', adminToken)).json() as { response: SiteSettings }).response;
    expect(before.allowedOrigins).not.toContain(company.origin);
    await call('PUT', '/admin/site', adminToken, { ...before, allowedOrigins: [...before.allowedOrigins, company.origin] });
    const after = ((await call('GET', '/admin/site', adminToken)).json() as { response: SiteSettings }).response;
    expect(after).toEqual({ ...before, allowedOrigins: [...before.allowedOrigins, company.origin] });

    const { page, answers, problems } = await openPage(company.url);
    const points = page.locator('ql-points');
    const recognize = page.locator('ql-recognize');
    await points.locator('[part="balance"]').first().waitFor({ timeout: 10_000 });
    expect(await points.locator('[part="category-name"]').allTextContents()).toEqual(['Points', 'Coins', 'Award']);
    expect(await balanceOf(page, 'Points')).toBe(0);
    await recognize.locator('[part="budget"]').waitFor({ timeout: 10_000 });
    const budgetBefore = numberIn(await recognize.locator('[part="budget-remaining"]').textContent());
    expect(budgetBefore).toBe(100);
    expect(await page.locator('ql-points [role="alert"], ql-recognize [role="alert"]').count()).toBe(0);
    // The service's answers name the page's origin, so the page may read them.
    const read = answers.find((a) => a.path === '/users/alex/point-balance');
    expect(read).toMatchObject({ method: 'GET', status: 200, allowOrigin: company.origin });

    const comment = `Great demo from the intranet (${Date.now()})`;
    await recognize.getByLabel('Search colleagues').fill('sam');
    await recognize.getByRole('button', { name: 'Add Sam Okafor' }).click();
    await recognize.getByLabel('Category').selectOption({ label: 'Teamwork' });
    await recognize.getByLabel('Points per recipient').fill('3');
    await recognize.getByLabel('Comment (optional)').fill(comment);
    await recognize.getByRole('button', { name: 'Send', disabled: false }).click();
    await poll(() => recognize.locator('[part="success"]').textContent()).toBe('Recognition sent to Sam Okafor.');
    await poll(async () => numberIn(await recognize.locator('[part="budget-remaining"]').textContent())).toBe(budgetBefore - 3);
    expect(answers.find((a) => a.method === 'POST')).toEqual({
      method: 'POST',
      path: '/users/alex/interactions-collection',
      status: 201,
      allowOrigin: company.origin,
    });
    expect((await received('sam')).find((r) => r.comment === comment)).toMatchObject({ giver: { userId: 'alex' }, pointsReceived: 3 });

    await screenshot(page, 'ui-embed-allowed');
    expect(problems).toEqual([]);
  });

  it("shows the icons the program names by a path of the service (/demo/icons/…) from the service, not from the page's origin", async () => {
    // ivy completes First read, whose reward is the Reader badge.
    const logged = await t.app.inject({
      method: 'POST',
      url: '/users/ivy/actions',
      headers: { authorization: `Bearer ${appToken}` },
      payload: { action: 'read_article' },
    });
    expect(logged.statusCode, logged.body).toBe(201);
    const company = await host.serve(iconBlocks(await t.token(demo.app, 'ivy'), 'ivy'));
    const site = ((await call('GET', '/admin/site', adminToken)).json() as { response: SiteSettings }).response;
    await call('PUT', '/admin/site', adminToken, { ...site, allowedOrigins: [...site.allowedOrigins, company.origin] });
    await host.waitForPreflight(company.origin, '/users/ivy/badges');

    const { page, answers, problems } = await openPage(company.url);
    const shown = async (selector: string) =>
      `${selector} shows: ${await page.locator(selector).evaluate((element) => (element as unknown as { shadowRoot: { textContent: string } }).shadowRoot.textContent.replace(/\s+/g, ' '))}; answers: ${JSON.stringify(answers)}`;
    for (const [selector, loaded] of [
      ['ql-trophy-case', page.locator('ql-trophy-case').getByRole('heading', { name: 'Reader' })],
      ['ql-missions', page.locator('ql-missions [part="list"]')],
    ] as const) {
      await loaded.waitFor({ timeout: 10_000 }).catch(async (error: Error) => {
        throw new Error(await shown(selector), { cause: error });
      });
    }
    const images = [...(await imagesOf(page, 'ql-missions')), ...(await imagesOf(page, 'ql-trophy-case'))];
    expect(images.length).toBeGreaterThanOrEqual(5);
    for (const image of images) {
      expect(image.src).toMatch(new RegExp(`^${base}/demo/icons/[bm]-[a-z-]+\\.svg$`));
      expect(image.shown, image.src).toBe(true);
    }
    await screenshot(page, 'ui-embed-icons');
    expect(problems).toEqual([]);
  });

  it('from an origin the site does not allow the blocks show an error and no data, and a write is refused', async () => {
    const stranger = await host.serve(companyBlocks(alexToken, 'alex'));
    const site = ((await call('GET', '/admin/site', adminToken)).json() as { response: SiteSettings }).response;
    expect(site.allowedOrigins).not.toContain(stranger.origin);
    const actionsBefore = await actionCount('alex');
    const receivedBefore = (await received('kim')).length;

    const { page, answers } = await openPage(stranger.url);
    const pointsError = page.locator('ql-points [part="error"][role="alert"]');
    const recognizeError = page.locator('ql-recognize [part="error"][role="alert"]');
    await pointsError.waitFor({ timeout: 10_000 });
    await recognizeError.waitFor({ timeout: 10_000 });
    // The browser hides why; the block names the likely cause.
    expect(await pointsError.textContent()).toContain("this page's origin is not in the site's allowedOrigins");
    expect(await page.locator('ql-points [part="balance"]').count()).toBe(0);
    expect(await page.locator('ql-recognize [part="budget"], ql-recognize [part="form"]').count()).toBe(0);
    // The bundle itself is public; nothing with data was readable by the page.
    expect(answers.filter((a) => a.path !== '/elements/questline.js' && a.allowOrigin !== undefined)).toEqual([]);

    // A write attempted from the page's own script: the browser's preflight is refused, so it never runs.
    const attempts = await page.evaluate(
      async ({ questline, token }) => {
        const w = globalThis as unknown as BrowserGlobals;
        const post = async (path: string, body: unknown) => {
          try {
            const response = await w.fetch(`${questline}${path}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
            return `answered ${response.status}`;
          } catch (error) {
            return `refused: ${(error as Error).message}`;
          }
        };
        return [
          await post('/users/alex/actions', { action: 'read_article' }),
          await post('/users/alex/interactions-collection', {
            exchangeId: 'x-kudos',
            categoryId: 'c-teamwork',
            recipients: ['kim'],
            points: 1,
            comment: 'from a stranger',
          }),
        ];
      },
      { questline: base, token: alexToken },
    );
    expect(attempts).toEqual(['refused: Failed to fetch', 'refused: Failed to fetch']);
    expect(await actionCount('alex')).toBe(actionsBefore);
    expect((await received('kim')).length).toBe(receivedBefore);

    // Even a request that a browser did send (a simple one skips the preflight) is refused by the
    // service before it runs: here as a server would see it, with the page's Origin.
    const direct = await t.app.inject({
      method: 'POST',
      url: '/users/alex/actions',
      headers: { authorization: `Bearer ${alexToken}`, origin: stranger.origin },
      payload: { action: 'read_article' },
    });
    expect(direct.statusCode).toBe(403);
    expect(direct.json()).toMatchObject({ code: 'origin_not_allowed' });
    expect(await actionCount('alex')).toBe(actionsBefore);
    await screenshot(page, 'ui-embed-refused');
  });
});
