// What the API reference (GET /docs/json) says each route answers when it refuses: its problem
// codes (routeErrorCodes: those of its kind and those it declares), under their statuses, as
// problem+json; and the check buildTestApp runs on every test's answers against it.
import { describe, expect, it } from 'vitest';
import { routeErrorCodes, type DocumentedRoute } from '../../src/plugins/openapi-errors.js';
import { buildTestApp, configurations } from '../helpers/app.js';

const AUTH = ['missing_token', 'invalid_token', 'token_expired', 'token_revoked', 'origin_not_allowed', 'rate_limited'];
const BODY = ['validation_failed', 'malformed_body', 'unsupported_media_type', 'payload_too_large'];

describe('routeErrorCodes', () => {
  const params = { type: 'object' };
  const cases: Array<[string, DocumentedRoute, string[]]> = [
    ['a public route without input', { config: { access: 'public' } }, []],
    ['a public route with a path id', { config: { access: 'public' }, schema: { params } }, ['validation_failed']],
    ['a route without access (the /docs routes)', {}, []],
    ['an admin route with a body', { config: { access: 'admin' }, schema: { body: params } }, [...AUTH, 'forbidden', ...BODY]],
    ['a user route: maintenance stops it', { config: { access: 'user' }, schema: { params } }, [...AUTH, 'forbidden', 'maintenance', 'validation_failed']],
    ['a definitions route: any token of the site may read it', { config: { access: 'definitions' } }, [...AUTH, 'maintenance']],
    [
      'a documented body counts as a body',
      { config: { access: 'client' }, schema: { documentedBody: params } },
      [...AUTH, 'forbidden', 'maintenance', ...BODY],
    ],
    [
      'declared codes, once each',
      { config: { access: 'admin' }, schema: { errors: ['not_found', 'conflict', 'forbidden'] } },
      [...AUTH, 'forbidden', 'not_found', 'conflict'],
    ],
  ];
  it.each(cases)('%s', (_name, route, expected) => {
    expect(routeErrorCodes(route).sort()).toEqual([...expected].sort());
  });
});

describe.each(configurations)('the reference of refusals (%s)', (configuration) => {
  it('lists each code under its status as problem+json, and the server-wide ones as default', async () => {
    const t = await buildTestApp(configuration);
    try {
      const document = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
      const responses = document.paths['/users/{userId}/actions'].post.responses;
      // A response many operations share is one of components.responses.
      const response = (status: string) => {
        const ref: string | undefined = responses[status].$ref;
        return ref === undefined ? responses[status] : document.components.responses[ref.replace('#/components/responses/', '')];
      };
      const codesOf = (status: string) => response(status).content['application/problem+json'].schema.allOf[1].properties.code.enum;
      expect(responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
      expect(response('422').content['application/problem+json'].schema.allOf[0]).toEqual({ $ref: '#/components/schemas/Problem' });
      expect(codesOf('401')).toEqual(['missing_token', 'invalid_token', 'token_expired', 'token_revoked']);
      expect(codesOf('422')).toEqual(expect.arrayContaining(['unknown_action', 'amount_out_of_range']));
      expect(codesOf('409')).toEqual(['event_id_conflict']);
      expect(codesOf('default')).toEqual(['malformed_request', 'request_timeout', 'uri_too_long', 'headers_too_large', 'internal_error', 'shutting_down']);
      expect(response('422').description).toContain('`unknown_action` (The site has no such action)');
      expect(document.components.schemas.Problem.properties.code.enum).toContain('program_invalid');
    } finally {
      await t.close();
    }
  });

  it('adds no problem+json to the token endpoint, whose errors are RFC 6749 ones', async () => {
    const t = await buildTestApp(configuration);
    try {
      const document = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
      const responses = document.paths['/oauth/token/'].post.responses;
      expect(Object.keys(responses).sort()).toEqual(['200', '4XX']);
      expect(Object.keys(responses['4XX'].content)).toEqual(['application/json']);
      const refused = await t.app.inject({ method: 'POST', url: '/oauth/token/', headers: { 'content-type': 'text/plain' }, payload: 'x' });
      expect([refused.statusCode, refused.headers['content-type'], Object.keys(refused.json())]).toEqual([
        415,
        'application/json; charset=utf-8',
        ['error', 'error_description'],
      ]);
    } finally {
      await t.close();
    }
  });

  it('fails the test file when a route answers a code its schema does not declare', async () => {
    const t = await buildTestApp(configuration);
    const { AppError } = await import('../../src/errors.js');
    t.app.get('/probe/declared', { config: { access: 'public' }, schema: { errors: ['conflict'] } }, async () => {
      throw new AppError('conflict');
    });
    t.app.get('/probe/undeclared', { config: { access: 'public' } }, async () => {
      throw new AppError('conflict');
    });
    expect((await t.app.inject({ method: 'GET', url: '/probe/declared' })).statusCode).toBe(409);
    expect((await t.app.inject({ method: 'GET', url: '/probe/undeclared' })).statusCode).toBe(409);
    await expect(t.close()).rejects.toThrow(/^The API reference[^]*\nGET \/probe\/undeclared answered conflict$/);
  });

  it('fails the test file when a route says Deprecation but its schema marks nothing deprecated', async () => {
    const t = await buildTestApp(configuration);
    t.app.get('/probe/old', { config: { access: 'public' }, schema: { deprecated: true } }, async (_request, reply) =>
      reply.header('deprecation', '@0').send('ok'),
    );
    t.app.get('/probe/unmarked', { config: { access: 'public' } }, async (_request, reply) => reply.header('deprecation', '@0').send('ok'));
    await t.app.inject({ method: 'GET', url: '/probe/old' });
    await t.app.inject({ method: 'GET', url: '/probe/unmarked' });
    await expect(t.close()).rejects.toThrow(/\nGET \/probe\/unmarked sent a Deprecation header, but its schema marks nothing deprecated$/);
  });
});
