// createClient(): openapi-fetch's typed calls over the generated schema, sent through one pipeline
// that adds the bearer token (renewed once on a 401 for an expired token), gives logged actions an
// eventId, retries what may be retried, and turns a failed answer into a QuestlineError.
import createFetchClient, { type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import { errorFromResponse, readError } from './errors.js';
import { listItems, type ListInit, type ListItem, type ListPath } from './paging.js';
import { backoffDelay, isActionLog, isIdempotent, parseRetryAfter, retryPolicy, type RetryOptions, type RetryPolicy } from './retry.js';
import type { paths } from './schema.js';
import { TokenCache, type IssuedToken } from './tokens.js';
import { randomUuid } from './uuid.js';

interface CommonOptions {
  /** Where Questline answers, e.g. `https://questline.example.com` (a path prefix is kept). */
  baseUrl: string;
  retry?: RetryOptions;
  /** Renew a token when less than this is left of it (default 60; at most half its lifetime). */
  tokenRenewalMarginSeconds?: number;
  /** The fetch to send requests with (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** The clock token expiry is measured with, ms since the epoch (default Date.now). */
  now?: () => number;
}

/** A server-side client with its credentials: client-level tokens, and user-level ones through forUser(). */
export interface CredentialsOptions extends CommonOptions {
  clientId: string;
  clientSecret: string;
  /** Act for this user with a user-level token (xoauth_end_user_id) instead of a client-level one. */
  userId?: string;
}

/**
 * A client with a token obtained elsewhere, as in a browser, which must never hold a client secret:
 * a fixed token, or a function that fetches a fresh one (from your backend, which minted it with
 * `client.forUser(userId).token()`); the function is asked again when the token is about to expire
 * or the server says it has.
 */
export interface TokenOptions extends CommonOptions {
  token: string | (() => string | Promise<string>);
}

export type ClientOptions = CredentialsOptions | TokenOptions;

type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];
type SuccessOf<R> = Exclude<R, { data?: never }>;
/** What a call resolves to: the parsed body and the answer (its headers). A failure rejects with a QuestlineError. */
export type Success<R> = [SuccessOf<R>] extends [never] ? { data: undefined; response: Response } : Omit<SuccessOf<R>, 'error'>;

// openapi-fetch's FetchResponse constrains an operation to Record<string | number, any>, its own bound.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Operation<P extends keyof paths, M extends HttpMethod> = Extract<paths[P][M], Record<string | number, any>>;

/** A typed call: the path as the API documents it, its parameters and body checked against the schema. */
export type Call<M extends HttpMethod> = <P extends PathsWithMethod<paths, M>, I extends MaybeOptionalInit<paths[P], M>>(
  url: P,
  ...init: InitParam<I>
) => Promise<Success<FetchResponse<Operation<P, M>, I, MediaType>>>;

type ActionRequest = NonNullable<paths['/users/{userId}/actions']['post']['requestBody']>['content']['application/json'];
type ActionOutcome = paths['/users/{userId}/actions']['post']['responses'][200]['content']['application/json']['response'];
type TokenAnswer = paths['/oauth/token/']['post']['responses'][200]['content']['application/json'];

export interface QuestlineClient {
  GET: Call<'get'>;
  POST: Call<'post'>;
  PUT: Call<'put'>;
  PATCH: Call<'patch'>;
  DELETE: Call<'delete'>;
  /**
   * Logs an action for a user. Without an `eventId` the client generates one (a UUID) before the
   * first attempt, so a retry is recognized as the same event (`duplicate: true`) and never counts twice.
   */
  logAction(userId: string, action: string | ActionRequest, options?: { dryRun?: boolean }): Promise<ActionOutcome>;
  /** Every item of a list endpoint, fetching page after page (offset/limit with X-Total-Count, or X-Next-Cursor). */
  list<P extends ListPath>(url: P, init?: ListInit<P>): AsyncIterableIterator<ListItem<P>>;
  /** The same client acting for one user, with that user's token (user-level, cached per user). Needs client credentials. */
  forUser(userId: string): QuestlineClient;
  /** This client's current bearer token (renewed when due): hand a user-level one to that user's browser. */
  token(): Promise<string>;
}

/** Codes of a 401 that a new token cures. */
const RENEWABLE = new Set(['token_expired', 'invalid_token', 'token_revoked']);
const DEFAULT_MARGIN_SECONDS = 60;

interface Pipeline {
  baseUrl: string;
  basePath: string;
  policy: RetryPolicy;
  fetch: (request: Request) => Promise<Response>;
  now: () => number;
  tokens: TokenCache;
  /** Whether a refused token may be replaced by asking again (not for a fixed token). */
  renewable: boolean;
  credentials: boolean;
}

export function createClient(options: ClientOptions): QuestlineClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const now = options.now ?? Date.now;
  const pipeline: Pipeline = {
    baseUrl,
    basePath: new URL(baseUrl).pathname.replace(/\/+$/, ''),
    policy: retryPolicy(options.retry),
    fetch: fetchImpl,
    now,
    renewable: 'clientId' in options || typeof options.token === 'function',
    credentials: 'clientId' in options,
    tokens: undefined as unknown as TokenCache,
  };
  const renewalMarginMs = (options.tokenRenewalMarginSeconds ?? DEFAULT_MARGIN_SECONDS) * 1000;
  pipeline.tokens = new TokenCache('clientId' in options ? (userId) => requestToken(pipeline, options, userId) : fromSupplier(options.token), {
    now,
    renewalMarginMs,
  });
  return userClient(pipeline, 'clientId' in options ? options.userId : undefined);
}

function userClient(pipeline: Pipeline, userId: string | undefined): QuestlineClient {
  const raw = createFetchClient<paths>({ baseUrl: pipeline.baseUrl, fetch: (request: Request) => send(pipeline, request, { userId }) });
  const call =
    (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE') =>
    async (url: string, init?: object): Promise<{ data: unknown; response: Response }> => {
      // The schema's types are checked at the public signature (Call); here the path is any path.
      const result = await (raw[method] as (url: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(url, init);
      if (!result.response.ok) throw errorFromResponse(result.response, result.error);
      return { data: result.data, response: result.response };
    };
  const client: QuestlineClient = {
    GET: call('GET') as Call<'get'>,
    POST: call('POST') as Call<'post'>,
    PUT: call('PUT') as Call<'put'>,
    PATCH: call('PATCH') as Call<'patch'>,
    DELETE: call('DELETE') as Call<'delete'>,
    async logAction(forUser, action, { dryRun } = {}) {
      const body = typeof action === 'string' ? { action } : action;
      const { data } = await client.POST('/users/{userId}/actions', {
        params: { path: { userId: forUser }, query: dryRun === undefined ? {} : { dryRun } },
        body: { ...body, eventId: body.eventId ?? randomUuid() },
      });
      return data.response;
    },
    list: (url, init) => listItems(client, url, init),
    forUser(otherUserId) {
      if (!pipeline.credentials) throw new Error('forUser() needs a client created with clientId and clientSecret');
      return userClient(pipeline, otherUserId);
    },
    token: () => pipeline.tokens.get(userId),
  };
  return client;
}

/** The token endpoint's answer for the credentials, user-level when userId is given. */
async function requestToken(pipeline: Pipeline, credentials: CredentialsOptions, userId: string | undefined): Promise<IssuedToken> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.clientSecret });
  if (userId !== undefined) form.set('xoauth_end_user_id', userId);
  const requestedAt = pipeline.now();
  const response = await send(
    pipeline,
    new Request(`${pipeline.baseUrl}/oauth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    }),
    // Asking twice for a token has no effect beyond the token: retried like an idempotent call.
    { anonymous: true },
  );
  if (!response.ok) throw await readError(response);
  const answer = (await response.json()) as TokenAnswer;
  return { token: answer.access_token, expiresAt: requestedAt + answer.expires_in * 1000 };
}

/** A token supplier as a token source: a JWT's `exp` says when it is due for renewal. */
function fromSupplier(supplier: TokenOptions['token']): (userId: string | undefined) => Promise<IssuedToken> {
  return async () => {
    const token = typeof supplier === 'function' ? await supplier() : supplier;
    return { token, expiresAt: jwtExpiry(token) ?? Number.POSITIVE_INFINITY };
  };
}

/** A JWT's `exp` in ms, read without verifying (the server verifies); undefined for anything else. */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as the caller aborts the call. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Sends a request: with a token (unless anonymous), renewing it once on a 401 that a new token
 * cures, and retrying within the policy's budget: a 429 always (the server refused it before doing
 * anything), a 503 or a network failure only when the request is idempotent (it may have been applied).
 */
async function send(pipeline: Pipeline, original: Request, options: { userId?: string | undefined; anonymous?: boolean }): Promise<Response> {
  const url = new URL(original.url);
  const request = await withEventId(original, url, pipeline.basePath);
  const idempotent = options.anonymous === true || isIdempotent(request.method, url, pipeline.basePath);
  const { policy } = pipeline;
  let waited = 0;
  let renewed = false;
  /** The wait before attempt `attempt + 1`, or undefined when the budget does not allow another. */
  const nextDelay = (attempt: number, retryAfter: number | undefined): number | undefined => {
    if (attempt >= policy.maxAttempts) return undefined;
    const delay = retryAfter ?? backoffDelay(attempt, policy);
    return waited + delay <= policy.maxWaitMs ? delay : undefined;
  };
  for (let attempt = 1; ; attempt += 1) {
    const attemptRequest = request.clone();
    const token = options.anonymous === true ? undefined : await pipeline.tokens.get(options.userId);
    if (token !== undefined) attemptRequest.headers.set('authorization', `Bearer ${token}`);
    let response: Response;
    try {
      response = await pipeline.fetch(attemptRequest);
    } catch (error) {
      const delay = idempotent ? nextDelay(attempt, undefined) : undefined;
      if (delay === undefined) throw error;
      waited += delay;
      await sleep(delay, request.signal);
      continue;
    }
    if (response.status === 401 && token !== undefined && pipeline.renewable && !renewed && RENEWABLE.has(await problemCode(response))) {
      // Not an attempt of the budget: the request was refused before it ran.
      pipeline.tokens.invalidate(options.userId, token);
      renewed = true;
      attempt -= 1;
      await response.body?.cancel();
      continue;
    }
    if (response.status === 429 || (response.status === 503 && idempotent)) {
      const delay = nextDelay(attempt, parseRetryAfter(response.headers.get('retry-after'), Date.now()));
      if (delay !== undefined) {
        waited += delay;
        await response.body?.cancel();
        await sleep(delay, request.signal);
        continue;
      }
    }
    return response;
  }
}

async function problemCode(response: Response): Promise<string> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : '';
  } catch {
    return '';
  }
}

/** A logged action without an eventId gets one, so that every attempt of it is the same event. */
async function withEventId(request: Request, url: URL, basePath: string): Promise<Request> {
  const pathname = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
  if (!isActionLog(request.method, pathname)) return request;
  const type = request.headers.get('content-type') ?? '';
  const text = await request.clone().text();
  if (type.includes('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(text);
    if (form.has('eventId')) return request;
    form.set('eventId', randomUuid());
    return new Request(request, { body: form.toString() });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return request; // The server answers malformed_body; nothing to make idempotent.
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || 'eventId' in body) return request;
  return new Request(request, { body: JSON.stringify({ ...body, eventId: randomUuid() }) });
}
