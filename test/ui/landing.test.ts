// The landing page at `/` in a real browser: its style applies under its own Content-Security-Policy
// (nothing is refused), its icon and the favicon load, and its first link opens the demo.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { hasBrowser, launchBrowser, screenshot } from '../helpers/browser.js';
import { imagesOf, watch, type DomElement } from './helpers.js';

describe.skipIf(!hasBrowser)('the landing page (Chromium)', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await buildTestApp('embedded', { config: { demoSite: true } });
    await ensureDemoSite(t.app.services.sites, t.app.services.backups);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('is styled, refuses nothing under its policy, shows its icon, and links to the demo', async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    try {
      const { problems } = watch(page, base);
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text());
      });
      const favicon = page.waitForResponse(`${base}/favicon.svg`);
      await page.goto(`${base}/`, { waitUntil: 'load' });
      expect((await favicon).status()).toBe(200);
      expect(await page.title()).toBe('Questline');
      // The header's dark background comes from the page's own <style>, allowed by its hash.
      expect(
        await page
          .locator('header')
          .evaluate(
            (header) =>
              (globalThis as unknown as { getComputedStyle(e: DomElement): Record<string, string> }).getComputedStyle(header as unknown as DomElement)
                .backgroundColor,
          ),
      ).toBe('rgb(29, 43, 100)');
      expect(await imagesOf(page, 'header')).toEqual([{ src: `${base}/favicon.svg`, shown: true }]);
      expect(await page.getByRole('navigation', { name: 'Start here' }).getByRole('link').allTextContents()).toEqual([
        expect.stringMatching(/^Demo/),
        expect.stringMatching(/^Console/),
        expect.stringMatching(/^API reference/),
        expect.stringMatching(/^Health/),
      ]);
      await screenshot(page, 'ui-landing');
      await page.getByRole('link', { name: /^Demo/ }).click();
      await page.waitForURL(`${base}/demo`);
      await page.locator('ql-points').waitFor();
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
