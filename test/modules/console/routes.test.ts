// The console's files (src/modules/console/routes.ts): its page at /console and at every address
// under it, never cached and under a Content-Security-Policy that allows no inline script; its
// hashed script and stylesheet cached for a year, immutable; its icons for a day; nothing outside
// dist/console/ reachable; and nothing at all with CONSOLE=false. No token is needed (the console
// signs in itself), and none is looked at.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/package.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';

const ASSETS = join(PACKAGE_ROOT, 'dist', 'console', 'assets');
/** The hashed bundle files the global setup built (test/setup/bundles.ts). */
const bundle = (extension: string) => {
  const file = readdirSync(ASSETS).find((name) => name.startsWith('console-') && name.endsWith(extension));
  if (file === undefined) throw new Error(`no console-*${extension} in ${ASSETS}`);
  return file;
};

describe('the console routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('embedded');
  });
  afterAll(async () => t?.close());

  it.each(['/console', '/console/', '/console/leaderboards', '/console/people/ann?tab=history'])(
    'serves the page at %s, uncached, under a strict policy',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      const policy = String(response.headers['content-security-policy']);
      const directives = new Map(policy.split('; ').map((directive) => [directive.split(' ')[0], directive]));
      expect(directives.get('script-src')).toBe("script-src 'self'");
      expect(directives.get('default-src')).toBe("default-src 'none'");
      expect(directives.get('frame-ancestors')).toBe("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe-eval');
      // The page loads the hashed bundle, and runs no script of its own.
      expect(response.body).toContain(`<script type="module" src="/console/assets/${bundle('.js')}"></script>`);
      expect(response.body).toContain(`<link rel="stylesheet" href="/console/assets/${bundle('.css')}">`);
      expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    },
  );

  it.each([
    ['.js', 'javascript'],
    ['.css', 'text/css'],
  ])('serves the hashed %s for a year, immutable', async (extension, type) => {
    const response = await t.app.inject({ method: 'GET', url: `/console/assets/${bundle(extension)}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain(type);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body.length).toBeGreaterThan(1000);
  });

  it('serves an icon, whose name carries no hash, for a day', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/console/assets/icons/trophy.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('image/svg+xml');
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
  });

  it.each([
    '/console/assets/missing-ABCDEFGH.js',
    '/console/assets/%2e%2e%2findex.html',
    '/console/assets/%2e%2e/%2e%2e/%2e%2e/package.json',
    '/console/assets/..%2f..%2f..%2fpackage.json',
    '/console/assets/.hidden',
  ])('finds nothing at %s', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.body).not.toContain('"name": "questline"');
  });

  it('is linked from the landing page', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/' })).body).toContain('<a class="card" href="/console">');
  });

  it('ignores a token: the page is the same with a wrong one', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/console', headers: { authorization: 'Bearer not-a-token' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('CONSOLE=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('embedded', { config: { console: false } });
  });
  afterAll(async () => t?.close());

  it.each(['/console', '/console/leaderboards', `/console/assets/icons/trophy.svg`])('serves nothing at %s', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
  });

  it('leaves the console out of the landing page', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('href="/docs"');
    expect(response.body).not.toContain('href="/console"');
  });
});
