// Admin API for the program's history and for previewing a change (docs/program.md, "Program
// history" and "Previewing a change"): the versions every change kept, one version with its
// document and diff, restoring one through PUT /admin/program's validated path, and what saving a
// proposed program would do, saving nothing.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, pageResponse, PagingQuery } from '../../http/paging.js';
import { Instant, Nullable } from '../../http/schemas.js';
import { authOf } from '../../plugins/auth.js';
import { reportArchived } from './admin-routes.js';
import { Program, ProgramBody } from './model.js';
import type { ProgramService } from './service.js';
import { EntityChangeSchema, ProgramPreviewSchema, ProgramSummarySchema } from './schemas.js';

const admin = { access: 'admin' as const };
const tags = ['admin: program'];

const VersionSummary = Type.Object({
  version: Type.Integer(),
  changedAt: Instant,
  changedBy: Nullable(
    Type.String({ description: "The admin client's id; `cli` for the questline command; null for Questline itself or not known (kept before history was)" }),
  ),
  summary: Nullable(ProgramSummarySchema),
  restoredFrom: Nullable(Type.Integer({ description: 'The version this one restored' })),
});

const VersionDetail = Type.Object({
  ...VersionSummary.properties,
  previousVersion: Nullable(Type.Integer({ description: 'The version kept before this one; changes are against it. Null for the first' })),
  changes: Nullable(Type.Array(EntityChangeSchema)),
  document: Program,
});

const VersionParams = Type.Object({ version: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }) });

export const programVersionRoutes: FastifyPluginAsyncTypebox<{ programs: ProgramService }> = async (app, { programs }) => {
  app.get(
    '/admin/program/versions',
    {
      config: admin,
      schema: {
        operationId: 'listProgramVersions',
        tags,
        summary: 'The program versions every change kept, newest first (who, when, what changed)',
        querystring: PagingQuery,
        response: { 200: Envelope(Type.Array(VersionSummary)) },
      },
    },
    async (request, reply) => {
      const { total, versions } = await programs.history.list(authOf(request).siteId, request.query.limit ?? 50, request.query.offset ?? 0);
      return pageResponse(reply, versions, total);
    },
  );

  app.get(
    '/admin/program/versions/:version',
    {
      config: admin,
      schema: {
        operationId: 'getProgramVersion',
        tags,
        summary: 'One kept program version: its document and what it changed against the version kept before it',
        params: VersionParams,
        errors: ['not_found'],
        response: { 200: Envelope(VersionDetail) },
      },
    },
    async (request) => ({ response: await programs.history.detail(authOf(request).siteId, request.params.version) }),
  );

  app.post(
    '/admin/program/versions/:version/restore',
    {
      config: admin,
      schema: {
        operationId: 'restoreProgramVersion',
        tags,
        summary: "Make a kept version's document the program again (validated as PUT /admin/program; writes a new version)",
        params: VersionParams,
        errors: ['not_found', 'program_invalid'],
        response: { 200: Envelope(Program) },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      reportArchived(reply, await programs.restoreVersion(auth, request.params.version));
      return { response: await programs.read(auth.siteId) };
    },
  );

  app.post(
    '/admin/program/preview',
    {
      config: admin,
      schema: {
        operationId: 'previewProgramReplacement',
        tags,
        summary: 'What PUT /admin/program with this body would do, saving nothing (the same validation errors)',
        // Not validated by the schema: the program validator checks it, as for PUT /admin/program.
        documentedBody: ProgramBody,
        errors: ['program_invalid'],
        response: { 200: Envelope(ProgramPreviewSchema) },
      },
    },
    async (request) => ({ response: await programs.preview(authOf(request).siteId, request.body) }),
  );
};
