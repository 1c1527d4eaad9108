// POST/GET /backup, POST /restore (interface document §4 Administrative, §2 Restore request fields)
// and POST /restore/preview, what a restore would do without doing it (docs/backup-format.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { idParams } from '../../http/ids.js';
import { optionalBody } from '../../http/json.js';
import { Envelope, pageResponse, PagingQuery } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import { ProgramPreviewSchema } from '../program/schemas.js';
import { SiteChangeSchema } from '../program/site-changes.js';
import type { BackupService } from './service.js';
import { MAX_XML_BYTES } from './xml.js';

const admin = { access: 'admin' as const };
const tags = ['admin: backup'];
const BackupSummary = Type.Object({ id: Type.String(), name: Type.String(), createdAt: Type.String({ format: 'date-time' }) });

/** A backup id as POST /backup answers it, for the examples. */
const STORED_BACKUP_ID = 'bk_019ac4f2-7c1e-7b2d-9a41-5c3e8f1d2b6a';

/** Which backup: a stored one by its id, or a document sent with the request. */
const RestoreSource = Type.Object(
  {
    type: Type.String({ maxLength: 255, description: '0 = restore by backup id; 1 = restore by XML in data' }),
    data: Type.String({ description: 'A backup id (type 0) or a backup XML document (type 1)' }),
  },
  { examples: [{ type: '0', data: STORED_BACKUP_ID }] },
);

const RestoreBody = Type.Object(
  {
    ...RestoreSource.properties,
    asyncToken: Type.Optional(Type.String({ maxLength: 255, description: 'Echoed back in the response' })),
  },
  { examples: [{ type: '0', data: STORED_BACKUP_ID, asyncToken: 'restore-before-spring' }] },
);

/** A restore and its preview carry a backup document: up to its limit, as a form or JSON. */
const XML_BODY_LIMIT = MAX_XML_BYTES + 64 * 1024;
const consumes = ['application/x-www-form-urlencoded', 'application/json'];

const RestoreResponse = Type.Object({
  asyncToken: Type.Optional(Type.String()),
  status: Type.Literal('restored'),
  version: Type.Integer({ description: 'The program version after the restore' }),
  missions: Type.Integer(),
  actions: Type.Integer(),
  progressArchived: Type.Object(
    { parties: Type.Integer(), rows: Type.Integer() },
    { description: 'Users and groups whose progress on rules the restored program no longer has was archived' },
  ),
  siteChanges: Type.Array(SiteChangeSchema, {
    description:
      "The site's settings the restore changed (its name and time zone among them when the backup is another site's), in the order of the program's site settings; empty when none did",
  }),
});

type BackupRoutes = FastifyPluginAsyncTypebox<{ backups: BackupService }>;

export const backupRoutes: BackupRoutes = async (app, options) => {
  await app.register(storedBackupRoutes, options);
  await app.register(restoreRoutes, options);
};

/** Backups stored on the server: made, listed, read as XML. */
const storedBackupRoutes: BackupRoutes = async (app, { backups }) => {
  app.post(
    '/backup',
    {
      config: admin,
      schema: {
        operationId: 'createBackup',
        tags,
        summary: "Store a backup of the site's configuration (the program; no user data, no secrets)",
        body: Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }, { examples: [{ name: 'Before the spring campaign' }] }),
        response: { 201: Envelope(BackupSummary) },
      },
      // The name is optional, and so is the body that carries it.
      preValidation: optionalBody,
    },
    async (request, reply) => {
      const backup = await backups.create(authOf(request).siteId, request.body.name);
      return reply.status(201).send({ response: backup });
    },
  );

  app.get(
    '/backup',
    {
      config: admin,
      schema: {
        operationId: 'listBackups',
        tags,
        summary: 'Stored backups, newest first',
        querystring: PagingQuery,
        response: { 200: Envelope(Type.Array(BackupSummary)) },
      },
    },
    async (request, reply) => {
      const { total, backups: list } = await backups.list(authOf(request).siteId, request.query.limit ?? 50, request.query.offset ?? 0);
      return pageResponse(reply, list, total);
    },
  );

  app.get(
    '/backup/:backupId',
    {
      config: admin,
      schema: {
        operationId: 'getBackup',
        tags,
        summary: 'One backup as its XML document',
        params: idParams('backupId'),
        produces: ['application/xml'],
        errors: ['not_found'],
        response: { 200: Type.String({ description: 'The backup XML' }) },
      },
    },
    async (request, reply) => {
      const { backupId } = request.params;
      const xml = await backups.get(authOf(request).siteId, backupId);
      return reply.type('application/xml; charset=utf-8').send(xml);
    },
  );
};

/** A restore, from a stored backup or from a backup document sent with it. */
const restoreRoutes: BackupRoutes = async (app, { backups }) => {
  app.post(
    '/restore',
    {
      config: admin,
      bodyLimit: XML_BODY_LIMIT,
      schema: {
        operationId: 'restoreBackup',
        tags,
        summary: 'Restore a site configuration backup (validated completely, applied in one transaction)',
        consumes,
        // The schema checks the fields; the XML document in data is read by ./xml.ts (malformed XML
        // with its line and column) and checked by the program validator, as a program is.
        body: RestoreBody,
        errors: ['malformed_xml', 'xml_forbidden', 'not_found', 'program_invalid', 'restore_busy'],
        response: { 200: Envelope(RestoreResponse) },
      },
    },
    async (request) => {
      const { type, data, asyncToken } = request.body;
      const auth = authOf(request);
      const result = storedBackup(type) ? await backups.restoreBackup(auth, data) : await backups.restore(auth, data);
      return { response: { ...(asyncToken !== undefined ? { asyncToken } : {}), status: 'restored' as const, ...result } };
    },
  );

  app.post(
    '/restore/preview',
    {
      config: admin,
      bodyLimit: XML_BODY_LIMIT,
      schema: {
        operationId: 'previewBackupRestore',
        tags,
        summary: 'What POST /restore with this body would do, restoring nothing (the same errors; the preview POST /admin/program/preview answers)',
        consumes,
        body: RestoreSource,
        errors: ['malformed_xml', 'xml_forbidden', 'not_found', 'program_invalid'],
        response: { 200: Envelope(ProgramPreviewSchema) },
      },
    },
    async (request) => {
      const { type, data } = request.body;
      const { siteId } = authOf(request);
      return { response: storedBackup(type) ? await backups.previewBackup(siteId, data) : await backups.preview(siteId, data) };
    },
  );
};

/** True for type 0 (data is a stored backup's id), false for 1 (data is the XML); validation_failed otherwise. */
function storedBackup(type: string): boolean {
  if (type !== '0' && type !== '1') {
    throw new AppError('validation_failed', 'The request is invalid', {
      errors: [{ path: 'body.type', message: 'must be 0 (backup id) or 1 (XML document)' }],
    });
  }
  return type === '0';
}
