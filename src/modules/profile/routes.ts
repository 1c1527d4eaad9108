// GET /users/{u}/point-balance, /levels, /badges (interface document §4 Profile, SPEC §7).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { idParams } from '../../http/ids.js';
import { Envelope, pageResponse, PagingQuery } from '../../http/paging.js';
import { Nullable } from '../../http/schemas.js';
import { authOf } from '../../plugins/auth.js';
import type { ProfileService } from './service.js';

const tags = ['profile'];
const user = { access: 'user' as const };

const CategoryBalance = Type.Object({
  id: Type.String(),
  name: Type.String(),
  isDefault: Type.Boolean(),
  balance: Type.Integer(),
  lifetimeBalance: Type.Integer({ description: 'Every credit ever, debits not subtracted' }),
  dailyLimit: Nullable(Type.Integer()),
  earnedToday: Type.Integer({ description: 'Earned through actions and missions today (site time zone)' }),
  remainingToday: Nullable(Type.Integer({ description: 'What the daily limit still allows today; 0 means the limit is reached' })),
  expiringSoon: Type.Optional(
    Nullable(
      Type.Object(
        {
          amount: Type.Integer({ description: 'Points that expire then (the oldest of the balance)' }),
          date: Type.String({ format: 'date-time', description: 'When they expire' }),
        },
        { description: 'Only for a category with an expiry rule: the next points to expire, null when none will' },
      ),
    ),
  ),
});
const PointBalance = Type.Object({ balance: Type.Integer(), lifetimeBalance: Type.Integer(), categories: Type.Array(CategoryBalance) });

const Level = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  iconUrl: Type.Optional(Type.String()),
  threshold: Type.Integer(),
});
const LevelProgress = Type.Object({
  current: Nullable(Level),
  next: Nullable(Level),
  points: Type.Integer({ description: 'Lifetime points in the default category' }),
  pointsToNext: Nullable(Type.Integer()),
  percentToNext: Nullable(Type.Integer()),
});

const Trophy = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  iconUrl: Type.Optional(Type.String()),
  earnedCount: Type.Integer(),
  firstEarnedAt: Type.String({ format: 'date-time' }),
  lastEarnedAt: Type.String({ format: 'date-time' }),
});
export type Trophy = Static<typeof Trophy>;

export const profileRoutes: FastifyPluginAsyncTypebox<{ profiles: ProfileService }> = async (app, { profiles }) => {
  app.get(
    '/users/:userId/point-balance',
    {
      config: user,
      schema: {
        operationId: 'getUserPointBalance',
        tags,
        summary: "The user's points: the default category at the top, every category with today's limit",
        params: idParams('userId'),
        response: { 200: Envelope(PointBalance) },
      },
    },
    async (request) => {
      const { userId } = request.params;
      return { response: await profiles.pointBalance(authOf(request).siteId, userId) };
    },
  );

  app.get(
    '/users/:userId/levels',
    {
      config: user,
      schema: {
        operationId: 'getUserLevel',
        tags,
        summary: 'Current and next level, and the way there',
        params: idParams('userId'),
        response: { 200: Envelope(LevelProgress) },
      },
    },
    async (request) => {
      const { userId } = request.params;
      return { response: await profiles.levels(authOf(request).siteId, userId) };
    },
  );

  app.get(
    '/users/:userId/badges',
    {
      config: user,
      schema: {
        operationId: 'listUserBadges',
        tags,
        summary: 'The trophy case, most recently earned first',
        params: idParams('userId'),
        querystring: PagingQuery,
        response: { 200: Envelope(Type.Array(Trophy)) },
      },
    },
    async (request, reply) => {
      const { userId } = request.params;
      const { total, badges } = await profiles.badges(authOf(request).siteId, userId, request.query.limit ?? 50, request.query.offset ?? 0);
      return pageResponse(reply, badges, total);
    },
  );
};
