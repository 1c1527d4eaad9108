// GET /users/{u}/challenges, /users/{u}/challenges/{c}/progress and their group twins (SPEC §6).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { idParams, partyIdOf, partyParams } from '../../http/ids.js';
import { Envelope, page, PagingQuery } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import { Mission } from '../program/model.js';
import type { MissionReadService } from './service.js';

const MissionSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  iconUrl: Type.Optional(Type.String()),
  startDate: Type.Optional(Type.String()),
  endDate: Type.Optional(Type.String()),
  featuredStartDate: Type.Optional(Type.String()),
  featuredEndDate: Type.Optional(Type.String()),
  timezone: Type.String(),
  featured: Type.Boolean({ description: 'Now is within the featured dates' }),
  repeatable: Type.Boolean(),
  rewards: Mission.properties.rewards,
  importance: Type.Integer(),
  percentComplete: Type.Integer(),
  locked: Type.Optional(Type.Boolean({ description: 'Eligible list: prerequisite missions are not done yet' })),
  lockedReason: Type.Optional(Type.String()),
  completionCount: Type.Optional(Type.Integer({ description: 'Completed list' })),
  lastCompletedAt: Type.Optional(Type.String({ format: 'date-time' })),
});

const Progress = Type.Object({
  challengeId: Type.String(),
  rules: Type.Array(Type.Object({ ruleId: Type.String(), action: Type.String(), goal: Type.Number(), current: Type.Number(), achieved: Type.Boolean() })),
  percentComplete: Type.Integer(),
  completionCount: Type.Integer(),
  window: Type.Union([Type.Null(), Type.Object({ start: Type.String({ format: 'date-time' }), end: Type.String({ format: 'date-time' }) })], {
    description: 'The current repeat window of a repeatable mission',
  }),
});

export type MissionSummary = Static<typeof MissionSummary>;
export type MissionProgress = Static<typeof Progress>;

const ListQuery = Type.Object({
  ...PagingQuery.properties,
  type: Type.Optional(Type.Union([Type.Literal('eligible'), Type.Literal('completed')], { default: 'eligible' })),
});

const RankedMission = Type.Object({
  ...MissionSummary.properties,
  score: Type.Number({ description: 'The recommendation score (docs/recommendations.md)' }),
  reasons: Type.Array(
    Type.Union([
      Type.Literal('featured'),
      Type.Literal('important'),
      Type.Literal('close_to_completion'),
      Type.Literal('expiring_soon'),
      Type.Literal('recently_unlocked'),
      Type.Literal('big_reward'),
    ]),
    { description: 'What raised the score' },
  ),
});

export const missionReadRoutes: FastifyPluginAsyncTypebox<{ missions: MissionReadService }> = async (app, { missions }) => {
  app.get(
    '/users/:userId/ranked-challenges',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'listRankedUserChallenges',
        tags: ['missions'],
        summary: 'The eligible missions, best recommendation first, each with its score and reasons',
        params: idParams('userId'),
        querystring: PagingQuery,
        response: { 200: Envelope(Type.Array(RankedMission)) },
      },
    },
    async (request, reply) => {
      const { userId } = request.params;
      return { response: page(await missions.ranked(authOf(request).siteId, userId), request.query, reply) };
    },
  );

  for (const party of ['user', 'group'] as const) {
    const base = party === 'user' ? '/users/:userId/challenges' : '/groups/:groupId/challenges';
    const access = party === 'user' ? ('user' as const) : ('client' as const);
    const tags = [party === 'user' ? 'missions' : 'group missions'];

    app.get(
      base,
      {
        config: { access },
        schema: {
          operationId: party === 'user' ? 'listUserChallenges' : 'listGroupChallenges',
          tags,
          summary: `The ${party}'s eligible (default) or completed missions`,
          params: partyParams(party),
          querystring: ListQuery,
          response: { 200: Envelope(Type.Array(MissionSummary)) },
        },
      },
      async (request, reply) => {
        const { siteId } = authOf(request);
        if (request.query.type === 'completed')
          return { response: page(await missions.completed(siteId, party, partyIdOf(request.params)), request.query, reply) };
        return { response: page(await missions.eligible(siteId, party, partyIdOf(request.params)), request.query, reply) };
      },
    );

    app.get(
      `${base}/:challengeId/progress`,
      {
        config: { access },
        schema: {
          operationId: party === 'user' ? 'getUserChallengeProgress' : 'getGroupChallengeProgress',
          tags,
          summary: `The ${party}'s progress in one mission`,
          params: partyParams(party, 'challengeId'),
          errors: ['not_found'],
          response: { 200: Envelope(Progress) },
        },
      },
      async (request) => {
        const auth = authOf(request);
        const { challengeId } = request.params;
        return { response: await missions.progress(auth.siteId, party, partyIdOf(request.params), challengeId, auth.userId !== undefined) };
      },
    );
  }
};
