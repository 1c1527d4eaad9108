// client.list() over the list endpoints of a running Questline (both configurations): page after
// page by offset/limit until X-Total-Count, or by X-Next-Cursor, and no further page than the
// caller reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type QuestlineClient } from '../../clients/typescript/src/index.js';
import { nextCursorOfLink } from '../../clients/typescript/src/paging.js';
import { configurations } from '../helpers/app.js';
import { quickStartProgram, recordingFetch, startQuestline, type RunningQuestline } from './helpers.js';

const USERS = ['pa', 'pb', 'pc', 'pd', 'pe'];

describe.each(configurations)('@questline/client paging (%s)', (configuration) => {
  let q: RunningQuestline;
  let client: QuestlineClient;
  let recorder: ReturnType<typeof recordingFetch>;

  beforeAll(async () => {
    q = await startQuestline(configuration);
    const site = await q.createSite();
    const admin = createClient({ baseUrl: q.baseUrl, clientId: site.admin.clientId, clientSecret: site.admin.clientSecret });
    await admin.PUT('/admin/program', { body: quickStartProgram as never });
    recorder = recordingFetch();
    client = createClient({ baseUrl: q.baseUrl, clientId: site.app.clientId, clientSecret: site.app.clientSecret, fetch: recorder.fetch });
    // pa reads once, pb twice, … pe five times: the board is pe, pd, pc, pb, pa.
    for (const [index, user] of USERS.entries())
      for (let i = 0; i <= index; i += 1) await client.logAction(user, { action: 'read_article', eventId: `${user}-${i}` });
  });
  afterAll(async () => {
    await q?.close();
  });

  const requested = (prefix: string) =>
    recorder.sent.filter((entry) => entry.path.startsWith(prefix)).map((entry) => new URL(entry.path, q.baseUrl).searchParams);

  it('walks an offset list page by page until X-Total-Count', async () => {
    const before = requested('/leaderboards/').length;
    const rows = [];
    for await (const row of client.list('/leaderboards/{leaderboardId}/leaders', { params: { path: { leaderboardId: 'lb-points' }, query: { limit: 2 } } })) {
      rows.push([row.rank, row.userId, row.score]);
    }
    expect(rows).toEqual([
      [1, 'pe', 50],
      [2, 'pd', 40],
      [3, 'pc', 30],
      [4, 'pb', 20],
      [5, 'pa', 10],
    ]);
    expect(
      requested('/leaderboards/')
        .slice(before)
        .map((query) => [query.get('limit'), query.get('offset')]),
    ).toEqual([
      ['2', null],
      ['2', '2'],
      ['2', '4'],
    ]);
  });

  it('walks a cursor list by X-Next-Cursor', async () => {
    const before = requested('/users/pe/actions').length;
    const eventIds = [];
    for await (const action of client.list('/users/{userId}/actions', { params: { path: { userId: 'pe' }, query: { limit: 2 } } }))
      eventIds.push(action.eventId);
    expect(eventIds.sort()).toEqual(['pe-0', 'pe-1', 'pe-2', 'pe-3', 'pe-4']);
    const pages = requested('/users/pe/actions').slice(before);
    expect(pages).toHaveLength(3);
    expect(pages[0]?.has('cursor')).toBe(false);
    expect(pages.slice(1).every((query) => (query.get('cursor') ?? '') !== '')).toBe(true);
  });

  it('follows Link: rel="next" where X-Next-Cursor is not readable (a cross-origin browser)', async () => {
    const { fetch } = recordingFetch(async (request) => {
      const answer = await globalThis.fetch(request);
      const headers = new Headers(answer.headers);
      headers.delete('x-next-cursor');
      return new Response(answer.body, { status: answer.status, headers });
    });
    const browserLike = createClient({ baseUrl: q.baseUrl, token: await client.token(), fetch });
    const eventIds = [];
    for await (const action of browserLike.list('/users/{userId}/actions', { params: { path: { userId: 'pd' }, query: { limit: 3 } } }))
      eventIds.push(action.eventId);
    expect(eventIds.sort()).toEqual(['pd-0', 'pd-1', 'pd-2', 'pd-3']);
  });

  it('asks for no page the caller does not reach', async () => {
    const before = requested('/leaderboards/').length;
    const firstThree = [];
    for await (const row of client.list('/leaderboards/{leaderboardId}/leaders', { params: { path: { leaderboardId: 'lb-points' }, query: { limit: 2 } } })) {
      firstThree.push(row.userId);
      if (firstThree.length === 3) break;
    }
    expect(firstThree).toEqual(['pe', 'pd', 'pc']);
    expect(requested('/leaderboards/').length - before).toBe(2);
  });

  it('ends after one page when the list fits', async () => {
    const all = [];
    for await (const mission of client.list('/challenges')) all.push(mission.id);
    expect(all).toEqual(['m-read']);
  });
});

describe('nextCursorOfLink', () => {
  it('reads the cursor of the rel="next" link, as browsers see it when X-Next-Cursor is not exposed', () => {
    expect(nextCursorOfLink('</users/ann/actions?limit=2&cursor=WzE3LCJlMSJd>; rel="next"')).toBe('WzE3LCJlMSJd');
    expect(nextCursorOfLink('</a?cursor=p>; rel="prev", </a?cursor=n>; rel="next"')).toBe('n');
    expect(nextCursorOfLink('</a?cursor=p>; rel="prev"')).toBeNull();
    expect(nextCursorOfLink(null)).toBeNull();
  });
});
