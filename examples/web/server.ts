// The web-app pattern with @questline/client: this server is "your app". It holds the client's
// credentials, mints a user-level token for the signed-in user, and serves a page (another origin
// than Questline's) that shows Questline's UI blocks and logs what the user does through the
// client in the browser, with that token. The secret never reaches the browser.
//
//   npm run example:web          (CLIENT_ID, CLIENT_SECRET; ADMIN_CLIENT_* to allow this origin; see examples/README.md)
import { readFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import { createClient, QuestlineError } from '@questline/client';
import { build } from 'esbuild';
import { explainFailures, readEnvironment } from '../environment.js';

const env = readEnvironment();
explainFailures(env.questlineUrl);
const here = new URL('.', import.meta.url).pathname;
const questline = createClient({ baseUrl: env.questlineUrl, ...env.app });

// Your app's signed-in user; a real app takes them from its session.
const user = { id: env.userId ?? 'riley', firstName: 'Riley', lastName: 'Chen' };

// Questline shows the names your app gives it (leaderboards, recognitions).
await questline.PUT('/users/{userId}/preferences', { params: { path: { userId: user.id } }, body: { firstName: user.firstName, lastName: user.lastName } });

// The page's script with the client, bundled for browsers once at start.
const bundle = await build({
  entryPoints: [`${here}page.ts`],
  tsconfig: `${here}../tsconfig.json`,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  write: false,
});
const pageScript = bundle.outputFiles[0]?.text ?? '';

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (await readFile(`${here}index.html`, 'utf8'))
  .replaceAll('{{questline}}', escape(env.questlineUrl))
  .replaceAll('{{userName}}', escape(`${user.firstName} ${user.lastName}`))
  .replaceAll('{{initials}}', escape(`${user.firstName.charAt(0)}${user.lastName.charAt(0)}`));

const send = (response: ServerResponse, status: number, type: string, body: string) =>
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);

const server = createServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (request.method === 'GET' && path === '/') return send(response, 200, 'text/html; charset=utf-8', page);
  if (request.method === 'GET' && path === '/app.js') return send(response, 200, 'text/javascript; charset=utf-8', pageScript);
  if (request.method === 'POST' && path === '/session/questline-token') {
    // A user-level token acts for this user only (their own /users/{id}/… and the program), for a
    // day by default; the page asks again when it nears its end. Check your session here.
    questline
      .forUser(user.id)
      .token()
      .then(
        (token) => send(response, 200, 'application/json', JSON.stringify({ userId: user.id, token })),
        (error: unknown) => send(response, 502, 'application/json', JSON.stringify({ error: String(error) })),
      );
    return;
  }
  send(response, 404, 'text/plain; charset=utf-8', 'Not found');
});
server.listen(env.examplePort, '127.0.0.1', () => {
  const { port } = server.address() as import('node:net').AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  allowOrigin(origin).then(
    () => console.log(`The example app: ${origin}/ (signed in as ${user.firstName} ${user.lastName}, user "${user.id}")`),
    (error: unknown) => {
      console.error(
        `Could not add ${origin} to the site's allowedOrigins: ${error instanceof QuestlineError ? `${error.status} ${error.code}` : String(error)}`,
      );
      server.close();
      process.exitCode = 1;
    },
  );
});

/**
 * A browser on this origin may call Questline only if the site lists the origin in
 * allowedOrigins (docs/ui.md, CORS): with the admin client this adds it, once.
 */
async function allowOrigin(origin: string): Promise<void> {
  if (env.admin === undefined) {
    console.log(`Without ADMIN_CLIENT_ID and ADMIN_CLIENT_SECRET, allow ${origin} yourself: add it to allowedOrigins (PUT /admin/site).`);
    return;
  }
  const admin = createClient({ baseUrl: env.questlineUrl, ...env.admin });
  const { data } = await admin.GET('/admin/site');
  const site = data.response;
  if (site.allowedOrigins.includes(origin)) return;
  await admin.PUT('/admin/site', { body: { ...site, allowedOrigins: [...site.allowedOrigins, origin] } });
  console.log(`Added ${origin} to the site's allowedOrigins.`);
}
