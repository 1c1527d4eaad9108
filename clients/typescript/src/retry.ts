// When a failed call is tried again (docs in README.md, "Retries and idempotency"): 429 and 503
// answers honour Retry-After within a budget (attempts and total wait); without it, a jittered
// exponential backoff. Which calls may be retried at all is decided here too.

export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  maxAttempts?: number;
  /** The most a call waits between its attempts, in all, in ms (default 30 000). A Retry-After past it is not waited for. */
  maxWaitMs?: number;
  /** The first backoff step when the answer has no Retry-After, in ms (default 250); each next one doubles, up to maxDelayMs. */
  baseDelayMs?: number;
  /** The largest backoff step, in ms (default 5 000). */
  maxDelayMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    maxAttempts: Math.max(1, Math.floor(options.maxAttempts ?? 3)),
    maxWaitMs: Math.max(0, options.maxWaitMs ?? 30_000),
    baseDelayMs: Math.max(0, options.baseDelayMs ?? 250),
    maxDelayMs: Math.max(0, options.maxDelayMs ?? 5_000),
  };
}

/**
 * The wait a Retry-After header asks for, in ms: delay-seconds ("120") or an HTTP date ("Wed, 21
 * Oct 2026 07:28:00 GMT", measured from `now`; a date past is no wait). Undefined when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names a weekday and GMT; a bare number with a sign or fraction is no valid value.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** "Full jitter" backoff before retry number `retry` (1 for the first retry): uniform in [0, min(max, base·2^(retry−1))]. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** Statuses whose answer says the request was not processed and may be sent again later. */
export const RETRYABLE_STATUSES = new Set([429, 503]);

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** POST /users/{u}/actions and POST /groups/{g}/actions: made idempotent by their eventId. */
export function isActionLog(method: string, pathname: string): boolean {
  return method === 'POST' && /^\/(?:users|groups)\/[^/]+\/actions\/?$/.test(pathname);
}

/**
 * Whether sending the request twice has the effect of sending it once, so that it may be retried
 * even when the first attempt might have been applied (a network error, a 503 from a proxy). GET,
 * PUT and DELETE are, except DELETE …/completions/latest without `completionId` (each call removes
 * the latest one); action logging is, since the client gives every action an eventId; other POSTs
 * (recognitions, quiz answers, award debits) are not.
 */
export function isIdempotent(method: string, url: URL, basePath = ''): boolean {
  const pathname = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
  if (isActionLog(method, pathname)) return true;
  if (!IDEMPOTENT_METHODS.has(method)) return false;
  if (method === 'DELETE' && /\/completions\/latest\/?$/.test(pathname) && !url.searchParams.has('completionId')) return false;
  return true;
}
