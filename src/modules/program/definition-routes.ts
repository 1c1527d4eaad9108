// Program definitions any token of the site may read (interface document §4): GET /challenges
// (mission definitions, timezone at the root of each) and GET /actions (action definitions).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, page, PagingQuery } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import type { Db } from '../../db/index.js';
import { Action, Mission, type MissionDocument } from './model.js';
import type { ProgramService } from './service.js';
import { isHiddenFromUser } from '../missions/visibility.js';

const tags = ['definitions'];

/** The missions a user may see (docs/missions.md): those not hidden from them. */
export function missionsVisibleTo<M extends MissionDocument>(missions: readonly M[], completed: ReadonlySet<string>): M[] {
  return missions.filter((mission) => !isHiddenFromUser(mission, (id) => completed.has(id)));
}

export const definitionRoutes: FastifyPluginAsyncTypebox<{ programs: ProgramService; db: Db }> = async (app, { programs, db }) => {
  /** The missions the user has completed (not removed). */
  async function completedBy(siteId: string, userId: string): Promise<Set<string>> {
    const rows = await db
      .selectFrom('mission_completions')
      .select('mission_id')
      .distinct()
      .where('site_id', '=', siteId)
      .where('party_type', '=', 'user')
      .where('party_id', '=', userId)
      .where('removed_at', 'is', null)
      .execute();
    return new Set(rows.map((row) => row.mission_id));
  }

  app.get(
    '/challenges',
    {
      config: { access: 'definitions' },
      schema: {
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
      const missions = auth.userId === undefined ? program.missions : missionsVisibleTo(program.missions, await completedBy(auth.siteId, auth.userId));
      return { response: page(missions, request.query, reply) };
    },
  );

  app.get(
    '/actions',
    {
      config: { access: 'definitions' },
      schema: { tags, summary: 'Action definitions', querystring: PagingQuery, response: { 200: Envelope(Type.Array(Action)) } },
    },
    async (request, reply) => {
      const { program } = await programs.snapshot(authOf(request).siteId);
      return { response: page(program.actions, request.query, reply) };
    },
  );
};
