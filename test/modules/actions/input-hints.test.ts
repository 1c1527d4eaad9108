// Errors that say what was received (issue 23, item 21): a JSON text sent with the form content
// type (what `curl -d '{…}'` does) is refused for its content type, not for a field it seems to
// lack, and a field of the wrong type says which type it got. Nothing is recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';

describe.each(configurations)('input errors that say what was received (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let client: string;
  const history = async () =>
    (await t.app.inject({ method: 'GET', url: '/users/hint/actions', headers: { authorization: `Bearer ${client}` } })).json<{ response: unknown[] }>()
      .response;

  beforeAll(async () => {
    t = await buildTestApp(configuration);
    site = await t.createSite();
    client = await t.token(site.app);
    const admin = await t.token(site.admin);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: exampleProgram() })).statusCode,
    ).toBe(200);
  });
  afterAll(async () => t.close());

  it.each([
    ['/users/hint/actions', 'POST', '{"action":"read_article"}'],
    ['/users/hint/actions', 'POST', ' [{"action":"read_article"}] '],
    ['/users/hint/preferences', 'PUT', '{"firstName":"Ann"}'],
    ['/users/hint/interactions-collection', 'POST', '{"exchangeId":"x-kudos"}'],
  ] as const)('refuses JSON sent as a form to %s with 415, naming the content type to send', async (url, method, payload) => {
    const response = await t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${client}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload,
    });
    expect(response.statusCode, response.body).toBe(415);
    expect(response.json()).toMatchObject({
      code: 'unsupported_media_type',
      detail: expect.stringMatching(/looks like JSON.*Content-Type: application\/json/),
    });
    expect(await history()).toEqual([]);
  });

  it('still takes an ordinary form body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/users/hint-form/actions',
      headers: { authorization: `Bearer ${client}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=read_article&metadata=topic:%7Bx%7D',
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  it.each([
    [{ action: 42 }, 'action', /must be a string, the action's name \(got a number\)/],
    [{ action: null }, 'action', /got null/],
    [{ action: ['read_article'] }, 'action', /got an array/],
    [{}, 'action', /is required/],
    [{ action: 'read_article', value: true }, 'value', /must be a number .* \(got a boolean\)/],
    [{ action: 'read_article', value: { amount: 3 } }, 'value', /got an object/],
  ])('answers %j with a field error saying what it got', async (payload, path, message) => {
    const response = await t.app.inject({ method: 'POST', url: '/users/hint/actions', headers: { authorization: `Bearer ${client}` }, payload });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_failed', errors: [{ path, message: expect.stringMatching(message) }] });
    expect(await history()).toEqual([]);
  });
});
