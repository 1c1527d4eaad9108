// Per-entity admin CRUD (SPEC §4): /admin/{actions,point-categories,challenges,…}, /admin/site,
// /admin/award-settings and group members. Each change validates the whole resulting program;
// errors are reported relative to the entity written.
import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { EXAMPLE_PROGRAM_PATH as examplePath } from '../../helpers/fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
// The example program, with a streak and a boost (it has none of its own).
const example = {
  ...(JSON.parse(readFileSync(examplePath, 'utf8')) as Loose),
  streaks: [{ id: 's-login', name: 'Daily login', action: 'login', period: 'day', freezes: { max: 1, initial: 0 }, milestones: [] }],
  boosts: [{ id: 'bo-launch', multiplier: 2, start: '2027-01-01T00:00', end: '2027-01-02T00:00', actions: [], missions: [], groups: [] }],
} as Loose;
const LA = 'America/Los_Angeles';

interface EntityCase {
  path: string;
  key: string;
  idField: 'id' | 'name' | 'uuid';
  make: (id: string) => Record<string, unknown>;
  /** Defaults the server fills in. */
  defaults: Record<string, unknown>;
  /** A change PUT must apply. */
  change: Record<string, unknown>;
  ids: [string, string];
}

const entities: EntityCase[] = [
  {
    path: 'actions',
    key: 'actions',
    idField: 'name',
    ids: ['upload_photo', 'comment'],
    make: (name) => ({ name, description: 'New action' }),
    defaults: { suppressRepeats: false, clientLoggable: false },
    change: { rateLimit: { max: 5, period: 'hour' } },
  },
  {
    path: 'point-categories',
    key: 'pointCategories',
    idField: 'name',
    ids: ['Gems', 'Stars'],
    make: (name) => ({ name }),
    defaults: { isDefault: false },
    change: { dailyLimit: 10 },
  },
  {
    path: 'challenges',
    key: 'missions',
    idField: 'id',
    ids: ['m-new', 'm-other'],
    make: (id) => ({ id, name: 'New mission', rules: [{ id: 'r-1', action: 'share', goal: 3 }] }),
    defaults: {
      timezone: LA,
      hidden: 'not_hidden',
      prerequisites: { groups: [], missions: [] },
      party: 'user',
      ruleMatch: 'all',
      rewards: { points: [] },
      importance: 0,
      rules: [{ id: 'r-1', action: 'share', type: 'count', goal: 3, metadata: [] }],
    },
    change: { rewards: { points: [{ category: 'Coins', amount: 7 }], badge: 'b-chef' } },
  },
  {
    path: 'levels',
    key: 'levels',
    idField: 'id',
    ids: ['l-4', 'l-5'],
    make: (id) => ({ id, name: `Level ${id}`, threshold: id === 'l-4' ? 5000 : 9000 }),
    defaults: {},
    change: { description: 'Top' },
  },
  {
    path: 'badges',
    key: 'badges',
    idField: 'id',
    ids: ['b-new', 'b-other'],
    make: (id) => ({ id, name: 'New badge' }),
    defaults: {},
    change: { iconUrl: 'https://cdn.example/b.png' },
  },
  { path: 'groups', key: 'groups', idField: 'id', ids: ['g-apac', 'g-hr'], make: (id) => ({ id, name: 'APAC' }), defaults: {}, change: { type: 'region' } },
  {
    path: 'leaderboards',
    key: 'leaderboards',
    idField: 'id',
    ids: ['lb-coins', 'lb-logins'],
    make: (id) => ({ id, name: 'Coins', metric: { type: 'points', category: 'Coins' } }),
    defaults: { period: 'allTime', party: 'user', size: 100, primary: false },
    change: { period: 'month', size: 10 },
  },
  {
    path: 'layouts',
    key: 'layouts',
    idField: 'uuid',
    ids: ['layout-extra', 'layout-more'],
    make: (uuid) => ({ uuid, name: 'Extra' }),
    defaults: { leaderboards: [] },
    change: { leaderboards: ['lb-weekly'] },
  },
  {
    path: 'quizzes',
    key: 'quizzes',
    idField: 'id',
    ids: ['q-new', 'q-other'],
    make: (id) => ({
      id,
      name: 'Quiz',
      questions: [
        {
          id: 'qq-1',
          text: 'Ready?',
          choices: [
            { id: 'a', text: 'Yes', correct: true },
            { id: 'b', text: 'No' },
          ],
        },
      ],
    }),
    defaults: {
      timezone: LA,
      passingPercent: 100,
      questions: [
        {
          id: 'qq-1',
          text: 'Ready?',
          type: 'single',
          choices: [
            { id: 'a', text: 'Yes', correct: true },
            { id: 'b', text: 'No', correct: false },
          ],
        },
      ],
    },
    change: { maxAttempts: 2 },
  },
  {
    path: 'exchanges',
    key: 'exchanges',
    idField: 'id',
    ids: ['x-new', 'x-other'],
    make: (id) => ({ id, name: 'Thanks', pointCategory: 'Points', budget: { amount: 10, period: 'none' } }),
    defaults: { givers: { groups: [] }, recipients: { groups: [] }, minPoints: 1, maxRecipients: 10, categories: [] },
    change: { maxPoints: 5 },
  },
  {
    path: 'streaks',
    key: 'streaks',
    idField: 'id',
    ids: ['s-new', 's-other'],
    make: (id) => ({ id, name: 'Sharing', action: 'share' }),
    defaults: { period: 'day', freezes: { max: 0, initial: 0 }, milestones: [] },
    change: { period: 'week', milestones: [{ length: 4, rewards: { points: [{ category: 'Coins', amount: 20 }] } }] },
  },
  {
    path: 'boosts',
    key: 'boosts',
    idField: 'id',
    ids: ['bo-new', 'bo-other'],
    make: (id) => ({ id, multiplier: 3, start: '2027-02-01T00:00', end: '2027-02-02T00:00' }),
    defaults: { actions: [], missions: [], groups: [] },
    change: { multiplier: 1.5, groups: ['g-sales'] },
  },
];

function expectProblem(response: LightMyRequestResponse, status: number, code: string): Loose {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json() as Loose;
  expect(body).toMatchObject({ status, code });
  return body;
}

describe.each(configurations)('admin entities (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;

  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** `token` null: no Authorization header. */
  const call = (method: Method, url: string, payload?: unknown, token: string | null = admin) =>
    t.app.inject({
      method,
      url,
      headers: token !== null ? { authorization: `Bearer ${token}` } : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const body = (response: LightMyRequestResponse) => (response.json() as { response: Loose }).response;
  const program = async () => body(await call('GET', '/admin/program'));

  beforeAll(async () => {
    // Many calls by one client in a short time: above the contractual rate, which is not tested here.
    t = await buildTestApp(configuration, { config: { clientRate: { rate: 10_000, burst: 10_000 } } });
    site = await t.createSite();
    admin = await t.token(site.admin);
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    const response = await call('PUT', '/admin/program', example);
    expect(response.statusCode, response.body).toBe(200);
  });

  it.each(entities)('CRUD on /admin/$path', async ({ path, key, idField, make, defaults, change, ids: [id, id2] }) => {
    const base = `/admin/${path}`;
    const count = example[key].length as number;
    const list = await call('GET', base);
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe(String(count));
    expect(body(list)).toEqual((await program())[key]);

    const created = await call('POST', base, make(id));
    expect(created.statusCode, created.body).toBe(201);
    const entity = { ...make(id), ...defaults };
    expect(body(created)).toEqual(entity);
    expectProblem(await call('POST', base, make(id)), 409, 'conflict');

    expect(body(await call('GET', `${base}/${id}`))).toEqual(entity);
    expectProblem(await call('GET', `${base}/nope-${id}`), 404, 'not_found');

    const replaced = await call('PUT', `${base}/${id}`, { ...make(id), ...change });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(body(replaced)).toMatchObject(change);
    expect(body(await call('GET', `${base}/${id}`))).toMatchObject(change);

    const mismatch = expectProblem(await call('PUT', `${base}/${id}`, make(id2)), 400, 'validation_failed');
    expect(mismatch.errors).toEqual([{ path: idField, message: expect.stringContaining(id) }]);

    const { [idField]: _omitted, ...withoutId } = make(id2);
    const upserted = await call('PUT', `${base}/${id2}`, withoutId);
    expect(upserted.statusCode, upserted.body).toBe(201);
    expect(body(upserted)).toMatchObject({ [idField]: id2 });

    expect((await call('DELETE', `${base}/${id}`)).statusCode).toBe(204);
    expectProblem(await call('GET', `${base}/${id}`), 404, 'not_found');
    expectProblem(await call('DELETE', `${base}/${id}`), 404, 'not_found');
    const after = await call('GET', base);
    expect(after.headers['x-total-count']).toBe(String(count + 1));
    expect(body(after).map((e: Loose) => e[idField])).toEqual([...example[key].map((e: Loose) => e[idField]), id2]);
  });

  it.each([
    ['badges/b-reader', 'missions.0.rewards.badge'],
    ['actions/read_article', 'missions.0.rules.0.action'],
    ['actions/READ_ARTICLE', 'missions.0.rules.0.action'],
    ['point-categories/Coins', 'missions.1.rewards.points.1.category'],
    ['groups/g-sales', 'missions.2.prerequisites.groups.0'],
    ['challenges/m-first-read', 'missions.0.prerequisites.missions.0'],
    ['leaderboards/lb-weekly', 'layouts.0.leaderboards.1'],
    ['actions/login', 'streaks.0.action'],
  ])('refuses DELETE /admin/%s while something refers to it (422) and changes nothing', async (target, path) => {
    const before = await program();
    const refused = expectProblem(await call('DELETE', `/admin/${target}`), 422, 'program_invalid');
    expect(refused.errors).toContainEqual({ path, message: expect.stringContaining('does not exist') });
    expect((await call('GET', `/admin/${target}`)).statusCode).toBe(200);
    expect(await program()).toEqual(before);
  });

  it('reports errors relative to the entity written', async () => {
    const mission = { ...example.missions[0], rules: [{ id: 'r-1', action: 'read_book', goal: 1 }] };
    const put = expectProblem(await call('PUT', '/admin/challenges/m-first-read', mission), 422, 'program_invalid');
    expect(put.errors).toEqual([{ path: 'rules.0.action', message: expect.stringContaining('read_book') }]);
    const post = expectProblem(await call('POST', '/admin/challenges', { ...mission, id: 'm-x' }), 422, 'program_invalid');
    expect(post.errors).toEqual([{ path: 'rules.0.action', message: expect.stringContaining('read_book') }]);
    const goal = expectProblem(
      await call('POST', '/admin/challenges', { id: 'm-y', name: 'Y', rules: [{ id: 'r', action: 'share', goal: 0 }], colour: 'red' }),
      400,
      'validation_failed',
    );
    expect(goal.errors).toEqual(
      expect.arrayContaining([
        { path: 'rules.0.goal', message: expect.any(String) },
        { path: 'colour', message: 'is not a known field' },
      ]),
    );
    const level = expectProblem(await call('PUT', '/admin/levels/l-3', { name: 'Expert', threshold: 50 }), 422, 'program_invalid');
    expect(level.errors).toEqual([{ path: 'threshold', message: expect.stringContaining('levels.1') }]);
    expectProblem(await call('POST', '/admin/badges', [{ id: 'b-x', name: 'X' }]), 400, 'validation_failed');
    expect(await program()).toEqual(body(await call('PUT', '/admin/program', example)));
  });

  it('looks actions up case-insensitively', async () => {
    expect(body(await call('GET', '/admin/actions/READ_ARTICLE'))).toEqual({ ...example.actions[0], suppressRepeats: false, clientLoggable: false });
    expectProblem(await call('POST', '/admin/actions', { name: 'Read_Article' }), 409, 'conflict');
    const purchase = await call('PUT', '/admin/actions/PURCHASE', { description: 'Bought' });
    expect(purchase.statusCode, purchase.body).toBe(200);
    expect(body(purchase)).toMatchObject({ name: expect.stringMatching(/^purchase$/i), description: 'Bought' });
    expect((await call('DELETE', '/admin/actions/SHARE')).statusCode).toBe(204);
    expect(body(await call('GET', '/admin/actions')).map((a: Loose) => a.name.toLowerCase())).toEqual(['read_article', 'watch_video', 'login', 'purchase']);
    expect(body(await call('GET', '/admin/point-categories/COINS')).name).toBe('Coins');
  });

  it('treats a path and body name differing only in case as the same action on PUT', async () => {
    const replaced = await call('PUT', '/admin/actions/LOGIN', { name: 'login', description: 'Signed in (edited)' });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(body(replaced)).toEqual({ name: 'login', description: 'Signed in (edited)', suppressRepeats: false, clientLoggable: false });
    expect(body(await call('GET', '/admin/actions')).map((a: Loose) => a.name)).toEqual(['read_article', 'watch_video', 'share', 'login', 'purchase']);
  });

  it('pages lists with limit and offset, the total in X-Total-Count', async () => {
    const page = await call('GET', '/admin/actions?limit=2&offset=1');
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-total-count']).toBe('5');
    expect(body(page).map((a: Loose) => a.name)).toEqual(['watch_video', 'share']);
    expect(body(await call('GET', '/admin/challenges?offset=100'))).toEqual([]);
    expect(body(await call('GET', '/admin/challenges?limit=500'))).toHaveLength(6);
    for (const query of ['limit=501', 'limit=0', 'offset=-1', 'limit=ten']) {
      expectProblem(await call('GET', `/admin/challenges?${query}`), 400, 'validation_failed');
    }
  });

  it('reads and replaces the site settings through /admin/site', async () => {
    expect(body(await call('GET', '/admin/site'))).toEqual({
      ...example.site,
      webhookSecret: `****${example.site.webhookSecret.slice(-4)}`,
      allowedOrigins: [],
    });
    const put = await call('PUT', '/admin/site', { name: 'Acme Berlin', timezone: 'Europe/Berlin' });
    expect(put.statusCode, put.body).toBe(200);
    expect(body(put)).toEqual({
      name: 'Acme Berlin',
      timezone: 'Europe/Berlin',
      levelType: 'points',
      allowedOrigins: [],
      webhookSecret: `****${example.site.webhookSecret.slice(-4)}`,
    });
    expect(await t.database.db.selectFrom('sites').select(['name', 'timezone']).where('site_id', '=', site.siteId).executeTakeFirst()).toEqual({
      name: 'Acme Berlin',
      timezone: 'Europe/Berlin',
    });
    expect((await program()).missions).toEqual(body(await call('GET', '/admin/challenges')));
    expect(expectProblem(await call('PUT', '/admin/site', { name: 'X', timezone: 'Mars/Olympus' }), 422, 'program_invalid').errors).toEqual([
      { path: 'timezone', message: expect.any(String) },
    ]);
    expect(expectProblem(await call('PUT', '/admin/site', { name: 'X', colour: 'red' }), 400, 'validation_failed').errors).toEqual([
      { path: 'colour', message: 'is not a known field' },
    ]);
    expect(body(await call('GET', '/admin/site')).name).toBe('Acme Berlin');
  });

  it('never reads a short webhook secret back in full: refused, or masked further', async () => {
    const put = await call('PUT', '/admin/site', { name: 'Acme', webhookSecret: 'k3y!' });
    if (put.statusCode === 200) expect((await call('GET', '/admin/site')).body).not.toContain('k3y!');
    else expectProblem(put, 400, 'validation_failed');
  });

  it('lands concurrent changes to different entities (read-modify-write under a row lock)', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `b-parallel-${i}`);
    const responses = await Promise.all(ids.map((id) => call('POST', '/admin/badges', { id, name: id })));
    expect(responses.map((r) => r.statusCode)).toEqual(ids.map(() => 201));
    expect(body(await call('GET', '/admin/badges')).map((b: Loose) => b.id)).toEqual(expect.arrayContaining(ids));
  });

  it('accepts form-urlencoded entity bodies (SPEC §2), numbers and booleans included', async () => {
    const form = (method: Method, url: string, payload: string) =>
      t.app.inject({ method, url, headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/x-www-form-urlencoded' }, payload });
    expect(body(await form('PUT', '/admin/badges/b-form', 'name=Form%20badge'))).toEqual({ id: 'b-form', name: 'Form badge' });
    const level = await form('POST', '/admin/levels', 'id=l-form&name=Form&threshold=5000');
    expect(level.statusCode, level.body).toBe(201);
    expect(body(level)).toEqual({ id: 'l-form', name: 'Form', threshold: 5000 });
    const category = await form('POST', '/admin/point-categories', 'name=Gems&isDefault=false&dailyLimit=10');
    expect(category.statusCode, category.body).toBe(201);
    expect(body(category)).toEqual({ name: 'Gems', isDefault: false, dailyLimit: 10 });
  });

  it('reads, replaces and removes the award settings', async () => {
    expect(body(await call('GET', '/admin/award-settings'))).toEqual({ ...example.awardSettings, holdDays: 0 });
    const invalid = expectProblem(await call('PUT', '/admin/award-settings', { ...example.awardSettings, pointCategory: 'Gems' }), 422, 'program_invalid');
    expect(invalid.errors).toEqual([{ path: 'pointCategory', message: expect.stringContaining('Gems') }]);
    const put = await call('PUT', '/admin/award-settings', { pointCategory: 'Coins', currency: 'EUR', conversionRate: 0.5 });
    expect(put.statusCode, put.body).toBe(200);
    const settings = {
      pointCategory: 'Coins',
      currency: 'EUR',
      conversionRate: 0.5,
      marketplaces: [],
      allowedCountries: [],
      verificationRequired: false,
      holdDays: 0,
    };
    expect(body(put)).toEqual(settings);
    expect((await program()).awardSettings).toEqual(settings);
    expect((await call('DELETE', '/admin/award-settings')).statusCode).toBe(204);
    expectProblem(await call('GET', '/admin/award-settings'), 404, 'not_found');
    expect((await program()).awardSettings).toBeUndefined();
    expect((await call('PUT', '/admin/award-settings', settings)).statusCode).toBe(200);
  });

  it('answers DELETE /admin/award-settings with 404 when there are none, like every other DELETE, writing nothing', async () => {
    expect((await call('DELETE', '/admin/award-settings')).statusCode).toBe(204);
    const version = async () =>
      (await t.database.db.selectFrom('site_programs').select('version').where('site_id', '=', site.siteId).executeTakeFirstOrThrow()).version;
    const before = await version();
    expectProblem(await call('DELETE', '/admin/award-settings'), 404, 'not_found');
    expect(await version()).toBe(before);
  });

  describe('group members', () => {
    const members = '/admin/groups/g-sales/members';

    it('adds idempotently, lists, removes', async () => {
      const first = await call('PUT', `${members}/ann`);
      expect(first.statusCode, first.body).toBe(201);
      const membership = body(first);
      expect(membership).toEqual({ groupId: 'g-sales', userId: 'ann', joinedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) });
      const again = await call('PUT', `${members}/ann`);
      expect(again.statusCode).toBe(200);
      expect(body(again)).toEqual(membership);
      const list = await call('GET', members);
      expect(list.headers['x-total-count']).toBe('1');
      expect(body(list)).toEqual([membership]);
      expect((await call('DELETE', `${members}/ann`)).statusCode).toBe(204);
      expectProblem(await call('DELETE', `${members}/ann`), 404, 'not_found');
      expect(body(await call('GET', members))).toEqual([]);
    });

    it('refuses unknown groups (404) and invalid user ids (400)', async () => {
      expectProblem(await call('PUT', '/admin/groups/g-nope/members/ann'), 404, 'not_found');
      expectProblem(await call('GET', '/admin/groups/g-nope/members'), 404, 'not_found');
      expectProblem(await call('PUT', `${members}/a%20b`), 400, 'validation_failed');
      expectProblem(await call('PUT', `${members}/${'u'.repeat(256)}`), 400, 'validation_failed');
      expectProblem(await call('GET', `${members}?limit=501`), 400, 'validation_failed');
    });

    it('pages members and keeps them when the program is replaced', async () => {
      for (const user of ['cat', 'bob', 'dan']) expect((await call('PUT', `${members}/${user}`)).statusCode).toBe(201);
      const page = await call('GET', `${members}?limit=2&offset=1`);
      expect(page.headers['x-total-count']).toBe('3');
      expect(body(page).map((m: Loose) => m.userId)).toEqual(['cat', 'dan']);
      const replaced = await call('PUT', '/admin/program', { ...example, site: { ...example.site, name: 'Renamed' } });
      expect(replaced.statusCode).toBe(200);
      expect(body(await call('GET', members)).map((m: Loose) => m.userId)).toEqual(['bob', 'cat', 'dan']);
      for (const user of ['bob', 'cat', 'dan']) expect((await call('DELETE', `${members}/${user}`)).statusCode).toBe(204);
    });
  });

  describe('security', () => {
    const existing: Record<string, string> = {
      actions: 'share',
      'point-categories': 'Coins',
      challenges: 'm-quiz-safety',
      levels: 'l-3',
      badges: 'b-chef',
      groups: 'g-emea',
      leaderboards: 'lb-weekly',
      layouts: example.layouts[1].uuid,
      quizzes: 'q-safety',
      exchanges: 'x-kudos',
      streaks: 's-login',
      boosts: 'bo-launch',
    };
    const routes: Array<[Method, string, unknown?]> = [
      ...entities.flatMap(({ path, make, ids: [id] }): Array<[Method, string, unknown?]> => [
        ['GET', `/admin/${path}`],
        ['POST', `/admin/${path}`, make(id)],
        ['GET', `/admin/${path}/${existing[path]}`],
        ['PUT', `/admin/${path}/${id}`, make(id)],
        ['DELETE', `/admin/${path}/${existing[path]}`],
      ]),
      ['GET', '/admin/site'],
      ['PUT', '/admin/site', { name: 'Hijacked' }],
      ['GET', '/admin/award-settings'],
      ['PUT', '/admin/award-settings', { pointCategory: 'Points', currency: 'EUR', conversionRate: 1 }],
      ['DELETE', '/admin/award-settings'],
      ['PUT', '/admin/groups/g-sales/members/eve'],
      ['GET', '/admin/groups/g-sales/members'],
      ['DELETE', '/admin/groups/g-sales/members/eve'],
    ];
    const refused: string[] = [];
    beforeAll(async () => {
      refused.push(await t.token(site.app), await t.token(site.app, 'eve'), await t.token(site.admin, 'eve'));
    });

    it.each(routes)('%s %s: 401 without a token, 403 for app and user-level tokens, nothing changes', async (method, url, payload) => {
      const before = await program();
      expectProblem(await call(method, url, payload, null), 401, 'missing_token');
      for (const token of refused) expectProblem(await call(method, url, payload, token), 403, 'forbidden');
      expect(await program()).toEqual(before);
      expect(body(await call('GET', '/admin/groups/g-sales/members'))).toEqual([]);
    });

    it("keeps each site's entities to itself", async () => {
      const other = await t.createSite();
      const token = await t.token(other.admin);
      expectProblem(await call('GET', '/admin/challenges/m-first-read', undefined, token), 404, 'not_found');
      expectProblem(await call('DELETE', '/admin/badges/b-chef', undefined, token), 404, 'not_found');
      expectProblem(await call('PUT', '/admin/groups/g-sales/members/eve', undefined, token), 404, 'not_found');
      expect((await call('POST', '/admin/badges', { id: 'b-chef', name: 'Theirs' }, token)).statusCode).toBe(201);
      expect(body(await call('GET', '/admin/badges/b-chef')).name).toBe('Chef');
    });
  });
});
