// List paging (SPEC §2): `limit` (default 50, at most 500) and `offset`. The total is in X-Total-Count.
// Every paging parameter of every route is one of these schemas, so that each has a maximum: past
// it a number is refused with 400 rather than reaching the database (an offset of 1e20 is no
// 64-bit integer).
import type { FastifyReply } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';

/** The largest offset a list takes; no list this service keeps is longer. */
export const MAX_OFFSET = 10_000_000;

export const Offset = Type.Integer({
  minimum: 0,
  maximum: MAX_OFFSET,
  default: 0,
  description: `Items to skip (at most ${MAX_OFFSET.toLocaleString('en-US')})`,
});

/** A page size from 1 to `maximum`. */
export const Limit = (maximum: number, options: { default?: number; description?: string } = {}) => Type.Integer({ minimum: 1, maximum, ...options });

export const PagingQuery = Type.Object({
  limit: Type.Optional(Limit(500, { default: 50 })),
  offset: Type.Optional(Offset),
});

export type Paging = Static<typeof PagingQuery>;

/** The envelope of one page of a list the store cut, and the list's total in X-Total-Count. */
export function pageResponse<T>(reply: FastifyReply, items: T, total: number): { response: T } {
  reply.header('x-total-count', String(total));
  return { response: items };
}

/** The page `paging` asks for of a list held whole in memory; the list's length in X-Total-Count. */
export function page<T>(items: readonly T[], paging: Paging, reply: FastifyReply): T[] {
  const offset = paging.offset ?? 0;
  reply.header('x-total-count', String(items.length));
  return items.slice(offset, offset + (paging.limit ?? 50));
}

/** `{ response: T }`, the success envelope of every endpoint (SPEC §2). */
export const Envelope = <T extends TSchema>(schema: T) => Type.Object({ response: schema });
