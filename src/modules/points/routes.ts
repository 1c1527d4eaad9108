import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MAX_ADJUSTMENT } from '../../engine/amounts.js';
import { idParams } from '../../http/ids.js';
import { Envelope } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import type { PointsService } from './service.js';

const Level = Type.Union([Type.Null(), Type.Object({ id: Type.String(), name: Type.String() })]);

export const pointsAdminRoutes: FastifyPluginAsyncTypebox<{ points: PointsService }> = async (app, { points }) => {
  app.post(
    '/admin/users/:userId/points',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin: points'],
        summary: 'Credit or debit points through the ledger (caps do not apply; a debit may take the balance below zero)',
        params: idParams('userId'),
        body: Type.Object({
          category: Type.String({ minLength: 1, maxLength: 255 }),
          amount: Type.Integer({ not: { const: 0 }, minimum: -MAX_ADJUSTMENT, maximum: MAX_ADJUSTMENT, description: 'Positive credits, negative debits' }),
          reason: Type.String({ minLength: 1, maxLength: 255 }),
        }),
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
};
