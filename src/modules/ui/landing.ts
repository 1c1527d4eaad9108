// The page at `/`: what a browser pointed at the service finds (links to /demo, when there is a demo
// site to show, and to the API reference) instead of a JSON 404. Static but for the service's own
// address in the example; no script, and a Content-Security-Policy that allows only its own style.
import { createHash } from 'node:crypto';

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
  :root { color-scheme: light; }
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; background: #f4f6fb; color: #1d2230; }
  header { background: #1d2b64; color: #fff; padding: 40px 24px 48px; }
  header div, main { max-width: 880px; margin: 0 auto; }
  h1 { margin: 0; font-size: 2rem; display: flex; align-items: center; gap: 14px; }
  h1 img { width: 44px; height: 44px; }
  header p { margin: 10px 0 0; max-width: 640px; opacity: .88; }
  main { padding: 0 24px 40px; }
  .cards { display: grid; gap: 16px; grid-template-columns: repeat(auto-fit, minmax(min(100%, 260px), 1fr)); margin-top: -24px; }
  .card { display: block; padding: 20px; border-radius: 12px; background: #fff; border: 1px solid #d9dde7; color: inherit; text-decoration: none; box-shadow: 0 1px 3px rgba(29, 43, 100, .08); }
  .card:hover { border-color: #3b5bdb; }
  .card:focus-visible { outline: 3px solid #f59f00; outline-offset: 2px; }
  .card h2 { margin: 0 0 6px; font-size: 1.1rem; color: #3b5bdb; }
  .card p { margin: 0; color: #5c6477; }
  h2.section { font-size: 1.1rem; margin: 32px 0 8px; }
  pre { margin: 0; padding: 14px 16px; border-radius: 10px; background: #1d2230; color: #e9ecf3; overflow-x: auto; font-size: .85rem; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
  p code { background: #e9ecf3; padding: 1px 5px; border-radius: 4px; font-size: .9em; }
  footer { margin-top: 32px; color: #5c6477; font-size: .875rem; }
`;

/** What the page may load: its own style (by hash), its own images; nothing else, and no framing. */
export const LANDING_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface LandingOptions {
  /** The service's address as the browser reached it (`http://127.0.0.1:3000`). */
  origin: string;
  version: string;
  /** Whether /demo has a demo site to show. */
  demo: boolean;
  /** Whether the console is served at /console (CONSOLE). */
  console: boolean;
}

export function landingPage({ origin, version, demo, console }: LandingOptions): string {
  const base = escape(origin);
  const credentials = demo
    ? '<p>The first <code>npm start</code> printed the demo site&#39;s <code>export CLIENT_ID=… CLIENT_SECRET=…</code> lines; <code>npx questline client create --site demo --role app</code> makes new credentials.</p>'
    : '<p>Make a site and its clients with <code>npx questline site create</code> and <code>npx questline client create</code>.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Questline</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<header>
  <div>
    <h1><img src="/favicon.svg" alt="">Questline</h1>
    <p>An open-source gamification service: your apps log what people do; Questline turns it into missions, points, levels, badges, leaderboards, recognitions, quizzes and award accounts.</p>
  </div>
</header>
<main>
  <nav class="cards" aria-label="Start here">
${demo ? '    <a class="card" href="/demo"><h2>Demo</h2><p>Every prebuilt UI block, live against the demo site.</p></a>\n' : ''}${console ? '    <a class="card" href="/console"><h2>Console</h2><p>Watch and run your program in the browser, signed in as an admin client.</p></a>\n' : ''}    <a class="card" href="/docs"><h2>API reference</h2><p>Every endpoint, interactive (OpenAPI 3.1, also as <code>/docs/json</code>).</p></a>
    <a class="card" href="/health/ready"><h2>Health</h2><p>Whether this node is ready to serve.</p></a>
  </nav>
  <h2 class="section">A first call</h2>
  ${credentials}
  <pre><code>curl -s ${base}/oauth/token/ -d grant_type=client_credentials \\
  -d client_id=$CLIENT_ID -d client_secret=$CLIENT_SECRET</code></pre>
  <footer>Questline ${escape(version)}</footer>
</main>
</body>
</html>
`;
}
