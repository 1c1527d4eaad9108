// GET /leaderboards/{leaderboardId}/results: a board's closed windows, newest first, with their
// winners and what each was paid (docs/leaderboards.md, "Closed windows and prizes").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { idParams } from '../../http/ids.js';
import { Envelope, PagingQuery, pageResponse } from '../../http/paging.js';
import { Nullable } from '../../http/schemas.js';
import { authOf } from '../../plugins/auth.js';
import type { LeaderboardResultsService } from './service.js';

const Prize = Type.Object({
  points: Type.Array(Type.Object({ category: Type.String(), amount: Type.Integer() })),
  badge: Type.Optional(Type.Object({ id: Type.String(), name: Type.String() })),
});

const Winner = Type.Object({
  rank: Type.Integer({ description: 'The final rank, shared by equal scores (1, 2, 2, 4)' }),
  userId: Type.Optional(Type.String()),
  groupId: Type.Optional(Type.String({ description: 'On group boards, instead of userId' })),
  firstName: Nullable(Type.String({ description: "The group's name on group boards" })),
  lastName: Nullable(Type.String()),
  score: Type.Number(),
  prize: Nullable(Prize),
});

const ClosedWindow = Type.Object({
  closingId: Type.String(),
  windowStart: Type.String({ format: 'date-time' }),
  windowEnd: Type.String({ format: 'date-time', description: 'The first instant after the window' }),
  firstDay: Nullable(Type.String({ format: 'date', description: "The window's first day in the site time zone; null on an allTime board" })),
  lastDay: Type.String({ format: 'date', description: "The window's last day in the site time zone" }),
  closedAt: Type.String({ format: 'date-time' }),
  winners: Type.Array(Winner, { description: 'Every party ranked first, and every party paid a prize, in final order' }),
});

export const leaderboardResultRoutes: FastifyPluginAsyncTypebox<{ results: LeaderboardResultsService }> = async (app, { results }) => {
  app.get(
    '/leaderboards/:leaderboardId/results',
    {
      config: { access: 'definitions' },
      schema: {
        operationId: 'listLeaderboardResults',
        tags: ['leaderboards'],
        summary: "The leaderboard's closed windows, newest first, with their winners and prizes (total in X-Total-Count)",
        params: idParams('leaderboardId'),
        querystring: PagingQuery,
        errors: ['not_found'],
        response: { 200: Envelope(Type.Array(ClosedWindow)) },
      },
    },
    async (request, reply) => {
      const { windows, total } = await results.results(
        authOf(request).siteId,
        request.params.leaderboardId,
        request.query.limit ?? 50,
        request.query.offset ?? 0,
      );
      return pageResponse(reply, windows, total);
    },
  );
};
