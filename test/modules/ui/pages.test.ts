// What a browser finds besides the blocks: `/`, a landing page that links to the API reference and,
// when there is a demo site to show, to /demo (instead of a JSON 404), under a strict
// Content-Security-Policy; the favicon; and the demo program's icons, served by Questline itself,
// which is where every iconUrl of the demo program points.
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoSite } from '../../../src/modules/sites/demo-site.js';
import { buildTestApp, configurations, type TestApp } from '../../helpers/app.js';

const get = (t: TestApp, url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const links = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((match) => match[1]);

function expectLandingPage(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  const csp = String(response.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  // The page's one <style> is the one the policy allows, by its hash.
  const style = /<style>([\s\S]*?)<\/style>/.exec(response.body)?.[1] ?? '';
  expect(csp).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  expect(response.body).not.toMatch(/<script/i);
  expect(response.body).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
}

describe.each(configurations)('pages and files for browsers (%s)', (configuration) => {
  describe('without the demo', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(configuration);
    });
    afterAll(async () => t.close());

    it('GET / is a landing page linking to the API reference, not to /demo', async () => {
      const response = await get(t, '/');
      expectLandingPage(response);
      expect(links(response.body)).toEqual(['/console', '/docs', '/health/ready']);
      // The example call names the address the browser used.
      expect(response.body).toContain('curl -s http://localhost:80/oauth/token/');
      expect((await get(t, '/', { host: 'questline.example:8080' })).body).toContain('curl -s http://questline.example:8080/oauth/token/');
    });

    it('serves the favicon as /favicon.ico and /favicon.svg', async () => {
      const ico = await get(t, '/favicon.ico');
      expect(ico.statusCode).toBe(200);
      expect(ico.headers['content-type']).toBe('image/x-icon');
      // An ICO header: reserved 0, type 1 (icon), at least one image.
      expect([...ico.rawPayload.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
      expect(ico.rawPayload.readUInt16LE(4)).toBeGreaterThan(0);
      const svg = await get(t, '/favicon.svg');
      expect(svg.statusCode).toBe(200);
      expect(svg.headers['content-type']).toBe('image/svg+xml');
      expect(svg.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      for (const response of [ico, svg]) {
        expect(response.headers['cache-control']).toMatch(/public/);
        expect(response.headers['x-content-type-options']).toBe('nosniff');
      }
    });

    it('has no landing page or favicon in the API reference', async () => {
      const paths = Object.keys(((await get(t, '/docs/json')).json() as { paths: Record<string, unknown> }).paths);
      expect(paths.filter((path) => path === '/' || path.startsWith('/favicon') || path.startsWith('/demo'))).toEqual([]);
    });
  });

  describe('with the demo site', () => {
    let t: TestApp;
    let adminToken: string;
    beforeAll(async () => {
      t = await buildTestApp(configuration, { config: { demoSite: true } });
      const demo = await ensureDemoSite(t.app.services.sites, t.app.services.backups);
      if (demo === undefined) throw new Error('ensureDemoSite made no demo site');
      adminToken = await t.token(demo.admin);
    });
    afterAll(async () => t.close());

    it('GET / links to /demo first', async () => {
      const response = await get(t, '/');
      expectLandingPage(response);
      expect(links(response.body)).toEqual(['/demo', '/console', '/docs', '/health/ready']);
      expect(response.body).toContain('npx questline client create --site demo --role app');
    });

    it('every mission and badge of the demo program has an icon that Questline serves', async () => {
      const program = (await get(t, '/admin/program', { authorization: `Bearer ${adminToken}` })).json() as {
        response: Record<'missions' | 'badges', Array<{ id: string; iconUrl?: string }>>;
      };
      const icons = [...program.response.missions, ...program.response.badges].map(({ id, iconUrl }) => ({ id, iconUrl }));
      expect(icons.length).toBeGreaterThan(10);
      for (const { id, iconUrl } of icons) {
        expect(iconUrl, id).toBe(`/demo/icons/${id}.svg`);
        const response = await get(t, iconUrl as string);
        expect(response.statusCode, `${id}: ${iconUrl}`).toBe(200);
        expect(response.headers['content-type']).toBe('image/svg+xml');
        expect(response.headers['content-security-policy']).toContain("default-src 'none'");
        expect(response.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 64 64">[\s\S]*<\/svg>\n$/);
      }
    });

    it('serves no other file under /demo/icons/', async () => {
      for (const url of ['/demo/icons/nope.svg', '/demo/icons/../../package.json', '/demo/icons/%2e%2e%2fdemo-program.xml', '/demo/icons/']) {
        expect((await get(t, url)).statusCode, url).toBe(404);
      }
    });
  });

  describe('with the demo on but no demo site', () => {
    it('GET / does not link to /demo', async () => {
      const t = await buildTestApp(configuration, { config: { demoSite: true } });
      try {
        await t.createSite('not-the-demo');
        const response = await get(t, '/');
        expectLandingPage(response);
        expect(links(response.body)).toEqual(['/console', '/docs', '/health/ready']);
      } finally {
        await t.close();
      }
    });
  });
});
