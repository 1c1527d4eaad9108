// Async iteration over the list endpoints. Two kinds of list page: by `offset`/`limit` with the
// list's length in X-Total-Count (most lists), and by an opaque `cursor` from X-Next-Cursor (the
// action histories, which stay stable while actions are added; the same cursor is in `Link:
// rel="next"`, which browsers can read across origins where X-Next-Cursor is not exposed).
import type { MaybeOptionalInit } from 'openapi-fetch';
import type { PathsWithMethod } from 'openapi-typescript-helpers';
import type { paths } from './schema.js';

type GetPath = PathsWithMethod<paths, 'get'>;
type QueryOf<P extends GetPath> = paths[P]['get'] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type BodyOf<P extends GetPath> = paths[P]['get'] extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type Paged<P extends GetPath> = QueryOf<P> extends { offset?: unknown } ? true : QueryOf<P> extends { cursor?: unknown } ? true : false;

/** The element of a list endpoint's `response` array. */
export type ListItem<P extends GetPath> = BodyOf<P> extends { response: Array<infer Item> } ? Item : never;

/** GET paths that page (offset or cursor) and answer `{ response: [...] }`. */
export type ListPath = { [P in GetPath]: Paged<P> extends true ? ([ListItem<P>] extends [never] ? never : P) : never }[GetPath];

/** The call's parameters; `offset` and `cursor` are the iterator's, `limit` is the page size. */
export type ListInit<P extends ListPath> = MaybeOptionalInit<paths[P], 'get'>;

interface Getter {
  GET(url: string, init?: object): Promise<{ data: unknown; response: Response }>;
}

export async function* listItems<P extends ListPath>(client: unknown, url: P, init?: ListInit<P>): AsyncIterableIterator<ListItem<P>> {
  const getter = client as Getter;
  const params = (init as { params?: { query?: Record<string, unknown> } } | undefined)?.params ?? {};
  let query: Record<string, unknown> = { ...params.query };
  for (;;) {
    const { data, response } = await getter.GET(url, { ...init, params: { ...params, query } });
    const items = (data as { response: ListItem<P>[] }).response;
    yield* items;
    const cursor = response.headers.get('x-next-cursor') ?? nextCursorOfLink(response.headers.get('link'));
    if (cursor !== null && cursor !== '') {
      query = { ...query, cursor };
      continue;
    }
    const total = Number(response.headers.get('x-total-count'));
    const offset = Number(query.offset ?? 0) + items.length;
    if (items.length === 0 || !Number.isFinite(total) || offset >= total || response.headers.get('x-total-count') === null) return;
    query = { ...query, offset };
  }
}

/** The `cursor` of the `rel="next"` target of a Link header, if any. */
export function nextCursorOfLink(link: string | null): string | null {
  if (link === null) return null;
  for (const part of link.split(',')) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match === null || !/\brel="?next"?/.test(match[2] ?? '')) continue;
    return new URL(match[1] ?? '', 'http://questline.invalid').searchParams.get('cursor');
  }
  return null;
}
