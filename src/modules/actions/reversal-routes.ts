// Reversals (SPEC §12), admin only: DELETE /users/{userId}/actions/{eventId} and
// DELETE /users/{userId}/challenges/{challengeId}/completions/latest.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, idParams } from '../../http/ids.js';
import { Envelope } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import type { ReversalService } from './reversal.js';

const Level = Type.Union([Type.Null(), Type.Object({ id: Type.String(), name: Type.String() })]);
const Amounts = Type.Array(Type.Object({ category: Type.String(), amount: Type.Integer() }));
const ReversalSchema = Type.Object({
  eventId: Type.Optional(Type.String()),
  alreadyReversed: Type.Boolean({ description: 'The reversal had been made before: nothing changed now' }),
  completionsRemoved: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      completionId: Type.String(),
      userId: Type.Optional(Type.String()),
      groupId: Type.Optional(Type.String()),
      points: Amounts,
    }),
  ),
  pointsDebited: Type.Array(Type.Object({ category: Type.String(), amount: Type.Integer() }), { description: "The user's debits per category" }),
  balances: Type.Array(Type.Object({ category: Type.String(), balance: Type.Integer() }), {
    description: "The user's balances after, in the debited categories",
  }),
  negativeBalances: Type.Array(Type.String(), { description: 'Categories the debits took below zero' }),
  levelChanged: Type.Optional(Type.Object({ from: Level, to: Level, direction: Type.Union([Type.Literal('up'), Type.Literal('down')]) })),
  badgesTakenBack: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        left: Type.Integer(),
        userId: Type.Optional(Type.String()),
        groupId: Type.Optional(Type.String()),
      }),
      { description: 'dryRun only: the trophy case entries recounted, and the earnings of each left (0: the badge leaves the case)' },
    ),
  ),
  boardScores: Type.Optional(
    Type.Array(
      Type.Object({
        leaderboardId: Type.String(),
        name: Type.String(),
        windowStart: Type.String({ format: 'date-time' }),
        partyId: Type.String(),
        change: Type.Number(),
        score: Type.Number({ description: 'The score after' }),
      }),
      { description: 'dryRun only: the board scores the reversal moves' },
    ),
  ),
});

const admin = { access: 'admin' as const };
const tags = ['admin: reversals'];

export const reversalRoutes: FastifyPluginAsyncTypebox<{ reversals: ReversalService }> = async (app, { reversals }) => {
  app.delete(
    '/users/:userId/actions/:eventId',
    {
      config: admin,
      schema: {
        operationId: 'reverseUserAction',
        tags,
        summary:
          'Reverse a recorded action: its progress, completions, points, badges, level and board scores (idempotent); with dryRun=true, what it would take back, changing nothing',
        // Event ids are any 1–255 characters (SPEC §5), not only the id alphabet.
        params: Type.Object({ userId: Id, eventId: Type.String({ minLength: 1, maxLength: 255 }) }),
        querystring: Type.Object({
          dryRun: Type.Optional(
            Type.Boolean({ description: 'Answer what the reversal would take back (with badgesTakenBack and boardScores) without making it' }),
          ),
        }),
        errors: ['not_found', 'amount_out_of_range'],
        response: { 200: Envelope(ReversalSchema) },
      },
    },
    async (request) => {
      const { userId, eventId } = request.params;
      return { response: await reversals.reverseAction(authOf(request).siteId, userId, eventId, request.query.dryRun === true) };
    },
  );

  app.delete(
    '/users/:userId/challenges/:challengeId/completions/latest',
    {
      config: admin,
      schema: {
        operationId: 'reverseLatestChallengeCompletion',
        tags,
        summary: "Remove the user's latest completion of a mission with its points, badge and level (give completionId to make a retry change nothing)",
        params: idParams('userId', 'challengeId'),
        querystring: Type.Object({
          completionId: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Remove exactly this completion, if it is still there' })),
        }),
        errors: ['not_found', 'amount_out_of_range'],
        response: { 200: Envelope(ReversalSchema) },
      },
    },
    async (request) => {
      const { userId, challengeId } = request.params;
      return { response: await reversals.removeLatestCompletion(authOf(request).siteId, userId, challengeId, request.query.completionId) };
    },
  );
};
