// The error shape through the real HTTP stack: every failure leaves as RFC 9457 problem+json with a
// stable code and the request id (SPEC §2, docs/errors.md). Test-only probe routes exercise body
// validation, parsing, unexpected errors and AppError mapping.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { LightMyRequestResponse } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../../src/app.js';
import { AppError } from '../../src/errors.js';
import { buildTestApp, configurations, type TestApp } from '../helpers/app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PROBLEM_KEYS = ['code', 'detail', 'requestId', 'status', 'title', 'type'];

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  requestId: string;
  errors?: { path: string; message: string }[];
}

/** Asserts the common problem+json shape and returns the body. */
function expectProblem(response: LightMyRequestResponse, status: number, code: string, withErrors = false): Problem {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json<Problem>();
  expect(Object.keys(body).sort()).toEqual(withErrors ? [...PROBLEM_KEYS, 'errors'].sort() : PROBLEM_KEYS);
  expect(body).toMatchObject({ type: `urn:questline:error:${code}`, status, code });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(body.requestId).toBe(response.headers['x-request-id']);
  return body;
}

describe.each(configurations)('HTTP errors (%s)', (configuration) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(configuration);
    const app = t.app.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/probe/body',
      {
        config: { access: 'public' },
        schema: { body: Type.Object({ name: Type.String(), count: Type.Integer({ minimum: 1 }) }) },
      },
      async (request) => ({ response: request.body }),
    );
    app.get('/probe/fail', { config: { access: 'public' } }, async () => {
      throw new Error('secret internal detail');
    });
    app.get('/probe/app-error', { config: { access: 'public' }, schema: { errors: ['not_found'] } }, async () => {
      throw new AppError('not_found', 'Mission m-1 does not exist');
    });
    app.delete('/probe/delete', { config: { access: 'public' } }, async (_request, reply) => reply.status(204).send());
  });
  afterAll(async () => t.close());

  describe('validation', () => {
    it('reports a missing required field as body.<field>', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/probe/body', payload: { count: 2 } });
      const body = expectProblem(response, 400, 'validation_failed', true);
      expect(body.errors).toEqual([{ path: 'body.name', message: expect.any(String) }]);
    });

    it('reports an out-of-range field as body.<field>', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/probe/body', payload: { name: 'a', count: 0 } });
      const body = expectProblem(response, 400, 'validation_failed', true);
      expect(body.errors).toEqual([{ path: 'body.count', message: expect.stringMatching(/1/) }]);
    });

    it('accepts a valid JSON body', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/probe/body', payload: { name: 'a', count: 3 } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ response: { name: 'a', count: 3 } });
    });

    it('accepts a form-urlencoded body', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/probe/body',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'name=cooking&count=5',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ response: { name: 'cooking', count: 5 } });
    });

    it('validates a form-urlencoded body too', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/probe/body',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'name=cooking&count=0',
      });
      const body = expectProblem(response, 400, 'validation_failed', true);
      expect(body.errors?.map((e) => e.path)).toEqual(['body.count']);
    });
  });

  describe('body parsing', () => {
    it('answers malformed JSON with malformed_body', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/probe/body',
        headers: { 'content-type': 'application/json' },
        payload: '{"name": "a", ',
      });
      expectProblem(response, 400, 'malformed_body');
    });

    it('answers an empty JSON body with malformed_body', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/probe/body', headers: { 'content-type': 'application/json' }, payload: '' });
      expectProblem(response, 400, 'malformed_body');
    });

    it(`answers a body over ${BODY_LIMIT} bytes with payload_too_large`, async () => {
      const payload = JSON.stringify({ name: 'x'.repeat(BODY_LIMIT), count: 1 });
      const response = await t.app.inject({ method: 'POST', url: '/probe/body', headers: { 'content-type': 'application/json' }, payload });
      expectProblem(response, 413, 'payload_too_large');
    });

    it('answers a form body over the limit with payload_too_large', async () => {
      const payload = `name=${'x'.repeat(BODY_LIMIT)}&count=1`;
      const response = await t.app.inject({
        method: 'POST',
        url: '/probe/body',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
      expectProblem(response, 413, 'payload_too_large');
    });

    it.each(['text/plain', 'application/xml'])('answers %s with unsupported_media_type', async (contentType) => {
      const response = await t.app.inject({ method: 'POST', url: '/probe/body', headers: { 'content-type': contentType }, payload: 'name=a' });
      expectProblem(response, 415, 'unsupported_media_type');
    });
  });

  describe('routing', () => {
    it('answers an unknown route with route_not_found without a token', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/no/such/endpoint?x=1' });
      const body = expectProblem(response, 404, 'route_not_found');
      expect(body.detail).toContain('/no/such/endpoint');
      expect(body.detail).not.toContain('x=1');
    });

    it('answers an unknown route with route_not_found with a token', async () => {
      const site = await t.createSite();
      const token = await t.token(site.admin);
      const response = await t.app.inject({ method: 'POST', url: '/no/such/endpoint', headers: { authorization: `Bearer ${token}` }, payload: {} });
      expectProblem(response, 404, 'route_not_found');
    });

    it('accepts a trailing slash', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/health/live/' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
    });
  });

  describe('unexpected and application errors', () => {
    it('answers an unexpected error with internal_error and no internals', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/probe/fail' });
      const body = expectProblem(response, 500, 'internal_error');
      expect(response.body).not.toContain('secret internal detail');
      expect(response.body).not.toMatch(/(\n|\\n)\s*at /);
      expect(response.body).not.toContain('stack');
      expect(response.body).not.toMatch(/\.ts:\d+/);
      expect(body.detail).not.toContain('Error');
    });

    it('maps an AppError to its status and detail', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/probe/app-error' });
      const body = expectProblem(response, 404, 'not_found');
      expect(body.detail).toBe('Mission m-1 does not exist');
      expect(body.title).toBe('The object does not exist');
    });
  });

  describe('X-Request-Id', () => {
    it('is generated as a UUID when absent', async () => {
      const first = await t.app.inject({ method: 'GET', url: '/health/live' });
      const second = await t.app.inject({ method: 'GET', url: '/health/live' });
      expect(first.headers['x-request-id']).toMatch(UUID);
      expect(second.headers['x-request-id']).toMatch(UUID);
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });

    it('echoes a valid incoming id, in the header and the problem body', async () => {
      const id = 'req-2026.01:abc@edge+1_x';
      const ok = await t.app.inject({ method: 'GET', url: '/health/live', headers: { 'x-request-id': id } });
      expect(ok.headers['x-request-id']).toBe(id);
      const failed = await t.app.inject({ method: 'GET', url: '/probe/app-error', headers: { 'x-request-id': id } });
      expect(expectProblem(failed, 404, 'not_found').requestId).toBe(id);
    });

    it.each([
      ['too long', 'a'.repeat(300)],
      ['containing spaces', 'my request id'],
      ['containing quotes', 'id"<script>'],
    ])('replaces an invalid incoming id (%s)', async (_label, id) => {
      const response = await t.app.inject({ method: 'GET', url: '/probe/app-error', headers: { 'x-request-id': id } });
      expect(response.headers['x-request-id']).toMatch(UUID);
      expect(expectProblem(response, 404, 'not_found').requestId).toMatch(UUID);
    });
  });

  describe('GETs and DELETEs ignore a body and its Content-Type (SPEC §2)', () => {
    it('serves a GET with a form Content-Type and no body', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/health/live', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
    });

    it('serves a GET with a JSON Content-Type and a non-JSON body', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/health/live', headers: { 'content-type': 'application/json' }, payload: 'not json' });
      expect(response.statusCode).toBe(200);
    });

    it('serves a DELETE with a JSON Content-Type and a non-JSON body', async () => {
      const response = await t.app.inject({ method: 'DELETE', url: '/probe/delete', headers: { 'content-type': 'application/json' }, payload: 'not json' });
      expect(response.statusCode).toBe(204);
    });

    it('serves a DELETE with an unsupported Content-Type and a body', async () => {
      const response = await t.app.inject({ method: 'DELETE', url: '/probe/delete', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
      expect(response.statusCode).toBe(204);
    });

    it('serves a DELETE with a JSON Content-Type and no body', async () => {
      const response = await t.app.inject({ method: 'DELETE', url: '/probe/delete', headers: { 'content-type': 'application/json' } });
      expect(response.statusCode).toBe(204);
    });
  });
});
