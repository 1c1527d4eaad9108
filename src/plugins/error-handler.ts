// One global error handler: every error leaves as RFC 9457 problem+json with a stable code from the
// closed catalog (src/errors.ts) and the request id. 5xx bodies never carry internals.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, errorCatalog, type ErrorCode, type FieldError } from '../errors.js';
import { logRequest } from '../http/request-log.js';

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

/**
 * The problem for anything thrown, for a hook that replaces a response on its way out (onSend,
 * where throwing would reach Fastify's own handler once ours has run): the status and headers are
 * set on `reply` and the body returned, as the error handler's reply would have them.
 */
export function problemPayload(error: unknown, request: FastifyRequest, reply: FastifyReply): string {
  const appError = toAppError(error);
  if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
  if (appError.options.headers) reply.headers(appError.options.headers);
  // The charset Fastify adds when it serializes a JSON type itself.
  reply.status(appError.status).type(`${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
  return JSON.stringify(problemBody(appError, request.id));
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
    if (issue.keyword === 'const')
      allowed.set(pathOf(issue), [...(allowed.get(pathOf(issue)) ?? []), (issue.params as { allowedValue?: unknown }).allowedValue]);
  }
  const unions = new Set(issues.filter((issue) => issue.keyword === 'anyOf').map(pathOf));
  return issues.flatMap((issue) => {
    const path = pathOf(issue);
    if (issue.keyword === 'const' && unions.has(path)) return [];
    if (issue.keyword === 'anyOf' && allowed.has(path)) return [{ path, message: `must be one of: ${(allowed.get(path) ?? []).join(', ')}` }];
    return [{ path, message: issue.message ?? 'is invalid' }];
  });
}

/**
 * Fastify's own errors that a request can cause, each with its code in the catalog. Those not here
 * (Fastify's programming errors) are internal errors, logged.
 */
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'malformed_body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_body',
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: 'unsupported_media_type',
  FST_ERR_ROUTE_MISSING_CONTENT: 'malformed_body',
  FST_ERR_BAD_URL: 'validation_failed',
  FST_ERR_INVALID_URL: 'validation_failed',
  FST_ERR_MAX_PARAM_LENGTH: 'uri_too_long',
  FST_ERR_NOT_FOUND: 'route_not_found',
};

/** The catalog's code for a client error status that carries no Fastify code of ours. */
const statusCodes: Partial<Record<number, ErrorCode>> = {
  404: 'route_not_found',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
};

const fastifyDetails: Partial<Record<string, string>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send application/json or application/x-www-form-urlencoded',
  FST_ERR_BAD_URL: 'The path is not valid percent-encoding',
  FST_ERR_INVALID_URL: 'The URL is not valid',
  FST_ERR_MAX_PARAM_LENGTH: 'A segment of the path is longer than 1,024 characters (ids are at most 255)',
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
  if (mapped !== undefined) return new AppError(mapped, fastifyDetails[fastifyError.code as string]);
  if (error instanceof SyntaxError || fastifyError.statusCode === 400) return new AppError('malformed_body', 'The request body could not be parsed');
  // Any other client error a plugin raises (@fastify/static's 412 and 416 under /docs): its
  // status's code, or malformed_request; never a 500.
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const code = statusCodes[status];
    return code !== undefined
      ? new AppError(code)
      : new AppError('malformed_request', typeof fastifyError.message === 'string' ? fastifyError.message : undefined);
  }
  return new AppError('internal_error', 'An unexpected error occurred; quote the requestId when reporting it');
}

/** How long the rest of a body over the limit is read and dropped at most. */
const DRAIN_MS = 10_000;
/** How long a client may send nothing before the connection of its refused body closes. */
const DRAIN_IDLE_MS = 250;

/**
 * After a 413 the rest of the body is read and dropped, so that a client still sending reads the
 * answer: closing at once (Fastify's way) resets it, and most clients then report the reset, not
 * the 413. The connection closes once the client stops sending without finishing (some clients,
 * Node's among them, stop writing when the answer arrives) or after 10 s; a body that ends leaves
 * the connection open for the next request.
 */
function drainBody(request: FastifyRequest, reply: FastifyReply): void {
  reply.removeHeader('connection');
  const raw = request.raw;
  if (raw.complete) return;
  const close = () => raw.socket.destroy();
  const deadline = setTimeout(close, DRAIN_MS).unref();
  let idle = setTimeout(close, DRAIN_IDLE_MS).unref();
  const onData = () => {
    clearTimeout(idle);
    idle = setTimeout(close, DRAIN_IDLE_MS).unref();
  };
  const done = () => {
    clearTimeout(deadline);
    clearTimeout(idle);
    raw.off('data', onData);
  };
  raw.on('data', onData);
  raw.once('end', done);
  raw.once('close', done);
  raw.resume();
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MB (${bytes.toLocaleString('en-US')} bytes)` : `${bytes.toLocaleString('en-US')} bytes`;
}

/** Sends the problem for anything thrown; a 5xx is logged with the request id first. */
function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError =
    (error as Partial<FastifyError>).code === 'FST_ERR_CTP_BODY_TOO_LARGE'
      ? new AppError('payload_too_large', `The request body is larger than the ${formatBytes(request.routeOptions.bodyLimit ?? 0)} this endpoint takes`)
      : toAppError(error);
  if (appError.status === 413) drainBody(request, reply);
  if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
  return sendProblem(reply, appError);
}

/** Fastify's `frameworkErrors`: errors raised before routing (a path over the router's limits, bad percent-encoding). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('x-request-id', request.id);
  // Fastify writes no log line for these: the request's line is written here.
  reply.raw.once('finish', () => logRequest(request, reply));
  return answerError(error, request, reply);
}

const HTTP_PROBLEMS: Record<string, { status: number; code: ErrorCode; detail: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'headers_too_large', detail: 'The request headers are larger than the server takes (16 KB)' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', detail: 'The request did not arrive in time' },
};

/**
 * Fastify's `clientErrorHandler`: a request that is not valid HTTP (a Content-Length that is not a
 * number, more body than its Content-Length says, headers over the limit) never reaches routing;
 * it still gets a problem document, with a request id of its own, and the connection closes.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Bytes that are not HTTP after a request still being answered (its body was longer than its
  // Content-Length said): that request's own answer goes out, and the connection closes after it.
  // Writing a 400 here instead would answer a request that is being recorded.
  const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (pending !== undefined && pending !== null && !pending.writableFinished) {
    this.log.info({ code: error.code }, 'client error after a request; its answer closes the connection');
    if (!pending.headersSent) pending.setHeader('connection', 'close');
    pending.once('close', () => socket.destroy());
    return;
  }
  const known = error.code !== undefined ? HTTP_PROBLEMS[error.code] : undefined;
  const appError = new AppError(known?.code ?? 'malformed_request', known?.detail ?? 'The request is not valid HTTP/1.1');
  const requestId = randomUUID();
  this.log.info({ requestId, code: error.code, status: appError.status }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(problemBody(appError, requestId));
    socket.write(
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status] ?? ''}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler(answerError);
    app.setNotFoundHandler((request, reply) =>
      sendProblem(reply, new AppError('route_not_found', `No endpoint ${request.method} ${request.url.split('?')[0]}`)),
    );
  },
  { name: 'errors' },
);
