// GET /users/{u}/streaks: the user's streaks as of now (docs/streaks.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { idParams } from '../../http/ids.js';
import { Envelope } from '../../http/paging.js';
import { Nullable } from '../../http/schemas.js';
import { authOf } from '../../plugins/auth.js';
import type { StreakService } from './service.js';

const Rewards = Type.Object({
  points: Type.Array(Type.Object({ category: Type.String(), amount: Type.Integer() })),
  badge: Type.Optional(Type.String()),
});

const UserStreak = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  iconUrl: Type.Optional(Type.String()),
  period: Type.Union([Type.Literal('day'), Type.Literal('week')], { description: 'Site-local days, or weeks starting Sunday' }),
  current: Type.Integer({ description: 'Periods counted in the live run (0: none, or broken)' }),
  longest: Type.Integer({ description: 'The longest run ever, in counted periods' }),
  freezesLeft: Type.Integer({ description: 'Missed periods the run can still absorb' }),
  freezesMax: Type.Integer(),
  doneThisPeriod: Type.Boolean({ description: 'The current period already counts' }),
  periodStart: Type.String({ format: 'date', description: 'The first local day of the current period' }),
  periodEnds: Type.String({ format: 'date-time', description: 'When the current period ends' }),
  nextMilestone: Nullable(Type.Object({ length: Type.Integer(), rewards: Rewards })),
});

export const streakRoutes: FastifyPluginAsyncTypebox<{ streaks: StreakService }> = async (app, { streaks }) => {
  app.get(
    '/users/:userId/streaks',
    {
      config: { access: 'user' as const },
      schema: {
        operationId: 'listUserStreaks',
        tags: ['profile'],
        summary: "The user's streaks as of now: current and longest run, freezes left, whether this period is done and when it ends",
        params: idParams('userId'),
        response: { 200: Envelope(Type.Array(UserStreak)) },
      },
    },
    async (request) => {
      const { userId } = request.params;
      return { response: await streaks.ofUser(authOf(request).siteId, userId) };
    },
  );
};
