// errorFromResponse: every failed answer becomes a QuestlineError of one shape, whether it is a
// problem document, the token endpoint's RFC 6749 error, or something else (a proxy's HTML page).
import { describe, expect, it } from 'vitest';
import { QuestlineError } from '../../clients/typescript/src/index.js';
import { errorFromResponse } from '../../clients/typescript/src/errors.js';

const answer = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });

describe('errorFromResponse', () => {
  it('reads a problem document: code, status, title, detail, request id and field errors', () => {
    const error = errorFromResponse(answer(400), {
      type: 'urn:questline:error:validation_failed',
      title: 'The request is invalid',
      status: 400,
      detail: 'body.value must be a number',
      code: 'validation_failed',
      requestId: 'req-1',
      errors: [{ path: 'body.value', message: 'must be number' }, 'not a field error'],
    });
    expect(error).toBeInstanceOf(QuestlineError);
    expect(error).toBeInstanceOf(Error);
    expect({ ...error, message: error.message, name: error.name }).toMatchObject({
      name: 'QuestlineError',
      status: 400,
      code: 'validation_failed',
      title: 'The request is invalid',
      detail: 'body.value must be a number',
      requestId: 'req-1',
      errors: [{ path: 'body.value', message: 'must be number' }],
      message: 'The request is invalid: body.value must be a number',
    });
  });

  it('reads the token endpoint error, with the request id from the header', () => {
    const error = errorFromResponse(answer(401, { 'x-request-id': 'req-2' }), { error: 'invalid_client', error_description: 'Unknown client or wrong secret' });
    expect([error.status, error.code, error.detail, error.requestId, error.errors]).toEqual([
      401,
      'invalid_client',
      'Unknown client or wrong secret',
      'req-2',
      [],
    ]);
  });

  it('makes http_error of any other answer, keeping a short detail', () => {
    const error = errorFromResponse(answer(502), `<html>${'x'.repeat(1000)}</html>`);
    expect([error.status, error.code, error.title]).toEqual([502, 'http_error', 'HTTP 502']);
    expect(error.detail).toHaveLength(500);
    expect(errorFromResponse(answer(500), undefined).detail).toBeUndefined();
  });
});
