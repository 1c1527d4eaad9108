// The console's only way to the server: Questline's own API, with the session's bearer token.
// Answers in the `{ "response": … }` envelope are unwrapped; a problem+json answer becomes an
// ApiProblem with its stable code and field errors; a refused token (401) ends the session, and the
// shell sends the person to sign-in with where they were kept.
import { currentSession, endSession } from './session.js';

/** A problem+json answer (RFC 9457), as the API sends every error. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Field errors of a validation problem: `path` as the API names it. */
    readonly errors: ReadonlyArray<{ path: string; message: string }> = [],
  ) {
    super(message);
    this.name = 'ApiProblem';
  }
}

/** Fired on window when the API refused the session's token: the shell shows sign-in. */
export const SESSION_ENDED = 'ql-session-ended';

export interface Page<T> {
  items: T[];
  /** X-Total-Count, when the endpoint sends it. */
  total: number | undefined;
}

/** Calls the API as the signed-in client: the answer's body (unwrapped), or an ApiProblem. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await call<T>(method, path, body)).body;
}

/** A list endpoint's page and its X-Total-Count. */
export async function apiPage<T>(path: string): Promise<Page<T>> {
  const { body, headers } = await call<T[]>('GET', path);
  const total = headers.get('x-total-count');
  return { items: body, total: total === null ? undefined : Number(total) };
}

/** A document the API answers as it is (a backup's XML), not JSON: its text, or an ApiProblem. */
export async function apiText(path: string, accept: string): Promise<string> {
  const response = await send('GET', path, accept);
  if (!response.ok) return read<never>(response);
  return response.text();
}

async function call<T>(method: string, path: string, body?: unknown): Promise<{ body: T; headers: Headers }> {
  const response = await send(method, path, 'application/json', body);
  return { body: await read<T>(response), headers: response.headers };
}

/** The request with the session's token; a refused token ends the session. */
async function send(method: string, path: string, accept: string, body?: unknown): Promise<Response> {
  const session = currentSession();
  if (session === undefined) {
    window.dispatchEvent(new Event(SESSION_ENDED));
    throw new ApiProblem(401, 'unauthorized', 'Signed out');
  }
  const headers: Record<string, string> = { authorization: `Bearer ${session.token}`, accept };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, credentials: 'omit', body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status === 401) {
    endSession();
    window.dispatchEvent(new Event(SESSION_ENDED));
    throw new ApiProblem(401, 'unauthorized', 'Your session ended before this was done: sign in again, then do it once more.');
  }
  return response;
}

/** The body of an answer: JSON (unwrapped from its envelope), nothing for 204; a problem otherwise. */
export async function read<T>(response: Response): Promise<T> {
  const text = await response.text();
  const json: unknown = text === '' ? undefined : JSON.parse(text);
  if (!response.ok) throw toProblem(response.status, json);
  if (json !== null && typeof json === 'object' && 'response' in json) return (json as { response: T }).response;
  return json as T;
}

function toProblem(status: number, json: unknown): ApiProblem {
  const problem = (json ?? {}) as {
    code?: string;
    detail?: string;
    title?: string;
    errors?: Array<{ path: string; message: string }>;
    error?: string;
    error_description?: string;
  };
  return new ApiProblem(
    status,
    problem.code ?? problem.error ?? 'error',
    problem.detail ?? problem.error_description ?? problem.title ?? `The server answered ${status}`,
    problem.errors ?? [],
  );
}

/** A problem's field errors by field name (a body field's `body.` left off), to show each on its field; none for other errors. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiProblem)) return {};
  return Object.fromEntries(error.errors.map((e) => [e.path.replace(/^body\./, ''), e.message]));
}
