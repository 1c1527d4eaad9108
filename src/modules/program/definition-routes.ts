// Program definitions any token of the site may read (interface document §4): GET /challenges
// (mission definitions, timezone at the root of each) and GET /actions (action definitions).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, page, PagingQuery } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import { Action, Mission } from './model.js';
import type { ProgramService } from './service.js';

const tags = ['definitions'];

export const definitionRoutes: FastifyPluginAsyncTypebox<{ programs: ProgramService }> = async (app, { programs }) => {
  app.get(
    '/challenges',
    {
      config: { access: 'definitions' },
      schema: { tags, summary: 'Mission definitions (timezone at the root; repeatableWindow without one)', querystring: PagingQuery, response: { 200: Envelope(Type.Array(Mission)) } },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { program } = await programs.snapshot(auth.siteId);
      // A user-level token lives in a browser: it never sees missions hidden from everyone.
      const missions = auth.userId === undefined ? program.missions : program.missions.filter((m) => m.hidden !== 'always_hidden');
      return { response: page(missions, request.query, reply) };
    },
  );

  app.get(
    '/actions',
    { config: { access: 'definitions' }, schema: { tags, summary: 'Action definitions', querystring: PagingQuery, response: { 200: Envelope(Type.Array(Action)) } } },
    async (request, reply) => {
      const { program } = await programs.snapshot(authOf(request).siteId);
      return { response: page(program.actions, request.query, reply) };
    },
  );
};
