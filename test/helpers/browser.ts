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

/**
 * A page of another origin (its own server on 127.0.0.1, another port) that embeds the blocks
 * from `questline` (the service's base URL), as a company's own site would.
 */
export async function startEmbeddingPage(
  html: (questline: string) => string,
  questline: string,
): Promise<{ url: string; origin: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html(questline));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return { url: `${origin}/`, origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
