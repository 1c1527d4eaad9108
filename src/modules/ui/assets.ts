// Files served as they are: the favicon (public/). A few kilobytes, read once when the app is built.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { PACKAGE_ROOT } from '../../package.js';

export const PUBLIC_DIR = join(PACKAGE_ROOT, 'public');

const TYPES: Record<string, string> = { '.svg': 'image/svg+xml', '.ico': 'image/x-icon' };
const HEADERS = {
  'cache-control': 'public, max-age=86400',
  'x-content-type-options': 'nosniff',
  // An SVG opened on its own is a document: it may run nothing and load nothing.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
};

interface Asset {
  type: string;
  body: Buffer;
}

function asset(dir: string, file: string): Asset {
  const type = TYPES[file.slice(file.lastIndexOf('.'))];
  if (type === undefined) throw new Error(`no content type for ${file}`);
  return { type, body: readFileSync(join(dir, file)) };
}

export const assetRoutes: FastifyPluginAsync = async (app) => {
  const serve = (path: string, { type, body }: Asset) =>
    app.get(path, { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => reply.type(type).headers(HEADERS).send(body));

  serve('/favicon.ico', asset(PUBLIC_DIR, 'favicon.ico'));
  serve('/favicon.svg', asset(PUBLIC_DIR, 'favicon.svg'));
};
