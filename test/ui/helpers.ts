// Shared by the browser tests of the UI blocks (test/ui/*.test.ts): watching a page for errors and
// failed API answers, a company's page of another origin that embeds the blocks, reading the blocks,
// and the little of the DOM that the in-page functions use (the project's tsconfig has no DOM lib,
// so page.evaluate callbacks name their globals this way).
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_PROGRAM_FILE } from '../../src/modules/sites/demo-site.js';
import type { TestApp } from '../helpers/app.js';
import { launchBrowser, startEmbeddingPage } from '../helpers/browser.js';

/** What page.evaluate callbacks use of the browser's globals (they run in the page, not in Node). */
export interface DomElement {
  tagName: string;
  shadowRoot: { activeElement: DomElement | null } | null;
  getAttribute(name: string): string | null;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
}
export interface BrowserGlobals {
  document: {
    activeElement: DomElement | null;
    body: DomElement;
    documentElement: DomElement;
    querySelector(selector: string): (DomElement & { refresh(): Promise<void> }) | null;
    querySelectorAll(selector: string): Iterable<DomElement>;
    addEventListener(type: string, listener: (event: { detail: unknown }) => void): void;
  };
  getComputedStyle(element: DomElement): Record<string, string>;
  fetch(url: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<{ status: number }>;
  /** Controls the test named before walking the page with Tab: element → key. */
  qlKeys?: Map<DomElement, string>;
  /** The events heard on document, by type. */
  qlEvents?: Record<string, unknown[]>;
}

/** Polls with the patience a page of blocks needs (a 429 is retried after a second). */
export const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000, interval: 100 });

/**
 * Records what goes wrong on a page: uncaught errors, and answers of the service (`base`) with a
 * status of 400 or more. A 429 is recorded apart: blocks retry it by design.
 */
export function watch(page: Page, base: string): { problems: string[]; throttled: string[] } {
  const problems: string[] = [];
  const throttled: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    const url = response.url();
    if (!url.startsWith(base) || response.status() < 400) return;
    (response.status() === 429 ? throttled : problems).push(`${response.status()} ${response.request().method()} ${url}`);
  });
  page.on('requestfailed', (request) => {
    // A request the browser cancelled (net::ERR_ABORTED: the test navigated away while the page
    // was still fetching an icon, or Chromium dropped its own favicon fetch) says nothing about the
    // page or the service; a refused or broken answer is a status (above) or another error.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    if (request.url().startsWith(base)) problems.push(`failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? '?'})`);
  });
  return { problems, throttled };
}

/**
 * The HTML of a company's own page that loads the blocks from the service at `questline` and shows
 * `body` (its blocks), as an intranet would.
 */
export const hostPage = (questline: string, body: string, bodyStyle?: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme intranet</title>
<script type="module" src="${questline}/elements/questline.js"></script>
</head>
<body${bodyStyle !== undefined ? ` style="${bodyStyle}"` : ''}>
${body}
</body>
</html>
`;

/** The service listening, a browser, and company pages of other origins that embed the blocks. */
export interface HostPages {
  /** The service's base URL. */
  base: string;
  browser: Browser;
  /** Serves `hostPage(base, body(base))` on a new origin (its own server on another port). */
  serve(body: (questline: string) => string, bodyStyle?: string): Promise<{ url: string; origin: string }>;
  /** A new page in its own browser context, watched (see watch()) from the start, not yet navigated. */
  newPage(viewport: { width: number; height: number }): Promise<{ page: Page; problems: string[]; throttled: string[] }>;
  /** newPage(), then `url` opened. */
  open(url: string, viewport: { width: number; height: number }): Promise<{ page: Page; problems: string[]; throttled: string[] }>;
  /** Waits until a preflight from `origin` for `path` is answered for it (preflights read every site's origins again every 5 s). */
  waitForPreflight(origin: string, path: string): Promise<void>;
  /** Closes the pages and their servers (newest first), then the browser. */
  close(): Promise<void>;
}

/** Starts the service of `t` on a free port and a browser, for pages of other origins that embed the blocks. */
export async function startHostPages(t: TestApp): Promise<HostPages> {
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await launchBrowser();
  const cleanups: Array<() => Promise<void>> = [];
  const newPage = async (viewport: { width: number; height: number }) => {
    const page = await browser.newPage({ viewport });
    cleanups.push(() => page.context().close());
    return { page, ...watch(page, base) };
  };
  return {
    base,
    browser,
    async serve(body, bodyStyle) {
      const served = await startEmbeddingPage((questline) => hostPage(questline, body(questline), bodyStyle), base);
      cleanups.push(served.close);
      return served;
    },
    newPage,
    async open(url, viewport) {
      const opened = await newPage(viewport);
      await opened.page.goto(url, { waitUntil: 'domcontentloaded' });
      return opened;
    },
    async waitForPreflight(origin, path) {
      const preflight = () => t.app.inject({ method: 'OPTIONS', url: path, headers: { origin, 'access-control-request-method': 'GET' } });
      await expect.poll(async () => (await preflight()).headers['access-control-allow-origin'], { timeout: 10_000, interval: 250 }).toBe(origin);
    },
    async close() {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
      await browser.close();
    },
  };
}

/** The images of the blocks matched by `selector` (in their shadow roots), once every one has finished loading: where each came from and whether it shows. */
export async function imagesOf(page: Page, selector: string): Promise<Array<{ src: string; shown: boolean }>> {
  const images = page.locator(`${selector} img`);
  const read = () =>
    images.evaluateAll((elements) =>
      elements.map((element) => {
        const image = element as unknown as { currentSrc: string; complete: boolean; naturalWidth: number };
        return { src: image.currentSrc, complete: image.complete, shown: image.complete && image.naturalWidth > 0 };
      }),
    );
  await poll(async () => (await read()).every((image) => image.complete)).toBe(true);
  return (await read()).map(({ src, shown }) => ({ src, shown }));
}

/** Starts recording the named events on document (they bubble out of the shadow roots: composed). */
export async function listen(page: Page, types: string[]): Promise<void> {
  await page.evaluate((names) => {
    const w = globalThis as unknown as BrowserGlobals;
    w.qlEvents ??= {};
    for (const name of names) {
      w.qlEvents[name] ??= [];
      w.document.addEventListener(name, (event) => w.qlEvents?.[name]?.push(event.detail));
    }
  }, types);
}

/** The details of the events of one type heard so far. */
export const heard = (page: Page, type: string) =>
  page.evaluate((name) => (globalThis as unknown as BrowserGlobals).qlEvents?.[name] ?? [], type) as Promise<Array<Record<string, unknown>>>;

/** A number as a block shows it ("1,250 pts" → 1250); NaN when the element is missing. */
export const numberIn = (text: string | null): number => (text === null ? Number.NaN : Number(text.replace(/[^\d-]/g, '')));

/** The balance <ql-points> shows in one category. */
export const balanceOf = async (page: Page, category: string): Promise<number> =>
  numberIn(await page.locator(`ql-points [data-category="${category}"] [part="balance"]`).textContent({ timeout: 5_000 }));

/** The questions of a quiz of the demo program and the texts of their correct choices. */
export function correctAnswers(quizId: string): Array<{ question: string; type: 'single' | 'multiple'; choices: string[] }> {
  const xml = readFileSync(DEMO_PROGRAM_FILE, 'utf8');
  const quiz = new RegExp(`<Quiz id="${quizId}"[\\s\\S]*?</Quiz>`).exec(xml)?.[0];
  if (quiz === undefined) throw new Error(`no quiz ${quizId} in ${DEMO_PROGRAM_FILE}`);
  return [...quiz.matchAll(/<Question [^>]*type="(single|multiple)"[^>]*text="([^"]*)"[^>]*>([\s\S]*?)<\/Question>/g)].map(([, type, question, body]) => ({
    question: question as string,
    type: type as 'single' | 'multiple',
    choices: [...(body as string).matchAll(/<Choice [^>]*correct="true"[^>]*text="([^"]*)"/g)].map((m) => m[1] as string),
  }));
}
