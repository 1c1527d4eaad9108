// The UI blocks under the default user request rate (10/s, burst 20; SPEC §3). One /demo page is ~18
// of alex's requests, and each "Log a demo action" is one more plus a refresh of every block (~17):
// from the second or third click on the burst is spent. The blocks (ui/src/base.ts) wait out a 429
// with jitter and try again, the page refreshes them one after another and retries its own log
// request, so clicking on and on leaves every block showing its data (and the test shows the
// throttling did happen).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { hasBrowser, launchBrowser, screenshot } from '../helpers/browser.js';
import { poll, watch, type BrowserGlobals } from './helpers.js';

describe.skipIf(!hasBrowser)('UI blocks at the default user request rate (Chromium)', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page | undefined;

  beforeAll(async () => {
    t = await buildTestApp('embedded', { config: { demoSite: true } });
    if ((await ensureDemoSite(t.app.services.sites, t.app.services.backups)) === undefined) throw new Error('the demo site was not created');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await page?.context().close();
    await browser?.close();
    await t?.close();
  });

  it('logging a few demo actions in a row leaves every block showing its data', async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const current = page;
    const { throttled } = watch(current, base);
    await current.goto(`${base}/demo`, { waitUntil: 'domcontentloaded' });
    await current.locator('ql-award-balance [part="available"]').waitFor({ timeout: 10_000 });
    /** No block is loading (refresh() settles after its one retry). */
    const idle = () =>
      poll(() =>
        current.evaluate(() =>
          [...(globalThis as unknown as BrowserGlobals).document.querySelectorAll('main > *')].every(
            (block) => !(block as unknown as { loading: boolean }).loading,
          ),
        ),
      ).toBe(true);
    await idle();

    const good = (outcome: string) => /^Read an article(: \+\d+ Points)?(; completed First read)?$/.test(outcome);
    const outcomes: string[] = [];
    for (let i = 0; i < 8 && outcomes.every(good); i++) {
      await current.getByRole('button', { name: 'Log a demo action (read an article)' }).click();
      await current.getByRole('button', { name: 'Log a demo action (read an article)', disabled: false }).waitFor();
      await idle();
      const errors = await current.locator('main > * [part="error"]').allTextContents();
      outcomes.push(`${await current.locator('#log-status').textContent()}${errors.length > 0 ? ` / block errors: ${errors.join('; ')}` : ''}`);
    }
    await screenshot(current, 'ui-throttled');
    expect(throttled.length).toBeGreaterThan(0); // the blocks were throttled and retried
    expect(outcomes.every(good), outcomes.join('\n')).toBe(true);
  });
});
