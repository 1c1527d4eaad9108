// The errors of the API reference: which problem codes each route answers (those of its kind and
// those its schema declares in `errors`), the RFC 9457 problem schema, and the responses that
// document them. src/plugins/openapi.ts puts them in the document; test/helpers/app.ts holds every
// test's answers against routeErrorCodes.
import { STATUS_CODES } from 'node:http';
import type { FastifySchema } from 'fastify';
import { Type } from 'typebox';
import { errorCatalog, type ErrorCode } from '../errors.js';
import type { Access } from './auth.js';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The problem codes this route answers beyond those of its kind (see routeErrorCodes): what its
     * service refuses (`not_found`, `conflict`, `program_invalid`…). The OpenAPI document lists them
     * under their statuses; the tests fail when a route answers a code its schema does not list.
     */
    errors?: readonly ErrorCode[];
  }
}

/**
 * Codes any request may get, whichever route it is for: broken HTTP, the server's limits and
 * failures. The document lists them once per operation, as its `default` response.
 */
export const SERVER_WIDE_ERRORS: readonly ErrorCode[] = [
  'malformed_request',
  'request_timeout',
  'uri_too_long',
  'headers_too_large',
  'internal_error',
  'shutting_down',
];

/** What routeErrorCodes reads of a route: who may call it, and its schema. */
export interface DocumentedRoute {
  config?: { access?: Access } | undefined;
  schema?: FastifySchema | undefined;
}

/**
 * The problem codes a route answers besides the server-wide ones: those of its kind, from who may
 * call it (the auth, origin, rate and maintenance checks of src/plugins/) and what input it takes,
 * and the ones its schema declares in `errors`.
 */
export function routeErrorCodes(route: DocumentedRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  const access = route.config?.access ?? 'public';
  const schema = route.schema ?? {};
  if (access !== 'public') {
    for (const code of ['missing_token', 'invalid_token', 'token_expired', 'token_revoked', 'origin_not_allowed', 'rate_limited'] as const) codes.add(code);
    // Any token of the site may read the definitions; an admin client's own calls pass maintenance.
    if (access !== 'definitions') codes.add('forbidden');
    if (access !== 'admin') codes.add('maintenance');
  }
  const body = schema.body ?? schema.documentedBody;
  if (schema.params !== undefined || schema.querystring !== undefined || body !== undefined) codes.add('validation_failed');
  if (body !== undefined) for (const code of ['malformed_body', 'unsupported_media_type', 'payload_too_large'] as const) codes.add(code);
  for (const code of schema.errors ?? []) codes.add(code);
  return [...codes];
}

/** Where the problem schema is in the document. */
const PROBLEM_REF = '#/components/schemas/Problem';

/** RFC 9457 problem details as src/plugins/error-handler.ts sends them (docs/errors.md). */
const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: '`urn:questline:error:` and the code', examples: ['urn:questline:error:validation_failed'] }),
    title: Type.String({ description: "The code's fixed title" }),
    status: Type.Integer({ description: 'The HTTP status' }),
    detail: Type.String({ description: 'What went wrong in this request (may be reworded)' }),
    code: Type.Enum(Object.keys(errorCatalog) as ErrorCode[], { description: 'Stable: match on it' }),
    requestId: Type.String({ description: 'Also in the X-Request-Id header; quote it when reporting a problem' }),
    errors: Type.Optional(
      Type.Array(Type.Object({ path: Type.String({ examples: ['body.value'] }), message: Type.String() }), { description: 'Field errors (validation_failed)' }),
    ),
  },
  { description: 'An RFC 9457 problem document; match on `code` (docs/errors.md)' },
);

/** What a problem response says of its codes: each code with its title. */
function describeCodes(codes: readonly ErrorCode[]): string {
  return codes.map((code) => `\`${code}\` (${errorCatalog[code].title})`).join(', ');
}

/** A problem+json response whose `code` is one of `codes`, with the first as its example. */
function problemResponse(description: string, codes: readonly ErrorCode[]) {
  const first = codes[0] as ErrorCode;
  return {
    description,
    content: {
      'application/problem+json': {
        schema: { allOf: [{ $ref: PROBLEM_REF }, { type: 'object', properties: { code: { type: 'string', enum: codes } } }] },
        example: {
          type: `urn:questline:error:${first}`,
          title: errorCatalog[first].title,
          status: errorCatalog[first].status,
          detail: errorCatalog[first].title,
          code: first,
          requestId: '0193f6d2-8c1e-7a41-b7a5-2f9d3c4e5a61',
        },
      },
    },
  };
}

/** A problem response for `codes` (all of one status), with what they mean. */
function statusResponse(status: number, codes: readonly ErrorCode[]) {
  return problemResponse(`${STATUS_CODES[status] ?? 'Error'}: ${describeCodes(codes)}`, codes);
}

/**
 * Responses many operations share, written once under components.responses and referred to: the
 * token checks, the request rate, the body limits, maintenance, and what any request may get.
 */
const SHARED_RESPONSES: Record<string, readonly ErrorCode[]> = {
  Unauthorized: ['missing_token', 'invalid_token', 'token_expired', 'token_revoked'],
  PayloadTooLarge: ['payload_too_large'],
  UnsupportedMediaType: ['unsupported_media_type'],
  RateLimited: ['rate_limited'],
  Maintenance: ['maintenance'],
};
const SERVER_WIDE_RESPONSE = 'ServerWide';

function sharedResponses() {
  const responses: Record<string, unknown> = {};
  for (const [name, codes] of Object.entries(SHARED_RESPONSES)) responses[name] = statusResponse(errorCatalog[codes[0] as ErrorCode].status, codes);
  responses[SERVER_WIDE_RESPONSE] = problemResponse(`What any request may get: ${describeCodes(SERVER_WIDE_ERRORS)}`, SERVER_WIDE_ERRORS);
  return responses;
}

/** The shared response that says exactly `codes`, if there is one. */
function sharedResponseOf(codes: readonly ErrorCode[]): string | undefined {
  return Object.keys(SHARED_RESPONSES).find((name) => {
    const shared = SHARED_RESPONSES[name] as readonly ErrorCode[];
    return shared.length === codes.length && shared.every((code) => codes.includes(code));
  });
}

/** The operation's error responses: `codes` one response per status, and the server-wide ones as `default`. */
export function documentErrors(responses: Record<string, unknown>, codes: readonly ErrorCode[]): void {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCatalog[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const shared = sharedResponseOf(statusCodes);
    responses[String(status)] ??= shared !== undefined ? { $ref: `#/components/responses/${shared}` } : statusResponse(status, statusCodes);
  }
  responses.default = { $ref: `#/components/responses/${SERVER_WIDE_RESPONSE}` };
}

/** The components the error responses refer to: the problem schema and the shared responses. */
export function problemComponents() {
  return { schemas: { Problem: ProblemSchema }, responses: sharedResponses() };
}
