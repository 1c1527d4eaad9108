// POST /users/{userId}/actions, POST /groups/{groupId}/actions (SPEC §5).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MAX_ACTION_VALUE } from '../../engine/amounts.js';
import { partyIdOf, partyParams } from '../../http/ids.js';
import { Envelope } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import type { Metrics } from '../../infra/metrics.js';
import { ActionOutcomeSchema } from './schemas.js';
import type { ActionService } from './service.js';

const ActionBody = Type.Object(
  {
    action: Type.String({ maxLength: 255, description: 'The configured action name (case-insensitive)' }),
    value: Type.Optional(
      Type.Number({ minimum: -MAX_ACTION_VALUE, maximum: MAX_ACTION_VALUE, description: 'Default 1; feeds sum rules and the points multiplier' }),
    ),
    metadata: Type.Optional(
      Type.Union(
        [
          Type.String({ description: 'Form: name1:value1,name2:value2' }),
          Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
        ],
        {
          description: 'At most 10 name/value pairs',
        },
      ),
    ),
    eventId: Type.Optional(Type.String({ maxLength: 255, description: 'Idempotency key, unique per site; generated (UUIDv7) when absent' })),
    timestamp: Type.Optional(
      Type.Union([Type.String(), Type.Number()], {
        description: 'ISO 8601 (an offset, or none: site time zone) or Unix epoch seconds/milliseconds; default now',
      }),
    ),
  },
  {
    examples: [
      {
        action: 'read_article',
        value: 1,
        metadata: { topic: 'recipe', source: 'newsletter' },
        eventId: 'cms-article-4711-read',
        timestamp: '2026-11-27T09:30:00-05:00',
      },
    ],
  },
);

const DryRunQuery = Type.Object({ dryRun: Type.Optional(Type.Boolean({ description: 'Return the decision without writing anything' })) });
const tags = ['actions'];

export const actionRoutes: FastifyPluginAsyncTypebox<{ actions: ActionService; metrics: Metrics }> = async (app, { actions, metrics }) => {
  for (const party of ['user', 'group'] as const) {
    app.post(
      party === 'user' ? '/users/:userId/actions' : '/groups/:groupId/actions',
      {
        // A user-level token may log for its own user; a group's own actions need a client token.
        config: { access: party === 'user' ? 'user' : 'client' },
        schema: {
          operationId: party === 'user' ? 'logUserAction' : 'logGroupAction',
          tags,
          summary:
            party === 'user'
              ? "Log a user's action: missions, points, badges and levels follow (201; 200 for a repeated eventId)"
              : "Log a group's own action: it advances the group's missions (201; 200 for a repeated eventId)",
          params: partyParams(party),
          querystring: DryRunQuery,
          // Not validated by the schema: parseActionInput (./input.ts) checks it, as it checks each
          // line of an import, reading form and JSON bodies alike (metadata as name:value pairs,
          // timestamps in the site's time zone); the schema documents the body.
          documentedBody: ActionBody,
          errors: ['unknown_action', 'amount_out_of_range', 'event_id_conflict'],
          response: { 200: Envelope(ActionOutcomeSchema), 201: Envelope(ActionOutcomeSchema) },
        },
      },
      async (request, reply) => {
        const auth = authOf(request);
        const outcome = await actions.log(auth.siteId, party, partyIdOf(request.params), request.body, {
          dryRun: request.query.dryRun === true,
          userLevel: auth.userId !== undefined,
        });
        if (request.query.dryRun !== true) metrics.countAction(outcome);
        return reply.status(outcome.duplicate ? 200 : 201).send({ response: outcome });
      },
    );
  }
};
