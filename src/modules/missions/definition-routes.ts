// Mission definitions any token of the site may read (interface document §4): GET /challenges,
// timezone at the root of each; a user-level token sees only the missions its user may see.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, page, PagingQuery } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import { Mission } from '../program/model.js';
import type { ProgramService } from '../program/service.js';
import type { MissionReadService } from './service.js';

const tags = ['definitions'];

export const missionDefinitionRoutes: FastifyPluginAsyncTypebox<{ programs: ProgramService; missionReads: MissionReadService }> = async (
  app,
  { programs, missionReads },
) => {
  app.get(
    '/challenges',
    {
      config: { access: 'definitions' },
      schema: {
        operationId: 'listChallenges',
        tags,
        summary: 'Mission definitions (timezone at the root; repeatableWindow without one)',
        querystring: PagingQuery,
        response: { 200: Envelope(Type.Array(Mission)) },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { program } = await programs.snapshot(auth.siteId);
      // A user-level token lives in a browser: it sees only what its user may see.
      const missions = auth.userId === undefined ? program.missions : await missionReads.definitionsVisibleTo(auth.siteId, auth.userId);
      return { response: page(missions, request.query, reply) };
    },
  );
};
