// The examples the OpenAPI document shows for program bodies (src/modules/program/examples.ts) are
// ones the service takes: the example program loads, and each entity example is then created in
// it in the order a site would add them (a badge before the mission that awards it), with the site
// and award settings set after. So an example stays true when a validation rule changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp } from '../../helpers/app.js';

interface Media {
  example?: unknown;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, Media> } }>>;
}

describe.each(configurations)('the program examples of the OpenAPI document (%s)', (configuration) => {
  let t: TestApp;
  let document: OpenApiDocument;
  let admin: string;
  beforeAll(async () => {
    t = await buildTestApp(configuration);
    document = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<OpenApiDocument>();
    admin = await t.token((await t.createSite()).admin);
  });
  afterAll(async () => t.close());

  const exampleOf = (method: string, path: string): unknown => document.paths[path]?.[method]?.requestBody?.content['application/json']?.example;
  const send = (method: 'POST' | 'PUT', path: string) =>
    t.app.inject({ method, url: path, headers: { authorization: `Bearer ${admin}` }, payload: exampleOf(method.toLowerCase(), path) as object });

  it('previews and loads the example program', async () => {
    const preview = await send('POST', '/admin/program/preview');
    expect(preview.statusCode, preview.body).toBe(200);
    const put = await send('PUT', '/admin/program');
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().response.missions.map((mission: { id: string }) => mission.id)).toEqual(['m-first-read']);
  });

  it.each(['badges', 'levels', 'groups', 'point-categories', 'actions', 'challenges', 'leaderboards', 'layouts', 'quizzes', 'exchanges', 'streaks', 'boosts'])(
    'creates the example of POST /admin/%s in it',
    async (collection) => {
      const response = await send('POST', `/admin/${collection}`);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().response).toMatchObject(exampleOf('post', `/admin/${collection}`) as object);
    },
  );

  it.each(['/admin/site', '/admin/award-settings'])('sets the example of PUT %s', async (path) => {
    const response = await send('PUT', path);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().response).toMatchObject(exampleOf('put', path) as object);
  });
});
