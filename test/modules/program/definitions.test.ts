// GET /challenges and GET /actions (interface document §4, SPEC §3): any token of the site reads
// the definitions, user-level tokens never see always_hidden missions, each mission carries its
// time zone at the root; a change made on one node reaches another (version check or Redis).
import { readFileSync } from 'node:fs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { buildTestApp, configurations, testConfig, type TestApp, type TestSite } from '../../helpers/app.js';
import { EXAMPLE_PROGRAM_PATH as examplePath } from '../../helpers/fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
const example = JSON.parse(readFileSync(examplePath, 'utf8')) as Loose;

/** The example plus an always_hidden mission, with m-shopper's time zone in the legacy place. */
function definitionsProgram(): Loose {
  const program = structuredClone(example);
  const shopper = program.missions[2];
  delete shopper.timezone;
  shopper.repeatableWindow = { ...shopper.repeatableWindow, timezone: 'Asia/Tokyo' };
  program.missions.push({ id: 'm-secret', name: 'Secret', hidden: 'always_hidden', rules: [{ id: 'r-1', action: 'share', goal: 1 }] });
  return program;
}
const ALL_IDS = ['m-first-read', 'm-chef', 'm-shopper', 'm-daily-login', 'm-team-reading', 'm-quiz-safety', 'm-secret'];

async function pollUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<number | undefined> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > timeoutMs) return undefined;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(configurations)('program definitions (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  const tokens: Record<'admin' | 'app' | 'user (app client)' | 'user (admin client)', string> = {
    admin: '',
    app: '',
    'user (app client)': '',
    'user (admin client)': '',
  };

  const get = (url: string, token: string | null, app: FastifyInstance = t.app) =>
    app.inject({ method: 'GET', url, headers: token !== null ? { authorization: `Bearer ${token}` } : {} });
  const body = (response: LightMyRequestResponse) => (response.json() as { response: Loose[] }).response;
  const put = async (program: unknown, token = tokens.admin) => {
    const response = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${token}` }, payload: program as object });
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    Object.assign(tokens, {
      admin: await t.token(site.admin),
      app: await t.token(site.app),
      'user (app client)': await t.token(site.app, 'ann'),
      'user (admin client)': await t.token(site.admin, 'ann'),
    });
    await put(definitionsProgram());
  });
  afterAll(async () => t.close());

  it.each(Object.keys(tokens) as Array<keyof typeof tokens>)('lets a %s token read /challenges and /actions', async (kind) => {
    const user = kind.startsWith('user');
    const challenges = await get('/challenges', tokens[kind]);
    expect(challenges.statusCode, challenges.body).toBe(200);
    const ids = body(challenges).map((m) => m.id);
    // A user sees neither the always_hidden m-secret nor m-chef, hidden until m-first-read unlocks it.
    expect(ids).toEqual(user ? ALL_IDS.filter((id) => id !== 'm-secret' && id !== 'm-chef') : ALL_IDS);
    expect(challenges.headers['x-total-count']).toBe(String(ids.length));

    const actions = await get('/actions', tokens[kind]);
    expect(actions.statusCode, actions.body).toBe(200);
    expect(body(actions)).toEqual(example.actions.map((a: Loose) => ({ suppressRepeats: false, clientLoggable: false, ...a })));
    expect(actions.headers['x-total-count']).toBe('5');
  });

  it('returns each mission with its time zone at the root and none inside repeatableWindow (legacy input moved)', async () => {
    const missions = body(await get('/challenges', tokens.app));
    for (const mission of missions) {
      expect(mission.timezone, mission.id).toEqual(expect.any(String));
      if (mission.repeatableWindow !== undefined) expect(mission.repeatableWindow, mission.id).not.toHaveProperty('timezone');
    }
    const byId = new Map(missions.map((m) => [m.id, m]));
    expect(byId.get('m-shopper')).toMatchObject({ timezone: 'Asia/Tokyo', repeatableWindow: { period: 'none', maxPerPeriod: 1000 } });
    expect(byId.get('m-chef').timezone).toBe('Europe/Paris');
    expect(byId.get('m-secret')).toMatchObject({ timezone: 'America/Los_Angeles', hidden: 'always_hidden' });
    expect(byId.get('m-first-read')).toEqual({ ...example.missions[0] });
  });

  it('pages with limit and offset', async () => {
    const page = await get('/challenges?limit=2&offset=2', tokens.app);
    expect(page.headers['x-total-count']).toBe('7');
    expect(body(page).map((m) => m.id)).toEqual(['m-shopper', 'm-daily-login']);
    const userPage = await get('/challenges?limit=5&offset=4', tokens['user (app client)']);
    expect(userPage.headers['x-total-count']).toBe('5');
    expect(body(userPage).map((m) => m.id)).toEqual(['m-quiz-safety']);
    expect(body(await get('/actions?limit=1&offset=4', tokens.app)).map((a) => a.name)).toEqual(['purchase']);
    for (const url of ['/challenges?limit=501', '/actions?offset=-1']) expect((await get(url, tokens.app)).statusCode, url).toBe(400);
  });

  it('refuses missing tokens (401) and answers unknown routes below /challenges with 404', async () => {
    for (const url of ['/challenges', '/actions']) expect((await get(url, null)).statusCode).toBe(401);
    const unknown = await get('/challenges/m-first-read/extra', tokens.app);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('never shows the program of another site', async () => {
    const other = await t.createSite();
    for (const token of [await t.token(other.app), await t.token(other.app, 'ann')]) {
      const challenges = await get('/challenges', token);
      expect(challenges.statusCode).toBe(200);
      expect(body(challenges)).toEqual([]);
      expect(body(await get('/actions', token))).toEqual([]);
    }
    const otherAdmin = await t.token(other.admin);
    await put(
      {
        site: { name: 'Other' },
        pointCategories: [{ name: 'Points', isDefault: true }],
        actions: [{ name: 'jump' }],
        missions: [{ id: 'm-jump', name: 'Jump', rules: [{ id: 'r', action: 'jump', goal: 1 }] }],
      },
      otherAdmin,
    );
    expect(body(await get('/challenges', await t.token(other.app))).map((m) => m.id)).toEqual(['m-jump']);
    expect(body(await get('/challenges', tokens.app)).map((m) => m.id)).toEqual(ALL_IDS);
    expect(body(await get('/actions', tokens.app)).map((a) => a.name)).not.toContain('jump');
  });

  it(
    configuration === 'scale-out'
      ? 'shows a change made on another node right after the PUT (Redis invalidation)'
      : 'shows a change made on another node within about a second (version check)',
    async () => {
      // A second node on the same database (and, scale-out, the same Redis key prefix).
      const app2 = await buildApp(testConfig(configuration, t.config.database, { redisPrefix: t.config.redisPrefix }), { database: t.database });
      try {
        const seen = async () => body(await get('/challenges', tokens.app, app2)).map((m) => m.id);
        expect(await seen()).toEqual(ALL_IDS);
        const changed = definitionsProgram();
        changed.missions.push({ id: 'm-fresh', name: 'Fresh', rules: [{ id: 'r-1', action: 'login', goal: 2 }] });
        await put(changed);
        const elapsed = await pollUntil(async () => (await seen()).includes('m-fresh'), configuration === 'scale-out' ? 1000 : 1200);
        expect(elapsed, 'the second node never saw the change').toBeDefined();
        expect(body(await get('/actions', tokens.app, app2))).toHaveLength(5);
        await put(definitionsProgram());
        expect(await pollUntil(async () => !(await seen()).includes('m-fresh'), configuration === 'scale-out' ? 1000 : 1200)).toBeDefined();
      } finally {
        await app2.close();
      }
    },
  );
});
