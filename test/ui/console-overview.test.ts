// The console's Overview page in a real browser, on both stores: /console opens it; a site with no
// actions shows its charts with zeros and says so; a month of history logged through the API (a
// dozen users, backdated) shows as the API counts it; an action logged now shows in today's bar
// after a refresh; the range switches to 90 days (and the address keeps it); each chart's CSV
// downloads with its rows (a download started from the keyboard). Nothing is refused by the
// Content-Security-Policy, no request fails, and axe-core finds no serious violation.
import { readFileSync } from 'node:fs';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview } from '../../src/modules/analytics/service.js';
import { ensureDemoSite, type DemoSite } from '../../src/modules/sites/demo-site.js';
import { buildTestApp, configurations, type TestApp } from '../helpers/app.js';
import { hasBrowser, launchBrowser, screenshot } from '../helpers/browser.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { accessibilityViolations, signIn } from './console-helpers.js';
import { numberIn, poll, watch, type BrowserGlobals } from './helpers.js';

const DAY = 24 * 60 * 60 * 1000;
const PEOPLE = [
  ['ana', 'Ana', 'Silva'],
  ['ben', 'Ben', 'Okafor'],
  ['chloe', 'Chloé', 'Martin'],
  ['dev', 'Dev', 'Patel'],
  ['emma', 'Emma', 'Larsen'],
  ['farid', 'Farid', 'Haddad'],
  ['grace', 'Grace', 'Kim'],
  ['hugo', 'Hugo', 'Moreau'],
  ['ines', 'Inès', 'Costa'],
  ['jon', 'Jon', 'Berg'],
  ['kai', 'Kai', 'Tanaka'],
  ['lena', 'Lena', 'Novak'],
] as const;

/** A day of the site's zone (YYYY-MM-DD), `back` days before `day`. */
const dayBefore = (day: string, back: number) => new Date(Date.parse(`${day}T12:00:00Z`) - back * DAY).toISOString().slice(0, 10);

/** A fixed sequence in [0, 1), so that every run logs the same history. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe.skipIf(!hasBrowser).each(configurations)('the console overview in Chromium (%s)', (configuration) => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let demo: DemoSite;
  let receiver: Receiver;
  let headers: { authorization: string };

  const overview = async (days: 7 | 30 | 90): Promise<Overview> => {
    const response = await t.app.inject({ method: 'GET', url: `/admin/analytics/overview?days=${days}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { response: Overview }).response;
  };
  const log = async (userId: string, payload: Record<string, unknown>) => {
    const response = await t.app.inject({ method: 'POST', url: `/users/${userId}/actions`, headers, payload });
    expect(response.statusCode, response.body).toBe(201);
  };

  /** Opens the console signed in, at the overview; returns what went wrong on the page so far. */
  const open = async (page: Page, path = '/console') => {
    const watched = watch(page, base);
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${base}${path}`);
    await signIn(page, demo.admin.clientId, demo.admin.clientSecret);
    await page.locator('ql-overview-page .charts').waitFor();
    return { ...watched, refused };
  };
  const figure = async (page: Page, card: string) => numberIn(await page.locator(`.card.figure.${card} .value`).innerText());
  const summary = (page: Page, chart: string) => page.locator(`canvas[data-chart="${chart}"]`).getAttribute('aria-label');
  /** The CSV a chart's button downloads: its file name and rows (fields split on commas). */
  const download = async (page: Page, chart: string, start?: () => Promise<void>) => {
    const [file] = await Promise.all([
      page.waitForEvent('download') as Promise<Download>,
      start?.() ?? page.locator(`section.${chart} sl-button`, { hasText: 'Download CSV' }).click(),
    ]);
    const text = readFileSync(await file.path(), 'utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    return {
      name: file.suggestedFilename(),
      rows: text
        .slice(0, -2)
        .split('\r\n')
        .map((line) => line.split(',')),
    };
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    // A month of history is logged as fast as the server takes it: past the 100 requests a second a client may send.
    t = await buildTestApp(configuration, { config: { demoSite: true, webhookAllowPrivateNetworks: true, clientRate: { rate: 10_000, burst: 10_000 } } });
    demo = (await ensureDemoSite(t.app.services.sites, t.app.services.backups)) as DemoSite;
    headers = { authorization: `Bearer ${await t.token(demo.admin)}` };
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  it('opens first, and shows a site with no actions as zeros, saying so', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      const { problems, refused } = await open(page);
      await page.waitForURL(`${base}/console/overview`);
      await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link').first().innerText()).resolves.toBe('Overview');
      await expect(page.locator('.zone').innerText()).resolves.toMatch(/time zone, America\/Los_Angeles/);
      expect(await figure(page, 'actions')).toBe(0);
      expect(await figure(page, 'completions')).toBe(0);
      await expect(page.locator('section.actions-per-day .note').innerText()).resolves.toBe('No actions in this range.');
      expect(await summary(page, 'actions-per-day')).toMatch(/^Actions per day over the last 30 days: 0 in all; none on any day; today \(.+\) 0\.$/);
      // Every mission is listed with none completed; the top missions are only a note.
      expect(await summary(page, 'completions-per-mission')).toMatch(/^Completions per mission over the last 30 days: First read 0, Little chef 0/);
      await expect(page.locator('section.top-missions canvas').count()).resolves.toBe(0);
      await expect(page.locator('section.top-missions .note').innerText()).resolves.toBe('No mission completed in this range.');
      const { name, rows } = await download(page, 'actions-per-day');
      expect(name).toBe('actions-per-day-30d.csv');
      expect(rows).toHaveLength(31);
      expect(rows.slice(1).every(([, actions]) => actions === '0')).toBe(true);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-overview-empty-${configuration}`);
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('draws a month of history, today as it happens, 90 days on request, and each chart as CSV', { timeout: 180_000 }, async () => {
    // Webhooks: level changes and badges go to an endpoint that fails its first three deliveries.
    receiver.answer(500, 500, 500, 200);
    const created = await t.app.inject({
      method: 'POST',
      url: '/admin/webhook-endpoints',
      headers,
      payload: { url: `${receiver.url}/hooks`, eventTypes: ['level.changed', 'badge.earned'], description: 'CRM' },
    });
    expect(created.statusCode).toBe(201);
    t.app.services.webhooks.start();

    // A month of a dozen people, busier as the program catches on and quieter at weekends.
    const today = (await overview(30)).days.at(-1) as string;
    const [hour, minute] = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Los_Angeles', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .format(Date.now())
      .split(':')
      .map(Number) as [number, number];
    const minutesToday = hour * 60 + minute;
    const next = random(26);
    for (const [userId, firstName, lastName] of PEOPLE) {
      const response = await t.app.inject({ method: 'PUT', url: `/users/${userId}/preferences`, headers, payload: { firstName, lastName } });
      expect(response.statusCode).toBe(200);
    }
    for (let back = 29; back >= 0; back--) {
      const day = dayBefore(today, back);
      const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
      const keen = (0.35 + (0.55 * (29 - back)) / 29) * (weekday === 0 || weekday === 6 ? 0.45 : 1);
      await Promise.all(
        PEOPLE.map(async ([userId], person) => {
          if (next() > keen) return;
          const actions: Array<Record<string, unknown>> = [{ action: 'login' }];
          for (let n = 1 + Math.floor(next() * 3 * keen); n > 0; n--)
            actions.push({ action: 'read_article', metadata: { topic: next() < 0.3 ? 'recipe' : 'news' } });
          if (next() < 0.45)
            actions.push({ action: 'watch_video', value: 30 + Math.floor(next() * 40), metadata: { genre: next() < 0.5 ? 'cooking' : 'sales' } });
          if (next() < 0.15 + person / 60) actions.push({ action: 'complete_course', value: 45 });
          if (next() < 0.2) actions.push({ action: 'share' });
          const first = 7 * 60 + Math.floor(next() * 120);
          for (const [i, action] of actions.entries()) {
            let minute = first + i * 47;
            if (back === 0) minute = Math.floor((minutesToday * (i + 1)) / (actions.length + 2));
            const timestamp = `${day}T${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
            await log(userId, { ...action, timestamp });
          }
        }),
      );
    }
    const month = await overview(30);
    expect(month.actions.total).toBeGreaterThan(300);
    expect(month.completions.total).toBeGreaterThan(100);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      const { problems, refused } = await open(page, '/console/overview');
      // The headline figures are the API's.
      await poll(() => figure(page, 'actions')).toBe(month.actions.total);
      expect(await figure(page, 'completions')).toBe(month.completions.total);
      expect(await figure(page, 'points')).toBe(month.points.find((c) => c.isDefault)?.total);
      await expect(page.locator('section.actions-per-day .note').count()).resolves.toBe(0);
      const todayBefore = month.actions.perDay.at(-1) as number;
      expect(await summary(page, 'actions-per-day')).toContain(`: ${month.actions.total.toLocaleString('en-US')} in all;`);
      expect(await summary(page, 'actions-per-day')).toMatch(new RegExp(`; today \\(.+\\) ${todayBefore}\\.$`));
      expect(await summary(page, 'top-missions')).toContain(`${month.topMissions[0]?.name} ${month.topMissions[0]?.completions}`);
      await poll(() => receiver.received.length).toBeGreaterThan(3);

      // An action logged now is in today's bar at the next refresh.
      await log('ana', { action: 'read_article' });
      await page.locator('sl-button', { hasText: 'Refresh' }).click();
      await poll(() => summary(page, 'actions-per-day')).toMatch(new RegExp(`; today \\(.+\\) ${todayBefore + 1}\\.$`));
      await poll(() => figure(page, 'actions')).toBe(month.actions.total + 1);
      const actions = await download(page, 'actions-per-day');
      expect(actions.name).toBe('actions-per-day-30d.csv');
      expect(actions.rows[0]).toEqual(['day', 'actions']);
      expect(actions.rows.slice(1).map(([day]) => day)).toEqual(month.days);
      expect(actions.rows.at(-1)).toEqual([today, String(todayBefore + 1)]);
      expect(actions.rows.slice(1).reduce((total, [, n]) => total + Number(n), 0)).toBe(month.actions.total + 1);

      // A narrow window: one chart a row, nothing wider than the page.
      await page.setViewportSize({ width: 700, height: 900 });
      await poll(() =>
        page.evaluate(() => {
          const { document } = globalThis as unknown as BrowserGlobals;
          return document.documentElement.scrollWidth - document.documentElement.clientWidth;
        }),
      ).toBe(0);
      await screenshot(page, `console-overview-narrow-${configuration}`);
      await page.setViewportSize({ width: 1280, height: 900 });

      expect(await accessibilityViolations(page)).toEqual([]);
      await page.mouse.move(0, 0); // no button highlighted under the pointer
      await screenshot(page, `console-overview-${configuration}`);

      // The top missions' CSV, started from the keyboard.
      const top = await download(page, 'top-missions', async () => {
        await page.locator('section.top-missions sl-button button').focus();
        await page.keyboard.press('Enter');
      });
      expect(top.name).toBe('top-missions-30d.csv');
      expect(top.rows).toEqual([
        ['rank', 'mission id', 'mission', 'completions'],
        ...month.topMissions.map((m, i) => [String(i + 1), m.missionId, m.name, String(m.completions)]),
      ]);

      // 90 days: the address keeps the range, and the charts and CSVs cover 90 days.
      await page.locator('sl-radio-button', { hasText: '90 days' }).click();
      await poll(() => summary(page, 'actions-per-day')).toMatch(/^Actions per day over the last 90 days: /);
      expect(new URL(page.url()).searchParams.get('days')).toBe('90');
      await screenshot(page, `console-overview-90d-${configuration}`);
      const quarter = await overview(90);
      const points = await download(page, 'points-per-category-per-day');
      expect(points.name).toBe('points-per-category-per-day-90d.csv');
      expect(points.rows[0]).toEqual(['day', ...quarter.points.map((c) => c.category)]);
      expect(points.rows).toHaveLength(91);
      expect(points.rows[1]?.[0]).toBe(dayBefore(today, 89));
      quarter.points.forEach((category, column) => {
        expect(points.rows.slice(1).reduce((total, row) => total + Number(row[column + 1]), 0)).toBe(category.total);
      });
      // The other charts' CSVs hold what the API answers.
      const csv = async (chart: string) => {
        const file = await download(page, chart);
        expect(file.name).toBe(`${chart}-90d.csv`);
        return file.rows;
      };
      const text = (row: Array<string | number>) => row.map(String);
      expect(await csv('active-users-per-day')).toEqual([
        ['day', 'active users'],
        ...quarter.days.map((day, i) => text([day, quarter.activeUsers.perDay[i] ?? 0])),
      ]);
      expect(await csv('actions-by-type')).toEqual([['action', 'actions'], ...quarter.actions.byAction.map((a) => text([a.action, a.total]))]);
      expect(await csv('completions-per-mission')).toEqual([
        ['mission id', 'mission', 'completions'],
        ...quarter.completions.missions.map((m) => text([m.missionId, m.name, m.total])),
      ]);
      expect(await csv('levels-reached')).toEqual([['level id', 'level', 'times reached'], ...quarter.levels.map((l) => text([l.levelId, l.name, l.total]))]);
      // Deliveries move between statuses as the dispatcher works; today's made are as many.
      const deliveries = await download(page, 'webhook-deliveries-per-day');
      expect(deliveries.rows[0]).toEqual(['day', 'delivered', 'failed', 'pending']);
      expect(deliveries.rows.at(-1)?.[0]).toBe(today);
      const { delivered, failed, pending } = quarter.webhooks;
      expect(
        deliveries.rows
          .at(-1)
          ?.slice(1)
          .reduce((total, n) => total + Number(n), 0),
      ).toBe((delivered.at(-1) ?? 0) + (failed.at(-1) ?? 0) + (pending.at(-1) ?? 0));
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
