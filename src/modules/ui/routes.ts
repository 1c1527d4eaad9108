// The UI blocks (SPEC §14): the bundle of web components at /elements/questline.js (built by
// `npm run build` from ui/), and /demo, a page that shows every block for a demo user of the demo
// site. The demo page's token is issued here, for that user only: no secret reaches the browser.
// Also `/`, a landing page that links to them, and the favicon and demo icons (./assets.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';
import { PACKAGE_ROOT, VERSION } from '../../package.js';
import type { TokenService } from '../oauth/tokens.js';
import { DEMO_SITE_ID } from '../sites/demo-site.js';
import type { SitesService } from '../sites/service.js';
import { assetRoutes } from './assets.js';
import { demoPage, DEMO_USER, seedDemo } from './demo-page.js';
import { LANDING_CSP, landingPage } from './landing.js';

const BUNDLE_DIR = join(PACKAGE_ROOT, 'dist', 'elements');
const FILES = { 'questline.js': 'text/javascript; charset=utf-8', 'questline.js.map': 'application/json; charset=utf-8' } as const;

export const uiRoutes: FastifyPluginAsync<{ tokens: TokenService; sites: SitesService; demo: boolean; console: boolean }> = async (
  app,
  { tokens, sites, demo, console },
) => {
  const bundle = new Map<string, Promise<Buffer>>();
  for (const [file, type] of Object.entries(FILES)) {
    app.get(`/elements/${file}`, { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
      let content = bundle.get(file);
      if (content === undefined) {
        content = readFile(join(BUNDLE_DIR, file));
        bundle.set(file, content);
        content.catch(() => bundle.delete(file));
      }
      const body = await content.catch(() => {
        throw new AppError('not_found', 'The UI blocks are not built: run `npm run build`');
      });
      // A module script from another origin is fetched with CORS; the bundle holds nothing private.
      return reply.type(type).header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=300').send(body);
    });
  }

  await app.register(assetRoutes);
  app.get('/', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const showDemo = demo && (await sites.findSite(DEMO_SITE_ID)) !== undefined;
    return reply
      .type('text/html; charset=utf-8')
      .headers({ 'content-security-policy': LANDING_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-cache' })
      .send(landingPage({ origin: `${request.protocol}://${request.host}`, version: VERSION, demo: showDemo, console }));
  });

  if (!demo) return;
  let seeded: Promise<void> | undefined;
  app.get('/demo', { config: { access: 'public', sameOriginOnly: true }, schema: { hide: true } }, async (request, reply) => {
    const client = (await sites.storedClients(DEMO_SITE_ID)).find((c) => c.role === 'app');
    if (client === undefined) throw new AppError('not_found', 'There is no demo site (it is made on an empty database when DEMO_SITE is true)');
    const issue = async (userId?: string) =>
      (await tokens.issue({ siteId: DEMO_SITE_ID, clientId: client.client_id, role: client.role, secretVersion: client.secret_version }, userId)).token;
    // Assigned before anything is awaited, so concurrent first visits seed once.
    seeded ??= issue()
      .then((appToken) => seedDemo(app as unknown as FastifyInstance, appToken))
      .catch((error: unknown) => {
        seeded = undefined;
        throw error;
      });
    await seeded;
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(demoPage({ token: await issue(DEMO_USER), userId: DEMO_USER }));
  });
};
