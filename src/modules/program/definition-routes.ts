// Program definitions any token of the site may read (interface document §4): GET /actions (action
// definitions). The mission definitions, GET /challenges: src/modules/missions/definition-routes.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, page, PagingQuery } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import { Action } from './model.js';
import type { ProgramService } from './service.js';

const tags = ['definitions'];

export const definitionRoutes: FastifyPluginAsyncTypebox<{ programs: ProgramService }> = async (app, { programs }) => {
  app.get(
    '/actions',
    {
      config: { access: 'definitions' },
      schema: { operationId: 'listActions', tags, summary: 'Action definitions', querystring: PagingQuery, response: { 200: Envelope(Type.Array(Action)) } },
    },
    async (request, reply) => {
      const { program } = await programs.snapshot(authOf(request).siteId);
      return { response: page(program.actions, request.query, reply) };
    },
  );
};
