// The problem+json answer every refused request gets (docs/errors.md): its status, its code from
// the closed catalog, its media type and the request id it carries.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** Checks `response` is the problem `status` `code` and returns its body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectProblem(response: LightMyRequestResponse, status: number, code: string): any {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json() as Record<string, unknown>;
  expect(body).toMatchObject({ status, code, requestId: response.headers['x-request-id'] });
  return body;
}
