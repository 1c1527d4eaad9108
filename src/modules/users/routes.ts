// GET /admin/users: the users the site knows (whoever has logged an action, has a profile, or is
// in a group), found by the start of their id or any part of their name; what the console's People
// page searches. Admin only: it lists every user of the site.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, pageResponse, PagingQuery } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import type { UserDirectory } from './directory.js';
import { Person } from './schemas.js';

const UsersQuery = Type.Intersect([
  PagingQuery,
  Type.Object({
    q: Type.Optional(Type.String({ maxLength: 100, description: "Matched ignoring case against the user id's start and anywhere in the name" })),
  }),
]);

export const userAdminRoutes: FastifyPluginAsyncTypebox<{ users: UserDirectory }> = async (app, { users }) => {
  app.get(
    '/admin/users',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'listUsers',
        tags: ['admin: users'],
        summary: 'The users the site knows, named ones first in name order, then by id (total in X-Total-Count)',
        querystring: UsersQuery,
        response: { 200: Envelope(Type.Array(Person)) },
      },
    },
    async (request, reply) => {
      const { q, limit = 50, offset = 0 } = request.query;
      const { people, total } = await users.search({ siteId: authOf(request).siteId, q, match: 'anywhere', limit, offset });
      return pageResponse(reply, people, total);
    },
  );
};
