// Paging parameters (issue 23, item 2): every `limit` and `offset` of every list has a maximum, so a
// number past it (?offset=1e20, which is no 64-bit integer) is 400 validation_failed naming the
// parameter, never a 500 from the database. The routes come from the API reference, so a list added
// later is checked too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OFFSET } from '../../src/http/paging.js';
import { buildTestApp, configurations, type TestApp } from '../helpers/app.js';

interface Parameter {
  in: string;
  name: string;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
}

describe.each(configurations)('paging parameters (%s)', (configuration) => {
  let t: TestApp;
  let admin: string;
  let user: string;
  let lists: Array<{ path: string; names: string[] }>;

  beforeAll(async () => {
    // Hundreds of requests in a moment: the rate limits are not what this checks.
    const generous = { rate: 100_000, burst: 100_000 };
    t = await buildTestApp(configuration, { config: { clientRate: generous, userRate: generous } });
    const site = await t.createSite();
    admin = await t.token(site.admin);
    user = await t.token(site.app, 'u1');
    const document = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<OpenApiDocument>();
    lists = Object.entries(document.paths).flatMap(([path, item]) => {
      const names = (item.get?.parameters ?? []).filter((p) => p.in === 'query' && (p.name === 'offset' || p.name === 'limit')).map((p) => p.name);
      return names.length > 0 ? [{ path: path.replace(/\{[^}]+\}/g, 'u1'), names }] : [];
    });
  });
  afterAll(async () => t.close());

  it('finds the lists the issue names among those it checks', () => {
    const paths = lists.map((list) => list.path);
    for (const expected of [
      '/users/u1/award-statement',
      '/users/u1/interactions-collection',
      '/users/u1/exchanges/u1/recipients',
      '/admin/webhook-deliveries',
      '/backup',
      '/leaderboards/u1/leaders',
    ]) {
      expect(paths).toContain(expected);
    }
    expect(lists.length).toBeGreaterThan(15);
  });

  it.each(['1e20', String(MAX_OFFSET + 1), '-1', '1.5', '99999999999999999999999'])(
    'answers 400 validation_failed for offset or limit %s on every list',
    async (number) => {
      const failures: string[] = [];
      for (const { path, names } of lists) {
        for (const name of names) {
          let response = await t.app.inject({ method: 'GET', url: `${path}?${name}=${number}`, headers: { authorization: `Bearer ${admin}` } });
          // A route only a user's own token may call.
          if (response.statusCode === 403)
            response = await t.app.inject({ method: 'GET', url: `${path}?${name}=${number}`, headers: { authorization: `Bearer ${user}` } });
          const problem = response.json<{ code?: string; errors?: Array<{ path: string }> }>();
          if (
            response.statusCode !== 400 ||
            problem.code !== 'validation_failed' ||
            !(problem.errors ?? []).some((error) => error.path === `querystring.${name}`)
          ) {
            failures.push(`${path}?${name}=${number}: ${response.statusCode} ${response.body.slice(0, 120)}`);
          }
        }
      }
      expect(failures).toEqual([]);
    },
  );

  it('takes the largest offset, answering an empty page', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/backup?offset=${MAX_OFFSET}`, headers: { authorization: `Bearer ${admin}` } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ response: [] });
  });
});
