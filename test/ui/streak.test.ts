// <ql-streak> in a real browser (docs/ui.md): a company's page embeds it for a user with a
// user-level token; it shows the live run, the longest, freezes, whether this period is done and
// the next milestone, and with `streak-id` only that streak. A user with no action sees a run of 0
// and the time left. Embedded configuration only (a browser adds nothing per database).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestSite } from '../helpers/app.js';
import { hasBrowser, screenshot } from '../helpers/browser.js';
import { startHostPages, type HostPages } from './helpers.js';

describe.skipIf(!hasBrowser)('<ql-streak> (Chromium)', () => {
  let t: TestApp;
  let site: TestSite;
  let host: HostPages;

  const call = async (method: 'POST' | 'PUT', url: string, token: string, payload: Record<string, unknown>) => {
    const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  };
  const open = async (blocks: string) => {
    const embedding = await host.serve((questline) => blocks.replaceAll('QUESTLINE', questline), 'font-family: sans-serif; max-width: 420px');
    const admin = await t.token(site.admin);
    await call('PUT', '/admin/site', admin, { name: 'Acme', timezone: 'UTC', allowedOrigins: [embedding.origin] });
    return host.open(embedding.url, { width: 480, height: 700 });
  };

  beforeAll(async () => {
    const day = 86_400_000;
    const now = Date.now();
    t = await buildTestApp('embedded');
    site = await t.createSite();
    const admin = await t.token(site.admin);
    await call('PUT', '/admin/program', admin, {
      site: { name: 'Acme', timezone: 'UTC' },
      pointCategories: [{ name: 'Points', isDefault: true }],
      actions: [{ name: 'read' }, { name: 'workout' }],
      streaks: [
        {
          id: 's-read',
          name: 'Daily reading',
          action: 'read',
          freezes: { max: 2, initial: 1 },
          milestones: [{ length: 7, rewards: { points: [{ category: 'Points', amount: 50 }] } }],
        },
        { id: 's-gym', name: 'Weekly workout', action: 'workout', period: 'week' },
      ],
    });
    const app = await t.token(site.app);
    for (const ago of [3, 2, 1, 0]) await call('POST', '/users/alex/actions', app, { action: 'read', timestamp: new Date(now - ago * day).toISOString() });
    host = await startHostPages(t);
  });
  afterAll(async () => {
    await host?.close();
    await t?.close();
  });

  it("shows the user's streaks (or the one streak-id names): the run, done today, freezes and the next milestone", async () => {
    const alex = await t.token(site.app, 'alex');
    const { page: p, problems } = await open(
      `<ql-streak id="all" base-url="QUESTLINE" user-id="alex" token="${alex}"></ql-streak>
       <ql-streak id="one" base-url="QUESTLINE" user-id="alex" token="${alex}" streak-id="s-read"></ql-streak>`,
    );
    const reading = p.locator('#all [data-streak="s-read"]');
    await reading.locator('[part="current"]').waitFor();
    expect((await reading.locator('[part="current"]').textContent())?.trim()).toBe('4');
    expect(await reading.locator('[part="done"]').textContent()).toBe('Done today');
    expect(await reading.locator('[part="freezes"]').textContent()).toBe('❄ 1 of 2 freezes');
    expect(await reading.locator('[part="next-milestone"]').textContent()).toContain('Next milestone: 7 days (50 Points)');
    await reading.getByRole('progressbar', { name: 'Progress to 7 days' }).waitFor();
    const gym = p.locator('#all [data-streak="s-gym"]');
    expect((await gym.locator('[part="current"]').textContent())?.trim()).toBe('0');
    expect(await gym.locator('[part="due"]').textContent()).toMatch(/left this week$/);
    // With streak-id: that streak alone, titled by its name.
    await p.locator('#one [part="current"]').waitFor();
    expect(await p.locator('#one [part="title"]').textContent()).toBe('Daily reading');
    expect(await p.locator('#one [part="streak"]').count()).toBe(1);
    await screenshot(p, 'ui-streak');
    expect(problems).toEqual([]);
  });
});
