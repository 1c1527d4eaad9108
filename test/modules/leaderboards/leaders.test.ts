// Leaderboards through the HTTP stack (SPEC §7), on both dialects: ranks with ties and who
// reached a score first, paging and the board size, the user's standing, an admin debit moving a
// user down, rollover at the site's midnight and on Sunday, a backdated action landing in its own
// (previous) window, group boards and a group filter, at-a-glance's rank, unknown ids and tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { repeatableMission as mission } from '../../helpers/fixtures.js';

// Wednesday 2026-06-17, noon in New York (set again for each configuration). Tests move it forward only.
const WEDNESDAY_NOON = Date.parse('2026-06-17T16:00:00Z');
let now = WEDNESDAY_NOON;
const clock = () => now;

const program = {
  site: { name: 'Boards', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'small' }, { name: 'big' }, { name: 'team' }],
  groups: [
    { id: 'g-red', name: 'Red team' },
    { id: 'g-blue', name: 'Blue team' },
  ],
  missions: [mission('m-small', 'small', 10), mission('m-big', 'big', 30), { ...mission('m-team', 'team', 5), party: 'group' }],
  leaderboards: [
    { id: 'lb-all', name: 'All time', metric: { type: 'points', category: 'Points' }, period: 'allTime', size: 3, primary: true },
    { id: 'lb-day', name: 'Today', metric: { type: 'points', category: 'Points' }, period: 'day' },
    { id: 'lb-week', name: 'This week', metric: { type: 'actionCount', action: 'small' }, period: 'week' },
    { id: 'lb-red', name: 'Red missions', metric: { type: 'missionsCompleted' }, period: 'allTime', groupFilter: 'g-red' },
    { id: 'lb-teams', name: 'Teams', metric: { type: 'points', category: 'Points' }, period: 'allTime', party: 'group' },
  ],
};

interface Entry {
  rank: number;
  userId?: string;
  groupId?: string;
  score: number;
  firstName: string | null;
}

describe.each(configurations)('leaderboards (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;

  const request = (method: 'GET' | 'POST' | 'PUT', url: string, token = client, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload !== undefined ? { payload } : {}) });
  const log = async (user: string, action: string, extra: Record<string, unknown> = {}) => {
    const response = await request('POST', `/users/${user}/actions`, client, { action, ...extra });
    expect(response.statusCode, response.body).toBe(201);
  };
  const leaders = async (board: string, query = '') => {
    const response = await request('GET', `/leaderboards/${board}/leaders${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return { entries: (response.json() as { response: Entry[] }).response, total: Number(response.headers['x-total-count']) };
  };
  const summary = (entries: Entry[]) => entries.map((entry) => `${entry.rank}:${entry.userId ?? entry.groupId}:${entry.score}`);

  beforeAll(async () => {
    now = WEDNESDAY_NOON;
    t = await buildTestApp(configuration, { clock, config: { clientRate: { rate: 100000, burst: 100000 } } });
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    expect((await request('PUT', '/admin/program', admin, program)).statusCode).toBeLessThan(300);
    expect((await request('PUT', '/users/ann/preferences', client, { firstName: 'Ann', lastName: 'Lee' })).statusCode).toBe(200);
    for (const user of ['ann', 'cat']) expect((await request('PUT', `/admin/groups/g-red/members/${user}`, admin, {})).statusCode).toBeLessThan(300);
    expect((await request('PUT', '/admin/groups/g-blue/members/bob', admin, {})).statusCode).toBeLessThan(300);
  });
  afterAll(async () => t.close());

  it('ranks by score, shares ranks on ties, and lists who reached a score first first', async () => {
    await log('ann', 'big'); // 30
    now += 1000;
    await log('bob', 'small'); // 10
    now += 1000;
    await log('cat', 'small'); // 10, reached after bob
    now += 1000;
    await log('dan', 'small'); // 10
    now += 1000;
    await log('dan', 'small'); // 20
    const all = await leaders('lb-all');
    // The board's size is 3: the fourth entry is not listed, and the total says 3.
    expect(summary(all.entries)).toEqual(['1:ann:30', '2:dan:20', '3:bob:10']);
    expect(all.total).toBe(3);
    expect(all.entries[0]).toMatchObject({ firstName: 'Ann', lastName: 'Lee' });
    expect(summary((await leaders('lb-day')).entries)).toEqual(['1:ann:30', '2:dan:20', '3:bob:10', '3:cat:10']);
    expect(summary((await leaders('lb-day', '?offset=2&limit=2')).entries)).toEqual(['3:bob:10', '3:cat:10']);
  });

  it("gives a user's standing with the entries around them, and at-a-glance the primary board's rank", async () => {
    const response = await request('GET', '/leaderboards/lb-day/leaders/cat?around=1');
    expect(response.statusCode, response.body).toBe(200);
    const standing = (response.json() as { response: { rank: number; score: number; entries: Entry[] } }).response;
    expect(standing.rank).toBe(3);
    expect(standing.score).toBe(10);
    expect(summary(standing.entries)).toEqual(['3:bob:10', '3:cat:10']);
    const glance = await request('GET', '/users/dan/at-a-glance');
    expect((glance.json() as { response: { rank: number } }).response.rank).toBe(2);
    const nobody = await request('GET', '/leaderboards/lb-day/leaders/nobody');
    expect((nobody.json() as { response: { rank: null; entries: Entry[] } }).response).toEqual({ rank: null, score: null, entries: [] });
  });

  it('moves a user down after an admin debit', async () => {
    const debit = await request('POST', '/admin/users/dan/points', admin, { category: 'Points', amount: -15, reason: 'correction' });
    expect(debit.statusCode, debit.body).toBe(201);
    expect(summary((await leaders('lb-day')).entries)).toEqual(['1:ann:30', '2:bob:10', '2:cat:10', '4:dan:5']);
  });

  it('counts group boards, and members of the filtered group only', async () => {
    await log('bob', 'team'); // bob is in g-blue: the blue team's mission completes
    await log('ann', 'team'); // ann is in g-red
    await log('ann', 'team');
    expect(summary((await leaders('lb-teams')).entries)).toEqual(['1:g-red:10', '2:g-blue:5']);
    expect((await leaders('lb-teams')).entries[0]?.firstName).toBe('Red team');
    // Missions completed by members of g-red only: ann (big, team ×0 — group missions are the group's) and cat.
    expect(summary((await leaders('lb-red')).entries)).toEqual(['1:ann:1', '1:cat:1']);
  });

  it("rolls over at the site's midnight and on Sunday; a backdated action lands in its own window", async () => {
    const before = summary((await leaders('lb-week')).entries);
    expect(before).toEqual(['1:dan:2', '2:bob:1', '2:cat:1']);
    // Thursday 00:30 in New York: a new day, the same week.
    now = Date.parse('2026-06-18T04:30:00Z');
    client = await t.token(site.app); // tokens live a day
    expect((await leaders('lb-day')).entries).toEqual([]);
    expect(summary((await leaders('lb-day', '?window=previous')).entries)[0]).toBe('1:ann:30');
    expect(summary((await leaders('lb-day', '?window=2026-06-17')).entries)[0]).toBe('1:ann:30');
    expect(summary((await leaders('lb-week')).entries)).toEqual(before);
    // Sunday 00:30: a new week.
    now = Date.parse('2026-06-21T04:30:00Z');
    client = await t.token(site.app);
    expect((await leaders('lb-week')).entries).toEqual([]);
    await log('eve', 'small');
    // Logged now, but it happened on Saturday: last week's board.
    await log('eve', 'small', { timestamp: '2026-06-20T10:00:00' });
    expect(summary((await leaders('lb-week')).entries)).toEqual(['1:eve:1']);
    expect(summary((await leaders('lb-week', '?window=previous')).entries)).toEqual(['1:dan:2', '2:bob:1', '2:cat:1', '2:eve:1']);
  });

  it('refuses unknown boards, bad windows, pages beyond the board size, and other users and sites', async () => {
    expect((await request('GET', '/leaderboards/nope/leaders')).statusCode).toBe(404);
    expect((await request('GET', '/leaderboards/lb-all/leaders?window=last-tuesday')).statusCode).toBe(400);
    expect((await request('GET', '/leaderboards/lb-day/leaders?window=2026-02-30')).statusCode).toBe(400);
    expect((await request('GET', '/leaderboards/lb-all/leaders?limit=4')).statusCode).toBe(400);
    expect((await request('GET', '/leaderboards/lb-all/leaders', 'not-a-token')).statusCode).toBe(401);
    const annToken = await t.token(site.app, 'ann');
    expect((await request('GET', '/leaderboards/lb-all/leaders', annToken)).statusCode).toBe(200);
    expect((await request('GET', '/leaderboards/lb-all/leaders/ann', annToken)).statusCode).toBe(200);
    expect((await request('GET', '/leaderboards/lb-all/leaders/bob', annToken)).statusCode).toBe(403);
    const other = await t.createSite();
    const otherClient = await t.token(other.app);
    expect((await request('GET', '/leaderboards/lb-all/leaders', otherClient)).statusCode).toBe(404);
  });

  it('gives any token of the site a board as the program defines it (GET /leaderboards/{id}), and no other site', async () => {
    // Fresh tokens: earlier tests moved the clock past the first ones' lifetime.
    const [appToken, adminToken, annToken] = [await t.token(site.app), await t.token(site.admin), await t.token(site.app, 'ann')];
    for (const token of [appToken, adminToken, annToken]) {
      const response = await request('GET', '/leaderboards/lb-all', token);
      expect(response.statusCode, response.body).toBe(200);
      expect((response.json() as { response: unknown }).response).toEqual({ ...program.leaderboards[0], party: 'user' });
    }
    expect((await request('GET', '/leaderboards/lb-red', annToken)).json()).toMatchObject({
      response: { id: 'lb-red', name: 'Red missions', groupFilter: 'g-red', size: 100 },
    });
    expect((await request('GET', '/leaderboards/nope', appToken)).json()).toMatchObject({ status: 404, code: 'not_found' });
    expect((await request('GET', '/leaderboards/lb-all', 'not-a-token')).statusCode).toBe(401);
    const other = await t.createSite();
    expect((await request('GET', '/leaderboards/lb-all', await t.token(other.app, 'ann'))).statusCode).toBe(404);
  });

  it('answers a page read again with the JSON kept with it, and a new one once a score or a name changes', async () => {
    const first = await request('GET', '/leaderboards/lb-all/leaders');
    const again = await request('GET', '/leaderboards/lb-all/leaders');
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.body).toBe(first.body);
    expect(again.headers['x-total-count']).toBe(first.headers['x-total-count']);
    const ann = () => leaders('lb-all').then(({ entries }) => entries.find((entry) => entry.userId === 'ann'));
    const before = await ann();
    expect(before).toMatchObject({ firstName: 'Ann' });
    expect((await request('PUT', '/users/ann/preferences', client, { firstName: 'Annie' })).statusCode).toBe(200);
    expect(await ann()).toMatchObject({ firstName: 'Annie', score: before?.score });
    now += 1000;
    await log('ann', 'big'); // + 30
    expect(await ann()).toMatchObject({ firstName: 'Annie', score: (before?.score ?? 0) + 30 });
  });
});
