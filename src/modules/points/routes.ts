// POST /admin/users/{u}/points (an adjustment with its reason) and GET /admin/users/{u}/point-history (every entry of the user's ledger).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MAX_ADJUSTMENT } from '../../engine/amounts.js';
import { idParams } from '../../http/ids.js';
import { Envelope, pageResponse, PagingQuery } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import type { PointsService } from './service.js';

const Level = Type.Union([Type.Null(), Type.Object({ id: Type.String(), name: Type.String() })]);

const PointEntry = Type.Object({
  entryId: Type.String(),
  recordedAt: Type.String({ format: 'date-time', description: 'When the entry was written' }),
  occurredAt: Type.String({
    format: 'date-time',
    description: "When it counts: the action's time; for a reversal, the credit's; for an expiry, when the points expired",
  }),
  category: Type.String(),
  amount: Type.Integer({ description: 'What the balance moved by (after caps; negative for a debit)' }),
  requested: Type.Integer({ description: 'What the reward asked for before caps' }),
  cause: Type.Union([
    Type.Literal('mission'),
    Type.Literal('reversal'),
    Type.Literal('adjustment'),
    Type.Literal('recognition'),
    Type.Literal('expiry'),
    Type.Literal('streak'),
    Type.Literal('prize'),
  ]),
  causeId: Type.String({
    description:
      'The completion (mission, reversal), the recognition, the entry itself (adjustment), for an expiry the instant (ISO) before which the expired points were earned, `streakId:runStart:length` (streak milestone), or the closing (prize)',
  }),
  eventId: Type.Union([Type.String(), Type.Null()], { description: 'The action event behind a mission credit or a reversal' }),
  action: Type.Union([Type.String(), Type.Null()]),
  mission: Type.Union([Type.Null(), Type.Object({ id: Type.String(), name: Type.String() })]),
  reason: Type.Union([Type.String(), Type.Null()], { description: "An adjustment's reason, a recognition's message" }),
});

export const pointsAdminRoutes: FastifyPluginAsyncTypebox<{ points: PointsService }> = async (app, { points }) => {
  app.post(
    '/admin/users/:userId/points',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'adjustUserPoints',
        tags: ['admin: points'],
        summary: 'Credit or debit points through the ledger (caps do not apply; a debit may take the balance below zero)',
        params: idParams('userId'),
        body: Type.Object(
          {
            category: Type.String({ minLength: 1, maxLength: 255 }),
            amount: Type.Integer({ not: { const: 0 }, minimum: -MAX_ADJUSTMENT, maximum: MAX_ADJUSTMENT, description: 'Positive credits, negative debits' }),
            reason: Type.String({ minLength: 1, maxLength: 255 }),
          },
          { examples: [{ category: 'Points', amount: 50, reason: 'Spoke at the November all-hands' }] },
        ),
        errors: ['amount_out_of_range'],
        response: {
          201: Envelope(
            Type.Object({
              entryId: Type.String(),
              category: Type.String(),
              amount: Type.Integer(),
              reason: Type.String(),
              balance: Type.Integer(),
              levelChanged: Type.Optional(Type.Object({ from: Level, to: Level, direction: Type.Union([Type.Literal('up'), Type.Literal('down')]) })),
            }),
          ),
        },
      },
    },
    async (request, reply) => {
      const { userId } = request.params;
      const adjustment = await points.adjust(authOf(request).siteId, userId, request.body);
      return reply.status(201).send({ response: adjustment });
    },
  );

  app.get(
    '/admin/users/:userId/point-history',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'listUserPointHistory',
        tags: ['admin: points'],
        summary: "The user's point entries, newest first: mission rewards, reversals, adjustments with their reason, recognitions (X-Total-Count)",
        params: idParams('userId'),
        querystring: PagingQuery,
        response: { 200: Envelope(Type.Array(PointEntry)) },
      },
    },
    async (request, reply) => {
      const { limit = 50, offset = 0 } = request.query;
      const { entries, total } = await points.history(authOf(request).siteId, request.params.userId, limit, offset);
      return pageResponse(reply, entries, total);
    },
  );
};
