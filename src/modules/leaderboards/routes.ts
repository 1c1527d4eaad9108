// GET /leaderboards/{leaderboardId}/leaders and /leaders/{userId} (interface document §4
// Leaderboards, SPEC §7).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import type { LeaderboardService } from './service.js';

const tags = ['leaderboards'];
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const Entry = Type.Object({
  rank: Type.Integer({ description: 'Shared by equal scores (1, 2, 2, 4)' }),
  userId: Type.Optional(Type.String()),
  groupId: Type.Optional(Type.String({ description: 'On group boards, instead of userId' })),
  score: Type.Number(),
  firstName: Nullable(Type.String({ description: "The group's name on group boards" })),
  lastName: Nullable(Type.String()),
  iconUrl: Nullable(Type.String()),
});

const WindowQuery = Type.Optional(
  Type.String({ maxLength: 20, description: 'current (default), previous, or a date (YYYY-MM-DD) inside the wanted window, in the site time zone' }),
);

export const leaderboardRoutes: FastifyPluginAsyncTypebox<{ leaderboards: LeaderboardService }> = async (app, { leaderboards }) => {
  app.get(
    '/leaderboards/:leaderboardId/leaders',
    {
      config: { access: 'definitions' },
      schema: {
        tags,
        summary: 'A page of the leaderboard, highest score first (total in X-Total-Count, at most the board size)',
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: "Default: the board's size, at most 50; at most the board's size" })),
          offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
          window: WindowQuery,
        }),
        response: { 200: Envelope(Type.Array(Entry)) },
      },
    },
    async (request, reply) => {
      const { leaderboardId } = request.params as { leaderboardId: string };
      const { entries, total } = await leaderboards.leaders(authOf(request).siteId, leaderboardId, request.query);
      reply.header('x-total-count', String(total));
      return { response: entries };
    },
  );

  app.get(
    '/leaderboards/:leaderboardId/leaders/:userId',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The user's rank and score on the leaderboard, and the entries around them",
        querystring: Type.Object({
          window: WindowQuery,
          around: Type.Optional(Type.Integer({ minimum: 0, maximum: 50, default: 5, description: 'Entries on each side' })),
        }),
        response: { 200: Envelope(Type.Object({ rank: Nullable(Type.Integer()), score: Nullable(Type.Number()), entries: Type.Array(Entry) })) },
      },
    },
    async (request) => {
      const { leaderboardId, userId } = request.params as { leaderboardId: string; userId: string };
      return { response: await leaderboards.standing(authOf(request).siteId, leaderboardId, userId, request.query) };
    },
  );
};
