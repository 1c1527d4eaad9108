// <ql-at-a-glance> says the recent actions in words (docs/ui.md "Texts"), in real Chromium on a
// company's page of another origin, on both stores: an action the program describes reads as its
// description, with the points it earned; Questline's system actions read as Questline's words; an
// action without a description reads as its name made readable; the raw value is not shown; and a
// page's `texts` replace a system action's words, or any action's.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../helpers/app.js';
import { hasBrowser, screenshot } from '../helpers/browser.js';
import { repeatableMission } from '../helpers/fixtures.js';
import { body, caller } from '../helpers/http.js';
import { poll, startHostPages, type HostPages } from './helpers.js';

describe.skipIf(!hasBrowser).each(configurations)('<ql-at-a-glance> recent actions in words (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let host: HostPages;

  const call = caller(() => t);
  const program = (origin: string) => ({
    site: { name: 'Acme', timezone: 'America/New_York', allowedOrigins: [origin] },
    pointCategories: [{ name: 'Points', isDefault: true }],
    actions: [{ name: 'read_article', description: 'Read an article to the end' }, { name: 'watch_video' }],
    missions: [repeatableMission('m-read', 'read_article', 10)],
  });

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    body(await call('PUT', '/admin/program', await t.token(site.admin), program('https://example.com')));
    const client = await t.token(site.app);
    body(await call('PUT', '/users/ann/preferences', client, { firstName: 'Ann', lastName: 'Lee' }));
    // Oldest first, a minute apart, so that the list's order is known.
    const logged: Array<[string, number]> = [
      ['read_article', 1],
      ['watch_video', 60],
      ['QUIZ_COMPLETED', 80],
      ['RECOGNITION_RECEIVED', 10],
    ];
    for (const [i, [action, value]] of logged.entries()) {
      const timestamp = new Date(Date.now() - (logged.length - i) * 60_000).toISOString();
      body(await call('POST', '/users/ann/actions', client, { action, value, timestamp, eventId: `e-${i}` }), 201);
    }
    host = await startHostPages(t);
  });
  afterAll(async () => {
    await host?.close();
    await t?.close();
  });

  const actionsOf = async (page: Page, id: string) =>
    (await page.locator(`#${id} [part="action-name"]`).allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());

  it("reads descriptions, Questline's words for system actions and readable names, and a page's texts", async () => {
    const ann = await t.token(site.app, 'ann');
    const texts = JSON.stringify({ 'action.QUIZ_COMPLETED': 'Quiz réussi', 'action.watch_video': 'A regardé une vidéo' }).replaceAll('"', '&quot;');
    const company = await host.serve(
      (questline) => `<ql-at-a-glance id="plain" base-url="${questline}" user-id="ann" token="${ann}"></ql-at-a-glance>
<ql-at-a-glance id="worded" base-url="${questline}" user-id="ann" token="${ann}" texts="${texts}"></ql-at-a-glance>`,
      'font-family: sans-serif; display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 16px; align-items: start; max-width: 900px',
    );
    body(await call('PUT', '/admin/program', await t.token(site.admin), program(company.origin)));
    await host.waitForPreflight(company.origin, '/users/ann/at-a-glance');
    const { page, problems } = await host.open(company.url, { width: 940, height: 700 });
    for (const id of ['plain', 'worded']) await page.locator(`#${id} [part="actions"]`).waitFor({ timeout: 10_000 });
    await poll(() => page.locator('[part="loading"]').count()).toBe(0);

    expect(await actionsOf(page, 'plain')).toEqual(['Received a recognition', 'Completed a quiz', 'Watch video', 'Read an article to the end +10 Points']);
    expect(await page.locator('#plain [part="action-points"]').allTextContents()).toEqual(['+10 Points']);
    expect(await actionsOf(page, 'worded')).toEqual(['Received a recognition', 'Quiz réussi', 'A regardé une vidéo', 'Read an article to the end +10 Points']);
    // The raw name and value are gone from what a person reads.
    const shown = (await page.locator('#plain [part="actions"]').textContent()) ?? '';
    for (const raw of ['QUIZ_COMPLETED', 'watch_video', '(60)', '(80)']) expect(shown).not.toContain(raw);
    await screenshot(page, `ui-at-a-glance-actions-${configuration}`);
    expect(problems).toEqual([]);
  });
});
