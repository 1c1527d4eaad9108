// List paging (SPEC §2): `limit` (default 50, at most 500) and `offset`. The total is in X-Total-Count.
import type { FastifyReply } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';

export const PagingQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});

export type Paging = Static<typeof PagingQuery>;

export function page<T>(items: readonly T[], paging: Paging, reply: FastifyReply): T[] {
  const offset = paging.offset ?? 0;
  reply.header('x-total-count', String(items.length));
  return items.slice(offset, offset + (paging.limit ?? 50));
}

/** `{ response: T }`, the success envelope of every endpoint (SPEC §2). */
export const Envelope = <T extends TSchema>(schema: T) => Type.Object({ response: schema });
