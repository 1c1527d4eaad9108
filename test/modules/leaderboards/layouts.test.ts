// Leaderboard layouts through the HTTP stack (SPEC §7, interface document §4), on both dialects:
// GET /users/{u}/leaders/layoutUuid (a literal path segment) lists, in program order, the layouts
// with a board the user is on in its current window, with the user's rank and score on every board
// (null where not on it; group boards: the best-placed of the user's groups, named by groupId);
// GET /users/{u}/leaders/{layoutUuid} is one layout with each board's top entries (`limit`, default
// 10, at most the board's size; none with 0). Also: a day board's rollover at the site's midnight,
// unknown and other sites' layouts, tokens, and a user whose id is literally "layoutUuid".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderEntry } from '../../../src/modules/leaderboards/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { repeatableMission as mission } from '../../helpers/fixtures.js';

// Wednesday 2026-06-17, noon in New York (set again for each configuration). Tests move it forward only.
const WEDNESDAY_NOON = Date.parse('2026-06-17T16:00:00Z');
let now = WEDNESDAY_NOON;
const clock = () => now;

const leaderboards = [
  { id: 'lb-all', name: 'All time', metric: { type: 'points', category: 'Points' }, period: 'allTime', size: 4 },
  { id: 'lb-day', name: 'Today', metric: { type: 'points', category: 'Points' }, period: 'day' },
  { id: 'lb-big', name: 'Big actions', metric: { type: 'actionCount', action: 'big' }, period: 'allTime' },
  { id: 'lb-teams', name: 'Teams', metric: { type: 'points', category: 'Points' }, period: 'allTime', party: 'group' },
];

// Program order differs from the order of the uuids and of the names.
const program = {
  site: { name: 'Layouts', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'small' }, { name: 'big' }, { name: 'team' }],
  groups: [
    { id: 'g-blue', name: 'Blue team' },
    { id: 'g-red', name: 'Red team' },
  ],
  missions: [mission('m-small', 'small', 10), mission('m-big', 'big', 30), { ...mission('m-team', 'team', 5), party: 'group' }],
  leaderboards,
  layouts: [
    { uuid: 'main-layout', name: 'Main', leaderboards: ['lb-all', 'lb-teams'] },
    { uuid: 'big-layout', name: 'Big spenders', leaderboards: ['lb-big'] },
    { uuid: 'a-today', name: 'Today', leaderboards: ['lb-day', 'lb-all'] },
  ],
};

// Another site: the same board id and one of the same layout uuids, a layout of its own, and dan
// (in no group here) a member of g-red there.
const otherProgram = {
  site: { name: 'Elsewhere', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'big' }],
  groups: [{ id: 'g-red', name: 'Other red' }],
  missions: [mission('m-big', 'big', 500)],
  leaderboards: [
    { id: 'lb-all', name: 'Elsewhere all time', metric: { type: 'points', category: 'Points' }, period: 'allTime' },
    { id: 'lb-teams', name: 'Elsewhere teams', metric: { type: 'points', category: 'Points' }, period: 'allTime', party: 'group' },
  ],
  layouts: [
    { uuid: 'main-layout', name: 'Elsewhere main', leaderboards: ['lb-all', 'lb-teams'] },
    { uuid: 'other-layout', name: 'Only elsewhere', leaderboards: ['lb-all'] },
  ],
};

type Entry = LeaderEntry;

interface Board {
  id: string;
  name: string;
  period: string;
  party: 'user' | 'group';
  rank: number | null;
  score: number | null;
  groupId?: string;
  leaders?: Entry[];
}

interface Layout {
  uuid: string;
  name: string;
  leaderboards: Board[];
}

/** A board as a layout lists it: the program's id, name, period and party, and the user's standing. */
const board = (id: string, rank: number | null, score: number | null, groupId?: string): Board => {
  const definition = leaderboards.find((b) => b.id === id);
  if (definition === undefined) throw new Error(`no board ${id}`);
  return {
    id,
    name: definition.name,
    period: definition.period,
    party: definition.party === 'group' ? 'group' : 'user',
    rank,
    score,
    ...(groupId !== undefined ? { groupId } : {}),
  };
};
const summary = (entries: Entry[] | undefined) => (entries ?? []).map((entry) => `${entry.rank}:${entry.userId ?? entry.groupId}:${entry.score}`);
/** A layout without each board's leaders. */
const standings = (layout: Layout): Layout => ({ ...layout, leaderboards: layout.leaderboards.map(({ leaders: _leaders, ...rest }) => rest) });

describe.each(configurations)('leaderboard layouts (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;

  const request = (method: 'GET' | 'POST' | 'PUT', url: string, token: string | null = client, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: token !== null ? { authorization: `Bearer ${token}` } : {}, ...(payload !== undefined ? { payload } : {}) });
  const log = async (user: string, action: string, token = client) => {
    const response = await request('POST', `/users/${user}/actions`, token, { action });
    expect(response.statusCode, response.body).toBe(201);
    now += 1000; // whoever reaches a score first is listed first among ties
  };
  const listing = async (user: string, token = client) => {
    const response = await request('GET', `/users/${user}/leaders/layoutUuid`, token);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { response: Layout[] }).response;
  };
  const layout = async (user: string, uuid: string, query = '', token = client) => {
    const response = await request('GET', `/users/${user}/leaders/${uuid}${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { response: Layout }).response;
  };
  const boardOf = (found: Layout, id: string) => {
    const result = found.leaderboards.find((b) => b.id === id);
    if (result === undefined) throw new Error(`board ${id} missing from layout ${found.uuid}`);
    return result;
  };
  const expectProblem = (response: { statusCode: number; headers: Record<string, unknown>; body: string; json(): unknown }, status: number, code: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(String(response.headers['content-type'])).toContain('application/problem+json');
    expect((response.json() as { code: string }).code).toBe(code);
  };

  beforeAll(async () => {
    now = WEDNESDAY_NOON;
    t = await buildTestApp(configuration, { clock, config: { clientRate: { rate: 100000, burst: 100000 } } });
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    const put = await request('PUT', '/admin/program', admin, program);
    expect(put.statusCode, put.body).toBeLessThan(300);
    expect((await request('PUT', '/users/ann/preferences', client, { firstName: 'Ann', lastName: 'Lee' })).statusCode).toBe(200);
    expect((await request('PUT', '/users/bob/preferences', client, { firstName: 'Bob', iconUrl: 'https://example.com/bob.png' })).statusCode).toBe(200);
    // ann is in both groups, bob in blue, cat in red; dan, eve and nobody are in none.
    for (const [group, user] of [
      ['g-blue', 'ann'],
      ['g-red', 'ann'],
      ['g-blue', 'bob'],
      ['g-red', 'cat'],
    ] as const) {
      expect((await request('PUT', `/admin/groups/${group}/members/${user}`, admin, {})).statusCode).toBeLessThan(300);
    }
    await log('ann', 'big'); // ann 30 points, 1 big action
    await log('dan', 'small');
    await log('dan', 'small'); // dan 20
    await log('bob', 'small'); // bob 10
    await log('cat', 'small'); // cat 10, after bob
    await log('eve', 'small'); // eve 10, after cat: fifth on lb-all, whose size is 4
    await log('ann', 'team'); // g-blue 5, g-red 5
    await log('cat', 'team'); // g-red 10
  });
  afterAll(async () => t.close());

  it('lists, in program order, only the layouts with a board the user is on, with ranks, shared ties and nulls', async () => {
    expect(await listing('ann')).toEqual([
      { uuid: 'main-layout', name: 'Main', leaderboards: [board('lb-all', 1, 30), board('lb-teams', 1, 10, 'g-red')] },
      { uuid: 'big-layout', name: 'Big spenders', leaderboards: [board('lb-big', 1, 1)] },
      { uuid: 'a-today', name: 'Today', leaderboards: [board('lb-day', 1, 30), board('lb-all', 1, 30)] },
    ]);
    // bob never did a big action: the layout holding only lb-big is left out; bob and cat share rank 3.
    expect(await listing('bob')).toEqual([
      { uuid: 'main-layout', name: 'Main', leaderboards: [board('lb-all', 3, 10), board('lb-teams', 2, 5, 'g-blue')] },
      { uuid: 'a-today', name: 'Today', leaderboards: [board('lb-day', 3, 10), board('lb-all', 3, 10)] },
    ]);
    expect(await listing('cat')).toEqual([
      { uuid: 'main-layout', name: 'Main', leaderboards: [board('lb-all', 3, 10), board('lb-teams', 1, 10, 'g-red')] },
      { uuid: 'a-today', name: 'Today', leaderboards: [board('lb-day', 3, 10), board('lb-all', 3, 10)] },
    ]);
    // dan is in no group: null on the group board, and no groupId.
    expect(await listing('dan')).toEqual([
      { uuid: 'main-layout', name: 'Main', leaderboards: [board('lb-all', 2, 20), board('lb-teams', null, null)] },
      { uuid: 'a-today', name: 'Today', leaderboards: [board('lb-day', 2, 20), board('lb-all', 2, 20)] },
    ]);
  });

  it('lists nothing for a user with no actions', async () => {
    const response = await request('GET', '/users/nobody/leaders/layoutUuid');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ response: [] });
  });

  it("reports the best-placed of the user's groups on a group board, whichever group that is", async () => {
    // ann is in g-blue (rank 2) and g-red (rank 1): g-red, although g-blue comes first by id.
    expect(boardOf(await layout('ann', 'main-layout', '?limit=0'), 'lb-teams')).toEqual(board('lb-teams', 1, 10, 'g-red'));
    await log('bob', 'team');
    await log('bob', 'team'); // g-blue 15: now ahead of g-red
    expect(boardOf(await layout('ann', 'main-layout', '?limit=0'), 'lb-teams')).toEqual(board('lb-teams', 1, 15, 'g-blue'));
    expect(boardOf(await layout('cat', 'main-layout', '?limit=0'), 'lb-teams')).toEqual(board('lb-teams', 2, 10, 'g-red'));
    expect(boardOf(await layout('dan', 'main-layout', '?limit=0'), 'lb-teams')).toEqual(board('lb-teams', null, null));
    expect(boardOf((await listing('ann'))[0] as Layout, 'lb-teams')).toEqual(board('lb-teams', 1, 15, 'g-blue'));
  });

  it("gives one layout with each board's top entries and names, 10 by default, at most the board's size", async () => {
    const main = await layout('bob', 'main-layout');
    expect(main.uuid).toBe('main-layout');
    expect(main.name).toBe('Main');
    expect(standings(main)).toEqual({ uuid: 'main-layout', name: 'Main', leaderboards: [board('lb-all', 3, 10), board('lb-teams', 1, 15, 'g-blue')] });
    // lb-all holds five users but its size is 4; among the ties at 10, bob reached it first.
    expect(summary(boardOf(main, 'lb-all').leaders)).toEqual(['1:ann:30', '2:dan:20', '3:bob:10', '3:cat:10']);
    expect(boardOf(main, 'lb-all').leaders?.slice(0, 3)).toEqual([
      { rank: 1, userId: 'ann', score: 30, firstName: 'Ann', lastName: 'Lee', iconUrl: null },
      { rank: 2, userId: 'dan', score: 20, firstName: null, lastName: null, iconUrl: null },
      { rank: 3, userId: 'bob', score: 10, firstName: 'Bob', lastName: null, iconUrl: 'https://example.com/bob.png' },
    ]);
    expect(boardOf(main, 'lb-teams').leaders).toEqual([
      { rank: 1, groupId: 'g-blue', score: 15, firstName: 'Blue team', lastName: null, iconUrl: null },
      { rank: 2, groupId: 'g-red', score: 10, firstName: 'Red team', lastName: null, iconUrl: null },
    ]);
    // lb-day's size is 100: the default limit (10) lists all five.
    expect(summary(boardOf(await layout('bob', 'a-today'), 'lb-day').leaders)).toEqual(['1:ann:30', '2:dan:20', '3:bob:10', '3:cat:10', '3:eve:10']);
    // A layout the user has no standing on still answers, with the leaders.
    const big = await layout('bob', 'big-layout');
    expect(standings(big)).toEqual({ uuid: 'big-layout', name: 'Big spenders', leaderboards: [board('lb-big', null, null)] });
    expect(summary(boardOf(big, 'lb-big').leaders)).toEqual(['1:ann:1']);
  });

  it('honours limit: 1, 0 (no leaders), above the size (capped), and refuses 101', async () => {
    const one = await layout('bob', 'a-today', '?limit=1');
    expect(one.leaderboards.map((b) => summary(b.leaders))).toEqual([['1:ann:30'], ['1:ann:30']]);
    const none = await layout('bob', 'a-today', '?limit=0');
    for (const b of none.leaderboards) expect(Object.keys(b)).not.toContain('leaders');
    expect(none).toEqual({ uuid: 'a-today', name: 'Today', leaderboards: [board('lb-day', 3, 10), board('lb-all', 3, 10)] });
    const many = await layout('bob', 'a-today', '?limit=100');
    expect(summary(boardOf(many, 'lb-day').leaders)).toHaveLength(5);
    expect(summary(boardOf(many, 'lb-all').leaders)).toEqual(['1:ann:30', '2:dan:20', '3:bob:10', '3:cat:10']);
    expectProblem(await request('GET', '/users/bob/leaders/a-today?limit=101'), 400, 'validation_failed');
    expectProblem(await request('GET', '/users/bob/leaders/a-today?limit=-1'), 400, 'validation_failed');
  });

  it("starts a new day board window at the site's midnight, while the all-time board keeps the rank", async () => {
    // Thursday 00:30 in New York (04:30 UTC): a new day.
    now = Date.parse('2026-06-18T04:30:00Z');
    client = await t.token(site.app);
    admin = await t.token(site.admin);
    expect(await listing('ann')).toEqual([
      { uuid: 'main-layout', name: 'Main', leaderboards: [board('lb-all', 1, 30), board('lb-teams', 1, 15, 'g-blue')] },
      { uuid: 'big-layout', name: 'Big spenders', leaderboards: [board('lb-big', 1, 1)] },
      { uuid: 'a-today', name: 'Today', leaderboards: [board('lb-day', null, null), board('lb-all', 1, 30)] },
    ]);
    expect(boardOf(await layout('ann', 'a-today'), 'lb-day').leaders).toEqual([]);
    await log('bob', 'small'); // today's first: bob 10 today, 20 all time (tied with dan, who reached it first)
    const today = await layout('ann', 'a-today');
    expect(standings(today).leaderboards).toEqual([board('lb-day', null, null), board('lb-all', 1, 30)]);
    expect(summary(boardOf(today, 'lb-day').leaders)).toEqual(['1:bob:10']);
    expect(summary(boardOf(today, 'lb-all').leaders)).toEqual(['1:ann:30', '2:dan:20', '2:bob:20', '4:cat:10']);
    expect((await listing('bob'))[1]).toEqual({ uuid: 'a-today', name: 'Today', leaderboards: [board('lb-day', 1, 10), board('lb-all', 2, 20)] });
    expect((await listing('cat'))[1]).toEqual({ uuid: 'a-today', name: 'Today', leaderboards: [board('lb-day', null, null), board('lb-all', 4, 10)] });
  });

  it("refuses an unknown layout and another site's layout, and never mixes in the other site's data", async () => {
    expectProblem(await request('GET', '/users/ann/leaders/no-such-layout'), 404, 'not_found');
    const before = { ann: await listing('ann'), dan: await listing('dan') };
    const other = await t.createSite();
    const otherAdmin = await t.token(other.admin);
    const otherClient = await t.token(other.app);
    const put = await request('PUT', '/admin/program', otherAdmin, otherProgram);
    expect(put.statusCode, put.body).toBeLessThan(300);
    expect((await request('PUT', '/admin/groups/g-red/members/dan', otherAdmin, {})).statusCode).toBeLessThan(300);
    expect((await request('PUT', '/users/dan/preferences', otherClient, { firstName: 'Other Dan' })).statusCode).toBe(200);
    await log('dan', 'big', otherClient); // 500 points there
    // This site: the other site's layout is unknown, and nothing there shows here.
    expectProblem(await request('GET', '/users/dan/leaders/other-layout'), 404, 'not_found');
    expect(await listing('dan')).toEqual(before.dan);
    expect(await listing('ann')).toEqual(before.ann);
    const main = await layout('dan', 'main-layout');
    expect(standings(main)).toEqual({ uuid: 'main-layout', name: 'Main', leaderboards: [board('lb-all', 2, 20), board('lb-teams', null, null)] });
    expect(boardOf(main, 'lb-all').leaders?.find((entry) => entry.userId === 'dan')).toMatchObject({ score: 20, firstName: null });
    expect(summary(boardOf(main, 'lb-teams').leaders)).toEqual(['1:g-blue:15', '2:g-red:10']);
    // The other site: its own layouts and data only.
    const elsewhere = await request('GET', '/users/dan/leaders/layoutUuid', otherClient);
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    expect((elsewhere.json() as { response: Layout[] }).response).toEqual([
      {
        uuid: 'main-layout',
        name: 'Elsewhere main',
        leaderboards: [
          { id: 'lb-all', name: 'Elsewhere all time', period: 'allTime', party: 'user', rank: 1, score: 500 },
          // dan's group there scored nothing.
          { id: 'lb-teams', name: 'Elsewhere teams', period: 'allTime', party: 'group', rank: null, score: null },
        ],
      },
      {
        uuid: 'other-layout',
        name: 'Only elsewhere',
        leaderboards: [{ id: 'lb-all', name: 'Elsewhere all time', period: 'allTime', party: 'user', rank: 1, score: 500 }],
      },
    ]);
    const otherMain = await request('GET', '/users/dan/leaders/main-layout', otherClient);
    expect(otherMain.statusCode, otherMain.body).toBe(200);
    expect(boardOf((otherMain.json() as { response: Layout }).response, 'lb-all').leaders).toEqual([
      { rank: 1, userId: 'dan', score: 500, firstName: 'Other Dan', lastName: null, iconUrl: null },
    ]);
    expectProblem(await request('GET', '/users/ann/leaders/a-today', otherClient), 404, 'not_found');
    expect((await request('GET', '/users/ann/leaders/layoutUuid', otherClient)).json()).toEqual({ response: [] });
  });

  it('needs a token; a user-level token reads its own layouts only, an app or admin token anyone', async () => {
    for (const url of ['/users/ann/leaders/layoutUuid', '/users/ann/leaders/main-layout']) {
      expectProblem(await request('GET', url, null), 401, 'missing_token');
      expectProblem(await request('GET', url, 'not-a-token'), 401, 'invalid_token');
    }
    const annToken = await t.token(site.app, 'ann');
    expect(await listing('ann', annToken)).toEqual(await listing('ann'));
    expect(await layout('ann', 'main-layout', '', annToken)).toEqual(await layout('ann', 'main-layout'));
    expectProblem(await request('GET', '/users/bob/leaders/layoutUuid', annToken), 403, 'forbidden');
    expectProblem(await request('GET', '/users/bob/leaders/main-layout', annToken), 403, 'forbidden');
    expect(await listing('bob', admin)).toEqual(await listing('bob'));
    expect((await layout('bob', 'main-layout', '?limit=0', admin)).leaderboards[0]).toEqual(board('lb-all', 2, 20));
  });

  it('treats only the second segment as the literal "layoutUuid": a user named layoutUuid lists its layouts', async () => {
    expect(await listing('layoutUuid')).toEqual([]);
    await log('layoutUuid', 'big'); // 30 points, tied with ann, who reached it first
    const expected = [
      { uuid: 'main-layout', name: 'Main', leaderboards: [board('lb-all', 1, 30), board('lb-teams', null, null)] },
      { uuid: 'big-layout', name: 'Big spenders', leaderboards: [board('lb-big', 1, 1)] },
      { uuid: 'a-today', name: 'Today', leaderboards: [board('lb-day', 1, 30), board('lb-all', 1, 30)] },
    ];
    expect(await listing('layoutUuid')).toEqual(expected);
    expect(standings(await layout('layoutUuid', 'big-layout'))).toEqual(expected[1]);
    expect(summary(boardOf(await layout('layoutUuid', 'big-layout'), 'lb-big').leaders)).toEqual(['1:ann:1', '1:layoutUuid:1']);
    const ownToken = await t.token(site.app, 'layoutUuid');
    expect(await listing('layoutUuid', ownToken)).toEqual(expected);
    expectProblem(await request('GET', '/users/ann/leaders/layoutUuid', ownToken), 403, 'forbidden');
  });
});
