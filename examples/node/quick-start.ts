// The quick start of a back-end integration with @questline/client, against the demo site that
// `npm start` creates: log what a user did, read their missions, points and level, read a
// leaderboard page after page, and receive webhooks and verify their signatures.
//
//   npm run example:node          (CLIENT_ID, CLIENT_SECRET; ADMIN_CLIENT_* for the webhooks; see examples/README.md)
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, QuestlineError, verifyWebhook, type QuestlineClient, type WebhookEvent } from '@questline/client';
import { explainFailures, readEnvironment } from '../environment.js';

const env = readEnvironment();
explainFailures(env.questlineUrl);
const userId = env.userId ?? `jordan-${randomBytes(3).toString('hex')}`;
const questline = createClient({ baseUrl: env.questlineUrl, ...env.app });

/** A line of the report, indented under its step. */
const say = (line: string) => console.log(`  ${line}`);
const step = (title: string) => console.log(`\n${title}`);
const points = (awarded: Array<{ category: string; credited: number }>) => awarded.map((p) => `+${p.credited} ${p.category}`).join(', ') || 'no points';

console.log(`Questline at ${env.questlineUrl}, acting for user "${userId}"`);

// The first call asks for a token: wrong credentials stop the script here, before it registers anything.
await questline.token();

// Webhooks go only to endpoints that exist when the event happens, so the receiver comes first.
const webhooks = env.admin === undefined ? undefined : await startWebhookReceiver(createClient({ baseUrl: env.questlineUrl, ...env.admin }));

try {
  step('1. Log what the user did');
  await questline.PUT('/users/{userId}/preferences', { params: { path: { userId } }, body: { firstName: 'Jordan', lastName: 'Example' } });

  // No eventId given: the client makes one before sending, so a retry after a lost answer is the
  // same event and never counts twice.
  const first = await questline.logAction(userId, 'read_article');
  say(`read_article: ${points(first.pointsAwarded)}, completed ${names(first.missionsCompleted)} (eventId ${first.eventId}, made by the client)`);

  // Your own id for the event (here: one check-in a day), so sending it again is safe.
  const checkIn = { action: 'login', eventId: `check-in-${userId}-${new Date().toISOString().slice(0, 10)}` };
  const login = await questline.logAction(userId, checkIn);
  const again = await questline.logAction(userId, checkIn);
  say(`login: ${points(login.pointsAwarded)}; sent again with the same eventId: duplicate=${again.duplicate}, counted once`);

  for (const minutes of [60, 60]) {
    const video = await questline.logAction(userId, { action: 'watch_video', value: minutes, metadata: { genre: 'cooking' } });
    say(`watch_video (${minutes} min, cooking): ${points(video.pointsAwarded)}, completed ${names(video.missionsCompleted)}`);
  }
  const recipe = await questline.logAction(userId, { action: 'read_article', metadata: { topic: 'recipe' } });
  say(`read_article (a recipe): ${points(recipe.pointsAwarded)}, completed ${names(recipe.missionsCompleted)}`);
  if (recipe.levelChanged) say(`level: ${recipe.levelChanged.from?.name ?? 'none'} -> ${recipe.levelChanged.to?.name ?? 'none'}`);

  // The error a mistake gets: a QuestlineError with a stable code.
  await questline.logAction(userId, 'no_such_action').catch((error: unknown) => {
    if (!(error instanceof QuestlineError)) throw error;
    say(`no_such_action: refused, ${error.status} ${error.code} (request ${error.requestId})`);
  });

  step('2. Read their missions, points and level');
  const { data: missions } = await questline.GET('/users/{userId}/challenges', { params: { path: { userId } } });
  const { data: completed } = await questline.GET('/users/{userId}/challenges', { params: { path: { userId }, query: { type: 'completed' } } });
  say(`missions completed: ${completed.response.map((m) => m.name).join(', ')}`);
  say(`missions open: ${missions.response.map((m) => `${m.name} ${m.percentComplete}%${m.locked ? ' (locked)' : ''}`).join(', ')}`);
  const { data: balance } = await questline.GET('/users/{userId}/point-balance', { params: { path: { userId } } });
  say(`points: ${balance.response.categories.map((c) => `${c.balance} ${c.name}`).join(', ')}`);
  const { data: level } = await questline.GET('/users/{userId}/levels', { params: { path: { userId } } });
  say(`level: ${level.response.current?.name ?? 'none'}`);

  step('3. Read the leaderboard, a page at a time');
  // list() asks for the next page (3 rows each here) only when the loop wants more rows.
  let shown = 0;
  for await (const row of questline.list('/leaderboards/{leaderboardId}/leaders', {
    params: { path: { leaderboardId: 'lb-all-time' }, query: { limit: 3 } },
  })) {
    const name = [row.firstName, row.lastName].filter(Boolean).join(' ') || row.userId;
    say(`${row.rank}. ${name} ${row.score}${row.userId === userId ? '  <- you' : ''}`);
    if (++shown === 5) break;
  }

  step('4. Receive webhooks and verify their signatures');
  if (webhooks === undefined) say('skipped: set ADMIN_CLIENT_ID and ADMIN_CLIENT_SECRET (the admin client registers the endpoint)');
  else await webhooks.report(userId);
} finally {
  await webhooks?.stop();
}

function names(missions: Array<{ name: string }>): string {
  return missions.length === 0 ? 'no mission' : missions.map((m) => `"${m.name}"`).join(', ');
}

/**
 * A webhook receiver on 127.0.0.1, registered as an endpoint of the site for a few event types,
 * that verifies every delivery with the site's secret before believing it.
 */
async function startWebhookReceiver(admin: QuestlineClient) {
  const { data: secret } = await admin.GET('/admin/webhook-secret');
  const verified: WebhookEvent[] = [];
  const refused: string[] = [];
  let firstDelivery: { body: string; headers: IncomingHttpHeaders } | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      // The raw body as received: a re-serialized object would not match the signature.
      const body = Buffer.concat(chunks).toString('utf8');
      firstDelivery ??= { body, headers: request.headers };
      verifyWebhook(body, request.headers, secret.response.secret).then(
        (event) => {
          verified.push(event);
          response.writeHead(204).end();
        },
        (error: Error) => {
          refused.push(error.message);
          response.writeHead(400).end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/questline-webhooks`;
  const stopServer = () => new Promise<void>((resolve) => server.close(() => resolve()));

  let endpointId: string;
  try {
    const { data: endpoint } = await admin.POST('/admin/webhook-endpoints', {
      body: { url, eventTypes: ['points.earned', 'badge.earned', 'level.changed'], description: 'examples/node/quick-start.ts' },
    });
    endpointId = endpoint.response.id;
  } catch (error) {
    await stopServer();
    // By default Questline sends no webhook to loopback or private addresses.
    if (error instanceof QuestlineError && error.status === 422)
      return {
        report: async () => say(`skipped: Questline refuses ${url} (${error.detail}); start it with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true`),
        stop: async () => {},
      };
    throw error;
  }

  return {
    /** Waits for the user's deliveries (Questline delivers within a second or so) and says what was verified. */
    async report(forUser: string) {
      const mine = () => verified.filter((event) => (event.data as { user?: { userId?: string } }).user?.userId === forUser);
      for (
        let waited = 0;
        waited < 15_000 && !['points.earned', 'badge.earned', 'level.changed'].every((t) => mine().some((e) => e.eventType === t));
        waited += 250
      )
        await new Promise((resolve) => setTimeout(resolve, 250));
      say(`receiver ${url}: ${mine().length} deliveries for ${forUser}, every signature verified`);
      // Deliveries are independent and may arrive in any order: a user's events are ordered by `sequence`.
      const inOrder = mine().sort((a, b) => a.sequence - b.sequence);
      for (const event of inOrder) say(`#${event.sequence} ${event.eventType}: ${describe(event)} (${event.eventId})`);
      for (const reason of refused) say(`refused a delivery: ${reason}`);
      // What the check is for: the same delivery with one character of its body changed.
      if (firstDelivery !== undefined) {
        const forged = firstDelivery.body.replace(/\d(?=\D*$)/, (digit) => String((Number(digit) + 1) % 10));
        const outcome = await verifyWebhook(forged, firstDelivery.headers, secret.response.secret).then(
          () => 'accepted (this is a bug)',
          (error: Error) => `refused (${error.message})`,
        );
        say(`the first delivery with one digit of its body changed: ${outcome}`);
      }
    },
    async stop() {
      // Deleting the endpoint ends its pending deliveries, so none are retried at a closed port.
      await admin.DELETE('/admin/webhook-endpoints/{endpointId}', { params: { path: { endpointId } } });
      await stopServer();
    },
  };
}

/** One line about a verified event. */
function describe(event: WebhookEvent): string {
  const data = event.data as { amount?: number; category?: string; balance?: number; badge?: { name: string }; to?: { name: string } };
  if (event.eventType === 'points.earned') return `+${data.amount} ${data.category}, balance ${data.balance}`;
  if (event.eventType === 'badge.earned') return `badge "${data.badge?.name}"`;
  if (event.eventType === 'level.changed') return `now "${data.to?.name}"`;
  return event.eventType;
}
