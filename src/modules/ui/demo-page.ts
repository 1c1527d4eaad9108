// The /demo page: every UI block for one demo user of the demo site, and a button that logs an
// action (read_article, which the demo program lets user-level tokens log) so that missions, points
// and the leaderboard visibly change, and the badges it earns are celebrated. A few colleagues are seeded through the API itself, once per
// process and idempotently (fixed event ids), so the leaderboard and recognitions have people in them.
import type { FastifyInstance } from 'fastify';

export const DEMO_USER = 'alex';
const PEOPLE: Array<[string, string, string]> = [
  ['alex', 'Alex', 'Rivera'],
  ['sam', 'Sam', 'Okafor'],
  ['kim', 'Kim', 'Tanaka'],
  ['lee', 'Lee', 'Moreau'],
];
const SEED_ACTIONS: Array<[string, string, number]> = [
  ['sam', 'read_article', 3],
  ['sam', 'watch_video', 2],
  ['kim', 'read_article', 1],
  ['lee', 'watch_video', 1],
];

export async function seedDemo(app: FastifyInstance, appToken: string): Promise<void> {
  const call = async (method: 'PUT' | 'POST', url: string, payload: Record<string, unknown>) => {
    const response = await app.inject({ method, url, headers: { authorization: `Bearer ${appToken}` }, payload });
    if (response.statusCode >= 300) throw new Error(`demo seeding: ${method} ${url} answered ${response.statusCode} ${response.body}`);
  };
  for (const [userId, firstName, lastName] of PEOPLE) await call('PUT', `/users/${userId}/preferences`, { firstName, lastName });
  for (const [userId, action, times] of SEED_ACTIONS) {
    for (let i = 1; i <= times; i++) await call('POST', `/users/${userId}/actions`, { action, eventId: `demo-seed-${userId}-${action}-${i}` });
  }
}

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function demoPage({ token, userId }: { token: string; userId: string }): string {
  const common = `base-url="" user-id="${escape(userId)}" token="${escape(token)}"`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Questline demo</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<script type="module" src="/elements/questline.js"></script>
${STYLE}
</head>
<body>
<header>
  <h1>Questline demo</h1>
  <p>Every UI block, live against the demo site, for <strong>Alex Rivera</strong> (user <code>${escape(userId)}</code>). The page got a user-level token from the server; no secret is in it.</p>
</header>
<div class="actions">
  <button id="log-action" type="button">Log a demo action (read an article)</button>
  <span id="log-status" role="status" aria-live="polite"></span>
</div>
<ql-badge-celebration id="badge-celebration" base-url=""></ql-badge-celebration>
<main>
  <ql-at-a-glance ${common}></ql-at-a-glance>
  <ql-points ${common}></ql-points>
  <ql-level ${common}></ql-level>
  <ql-streak ${common} streak-id="s-reading"></ql-streak>
  <ql-missions ${common}></ql-missions>
  <ql-mission-progress ${common} challenge-id="m-first-read"></ql-mission-progress>
  <ql-leaderboard ${common} leaderboard-id="lb-all-time"></ql-leaderboard>
  <ql-trophy-case ${common}></ql-trophy-case>
  <ql-recognize ${common} exchange-id="x-kudos"></ql-recognize>
  <ql-quiz ${common} quiz-id="q-safety"></ql-quiz>
  <ql-award-balance ${common}></ql-award-balance>
</main>
${logActionScript(token, userId)}
</body>
</html>
`;
}

/** The page's own styles: a header, the log button, and a grid of the blocks. */
const STYLE = `<style>
  body { margin: 0; font-family: system-ui, sans-serif; background: #f4f6fb; color: #1d2230; }
  header { padding: 20px 24px; background: #1d2b64; color: #fff; }
  header h1 { margin: 0 0 4px; font-size: 1.4rem; }
  header p { margin: 0; opacity: .85; }
  main { display: grid; gap: 16px; padding: 16px; grid-template-columns: repeat(auto-fill, minmax(min(100%, 320px), 1fr)); align-items: start; }
  .actions { padding: 16px 24px 0; display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
  .actions button { font: inherit; padding: 8px 14px; border-radius: 6px; border: 0; background: #3b5bdb; color: #fff; cursor: pointer; }
  .actions button:focus-visible { outline: 3px solid #f59f00; outline-offset: 2px; }
  /* A badge the button's action earned, celebrated over the page's top right corner. */
  #badge-celebration { position: fixed; top: 16px; right: 16px; z-index: 10; width: min(360px, calc(100% - 32px)); }
</style>`;

/** A string as a script's JSON literal, safe inside <script> (no `</script>` can close it). */
const inlineJson = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The log button's script: logs read_article (again after Retry-After while rate limited),
 * celebrates the badges it earned (after a ql-badge-earned event from the button, as the blocks do),
 * then refreshes the blocks.
 */
function logActionScript(token: string, userId: string): string {
  return `<script type="module">
  const button = document.getElementById('log-action');
  const status = document.getElementById('log-status');
  const token = ${inlineJson(token)};
  const userId = ${inlineJson(userId)};
  // One block after another: a dozen blocks reloading at once would spend the user's request burst.
  const refreshAll = async () => {
    for (const block of document.querySelectorAll('main > *')) await block.refresh?.();
  };
  /** The action, sent again after Retry-After while over the user's request rate. */
  const logAction = async () => {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch('/users/' + encodeURIComponent(userId) + '/actions', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'read_article' }),
      });
      if (response.status !== 429 || attempt === 4) return response;
      await new Promise((resolve) => setTimeout(resolve, (Number(response.headers.get('retry-after')) || 1) * 1000 + Math.random() * 1000));
    }
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    status.textContent = 'Logging…';
    try {
      const response = await logAction();
      const body = await response.json();
      if (!response.ok) throw new Error(body.detail ?? body.title);
      const done = body.response.missionsCompleted.map((m) => m.name);
      // In words, as the blocks say actions (no system names): what it earned, what it completed.
      const points = body.response.pointsAwarded.filter((award) => award.credited > 0 && award.groupId === undefined).map((award) => '+' + award.credited + ' ' + award.category);
      status.textContent = 'Read an article' + (points.length > 0 ? ': ' + points.join(', ') : '') + (done.length > 0 ? '; completed ' + done.join(', ') : '');
      const badges = body.response.badgesEarned;
      if (badges.length > 0) {
        const event = new CustomEvent('ql-badge-earned', { detail: { badges }, bubbles: true, composed: true, cancelable: true });
        if (button.dispatchEvent(event)) document.getElementById('badge-celebration').celebrate(badges);
      }
      await refreshAll();
    } catch (error) {
      status.textContent = 'Could not log the action: ' + error.message;
    } finally {
      button.disabled = false;
    }
  });
  // A recognition or a quiz changes what the other blocks show.
  for (const type of ['ql-recognized', 'ql-quiz-completed']) document.addEventListener(type, refreshAll);
</script>`;
}
