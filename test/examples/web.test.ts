// examples/web run as the README says (`npm run example:web`) against Questline as `npm start` runs
// it: the example's server adds its origin to the demo site's allowedOrigins, and its page, opened
// in Chromium on that other origin, shows the UI blocks with the user-level token the server minted,
// logs an action through @questline/client in the browser, and the blocks show the new points. No
// page error, no failed request, no client secret in anything the browser received.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type QuestlineClient } from '../../clients/typescript/src/index.js';
import { hasBrowser, launchBrowser, screenshot } from '../helpers/browser.js';
import { freePort } from '../helpers/spawned-server.js';
import { balanceOf, numberIn, poll, watch } from '../ui/helpers.js';
import { exampleDatabases, spawnExample, startDemoQuestline, stopExample, waitUntil, type DemoQuestline } from './helpers.js';

/** Colleagues on the board before Riley starts, with the names their apps gave Questline. */
const COLLEAGUES: Array<{
  userId: string;
  firstName: string;
  lastName: string;
  actions: Array<{ action: string; value?: number; metadata?: Record<string, string> }>;
}> = [
  {
    userId: 'sam',
    firstName: 'Sam',
    lastName: 'Okafor',
    actions: [{ action: 'read_article' }, { action: 'watch_video', value: 120 }, { action: 'login' }],
  },
  { userId: 'kim', firstName: 'Kim', lastName: 'Tanaka', actions: [{ action: 'watch_video', value: 120 }] },
  { userId: 'lee', firstName: 'Lee', lastName: 'Moreau', actions: [{ action: 'login' }, { action: 'login' }] },
];

describe.skipIf(!hasBrowser).each(exampleDatabases.map((database) => [database.name, database] as const))(
  'examples/web against the demo site in Chromium (%s)',
  (name, database) => {
    let questline: DemoQuestline;
    let app: QuestlineClient;
    let example: ChildProcessWithoutNullStreams;
    let exampleOutput = '';
    let exampleUrl: string;
    let browser: Browser;

    beforeAll(async () => {
      questline = await startDemoQuestline(database);
      app = createClient({ baseUrl: questline.server.baseUrl, clientId: questline.credentials.CLIENT_ID, clientSecret: questline.credentials.CLIENT_SECRET });
      for (const colleague of COLLEAGUES) {
        const { userId, firstName, lastName } = colleague;
        await app.PUT('/users/{userId}/preferences', { params: { path: { userId } }, body: { firstName, lastName } });
        for (const action of colleague.actions) await app.logAction(userId, action);
      }
      example = spawnExample('example:web', { ...questline.exampleEnv, EXAMPLE_PORT: String(await freePort()) });
      example.stdout.on('data', (chunk: Buffer) => (exampleOutput += chunk.toString()));
      example.stderr.on('data', (chunk: Buffer) => (exampleOutput += chunk.toString()));
      const started = await waitUntil(
        `the example's start (its output: ${exampleOutput})`,
        () => /The example app: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(exampleOutput)?.[1],
        (url) => url !== undefined || example.exitCode !== null,
      );
      if (started === undefined) throw new Error(`the example exited:\n${exampleOutput}`);
      exampleUrl = started;
      // Preflights read every site's origins again every 5 s.
      const origin = new URL(exampleUrl).origin;
      const preflight = () =>
        fetch(`${questline.server.baseUrl}/users/riley/actions`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      await waitUntil(
        'the preflight from the example',
        async () => (await preflight()).headers.get('access-control-allow-origin'),
        (allowed) => allowed === origin,
        10_000,
      );
      browser = await launchBrowser();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      if (example !== undefined) stopExample(example);
      await questline?.close();
    });

    it('added its origin to the site, once', async () => {
      const origin = new URL(exampleUrl).origin;
      expect(exampleOutput).toContain(`Added ${origin} to the site's allowedOrigins.`);
      const admin = createClient({
        baseUrl: questline.server.baseUrl,
        clientId: questline.credentials.ADMIN_CLIENT_ID,
        clientSecret: questline.credentials.ADMIN_CLIENT_SECRET,
      });
      const { data } = await admin.GET('/admin/site');
      expect(data.response.allowedOrigins).toEqual([origin]);
    });

    it('shows the blocks for the signed-in user, logs an action from the browser, and the blocks show its points', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const { problems } = watch(page, questline.server.baseUrl);
      const pageProblems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') pageProblems.push(`console: ${message.text()}`);
      });
      page.on('requestfailed', (request) => pageProblems.push(`failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? '?'})`));
      const received: string[] = [];
      page.on('response', (response) => {
        if (response.url().startsWith(exampleUrl)) void response.text().then((text) => received.push(text));
      });
      const actionAnswers: Array<{ status: number; allowOrigin: string | undefined }> = [];
      page.on('response', (response) => {
        if (response.url() === `${questline.server.baseUrl}/users/riley/actions` && response.request().method() === 'POST')
          actionAnswers.push({ status: response.status(), allowOrigin: response.headers()['access-control-allow-origin'] });
      });
      await page.goto(exampleUrl);

      // The blocks loaded with the token the example's server minted for riley.
      await page.locator('ql-points [part="balance"]').first().waitFor({ timeout: 15_000 });
      expect(await balanceOf(page, 'Points')).toBe(0);
      await page.locator('ql-leaderboard [part~="entry"]').first().waitFor({ timeout: 10_000 });
      await page.locator('ql-missions li.mission').first().waitFor({ timeout: 10_000 });
      await page.locator('ql-at-a-glance [part="name"]').waitFor({ timeout: 10_000 });
      expect(await page.locator('ql-at-a-glance [part="name"]').textContent()).toBe('Riley Chen');

      await page.getByRole('button', { name: 'Mark as read' }).click();
      await poll(() => page.locator('#status').textContent()).toBe('+10 Points · completed “First read”');
      await poll(() => balanceOf(page, 'Points')).toBe(10);
      await page.getByRole('button', { name: 'I watched it' }).click();
      await poll(() => page.locator('#status').textContent()).toBe('Saved: keep going, the next mission is closer.');
      await page.getByRole('button', { name: 'I watched it' }).click();
      await poll(() => page.locator('#status').textContent()).toBe('+40 Points · +10 Coins · completed “Learning marathon”');
      await poll(() => balanceOf(page, 'Points')).toBe(50);
      await poll(() => balanceOf(page, 'Coins')).toBe(10);
      await poll(async () => numberIn(await page.locator('ql-at-a-glance [part~="points"] [part="stat-value"]').textContent())).toBe(50);
      // Riley's row on the board, highlighted, with her 50 points: second behind Sam's 52, above Kim's 40 and Lee's 2.
      const viewer = page.locator('ql-leaderboard [aria-current="true"]');
      await poll(async () => (await viewer.textContent())?.replace(/\s+/g, ' ').trim()).toBe('Rank #2 Riley Chen You Score 50');

      // Recorded through the API from the page's origin, with CORS, each once.
      expect(actionAnswers).toEqual([
        { status: 201, allowOrigin: new URL(exampleUrl).origin },
        { status: 201, allowOrigin: new URL(exampleUrl).origin },
        { status: 201, allowOrigin: new URL(exampleUrl).origin },
      ]);
      const { data: history } = await app.GET('/users/{userId}/actions', { params: { path: { userId: 'riley' } } });
      expect(history.response.map((action) => action.action).sort()).toEqual(['read_article', 'watch_video', 'watch_video']);
      // The page got a user-level token, never the client secret.
      expect(received.join('\n')).not.toContain(questline.credentials.CLIENT_SECRET);
      expect(received.join('\n')).toContain('"userId":"riley"');

      // test-artifacts/screenshots/examples-web-<database>.png (docs/examples/web.png is one of them).
      await screenshot(page, `examples-web-${name}`);
      // On a phone the page is one column and nothing scrolls sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      expect(
        await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth),
      ).toBe(390);
      await screenshot(page, `examples-web-${name}-narrow`);

      expect(problems).toEqual([]);
      expect(pageProblems).toEqual([]);
      await page.close();
    }, 60_000);
  },
);
