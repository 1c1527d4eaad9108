// GET /search (interface document §4 Deprecated search, §9; SPEC §8): deprecated on 28 June 2023,
// removal announced for November 2023, still served. It finds missions, actions and users by the
// start of their id or of a word of their name, and answers with the objects their own endpoints
// return (GET /challenges, GET /actions), with Deprecation, Sunset and successor Link headers.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { deprecate } from '../../http/deprecation.js';
import { Envelope, PagingQuery } from '../../http/paging.js';
import { Person } from '../users/schemas.js';
import { authOf } from '../../plugins/auth.js';
import { Action, Mission } from '../program/model.js';
import type { ProgramService } from '../program/service.js';
import type { UserDirectory } from '../users/directory.js';

const TYPES = ['missions', 'actions', 'users'] as const;

export const SEARCH_DEPRECATED = Date.UTC(2023, 5, 28);
export const SEARCH_SUNSET = Date.UTC(2023, 10, 30);

/** Whether the text starts with q, or has a word that does (q lowercased). */
function matches(text: string, q: string): boolean {
  const lower = text.toLowerCase();
  return lower.startsWith(q) || lower.split(/[\s\-_.]+/).some((word) => word.startsWith(q));
}

export const searchRoutes: FastifyPluginAsyncTypebox<{ programs: ProgramService; users: UserDirectory }> = async (app, { programs, users }) => {
  app.get(
    '/search',
    {
      // It lists users: not for user-level tokens, which live in browsers.
      config: { access: 'client' },
      schema: {
        operationId: 'searchDefinitions',
        tags: ['deprecated'],
        deprecated: true,
        summary: 'Deprecated (28 June 2023; removal announced for November 2023): use GET /challenges, GET /actions and the user endpoints',
        querystring: Type.Object({
          ...PagingQuery.properties,
          q: Type.Optional(Type.String({ maxLength: 255, description: 'The start of an id, or of a word of a name (case-insensitive); empty: everything' })),
          type: Type.Optional(
            Type.Union(
              TYPES.map((type) => Type.Literal(type)),
              { description: 'One kind only; default all three' },
            ),
          ),
        }),
        response: {
          200: Envelope(
            Type.Object({ missions: Type.Optional(Type.Array(Mission)), actions: Type.Optional(Type.Array(Action)), users: Type.Optional(Type.Array(Person)) }),
          ),
        },
      },
    },
    async (request, reply) => {
      const { siteId } = authOf(request);
      const { q: raw = '', type, limit = 50, offset = 0 } = request.query;
      const q = raw.trim().toLowerCase();
      const wanted: ReadonlyArray<(typeof TYPES)[number]> = type === undefined ? TYPES : [type as (typeof TYPES)[number]];
      const { program } = await programs.snapshot(siteId);
      const window = <T>(items: T[]) => items.slice(offset, offset + limit);
      const response: { missions?: typeof program.missions; actions?: typeof program.actions; users?: Awaited<ReturnType<UserDirectory['search']>>['people'] } =
        {};
      if (wanted.includes('missions')) response.missions = window(program.missions.filter((m) => q === '' || matches(m.id, q) || matches(m.name, q)));
      if (wanted.includes('actions')) response.actions = window(program.actions.filter((a) => q === '' || matches(a.name, q)));
      if (wanted.includes('users')) response.users = (await users.search({ siteId, q, match: 'prefix', limit, offset })).people;
      const successors = { missions: '/challenges', actions: '/actions', users: '/users/{userId}/preferences' } as const;
      deprecate(reply, {
        since: SEARCH_DEPRECATED,
        sunset: SEARCH_SUNSET,
        successor: wanted.map((kind) => successors[kind]),
        title: 'call the endpoint of the specific object',
      });
      return { response };
    },
  );
};
