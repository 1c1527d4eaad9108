// Requests of the tests through app.inject (a module's HTTP tests, the browser tests' setup): a
// request as a token (or none), and an answer's `response` once its status is checked, the
// failure naming the body the service sent.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './app.js';

export type Call = (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, token?: string, payload?: unknown) => Promise<LightMyRequestResponse>;

/** Requests to the app `app()` returns when called (a test file builds it in beforeAll), with a bearer token when one is given. */
export function caller(app: () => TestApp): Call {
  return (method, url, token, payload) =>
    app().app.inject({
      method,
      url,
      headers: token !== undefined ? { authorization: `Bearer ${token}` } : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
}

/** The envelope's `response` of an answer that must have `status`. */
export function body<T>(response: LightMyRequestResponse, status = 200): T {
  expect(response.statusCode, response.body).toBe(status);
  return (response.json() as { response: T }).response;
}
