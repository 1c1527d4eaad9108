// @questline/client in a browser (headless Chromium): the package bundled by esbuild for the
// browser, with no Node globals, logs an action (one the site lets users log themselves) and reads
// missions with a user-level token, as a page given one by its backend would, and verifies a
// webhook signed by the server's own signer, with Web Crypto.
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../src/modules/webhooks/signatures.js';
import { hasBrowser, launchBrowser } from '../helpers/browser.js';
import { quickStartProgram, startQuestline, type RunningQuestline } from './helpers.js';

/** The client's exports as the page sees them (the IIFE bundle's global). */
type Bundle = typeof import('../../clients/typescript/src/index.js');

describe.skipIf(!hasBrowser)('@questline/client in Chromium', () => {
  let q: RunningQuestline;
  let browser: Browser;
  let bundle: string;
  let token: string;

  beforeAll(async () => {
    q = await startQuestline('embedded');
    const site = await q.createSite();
    const admin = await q.token(site.admin);
    const put = await q.app.inject({
      method: 'PUT',
      url: '/admin/program',
      headers: { authorization: `Bearer ${admin}` },
      payload: { ...quickStartProgram, actions: [{ name: 'read_article', clientLoggable: true }] },
    });
    if (put.statusCode !== 200) throw new Error(put.body);
    token = await q.token(site.app, 'ann');
    const result = await build({
      entryPoints: ['clients/typescript/src/index.ts'],
      bundle: true,
      minify: true,
      format: 'iife',
      globalName: 'Questline',
      platform: 'browser',
      target: 'es2022',
      write: false,
    });
    bundle = result.outputFiles[0]?.text ?? '';
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await q?.close();
  });
  it('calls Questline with a user-level token and verifies a webhook, without Node', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // A page of the service's own origin: no CORS in the way, and 127.0.0.1 is a secure context (Web Crypto).
    await page.goto(`${q.baseUrl}/health/live`);
    await page.addScriptTag({ content: bundle });
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ eventId: 'evt_b', eventType: 'badge.earned', occurredAt: new Date().toISOString(), data: { user: { userId: 'ann' } } });
    const headers = signWebhook('evt_b', Date.now(), body, [generateWebhookSecret(), secret]);
    const outcome = await page.evaluate(
      async ({ token, body, headers, secret }) => {
        const { createClient, verifyWebhook, QuestlineError } = (globalThis as unknown as { Questline: Bundle }).Questline;
        const client = createClient({ baseUrl: (globalThis as unknown as { location: { origin: string } }).location.origin, token });
        const logged = await client.logAction('ann', 'read_article');
        const { data } = await client.GET('/users/{userId}/challenges', { params: { path: { userId: 'ann' } } });
        const refused = await client.GET('/users/{userId}/challenges', { params: { path: { userId: 'bob' } } }).catch((error: unknown) => error);
        const event = await verifyWebhook(body, new Headers(headers), secret);
        const tampered = await verifyWebhook(body.replace('ann', 'bob'), new Headers(headers), secret).then(
          () => 'accepted',
          (error: unknown) => (error as Error).name,
        );
        return {
          hasNode: typeof (globalThis as { process?: unknown }).process !== 'undefined',
          eventId: logged.eventId,
          credited: logged.pointsAwarded.map((points) => points.credited),
          missions: data.response.map((mission) => mission.id),
          refused: refused instanceof QuestlineError ? [refused.status, refused.code] : String(refused),
          event: [event.eventId, event.eventType],
          tampered,
        };
      },
      { token, body, headers: { ...headers }, secret },
    );
    expect(outcome).toEqual({
      hasNode: false,
      eventId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      credited: [10],
      missions: ['m-read'],
      refused: [403, 'forbidden'],
      event: ['evt_b', 'badge.earned'],
      tampered: 'WebhookVerificationError',
    });
    expect(errors).toEqual([]);
    await page.close();
  });
});
