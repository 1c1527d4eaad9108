// Shared by the console's browser tests (test/ui/console*.test.ts): a signed-in page watched for
// what goes wrong on it, signing in through the form, axe-core's serious violations on the page as
// it is, and the console's session key.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { watch } from './helpers.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Where the console keeps its session (sessionStorage). */
export const SESSION_KEY = 'questline.console.session';

/** What the page's sessionStorage and localStorage offer (the tests' tsconfig has no DOM lib). */
export interface WebStorage {
  length: number;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }>;
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => (globalThis as unknown as { axe: { run(): Promise<AxeResult> } }).axe.run());
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/** Fills the sign-in form and submits it. */
export async function signIn(page: Page, clientId: string, secret: string): Promise<void> {
  await page.locator('sl-input[name="clientId"] input').fill(clientId);
  await page.locator('sl-input[name="secret"] input').fill(secret);
  await page.locator('sl-button[type="submit"]').click();
}

/** A console page and what went wrong on it: failed requests (see watch()) and what the CSP refused. */
export interface WatchedPage {
  page: Page;
  problems: string[];
  refused: string[];
}

/**
 * A new page at `base + path`, signed in as `client` through the form, watched from the start. It
 * has reduced motion: Shoelace then shows a dialog or a section at once, so axe never reads one
 * half faded in (text at partial opacity fails colour contrast).
 */
export async function openConsole(
  browser: Browser,
  base: string,
  path: string,
  client: { clientId: string; clientSecret: string },
  options: BrowserContextOptions = {},
): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', ...options });
  const { problems } = watch(page, base);
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text());
  });
  await page.goto(`${base}${path}`);
  await signIn(page, client.clientId, client.clientSecret);
  await page.locator('header.bar').waitFor();
  return { page, problems, refused };
}
