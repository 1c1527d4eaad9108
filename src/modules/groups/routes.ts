// Group membership (SPEC §4): user data managed by admins, kept across program changes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { AppError } from '../../errors.js';
import { idParams } from '../../http/ids.js';
import { Envelope, pageResponse, PagingQuery } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import type { ProgramService } from '../program/service.js';
import type { GroupMembersRepository, Membership } from './repository.js';

const MembershipBody = Type.Object({ groupId: Type.String(), userId: Type.String(), joinedAt: Type.String({ format: 'date-time' }) });
/** One membership as the members routes answer it. */
export type MemberView = Static<typeof MembershipBody>;
const present = (m: Membership) => ({ groupId: m.groupId, userId: m.userId, joinedAt: new Date(m.joinedAt).toISOString() });
const MemberParams = idParams('groupId', 'userId');
const admin = { access: 'admin' as const };
const tags = ['admin: groups'];

/** Memberships are kept only for groups the program defines: not found otherwise. */
async function requireGroup(programs: ProgramService, siteId: string, groupId: string): Promise<void> {
  const { program } = await programs.snapshot(siteId);
  if (!program.groups.some((group) => group.id === groupId)) throw new AppError('not_found', `No group "${groupId}"`);
}

export const groupMemberRoutes: FastifyPluginAsyncTypebox<{ members: GroupMembersRepository; programs: ProgramService; clock: () => number }> = async (
  app,
  { members, programs, clock },
) => {
  app.get(
    '/admin/groups/:groupId/members',
    {
      config: admin,
      schema: {
        operationId: 'listGroupMembers',
        tags,
        summary: "A group's members, by user id",
        params: idParams('groupId'),
        querystring: PagingQuery,
        errors: ['not_found'],
        response: { 200: Envelope(Type.Array(MembershipBody)) },
      },
    },
    async (request, reply) => {
      const { siteId } = authOf(request);
      const { groupId } = request.params;
      await requireGroup(programs, siteId, groupId);
      const { total, members: list } = await members.list(siteId, groupId, request.query.limit ?? 50, request.query.offset ?? 0);
      return pageResponse(reply, list.map(present), total);
    },
  );

  app.put(
    '/admin/groups/:groupId/members/:userId',
    {
      config: admin,
      schema: {
        operationId: 'addGroupMember',
        tags,
        summary: 'Add a user to a group (idempotent)',
        params: MemberParams,
        errors: ['not_found'],
        response: { 200: Envelope(MembershipBody), 201: Envelope(MembershipBody) },
      },
    },
    async (request, reply) => {
      const { siteId } = authOf(request);
      const { groupId, userId } = request.params;
      await requireGroup(programs, siteId, groupId);
      const added = await members.add(siteId, groupId, userId, clock());
      const membership = (await members.find(siteId, groupId, userId)) as Membership;
      return reply.status(added ? 201 : 200).send({ response: present(membership) });
    },
  );

  app.delete(
    '/admin/groups/:groupId/members/:userId',
    {
      config: admin,
      schema: {
        operationId: 'removeGroupMember',
        tags,
        summary: 'Remove a user from a group',
        params: MemberParams,
        errors: ['not_found'],
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { siteId } = authOf(request);
      const { groupId, userId } = request.params;
      if (!(await members.remove(siteId, groupId, userId))) throw new AppError('not_found', `User "${userId}" is not a member of "${groupId}"`);
      return reply.status(204).send(null);
    },
  );
};
