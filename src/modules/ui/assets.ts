// Files served as they are: the favicon (public/) and the demo program's icons (examples/demo-icons/,
// which the iconUrls of examples/demo-program.xml name as /demo/icons/<file>), so a fresh clone
// shows no broken image and needs no other host. A few kilobytes, read once when the app is built.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { PACKAGE_ROOT } from '../../package.js';

export const PUBLIC_DIR = join(PACKAGE_ROOT, 'public');
export const DEMO_ICONS_DIR = join(PACKAGE_ROOT, 'examples', 'demo-icons');
/** The path the demo program's icons are served under. */
export const DEMO_ICONS_PATH = '/demo/icons';

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
  // One route per file: any other name under the path is the usual 404 route_not_found.
  for (const file of readdirSync(DEMO_ICONS_DIR).filter((name) => name.endsWith('.svg'))) serve(`${DEMO_ICONS_PATH}/${file}`, asset(DEMO_ICONS_DIR, file));
};
