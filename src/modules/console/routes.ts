// The Questline Console (docs/console.md) at /console: its page for every address under /console
// (the console routes in the browser), never cached, with a Content-Security-Policy that allows
// only its own script and styles; and its hashed script and stylesheet (dist/console/assets/,
// built from console/ by `npm run build`) under a year-long immutable cache. The console talks only
// to this API, with the admin token its sign-in gets; nothing here needs a token.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { PACKAGE_ROOT } from '../../package.js';

const CONSOLE_DIR = join(PACKAGE_ROOT, 'dist', 'console');

/**
 * Scripts only from the service (no inline script, no eval), nothing from another origin, no
 * framing. Style attributes are allowed ('unsafe-inline' in style-src): Lit's styleMap writes one
 * on an element's first render (Shoelace's progress bar sets its width so), and a style cannot run
 * code. connect-src data: lets Shoelace read its built-in icons, which are data: URLs.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self'",
  "connect-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** esbuild's content hash in a file name (console/build.ts): such a file never changes. */
const HASHED = /-[A-Z0-9]{8}\.(?:js|css|woff2?)(?:\.map)?$/;
const YEAR_MS = 365 * 86_400_000;
const DAY_MS = 86_400_000;

export const consoleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Adds reply.sendFile in this plugin only: paths are resolved under CONSOLE_DIR, never above it.
  await app.register(fastifyStatic, { root: CONSOLE_DIR, serve: false });

  let page: Promise<Buffer> | undefined;
  const sendPage = async () => {
    page ??= readFile(join(CONSOLE_DIR, 'index.html'));
    return page.catch((error: unknown) => {
      page = undefined;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new AppError('not_found', 'The console is not built: run `npm run build`');
      throw error;
    });
  };
  for (const url of ['/console', '/console/*']) {
    app.get(url, { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .headers(PAGE_HEADERS)
        .send(await sendPage()),
    );
  }

  app.get(
    '/console/assets/*',
    {
      config: { access: 'public' },
      schema: { hide: true, params: Type.Object({ '*': Type.String({ maxLength: 200 }) }) },
      // A path that leaves assets/ or names a dot file is refused by @fastify/send (403): to a
      // visitor it is simply not there.
      errorHandler: (error) => {
        const status = (error as { statusCode?: number }).statusCode;
        throw status === 403 || status === 404 ? new AppError('not_found', 'The console has no such file') : error;
      },
    },
    async (request, reply) => {
      const file = request.params['*'];
      const hashed = HASHED.test(file);
      reply.header('x-content-type-options', 'nosniff');
      return reply.sendFile(`assets/${file}`, { maxAge: hashed ? YEAR_MS : DAY_MS, immutable: hashed, dotfiles: 'deny', index: false });
    },
  );
};
