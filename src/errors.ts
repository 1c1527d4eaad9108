// The closed error catalog (STYLE: a closed error catalog). Every error the API returns has a
// stable snake_case code listed here with its HTTP status and title; docs/errors.md documents each
// one and a test fails when one is missing there. Services throw AppError with a code; only the
// HTTP layer turns it into problem+json.

export const errorCatalog = {
  validation_failed: { status: 400, title: 'The request is invalid' },
  malformed_body: { status: 400, title: 'The request body could not be parsed' },
  malformed_request: { status: 400, title: 'The request is not valid HTTP' },
  malformed_xml: { status: 400, title: 'The XML document is malformed' },
  xml_forbidden: { status: 400, title: 'The XML document uses a forbidden construct' },
  missing_token: { status: 401, title: 'A bearer token is required' },
  invalid_token: { status: 401, title: 'The bearer token is invalid' },
  token_expired: { status: 401, title: 'The bearer token has expired' },
  token_revoked: { status: 401, title: 'The bearer token has been revoked' },
  forbidden: { status: 403, title: 'This token may not call this endpoint' },
  origin_not_allowed: { status: 403, title: "The request's origin is not allowed by the site" },
  not_found: { status: 404, title: 'The object does not exist' },
  route_not_found: { status: 404, title: 'No such endpoint' },
  conflict: { status: 409, title: 'The object already exists' },
  event_id_conflict: { status: 409, title: 'The eventId was already used for another action' },
  unknown_action: { status: 422, title: 'The site has no such action' },
  amount_out_of_range: { status: 422, title: 'A computed amount is outside the range the ledger records' },
  program_invalid: { status: 422, title: 'The program breaks a rule' },
  unknown_exchange: { status: 422, title: 'The site has no such exchange' },
  unknown_category: { status: 422, title: 'The exchange has no such category' },
  exchange_closed: { status: 422, title: 'The exchange is not open now' },
  giver_not_eligible: { status: 422, title: 'The user may not give in this exchange' },
  self_recognition: { status: 422, title: 'A user cannot recognize themselves' },
  too_many_recipients: { status: 422, title: 'The recognition has more recipients than the exchange allows' },
  points_out_of_range: { status: 422, title: "A recipient's points are outside the exchange's range" },
  recipient_not_eligible: { status: 422, title: 'A recipient may not receive in this exchange' },
  budget_exceeded: { status: 422, title: "The recognition exceeds the giver's remaining budget" },
  quiz_closed: { status: 422, title: 'The quiz is not open now' },
  quiz_attempts_exhausted: { status: 422, title: 'Every attempt the quiz allows is used' },
  quiz_already_passed: { status: 422, title: 'The user has passed this quiz already' },
  already_answered: { status: 409, title: 'The question is answered already in this attempt' },
  unknown_marketplace: { status: 404, title: 'The site has no such marketplace' },
  award_access_denied: { status: 422, title: 'The user may not redeem from their award account' },
  insufficient_award_balance: { status: 422, title: 'The debit exceeds the available award balance' },
  ots_code_unknown: { status: 422, title: 'No such on-the-spot code' },
  ots_code_expired: { status: 422, title: 'The on-the-spot code has expired' },
  ots_code_used: { status: 409, title: 'The on-the-spot code has been redeemed already' },
  ots_attempts_exceeded: { status: 429, title: 'Too many failed code redemptions' },
  request_timeout: { status: 408, title: 'The request did not arrive in time' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  precondition_failed: { status: 412, title: 'A precondition of the request does not hold' },
  uri_too_long: { status: 414, title: 'The request path is too long' },
  unsupported_media_type: { status: 415, title: 'The request body has an unsupported content type' },
  range_not_satisfiable: { status: 416, title: 'The requested range is not in the file' },
  rate_limited: { status: 429, title: 'Too many requests' },
  restore_busy: { status: 429, title: 'Other restores are in progress; retry shortly' },
  headers_too_large: { status: 431, title: 'The request headers are too large' },
  internal_error: { status: 500, title: 'Internal server error' },
  shutting_down: { status: 503, title: 'This server is shutting down' },
  maintenance: { status: 503, title: 'The site is down for maintenance' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCatalog;

/** A field-level problem: where in the input, and why. */
export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    detail?: string,
    readonly options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail ?? errorCatalog[code].title);
    this.name = 'AppError';
    this.status = errorCatalog[code].status;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
