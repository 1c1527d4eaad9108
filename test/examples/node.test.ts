// examples/node/quick-start.ts run as the README says (`npm run example:node`) against Questline
// as `npm start` runs it (the demo site and the credentials its banner prints): what it prints, and
// what it did, read back through the API: the actions recorded once each, the points, the level,
// the webhook endpoint it registered verified and removed again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type QuestlineClient } from '../../clients/typescript/src/index.js';
import { freePort } from '../helpers/spawned-server.js';
import { exampleDatabases, runExample, startDemoQuestline, type DemoQuestline, type ExampleRun } from './helpers.js';

describe.each(exampleDatabases.map((database) => [database.name, database] as const))('examples/node against the demo site (%s)', (_name, database) => {
  let questline: DemoQuestline;
  let app: QuestlineClient;
  let admin: QuestlineClient;
  let run: ExampleRun;

  beforeAll(async () => {
    questline = await startDemoQuestline(database);
    const { baseUrl } = questline.server;
    app = createClient({ baseUrl, clientId: questline.credentials.CLIENT_ID, clientSecret: questline.credentials.CLIENT_SECRET });
    admin = createClient({ baseUrl, clientId: questline.credentials.ADMIN_CLIENT_ID, clientSecret: questline.credentials.ADMIN_CLIENT_SECRET });
    // Colleagues already on the board: more rows than one page of three.
    await app.logAction('sam', 'read_article');
    await app.logAction('max', 'read_article');
    await app.logAction('max', 'login');
    await app.logAction('kim', 'login');
    await app.logAction('lee', { action: 'watch_video', value: 120 });
    run = await runExample('example:node', { ...questline.exampleEnv, QUESTLINE_USER_ID: 'jordan' });
  }, 120_000);
  afterAll(async () => {
    await questline?.close();
  });

  it('runs to its end and reports each step', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n').map((line) => line.trim());
    expect(lines[0]).toBe(`Questline at ${questline.server.baseUrl}, acting for user "jordan"`);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^read_article: \+10 Points, completed "First read" \(eventId [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}, made by the client\)$/,
      ),
    );
    expect(lines).toContain('login: +2 Points; sent again with the same eventId: duplicate=true, counted once');
    expect(lines).toContain('watch_video (60 min, cooking): +40 Points, +10 Coins, completed "Learning marathon"');
    expect(lines).toContain('read_article (a recipe): +50 Points, +20 Coins, completed "Little chef"');
    expect(lines).toContain('level: Rookie -> Regular');
    expect(lines).toContainEqual(expect.stringMatching(/^no_such_action: refused, 422 unknown_action \(request .+\)$/));
    expect(lines).toContain('points: 102 Points, 30 Coins, 0 Award');
    expect(lines).toContain('level: Regular');
    // The board's top five, read three rows a page (two pages).
    expect(run.stdout.split('\n').filter((line) => /^ {2}\d+\. /.test(line))).toEqual([
      '  1. Jordan Example 102  <- you',
      '  2. lee 40',
      '  3. max 12',
      '  4. sam 10',
      '  5. kim 2',
    ]);
  });

  it('recorded each action once, the repeated check-in included', async () => {
    const { data } = await app.GET('/users/{userId}/actions', { params: { path: { userId: 'jordan' } } });
    expect(data.response.map((action) => action.action).sort()).toEqual(['login', 'read_article', 'read_article', 'watch_video', 'watch_video']);
    const { data: balance } = await app.GET('/users/{userId}/point-balance', { params: { path: { userId: 'jordan' } } });
    expect(balance.response.categories.map((category) => [category.name, category.balance])).toEqual([
      ['Points', 102],
      ['Coins', 30],
      ['Award', 0],
    ]);
    const { data: level } = await app.GET('/users/{userId}/levels', { params: { path: { userId: 'jordan' } } });
    expect(level.response.current?.name).toBe('Regular');
  });

  it('verified the webhooks Questline delivered to it, refused a forged one, and removed its endpoint', async () => {
    const lines = run.stdout.split('\n').map((line) => line.trim());
    expect(lines).toContainEqual(
      expect.stringMatching(/^receiver http:\/\/127\.0\.0\.1:\d+\/questline-webhooks: 9 deliveries for jordan, every signature verified$/),
    );
    expect(lines.filter((line) => /^#\d+ /.test(line)).map((line) => line.replace(/ \(evt_.+\)$/, ''))).toEqual([
      '#1 badge.earned: badge "Reader"',
      '#2 points.earned: +10 Points, balance 10',
      '#3 points.earned: +2 Points, balance 12',
      '#4 points.earned: +40 Points, balance 52',
      '#5 points.earned: +10 Coins, balance 10',
      '#6 badge.earned: badge "Chef"',
      '#7 level.changed: now "Regular"',
      '#8 points.earned: +50 Points, balance 102',
      '#9 points.earned: +20 Coins, balance 30',
    ]);
    expect(lines).toContain('the first delivery with one digit of its body changed: refused (No signature matches the secret)');
    const { data: deliveries } = await admin.GET('/admin/webhook-deliveries', { params: { query: { userId: 'jordan', status: 'delivered' } } });
    expect(deliveries.response).toHaveLength(9);
    const { data: endpoints } = await admin.GET('/admin/webhook-endpoints');
    expect(endpoints.response).toEqual([]);
  });

  it('without the admin client skips the webhooks; without the app client, with a wrong secret or no Questline says what to do', async () => {
    const { ADMIN_CLIENT_ID: _id, ADMIN_CLIENT_SECRET: _secret, ...appOnly } = questline.exampleEnv;
    const withoutAdmin = await runExample('example:node', { ...appOnly, QUESTLINE_USER_ID: 'kai' });
    expect(withoutAdmin.code).toBe(0);
    expect(withoutAdmin.stdout).toContain('skipped: set ADMIN_CLIENT_ID and ADMIN_CLIENT_SECRET');

    const withoutCredentials = await runExample('example:node', { QUESTLINE_URL: questline.server.baseUrl });
    expect(withoutCredentials.code).toBe(2);
    expect(withoutCredentials.stderr).toContain('CLIENT_ID and CLIENT_SECRET are not set.');

    const wrongSecret = await runExample('example:node', { ...questline.exampleEnv, CLIENT_SECRET: 'qls_not-the-secret' });
    expect([wrongSecret.code, wrongSecret.stderr]).toEqual([
      1,
      "Questline refused the client (invalid_client): export the CLIENT_* lines this Questline printed (its database's demo site).\n",
    ]);
    const { data: endpoints } = await admin.GET('/admin/webhook-endpoints');
    expect(endpoints.response).toEqual([]);

    const nobody = await runExample('example:node', { ...questline.exampleEnv, QUESTLINE_URL: `http://127.0.0.1:${await freePort()}` });
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toMatch(/^Nothing answers at http:\/\/127\.0\.0\.1:\d+: start Questline \(npm start\) or set QUESTLINE_URL\.\n$/);
  }, 60_000);
});
