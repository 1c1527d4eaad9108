// The Questline Console in a real browser, on both stores: sign-in (a wrong secret and a client that
// is no admin are told why), the live standings of the demo site's board, a session the API refuses
// sending the person to sign-in and back to the same page, and sign-out forgetting the token (which
// is only ever in sessionStorage); a failed webhook delivery with its receiver's answer, sent again
// from the console, and the signing secret rotated; a user found by name and shown with their
// points, level, badges and recorded actions. Nothing is refused by the page's Content-Security-Policy, and
// axe-core finds no serious accessibility violation on either page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoSite, type DemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, configurations, type TestApp } from '../helpers/app.js';
import { hasBrowser, launchBrowser, screenshot } from '../helpers/browser.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { accessibilityViolations, SESSION_KEY, signIn, type WebStorage } from './console-helpers.js';
import { poll, watch } from './helpers.js';

// Pages open with reduced motion: Shoelace then shows a dialog at once, so axe never reads one half faded in.
describe.skipIf(!hasBrowser).each(configurations)('the console in Chromium (%s)', (configuration) => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let demo: DemoSite;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await buildTestApp(configuration, { config: { demoSite: true, webhookAllowPrivateNetworks: true } });
    demo = (await ensureDemoSite(t.app.services.sites, t.app.services.backups)) as DemoSite;
    // Two people on the demo site's all-time board: Sam (First read, and 15 points from an admin) ahead of Kim (First read).
    const headers = { authorization: `Bearer ${await t.token(demo.admin)}` };
    for (const [userId, firstName] of [
      ['sam', 'Sam'],
      ['kim', 'Kim'],
    ] as const) {
      await t.app.inject({ method: 'PUT', url: `/users/${userId}/preferences`, headers, payload: { firstName, lastName: 'Tester' } });
      const logged = await t.app.inject({ method: 'POST', url: `/users/${userId}/actions`, headers, payload: { action: 'read_article' } });
      expect(logged.statusCode).toBe(201);
    }
    const credited = await t.app.inject({
      method: 'POST',
      url: '/admin/users/sam/points',
      headers,
      payload: { category: 'Points', amount: 15, reason: 'test' },
    });
    expect(credited.statusCode).toBe(201);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // Deliveries go out as from a server (src/server.ts starts the dispatcher).
    t.app.services.webhooks.start();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  const standings = (page: Page) => page.locator('.standings .tabulator-row').allInnerTexts();

  it('signs in an admin client, shows the live standings, comes back after the session ends, and signs out', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    try {
      const { problems } = watch(page, base);
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text());
      });
      await page.goto(`${base}/console`);
      await page.locator('ql-sign-in form').waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-sign-in-${configuration}`);

      // A wrong secret, then a client that is no admin: each is told why, and no token is kept.
      await signIn(page, demo.admin.clientId, 'not-the-secret');
      await poll(() => page.locator('ql-sign-in sl-alert').innerText()).toMatch(/client/i);
      await signIn(page, demo.app.clientId, demo.app.clientSecret);
      await poll(() => page.locator('ql-sign-in sl-alert').innerText()).toMatch(/not an admin client/);
      expect(await page.evaluate((key) => (globalThis as unknown as { sessionStorage: WebStorage }).sessionStorage.getItem(key), SESSION_KEY)).toBeNull();
      problems.length = 0; // the two refusals above were expected (401, 403)

      await signIn(page, demo.admin.clientId, demo.admin.clientSecret);
      // /console opens the first page, Overview; the navigation leads to the others.
      await page.waitForURL(`${base}/console/overview`);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Leaderboards' }).click();
      await page.waitForURL(`${base}/console/leaderboards`);
      await poll(() => standings(page)).toEqual([expect.stringMatching(/^1\s*Sam Tester\s*sam\s*25$/), expect.stringMatching(/^2\s*Kim Tester\s*kim\s*10$/)]);
      await expect(page.locator('header.bar .site').innerText()).resolves.toBe('Questline demo');
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-leaderboards-${configuration}`);

      // The token lives in sessionStorage only.
      const stored = await page.evaluate(() => {
        const g = globalThis as unknown as { sessionStorage: WebStorage; localStorage: WebStorage };
        return { session: g.sessionStorage.length, local: g.localStorage.length };
      });
      expect(stored).toEqual({ session: 1, local: 0 });

      // A choice made on the page, to be found again after signing in again.
      const windowSelect = page.locator('sl-select[label="Window"]');
      await windowSelect.click();
      await windowSelect.locator('sl-option', { hasText: 'Previous' }).click();
      await poll(() => windowSelect.evaluate((select) => (select as unknown as { value: string }).value)).toBe('previous');
      // The API refuses the session's token (as after a revocation): sign-in, then the same page again.
      await page.evaluate((key) => {
        const storage = (globalThis as unknown as { sessionStorage: WebStorage }).sessionStorage;
        storage.setItem(key, JSON.stringify({ ...JSON.parse(storage.getItem(key) as string), token: 'revoked' }));
      }, SESSION_KEY);
      await page.locator('sl-button', { hasText: 'Refresh' }).click();
      // Sign-in is asked for over the page, which stays as it was.
      const again = page.locator('sl-dialog.session-ended');
      await again.locator('ql-sign-in form').waitFor();
      expect(page.url()).toBe(`${base}/console/leaderboards`);
      await expect(again.innerText()).resolves.toMatch(/Your session has ended/);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-session-ended-${configuration}`);
      problems.length = 0; // the refused token's 401
      await signIn(page, demo.admin.clientId, demo.admin.clientSecret);
      await again.locator('ql-sign-in').waitFor({ state: 'detached' });
      await expect(windowSelect.evaluate((select) => (select as unknown as { value: string }).value)).resolves.toBe('previous');
      expect(page.url()).toBe(`${base}/console/leaderboards`);

      await page.locator('sl-button', { hasText: 'Sign out' }).click();
      await page.locator('ql-sign-in form').waitFor();
      expect(await page.evaluate(() => (globalThis as unknown as { sessionStorage: WebStorage }).sessionStorage.length)).toBe(0);
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('shows a failed webhook delivery with its answer, sends it again, and rotates the secret', { timeout: 60_000 }, async () => {
    const headers = { authorization: `Bearer ${await t.token(demo.admin)}` };
    const created = await t.app.inject({
      method: 'POST',
      url: '/admin/webhook-endpoints',
      headers,
      payload: { url: `${receiver.url}/hooks`, eventTypes: ['badge.earned'], description: 'CRM' },
    });
    expect(created.statusCode).toBe(201);
    receiver.answer(500, 200);
    // Lee's first article earns the Reader badge: badge.earned goes to the endpoint, which fails it once.
    expect((await t.app.inject({ method: 'POST', url: '/users/lee/actions', headers, payload: { action: 'read_article' } })).statusCode).toBe(201);
    await poll(() => receiver.received.length).toBe(1);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    try {
      const { problems } = watch(page, base);
      await page.goto(`${base}/console/webhooks`);
      await signIn(page, demo.admin.clientId, demo.admin.clientSecret);
      const rows = () => page.locator('.deliveries .tabulator-row').allInnerTexts();
      await poll(rows).toEqual([expect.stringMatching(new RegExp(`badge\\.earned\\s*user lee\\s*${receiver.url}/hooks\\s*pending\\s*1\\s*HTTP 500`))]);
      await expect(page.locator('.endpoints .tabulator-row').allInnerTexts()).resolves.toEqual([expect.stringContaining(`${receiver.url}/hooks`)]);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-webhooks-${configuration}`);

      await page.locator('.deliveries .tabulator-row').first().click();
      const dialog = page.locator('sl-dialog.delivery');
      await poll(() => dialog.locator('dl.details').innerText()).toMatch(/Receiver answered\s*HTTP 500/);
      await dialog.locator('sl-button', { hasText: 'Send again' }).click();
      await poll(() => receiver.received.length).toBe(2);
      await page.locator('sl-button', { hasText: 'Refresh' }).click();
      await poll(async () => {
        await page.locator('sl-button', { hasText: 'Refresh' }).click();
        return rows();
      }).toEqual([expect.stringMatching(/delivered\s*2\s*HTTP 200/)]);

      await page.locator('sl-button', { hasText: 'Show the secret' }).click();
      const before = await page.locator('.secret-value').innerText();
      expect(before).toMatch(/^whsec_/);
      await page.locator('sl-button', { hasText: 'Rotate…' }).click();
      await page.locator('sl-dialog.rotate').getByRole('button', { name: 'Rotate', exact: true }).click();
      await poll(() => page.locator('.secret-value').innerText()).not.toBe(before);
      await expect(page.getByText(/the old one keeps signing until/).count()).resolves.toBe(1);
      const secret = (await (await t.app.inject({ method: 'GET', url: '/admin/webhook-secret', headers })).json()) as { response: { secret: string } };
      expect(await page.locator('.secret-value').innerText()).toBe(secret.response.secret);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('finds a user by name and shows their points, level, badges and recorded actions', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    try {
      const { problems } = watch(page, base);
      await page.goto(`${base}/console/people`);
      await signIn(page, demo.admin.clientId, demo.admin.clientSecret);
      const rows = () => page.locator('.people .tabulator-row').allInnerTexts();
      await poll(rows).toEqual(expect.arrayContaining([expect.stringMatching(/^Sam Tester\s*sam$/), expect.stringMatching(/^Kim Tester\s*kim$/)]));
      await page.locator('sl-input.search input').fill('sAm t');
      await poll(rows).toEqual([expect.stringMatching(/^Sam Tester\s*sam$/)]);
      await page.locator('.people').getByRole('link', { name: 'Sam Tester' }).click();
      await page.waitForURL(`${base}/console/people/sam`);
      await poll(() => page.locator('ql-person-page h1').innerText()).toBe('Sam Tester');
      await poll(() => page.locator('.card.points').innerText()).toMatch(/Points \(default\)\s*25/);
      await expect(page.locator('.card.trophies').innerText()).resolves.toMatch(/Reader/);
      await poll(() => page.locator('.actions .tabulator-row').allInnerTexts()).toEqual([expect.stringMatching(/read_article/)]);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-person-${configuration}`);
      // The way back, and the navigation marks where the person is.
      await expect(page.getByRole('link', { name: 'People', exact: true }).first().getAttribute('aria-current')).resolves.toBe('page');
      await page.locator('.crumbs a').click();
      await page.waitForURL(`${base}/console/people`);
      await poll(rows).toHaveLength(3);
      await screenshot(page, `console-people-${configuration}`);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
