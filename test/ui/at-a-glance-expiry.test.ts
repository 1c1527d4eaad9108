// <ql-at-a-glance> says when points expire (docs/ui.md, docs/points.md), in real Chromium on a
// company's page of another origin, on both stores: for a user whose default category has points
// to expire it shows the notice <ql-points> shows, word for word (part `expiry-notice`: amount,
// category, date in the reader's zone); for a user with nothing to expire it shows none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AtAGlance } from '../../src/modules/profile/at-a-glance.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../helpers/app.js';
import { hasBrowser, screenshot } from '../helpers/browser.js';
import { body, caller } from '../helpers/http.js';
import { poll, startHostPages, type HostPages } from './helpers.js';

describe.skipIf(!hasBrowser).each(configurations)('<ql-at-a-glance> expiring points (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let host: HostPages;

  const call = caller(() => t);
  const program = (origin: string) => ({
    site: { name: 'Acme', timezone: 'America/New_York', allowedOrigins: [origin] },
    pointCategories: [
      { name: 'Points', isDefault: true, expiry: { afterDays: 30 } },
      { name: 'Coins', isDefault: false },
    ],
    actions: [{ name: 'read' }],
  });

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    const admin = await t.token(site.admin);
    body(await call('PUT', '/admin/program', admin, program('https://example.com')));
    // Ann earns 150 Points, which expire 30 days on; Bob only Coins, which never expire.
    body(await call('POST', '/admin/users/ann/points', admin, { category: 'Points', amount: 150, reason: 'Welcome bonus' }), 201);
    body(await call('POST', '/admin/users/bob/points', admin, { category: 'Coins', amount: 20, reason: 'Welcome bonus' }), 201);
    for (const [user, firstName, lastName] of [
      ['ann', 'Ann', 'Lee'],
      ['bob', 'Bob', 'Stone'],
    ] as const)
      body(await call('PUT', `/users/${user}/preferences`, await t.token(site.app), { firstName, lastName }));
    host = await startHostPages(t);
  });
  afterAll(async () => {
    await host?.close();
    await t?.close();
  });

  it("shows the default category's next expiry as <ql-points> does, and nothing for a user with none", async () => {
    const [ann, bob] = [await t.token(site.app, 'ann'), await t.token(site.app, 'bob')];
    const company = await host.serve(
      (questline) => `<ql-at-a-glance id="ann" base-url="${questline}" user-id="ann" token="${ann}"></ql-at-a-glance>
<ql-at-a-glance id="bob" base-url="${questline}" user-id="bob" token="${bob}"></ql-at-a-glance>
<ql-points id="ann-points" base-url="${questline}" user-id="ann" token="${ann}"></ql-points>`,
      'font-family: sans-serif; display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 16px; max-width: 960px',
    );
    body(await call('PUT', '/admin/program', await t.token(site.admin), program(company.origin)));
    await host.waitForPreflight(company.origin, '/users/ann/at-a-glance');
    const expiring = body<AtAGlance>(await call('GET', '/users/ann/at-a-glance', ann)).points.expiringSoon;
    expect(expiring).toMatchObject({ amount: 150 });

    const { page, problems } = await host.open(company.url, { width: 1024, height: 800 });
    for (const id of ['ann', 'bob']) await page.locator(`#${id} [part="stats"]`).waitFor({ timeout: 10_000 });
    await page.locator('#ann-points [part="balance"]').first().waitFor({ timeout: 10_000 });
    await poll(() => page.locator('[part="loading"]').count()).toBe(0);

    // The date as the reader's browser writes it, in its own time zone.
    const date = await page.evaluate(
      (iso) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)),
      expiring?.date ?? '',
    );
    const notice = page.locator('#ann [part="expiry-notice"]');
    expect(await notice.textContent()).toBe(`150 Points expire on ${date}.`);
    expect(await notice.isVisible()).toBe(true);
    expect(await page.locator('#ann-points [data-category="Points"] [part="expiry-notice"]').textContent()).toBe(await notice.textContent());
    expect(await page.locator('#bob [part="expiry-notice"]').count()).toBe(0);
    await screenshot(page, `ui-at-a-glance-expiry-${configuration}`);
    expect(problems).toEqual([]);
  });
});
