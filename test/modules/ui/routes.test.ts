// The UI blocks (SPEC §14): the bundle of web components at /elements/questline.js (built by the
// vitest global setup, test/setup/bundles.ts) and its source map, and /demo, the page that shows
// every block for the demo user `alex` of the demo site with a user-level token the server issued
// itself (no secret, no client-level token in the page). The page seeds a few colleagues through
// the API once, idempotently.
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { DEMO_SITE_ID, ensureDemoSite, type DemoSite } from '../../../src/modules/sites/demo-site.js';
import { buildTestApp, configurations, type TestApp } from '../../helpers/app.js';

const ELEMENTS = [
  'ql-missions',
  'ql-mission-progress',
  'ql-leaderboard',
  'ql-trophy-case',
  'ql-points',
  'ql-level',
  'ql-at-a-glance',
  'ql-recognize',
  'ql-quiz',
  'ql-award-balance',
  'ql-streak',
];
/** The seeded colleagues and their recorded actions (src/modules/ui/demo-page.ts). */
const COLLEAGUES = [
  { id: 'sam', firstName: 'Sam', lastName: 'Okafor', actions: 5 },
  { id: 'kim', firstName: 'Kim', lastName: 'Tanaka', actions: 1 },
  { id: 'lee', firstName: 'Lee', lastName: 'Moreau', actions: 1 },
];
/** `${request.protocol}://${request.host}` under inject (Host: localhost:80): the page's own origin. */
const SELF = 'http://localhost:80';
const JWT = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g;

const call = (
  t: TestApp,
  method: 'GET' | 'POST',
  url: string,
  { token, origin, payload }: { token?: string; origin?: string; payload?: Record<string, unknown> } = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}), ...(origin !== undefined ? { origin } : {}) },
    ...(payload !== undefined ? { payload } : {}),
  });
const expectProblem = (response: LightMyRequestResponse, status: number, code: string) => {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.json()).toMatchObject({ status, code });
};
/** The token attributes of the page's blocks. */
const tokensIn = (html: string) => [...html.matchAll(/\btoken="([^"]*)"/g)].map((match) => match[1] as string);

describe.each(configurations)('UI routes (%s)', (configuration) => {
  describe('the bundle', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(configuration);
    });
    afterAll(async () => t.close());

    it('serves /elements/questline.js: a module that defines the ten elements, readable from any origin', async () => {
      const response = await call(t, 'GET', '/elements/questline.js', { origin: 'https://anywhere.example' });
      expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/javascript/);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['cache-control']).toMatch(/public/);
      for (const element of ELEMENTS) expect(response.body, element).toContain(element);
      expect(response.body).toContain('customElements');
      // Served without an Origin too (a same-origin <script type="module">).
      const plain = await call(t, 'GET', '/elements/questline.js');
      expect(plain.statusCode).toBe(200);
      expect(plain.body).toBe(response.body);
    });

    it('serves /elements/questline.js.map: a JSON source map', async () => {
      const response = await call(t, 'GET', '/elements/questline.js.map');
      expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const map = response.json() as { version: number; sources: string[]; mappings: string };
      expect(map.version).toBe(3);
      expect(map.sources.some((source) => source.endsWith('index.ts'))).toBe(true);
      expect(typeof map.mappings).toBe('string');
    });

    it('serves nothing else under /elements/', async () => {
      for (const url of ['/elements/other.js', '/elements/../package.json', '/elements/']) {
        expect((await call(t, 'GET', url)).statusCode, url).toBe(404);
      }
    });

    it('has no /demo route when demoSite is false (404 route_not_found)', async () => {
      expect(t.config.demoSite).toBe(false);
      expectProblem(await call(t, 'GET', '/demo'), 404, 'route_not_found');
    });
  });

  describe('/demo without a demo site', () => {
    it('answers 404 not_found when demoSite is true but no demo site exists', async () => {
      const t = await buildTestApp(configuration, { config: { demoSite: true } });
      try {
        await t.createSite('not-the-demo');
        expectProblem(await call(t, 'GET', '/demo'), 404, 'not_found');
      } finally {
        await t.close();
      }
    });
  });

  describe('/demo with the demo site', () => {
    let t: TestApp;
    let demo: DemoSite;
    let first: LightMyRequestResponse;
    let adminToken: string;
    let appToken: string;

    const actionCount = async (userId: string) => {
      const response = await call(t, 'GET', `/users/${userId}/actions?limit=100`, { token: appToken });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { response: unknown[] }).response.length;
    };
    const expectSeededOnce = async () => {
      for (const colleague of COLLEAGUES) {
        const response = await call(t, 'GET', `/users/${colleague.id}/preferences`, { token: appToken });
        expect(response.statusCode, response.body).toBe(200);
        expect((response.json() as { response: unknown }).response).toMatchObject({ firstName: colleague.firstName, lastName: colleague.lastName });
        expect(await actionCount(colleague.id), colleague.id).toBe(colleague.actions);
      }
    };

    beforeAll(async () => {
      t = await buildTestApp(configuration, { config: { demoSite: true } });
      const created = await ensureDemoSite(t.app.services.sites, t.app.services.backups);
      if (created === undefined) throw new Error('ensureDemoSite made no demo site');
      demo = created;
      adminToken = await t.token(demo.admin);
      appToken = await t.token(demo.app);
      first = await call(t, 'GET', '/demo');
    });
    afterAll(async () => t.close());

    it('answers an HTML page with every block and the bundle’s script tag', () => {
      expect(first.statusCode, first.body).toBe(200);
      expect(first.headers['content-type']).toMatch(/^text\/html/);
      // It holds a token: no cache may keep it.
      expect(first.headers['cache-control']).toMatch(/no-store/);
      expect(first.body).toMatch(/<script type="module" src="\/elements\/questline\.js"><\/script>/);
      for (const element of ELEMENTS) {
        expect(first.body, element).toMatch(new RegExp(`<${element} [^>]*user-id="alex"[^>]*token="[^"]+"[^>]*></${element}>`));
      }
    });

    it('references definitions that exist in the demo program', async () => {
      const response = await call(t, 'GET', '/admin/program', { token: adminToken });
      expect(response.statusCode, response.body).toBe(200);
      const program = (response.json() as { response: Record<'missions' | 'leaderboards' | 'quizzes' | 'exchanges', Array<{ id: string }>> }).response;
      const ids = (key: keyof typeof program) => program[key].map((item) => item.id);
      const attribute = (name: string) => new RegExp(`${name}="([^"]+)"`).exec(first.body)?.[1];
      expect(ids('missions')).toContain(attribute('challenge-id'));
      expect(ids('leaderboards')).toContain(attribute('leaderboard-id'));
      expect(ids('quizzes')).toContain(attribute('quiz-id'));
      expect(ids('exchanges')).toContain(attribute('exchange-id'));
    });

    it('embeds a user-level token for alex of the demo site, and only such tokens', async () => {
      const tokens = tokensIn(first.body);
      expect(tokens).toHaveLength(ELEMENTS.length);
      const jwts = first.body.match(JWT) ?? [];
      expect(jwts.length).toBeGreaterThanOrEqual(ELEMENTS.length);
      for (const jwt of [...tokens, ...jwts]) {
        expect(decodeJwt(jwt)).toMatchObject({ sid: DEMO_SITE_ID, uid: 'alex' });
      }
      const token = tokens[0] as string;
      const own = await call(t, 'GET', '/users/alex/point-balance', { token });
      expect(own.statusCode, own.body).toBe(200);
      expectProblem(await call(t, 'GET', '/users/sam/point-balance', { token }), 403, 'forbidden');
      expectProblem(await call(t, 'GET', '/admin/program', { token }), 403, 'forbidden');
    });

    it('contains no client secret', () => {
      for (const secret of [demo.admin.clientSecret, demo.app.clientSecret]) {
        expect(secret.length).toBeGreaterThan(8);
        expect(first.body).not.toContain(secret);
      }
      expect(first.body).not.toMatch(/client_secret|clientSecret/);
    });

    it('lets the page’s button log read_article from its own origin, and no other origin', async () => {
      const token = tokensIn(first.body)[0] as string;
      const before = await actionCount('alex');
      const logged = await call(t, 'POST', '/users/alex/actions', { token, origin: SELF, payload: { action: 'read_article' } });
      expect(logged.statusCode, logged.body).toBe(201);
      const foreign = await call(t, 'POST', '/users/alex/actions', { token, origin: 'https://evil.example', payload: { action: 'read_article' } });
      expectProblem(foreign, 403, 'origin_not_allowed');
      expect(await actionCount('alex')).toBe(before + 1);
    });

    it('lets no other origin read the page (it holds a user token), though it is public', async () => {
      const foreign = await call(t, 'GET', '/demo', { origin: 'https://evil.example' });
      expect(foreign.statusCode).toBe(200);
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('seeds the colleagues once: a second /demo adds nothing', async () => {
      await expectSeededOnce();
      const second = await call(t, 'GET', '/demo');
      expect(second.statusCode, second.body).toBe(200);
      await expectSeededOnce();
      // Each call issues its own token.
      expect(tokensIn(second.body)[0]).toMatch(JWT);
    });

    it('seeds idempotently after a restart (a new process on the same database)', async () => {
      const restarted = await buildApp(t.config, { database: t.database });
      try {
        const response = await restarted.inject({ method: 'GET', url: '/demo' });
        expect(response.statusCode, response.body).toBe(200);
      } finally {
        await restarted.close();
      }
      await expectSeededOnce();
    });
  });

  describe('/demo called concurrently on a fresh process', () => {
    it('seeds once and answers every call', async () => {
      const t = await buildTestApp(configuration, { config: { demoSite: true } });
      try {
        const demo = await ensureDemoSite(t.app.services.sites, t.app.services.backups);
        if (demo === undefined) throw new Error('ensureDemoSite made no demo site');
        const responses = await Promise.all([1, 2, 3].map(() => call(t, 'GET', '/demo')));
        for (const response of responses) expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
        const appToken = await t.token(demo.app);
        for (const colleague of COLLEAGUES) {
          const response = await call(t, 'GET', `/users/${colleague.id}/actions?limit=100`, { token: appToken });
          expect(response.statusCode, response.body).toBe(200);
          expect((response.json() as { response: unknown[] }).response, colleague.id).toHaveLength(colleague.actions);
        }
      } finally {
        await t.close();
      }
    });
  });
});
