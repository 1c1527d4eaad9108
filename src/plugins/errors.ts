// One global error handler: every error leaves as RFC 9457 problem+json with a stable code from the
// closed catalog (src/errors.ts) and the request id. 5xx bodies never carry internals.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, errorCatalog, type ErrorCode, type FieldError } from '../errors.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problemBody(error: AppError, requestId: string) {
  return {
    type: `urn:questline:error:${error.code}`,
    title: errorCatalog[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    requestId,
    ...(error.options.errors !== undefined ? { errors: error.options.errors } : {}),
  };
}

export function sendProblem(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.options.headers) reply.headers(error.options.headers);
  return reply.status(error.status).type(PROBLEM_CONTENT_TYPE).send(problemBody(error, reply.request.id));
}

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

function fieldErrors(issues: ValidationIssue[], context: string | undefined): FieldError[] {
  const pathOf = (issue: ValidationIssue) => {
    const segments = issue.instancePath.split('/').filter((s) => s !== '');
    const missing = (issue.params as { missingProperty?: unknown }).missingProperty;
    if (issue.keyword === 'required' && typeof missing === 'string') segments.push(missing);
    return [context ?? 'body', ...segments].join('.');
  };
  // An enum is a union of literals: ajv reports one 'const' failure per allowed value and an
  // 'anyOf'; say it once, listing what is allowed.
  const allowed = new Map<string, unknown[]>();
  for (const issue of issues) {
    if (issue.keyword === 'const') allowed.set(pathOf(issue), [...(allowed.get(pathOf(issue)) ?? []), (issue.params as { allowedValue?: unknown }).allowedValue]);
  }
  const unions = new Set(issues.filter((issue) => issue.keyword === 'anyOf').map(pathOf));
  return issues.flatMap((issue) => {
    const path = pathOf(issue);
    if (issue.keyword === 'const' && unions.has(path)) return [];
    if (issue.keyword === 'anyOf' && allowed.has(path)) return [{ path, message: `must be one of: ${(allowed.get(path) ?? []).join(', ')}` }];
    return [{ path, message: issue.message ?? 'is invalid' }];
  });
}

const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'malformed_body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_body',
};

/** Turns anything thrown into an AppError; unexpected errors become internal_error. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as Partial<FastifyError> & { statusCode?: number };
  if (fastifyError.validation) {
    return new AppError('validation_failed', 'The request is invalid', {
      errors: fieldErrors(fastifyError.validation, fastifyError.validationContext),
    });
  }
  const mapped = fastifyError.code !== undefined ? fastifyCodes[fastifyError.code] : undefined;
  if (mapped === 'unsupported_media_type') {
    return new AppError(mapped, 'Send application/json or application/x-www-form-urlencoded');
  }
  if (mapped !== undefined) return new AppError(mapped);
  if (error instanceof SyntaxError || fastifyError.statusCode === 400) return new AppError('malformed_body', 'The request body could not be parsed');
  if (fastifyError.statusCode === 413) return new AppError('payload_too_large');
  if (fastifyError.statusCode === 415) return new AppError('unsupported_media_type');
  return new AppError('internal_error', 'An unexpected error occurred; quote the requestId when reporting it');
}

export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const appError = toAppError(error);
      if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
      return sendProblem(reply, appError);
    });
    app.setNotFoundHandler((request, reply) =>
      sendProblem(reply, new AppError('route_not_found', `No endpoint ${request.method} ${request.url.split('?')[0]}`)),
    );
  },
  { name: 'errors' },
);
