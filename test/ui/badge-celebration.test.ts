// Badges celebrated in the blocks (docs/ui.md "Badge celebration"), in real Chromium: on /demo, the
// action button's first read_article earns the Reader badge, which appears with its name and icon
// in a polite live region, with a ql-badge-earned event carrying the badges; an action that earns
// nothing shows nothing. On a company's page of another origin, <ql-recognize> celebrates the badge
// the giver earned by giving (in the page's own words through `texts`), fades after its duration,
// appears without animation under prefers-reduced-motion, and a page that calls preventDefault()
// on the event celebrates its own way: the block shows nothing.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoSite, type DemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { hasBrowser, screenshot } from '../helpers/browser.js';
import { correctAnswers, heard, imagesOf, listen, poll, startHostPages, type HostPages } from './helpers.js';

/** The badge the demo program gains for a first recognition given (an icon the service ships). */
const KIND = { id: 'b-kind', name: 'Kind colleague', iconUrl: '/demo/icons/b-chef.svg' };
const SAFE = { id: 'b-safe', name: 'Safety first' };

describe.skipIf(!hasBrowser)('badge celebrations (Chromium)', () => {
  let t: TestApp;
  let host: HostPages;
  let base: string;
  let demo: DemoSite;
  let adminToken: string;

  const call = async (method: 'GET' | 'PUT' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => {
    const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload !== undefined ? { payload } : {}) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return (response.json() as { response: Record<string, unknown> }).response;
  };
  /** A POST to the user's actions or recognitions, answered. */
  const posted = (page: Page, path: string) => page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path);
  const card = (scope: Locator) => scope.locator('[part="celebration"]');

  beforeAll(async () => {
    t = await buildTestApp('embedded', { config: { demoSite: true } });
    const created = await ensureDemoSite(t.app.services.sites, t.app.services.backups);
    if (created === undefined) throw new Error('the demo site was not created');
    demo = created;
    adminToken = await t.token(demo.admin);
    // The first visit of /demo seeds alex's colleagues, whom the recipient search finds.
    expect((await t.app.inject({ method: 'GET', url: '/demo' })).statusCode).toBe(200);
    // A badge for a first recognition given, so that <ql-recognize> has one to celebrate.
    const program = await call('GET', '/admin/program', adminToken);
    await call('PUT', '/admin/program', adminToken, {
      ...program,
      badges: [...(program.badges as unknown[]), { ...KIND, description: 'Recognized a colleague' }, SAFE],
      // Safety certified (passing the safety quiz) gains a badge without an icon.
      missions: [
        ...(program.missions as Array<{ id: string; rewards: Record<string, unknown> }>).map((m) =>
          m.id === 'm-quiz-safety' ? { ...m, rewards: { ...m.rewards, badge: SAFE.id } } : m,
        ),
        { id: 'm-first-kudos', name: 'First kudos', rules: [{ id: 'r-1', action: 'RECOGNITION_GIVEN', type: 'count', goal: 1 }], rewards: { badge: KIND.id } },
      ],
    });
    host = await startHostPages(t);
    base = host.base;
  });
  afterAll(async () => {
    await host?.close();
    await t?.close();
  });

  it("/demo celebrates the badge the action button's action earned, announced politely, and nothing when it earned none", async () => {
    const { page, problems } = await host.open(`${base}/demo`, { width: 1280, height: 900 });
    await page.locator('ql-trophy-case [part="empty"], ql-trophy-case [part="list"]').first().waitFor({ timeout: 10_000 });
    await listen(page, ['ql-badge-earned']);
    const celebration = page.locator('#badge-celebration');
    const region = celebration.locator('[role="status"][aria-live="polite"]');
    // The live region is there before anything is said in it, so that what appears is announced.
    expect(await region.count()).toBe(1);
    expect((await region.textContent())?.trim()).toBe('');

    const first = posted(page, '/users/alex/actions');
    await page.getByRole('button', { name: 'Log a demo action (read an article)' }).click();
    expect((await first).status()).toBe(201);
    await card(celebration).waitFor({ timeout: 10_000 });
    expect((await card(celebration).textContent())?.replace(/\s+/g, ' ')).toContain('Badge earned: Reader');
    expect(await region.locator('[part="badge-name"]').allTextContents()).toEqual(['Reader']);
    // What is read out is the badge, not the button.
    expect((await region.textContent())?.replace(/\s+/g, ' ').trim()).toBe('Badge earned: Reader');
    // The icon is the service's file, loaded from the service.
    expect(await imagesOf(page, '#badge-celebration')).toEqual([{ src: `${base}/demo/icons/b-reader.svg`, shown: true }]);
    expect(await heard(page, 'ql-badge-earned')).toEqual([
      { badges: [{ id: 'b-reader', name: 'Reader', iconUrl: '/demo/icons/b-reader.svg', userId: 'alex' }] },
    ]);
    // The trophy case shows it after the refresh that follows.
    await poll(() => page.locator('ql-trophy-case [part="list"]').innerText()).toContain('Reader');
    await page.waitForTimeout(600); // the pop-in animation has ended
    await screenshot(page, 'ui-badge-celebration-demo');
    await celebration.screenshot({ path: `${process.cwd()}/test-artifacts/screenshots/ui-badge-celebration-demo-card.png` });

    // Dismissed with its button (named for assistive technology); the next read earns no badge: nothing shows.
    await celebration.getByRole('button', { name: 'Dismiss' }).click();
    expect(await card(celebration).count()).toBe(0);
    const second = posted(page, '/users/alex/actions');
    await page.getByRole('button', { name: 'Log a demo action (read an article)' }).click();
    expect(await (await second).json()).toMatchObject({ response: { recorded: true, badgesEarned: [] } });
    await poll(() => page.getByRole('button', { name: 'Log a demo action (read an article)' }).isEnabled()).toBe(true);
    await page.waitForTimeout(300);
    expect(await card(celebration).count()).toBe(0);
    expect(await heard(page, 'ql-badge-earned')).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('<ql-recognize> on another origin celebrates the giver’s badge in the page’s words, fades, and leaves it to a page that prevents it', async () => {
    const ivy = await t.token(demo.app, 'ivy');
    const uma = await t.token(demo.app, 'uma');
    const block = (userId: string, token: string, extra: string) => (questline: string) =>
      `<h1>Acme intranet</h1>
<ql-recognize base-url="${questline}" user-id="${userId}" token="${token}" exchange-id="x-kudos" ${extra}></ql-recognize>`;
    const words = `texts='{"badgeEarned": "Abzeichen erhalten", "dismiss": "Schließen"}'`;
    const company = await host.serve(block('ivy', ivy, words), 'font-family: system-ui; max-width: 480px; margin: 24px;');
    // Themed by the page: the card's colour, and a part.
    const theme = `<style>ql-recognize { --ql-color-celebration: rgb(230, 252, 245); } ql-recognize::part(badge-name) { color: rgb(8, 102, 80); }</style>`;
    const prevented = await host.serve((questline) => theme + block('uma', uma, '')(questline));
    expect(company.origin).not.toBe(base);
    const site = await call('GET', '/admin/site', adminToken);
    await call('PUT', '/admin/site', adminToken, { ...site, allowedOrigins: [...(site.allowedOrigins as string[]), company.origin, prevented.origin] });
    await host.waitForPreflight(company.origin, '/users/ivy/interactions-collection');
    await host.waitForPreflight(prevented.origin, '/users/uma/interactions-collection');

    const give = async (page: Page, giver: string) => {
      const recognize = page.locator('ql-recognize');
      await recognize.locator('[part="budget"]').waitFor({ timeout: 10_000 });
      await recognize.getByLabel('Search colleagues').fill('sam');
      await recognize.getByRole('button', { name: 'Add Sam Okafor' }).click();
      await recognize.getByLabel('Points per recipient').fill('2');
      const answer = posted(page, `/users/${giver}/interactions-collection`);
      await recognize.getByRole('button', { name: 'Send', disabled: false }).click();
      expect((await answer).status()).toBe(201);
      await poll(() => recognize.locator('[part="success"]').textContent()).toBe('Recognition sent to Sam Okafor.');
      return recognize;
    };

    const { page, problems } = await host.open(company.url, { width: 560, height: 900 });
    await listen(page, ['ql-badge-earned']);
    const recognize = await give(page, 'ivy');
    await card(recognize).waitFor({ timeout: 10_000 });
    expect((await card(recognize).textContent())?.replace(/\s+/g, ' ')).toContain('Abzeichen erhalten: Kind colleague');
    expect(await recognize.locator('[role="status"][aria-live="polite"] [part="badge-name"]').allTextContents()).toEqual(['Kind colleague']);
    expect(await imagesOf(page, 'ql-recognize [part="celebration"]')).toEqual([{ src: `${base}${KIND.iconUrl}`, shown: true }]);
    expect(await heard(page, 'ql-badge-earned')).toEqual([{ badges: [{ ...KIND, userId: 'ivy' }] }]);
    await page.waitForTimeout(600);
    await screenshot(page, 'ui-badge-celebration-recognize');
    // Dismissed by the page's word for it; the next gift earns no badge: nothing shows, no event.
    await recognize.getByRole('button', { name: 'Schließen' }).click();
    await give(page, 'ivy');
    await page.waitForTimeout(300);
    expect(await card(recognize).count()).toBe(0);
    expect(await heard(page, 'ql-badge-earned')).toHaveLength(1);
    expect(problems).toEqual([]);

    // A page that celebrates its own way: preventDefault() on the event, and the block shows nothing.
    // With reduced motion and a short duration, meanwhile, a shown celebration neither animates nor stays.
    const other = await host.open(prevented.url, { width: 560, height: 900 });
    await other.page.emulateMedia({ reducedMotion: 'reduce' });
    await other.page.evaluate(() => {
      const w = globalThis as unknown as {
        document: { addEventListener(type: string, listener: (event: { preventDefault(): void; detail: unknown }) => void): void };
        own: unknown[];
      };
      w.own = [];
      w.document.addEventListener('ql-badge-earned', (event) => {
        event.preventDefault();
        w.own.push(event.detail);
      });
    });
    const quiet = await give(other.page, 'uma');
    await poll(() => other.page.evaluate(() => (globalThis as unknown as { own: unknown[] }).own.length)).toBe(1);
    expect(await card(quiet).count()).toBe(0);
    const celebration = quiet.locator('ql-badge-celebration');
    const celebrate = (duration: number) =>
      celebration.evaluate((element, shownFor) => {
        const shown = element as unknown as { duration: number; celebrate(badges: unknown[]): void };
        shown.duration = shownFor;
        shown.celebrate([{ id: 'b-kind', name: 'Kind colleague', userId: 'uma' }]);
      }, duration);
    // (0: it stays until dismissed, for the screenshot.)
    await celebrate(0);
    await card(quiet).waitFor();
    const style = (selector: string, property: 'backgroundImage' | 'backgroundColor' | 'color') =>
      quiet
        .locator(selector)
        .evaluate(
          (element, name) => (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(element)[name],
          property,
        );
    expect(await style('[part="celebration"]', 'backgroundColor')).toBe('rgb(230, 252, 245)');
    expect(await style('[part="badge-name"]', 'color')).toBe('rgb(8, 102, 80)');
    await quiet.screenshot({ path: `${process.cwd()}/test-artifacts/screenshots/ui-badge-celebration-medal.png` });
    await celebrate(1000);
    expect(
      await card(quiet).evaluate(
        (element) => (globalThis as unknown as { getComputedStyle(e: unknown): { animationName: string } }).getComputedStyle(element).animationName,
      ),
    ).toBe('none');
    // No icon of its own: a medal.
    expect(await quiet.locator('svg[part="badge-icon"]').count()).toBe(1);
    await poll(() => card(quiet).count()).toBe(0);

    // Dismissed from the keyboard: the focus stays in the block (on the celebration, not the top of
    // the page), and nothing holds the next celebration, which still goes by itself.
    await celebrate(0);
    await card(quiet).waitFor();
    await quiet.locator('[part="dismiss"]').focus();
    await other.page.keyboard.press('Enter');
    await poll(() => card(quiet).count()).toBe(0);
    expect(await celebration.evaluate((element) => (element as unknown as { matches(selector: string): boolean }).matches(':focus'))).toBe(true);
    await celebrate(300);
    await card(quiet).waitFor();
    await poll(() => card(quiet).count()).toBe(0);
    expect(other.problems).toEqual([]);
  });

  it('<ql-quiz> on another origin celebrates the badge of the QUIZ_COMPLETED its last answer logged', async () => {
    const wes = await t.token(demo.app, 'wes');
    const company = await host.serve(
      (questline) => `<ql-quiz base-url="${questline}" user-id="wes" token="${wes}" quiz-id="q-safety"></ql-quiz>`,
      'font-family: system-ui; max-width: 480px; margin: 24px;',
    );
    const site = await call('GET', '/admin/site', adminToken);
    await call('PUT', '/admin/site', adminToken, { ...site, allowedOrigins: [...(site.allowedOrigins as string[]), company.origin] });
    await host.waitForPreflight(company.origin, '/users/wes/quizzes');
    const { page, problems } = await host.open(company.url, { width: 560, height: 700 });
    await listen(page, ['ql-badge-earned']);
    const quiz = page.locator('ql-quiz');
    const answers = correctAnswers('q-safety');
    for (const [i, { question, type, choices }] of answers.entries()) {
      await poll(() => quiz.locator('[part="legend"]').textContent()).toBe(question);
      // No badge before the attempt is complete.
      expect(await card(quiz).count()).toBe(0);
      for (const choice of choices) await quiz.getByRole(type === 'multiple' ? 'checkbox' : 'radio', { name: choice }).check();
      await quiz.getByRole('button', { name: 'Submit answer' }).click();
      if (i < answers.length - 1) {
        await quiz.getByText('Correct!').waitFor();
        await quiz.getByRole('button', { name: 'Next question' }).click();
      }
    }
    await quiz.getByRole('heading', { name: 'Passed!' }).waitFor();
    await card(quiz).waitFor({ timeout: 10_000 });
    expect((await card(quiz).textContent())?.replace(/\s+/g, ' ')).toContain('Badge earned: Safety first');
    expect(await quiz.locator('[role="status"][aria-live="polite"] [part="badge-name"]').allTextContents()).toEqual(['Safety first']);
    expect(await heard(page, 'ql-badge-earned')).toEqual([{ badges: [{ ...SAFE, userId: 'wes' }] }]);
    await page.waitForTimeout(600);
    await screenshot(page, 'ui-badge-celebration-quiz');
    expect(problems).toEqual([]);
  });
});
