// What a failed call throws: a problem+json answer (docs/errors.md) as a typed QuestlineError, with
// the token endpoint's RFC 6749 answers and any other non-2xx answer in the same shape.
import type { ErrorCode, paths } from './schema.js';

/** The token endpoint's error codes (RFC 6749 §5.2), as its OpenAPI schema declares them. */
export type OAuthErrorCode = paths['/oauth/token/']['post']['responses']['4XX']['content']['application/json']['error'];

/** A field-level problem of a validation error: where in the request, and why. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * A call that failed. `code` is stable: match on it (an ErrorCode of the reference, an OAuthErrorCode
 * from the token endpoint, or `http_error` for an answer that was not a problem document, such as a
 * proxy's). `requestId` is the one to quote when reporting a problem.
 */
export class QuestlineError extends Error {
  override readonly name = 'QuestlineError';
  readonly status: number;
  readonly code: ErrorCode | OAuthErrorCode | 'http_error';
  readonly title: string;
  readonly detail: string | undefined;
  readonly requestId: string | undefined;
  readonly errors: FieldError[];
  /** The answer itself (its body already read), for its headers. */
  readonly response: Response | undefined;

  constructor(init: {
    status: number;
    code: QuestlineError['code'];
    title: string;
    detail?: string | undefined;
    requestId?: string | undefined;
    errors?: FieldError[] | undefined;
    response?: Response | undefined;
  }) {
    super(init.detail !== undefined && init.detail !== init.title ? `${init.title}: ${init.detail}` : init.title);
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.errors = init.errors ?? [];
    this.response = init.response;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function fieldErrors(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((error) => ({ path: text(error.path) ?? '', message: text(error.message) ?? '' }));
}

/** The error for a non-2xx answer whose body was `body` (parsed JSON when it was JSON, else its text). */
export function errorFromResponse(response: Response, body: unknown): QuestlineError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  if (isRecord(body) && typeof body.code === 'string') {
    return new QuestlineError({
      status: typeof body.status === 'number' ? body.status : response.status,
      code: body.code as ErrorCode,
      title: text(body.title) ?? response.statusText,
      detail: text(body.detail),
      requestId: text(body.requestId) ?? requestId,
      errors: fieldErrors(body.errors),
      response,
    });
  }
  if (isRecord(body) && typeof body.error === 'string') {
    return new QuestlineError({
      status: response.status,
      code: body.error as OAuthErrorCode,
      title: body.error,
      detail: text(body.error_description),
      requestId,
      response,
    });
  }
  return new QuestlineError({
    status: response.status,
    code: 'http_error',
    title: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
    detail: typeof body === 'string' && body !== '' ? body.slice(0, 500) : undefined,
    requestId,
    response,
  });
}

/** Reads the body of a non-2xx answer and makes its error. */
export async function readError(response: Response): Promise<QuestlineError> {
  const raw = await response.text().catch(() => '');
  let body: unknown = raw;
  try {
    body = JSON.parse(raw);
  } catch {
    // Not JSON: the text is the detail.
  }
  return errorFromResponse(response, body);
}
