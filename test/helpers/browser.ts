// Headless Chromium for the UI blocks' tests (Debian's `chromium`, driven by playwright-core; CI
// installs it). Where it is missing outside CI the browser suites are skipped with a message; in CI
// (CI=true) a missing browser fails them. Screenshots go to test-artifacts/screenshots/.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser && process.env.CI === 'true') throw new Error(`Chromium is required in CI (${CHROMIUM} not found): .ci/run installs it`);
if (!hasBrowser) process.stderr.write(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`);

export const SCREENSHOTS = join(process.cwd(), 'test-artifacts', 'screenshots');

/** A browser with a fresh profile (playwright makes a new user data directory for every launch). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Saves a full-page screenshot as a test artifact; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
