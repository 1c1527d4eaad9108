// GET /leaderboards/{leaderboardId}/leaders and /leaders/{userId}; the layouts a user is on,
// GET /users/{userId}/leaders/layoutUuid (a literal path segment) and /leaders/{layoutUuid}
// (interface document §4 Leaderboards, SPEC §7).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { idParams } from '../../http/ids.js';
import { Envelope, Limit, Offset } from '../../http/paging.js';
import { Nullable } from '../../http/schemas.js';
import { authOf } from '../../plugins/auth.js';
import { Leaderboard } from '../program/model.js';
import type { LeaderboardService } from './service.js';

const tags = ['leaderboards'];

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

const LayoutBoard = Type.Object({
  id: Type.String(),
  name: Type.String(),
  period: Type.String(),
  party: Type.Union([Type.Literal('user'), Type.Literal('group')]),
  rank: Nullable(
    Type.Integer({ description: "The user's rank in the current window (group boards: the best-placed of the user's groups); null when not on the board" }),
  ),
  score: Nullable(Type.Number()),
  groupId: Type.Optional(Type.String({ description: 'Group boards: the group the rank is of' })),
  leaders: Type.Optional(Type.Array(Entry, { description: 'The top entries (one layout only)' })),
});

const Layout = Type.Object({ uuid: Type.String(), name: Type.String(), leaderboards: Type.Array(LayoutBoard) });

const StandingQuery = Type.Object({
  window: WindowQuery,
  around: Type.Optional(Type.Integer({ minimum: 0, maximum: 50, default: 5, description: 'Entries on each side' })),
});
const Standing = Type.Object({ rank: Nullable(Type.Integer()), score: Nullable(Type.Number()), entries: Type.Array(Entry) });

/**
 * The JSON of a page of entries, as the route's response schema serializes it. A page that has not
 * changed is the same array of entries (the service's page cache), and its JSON is kept with it: a
 * board everyone reads is serialized once per change, not once per read.
 */
function pageJson(serialized: WeakMap<readonly object[], Buffer>, reply: FastifyReply, entries: readonly object[]): Buffer {
  let json = serialized.get(entries);
  if (json === undefined) {
    json = Buffer.from(reply.serialize({ response: entries }) as string);
    serialized.set(entries, json);
  }
  return json;
}

type LeaderboardRoutes = FastifyPluginAsyncTypebox<{ leaderboards: LeaderboardService }>;

export const leaderboardRoutes: LeaderboardRoutes = async (app, options) => {
  await app.register(boardRoutes, options);
  await app.register(layoutRoutes, options);
};

/** One leaderboard: its definition, a page of it, and a user's place on it. */
const boardRoutes: LeaderboardRoutes = async (app, { leaderboards }) => {
  const serialized = new WeakMap<readonly object[], Buffer>();

  app.get(
    '/leaderboards/:leaderboardId',
    {
      config: { access: 'definitions' },
      schema: {
        operationId: 'getLeaderboard',
        tags,
        summary: 'The leaderboard as the program defines it (read-only; any token of the site)',
        params: idParams('leaderboardId'),
        errors: ['not_found'],
        response: { 200: Envelope(Leaderboard) },
      },
    },
    async (request) => ({ response: await leaderboards.definition(authOf(request).siteId, request.params.leaderboardId) }),
  );

  app.get(
    '/leaderboards/:leaderboardId/leaders',
    {
      // Reads: the rate limit is taken in the same Redis round trip as the board (src/plugins/rate-limit.ts).
      config: { access: 'definitions', rateLimit: 'alongside' },
      schema: {
        operationId: 'listLeaderboardEntries',
        tags,
        summary: 'A page of the leaderboard, highest score first (total in X-Total-Count, at most the board size)',
        params: idParams('leaderboardId'),
        querystring: Type.Object({
          limit: Type.Optional(Limit(10_000, { description: "Default: the board's size, at most 50; at most the board's size" })),
          offset: Type.Optional(Offset),
          window: WindowQuery,
        }),
        errors: ['not_found'],
        response: { 200: Envelope(Type.Array(Entry)) },
      },
    },
    async (request, reply) => {
      const { entries, total } = await leaderboards.leaders(authOf(request).siteId, request.params.leaderboardId, request.query);
      reply.header('x-total-count', String(total));
      // Sent as it is: the bytes are those the response schema's serializer wrote.
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(pageJson(serialized, reply, entries));
    },
  );

  app.get(
    '/leaderboards/:leaderboardId/leaders/:userId',
    {
      config: { access: 'user', rateLimit: 'alongside' },
      schema: {
        operationId: 'getUserLeaderboardRank',
        tags,
        summary: "The user's rank and score on the leaderboard, and the entries around them",
        params: idParams('leaderboardId', 'userId'),
        querystring: StandingQuery,
        errors: ['not_found'],
        response: { 200: Envelope(Standing) },
      },
    },
    async (request) => {
      const { leaderboardId, userId } = request.params;
      return { response: await leaderboards.standing(authOf(request).siteId, leaderboardId, userId, request.query) };
    },
  );
};

/** The layouts a user is on, and one layout's boards. */
const layoutRoutes: LeaderboardRoutes = async (app, { leaderboards }) => {
  app.get(
    '/users/:userId/leaders/layoutUuid',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'listUserLeaderboardLayouts',
        tags,
        summary: "The layouts with a leaderboard the user is on in its current window, with the user's rank on each of their boards",
        params: idParams('userId'),
        response: { 200: Envelope(Type.Array(Layout)) },
      },
    },
    async (request) => ({ response: await leaderboards.layouts(authOf(request).siteId, request.params.userId) }),
  );

  app.get(
    '/users/:userId/leaders/:layoutUuid',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'getUserLeaderboardLayout',
        tags,
        summary: "One layout: each of its leaderboards' top entries in the current window and the user's rank on it",
        params: idParams('userId', 'layoutUuid'),
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, default: 10, description: "Top entries per board (at most the board's size)" })),
        }),
        errors: ['not_found'],
        response: { 200: Envelope(Layout) },
      },
    },
    async (request) => {
      const { userId, layoutUuid } = request.params;
      return { response: await leaderboards.layout(authOf(request).siteId, userId, layoutUuid, request.query.limit ?? 10) };
    },
  );
};
