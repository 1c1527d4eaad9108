// Admin API for the program (SPEC §4): the whole program, site settings, award settings, and CRUD
// per entity. Bodies are checked by the program validator (./validate.ts), not by the route
// schema, so that JSON and XML input meet exactly the same rules.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TObject, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { AppError, type FieldError } from '../../errors.js';
import { isFormBody } from '../../http/form.js';
import { idParams } from '../../http/ids.js';
import { Envelope, page, PagingQuery } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import { addEntity, collections, entitiesOf, findEntity, putEntity, removeEntity, type Collection } from './collections.js';
import { AwardSettings, Mission, Program, ProgramBody, SiteSettings, type ProgramDocument } from './model.js';
import type { ProgramChange, ProgramService } from './service.js';
import { canonicalize, moveLegacyMissionTimezone, structuralErrors } from './validate.js';

const admin = { access: 'admin' as const };

/**
 * Checks one entity's structure, filling its defaults; paths are relative to the entity. Form
 * bodies carry every value as a string, so theirs are converted to the schema's types first.
 */
function checkEntity(schema: TSchema, body: unknown, request: FastifyRequest): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('validation_failed', 'The body must be a JSON object', { errors: [{ path: '(body)', message: 'must be an object' }] });
  }
  let copy = structuredClone(body) as Record<string, unknown>;
  if (isFormBody(request)) copy = Value.Convert(schema, copy) as Record<string, unknown>;
  if (schema === Mission) moveLegacyMissionTimezone(copy);
  const entity = canonicalize(schema, copy);
  const errors = structuralErrors(schema, entity);
  if (errors.length > 0) throw new AppError('validation_failed', 'The request is invalid', { errors });
  return entity;
}

/** Validation paths inside the entity being written become relative to it; others stay whole-program. */
function rerooter(prefix: string): (errors: FieldError[]) => FieldError[] {
  return (errors) =>
    errors.map((error) =>
      error.path === prefix
        ? { ...error, path: '(body)' }
        : error.path.startsWith(`${prefix}.`)
          ? { ...error, path: error.path.slice(prefix.length + 1) }
          : error,
    );
}

/** SPEC §4: a change that removes rules says how many users' (and groups') progress it archived. */
export function reportArchived(reply: FastifyReply, change: ProgramChange): void {
  reply.header('questline-progress-archived', `parties=${change.progressArchived.parties}, rows=${change.progressArchived.rows}`);
}

/**
 * The entity a PUT writes at `/admin/<collection>/:id`: the body, given the path's id when it has
 * none, checked; the id it names must be the path's.
 */
function entityAtPath(collection: Collection, id: string, request: FastifyRequest): Record<string, unknown> {
  const { body } = request;
  if (typeof body === 'object' && body !== null && !(collection.idField in body)) Object.assign(body, { [collection.idField]: id });
  const entity = checkEntity(collection.schema, body, request);
  const sameId = collection.caseInsensitive ? String(entity[collection.idField]).toLowerCase() === id.toLowerCase() : String(entity[collection.idField]) === id;
  if (!sameId) {
    throw new AppError('validation_failed', 'The request is invalid', { errors: [{ path: collection.idField, message: `must match the path (${id})` }] });
  }
  return entity;
}

type ProgramAdminRoutes = FastifyPluginAsyncTypebox<{ programs: ProgramService }>;
type CollectionRoutes = FastifyPluginAsyncTypebox<{ programs: ProgramService; collection: Collection; tags: string[]; one: TObject }>;

export const programAdminRoutes: ProgramAdminRoutes = async (app, { programs }) => {
  await app.register(wholeProgramRoutes, { programs });
  await app.register(awardSettingsRoutes, { programs });
  for (const collection of collections) {
    // One tag list and one entity envelope per collection, which /docs/yaml writes once and then refers to.
    const shared = { programs, collection, tags: [`admin: ${collection.path}`], one: Envelope(collection.schema) };
    // Reads first: each path's methods stay in the order the API document lists them.
    await app.register(collectionReadRoutes, shared);
    await app.register(collectionWriteRoutes, shared);
  }
};

/** The whole program, and its site settings. */
const wholeProgramRoutes: ProgramAdminRoutes = async (app, { programs }) => {
  app.get(
    '/admin/program',
    { config: admin, schema: { operationId: 'getProgram', tags: ['admin: program'], summary: 'The whole program', response: { 200: Envelope(Program) } } },
    async (request) => ({ response: await programs.read(authOf(request).siteId) }),
  );

  app.put(
    '/admin/program',
    {
      config: admin,
      schema: {
        operationId: 'replaceProgram',
        tags: ['admin: program'],
        summary: 'Replace the whole program atomically (validated first; nothing changes on any error)',
        description: 'The body is the program, or a saved GET /admin/program answer as it is (`{"response": program}`): what GET reads, PUT loads.',
        // Not validated by the schema: the program validator checks it (see the top of this file).
        documentedBody: ProgramBody,
        errors: ['program_invalid'],
        response: { 200: Envelope(Program) },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      reportArchived(reply, await programs.replace(auth, request.body));
      return { response: await programs.read(auth.siteId) };
    },
  );

  app.get(
    '/admin/site',
    {
      config: admin,
      schema: { operationId: 'getSiteSettings', tags: ['admin: program'], summary: 'Site settings', response: { 200: Envelope(SiteSettings) } },
    },
    async (request) => ({ response: (await programs.read(authOf(request).siteId)).site }),
  );

  app.put(
    '/admin/site',
    {
      config: admin,
      // Not validated by the schema: checkEntity and the program validator check it (see the top of this file).
      schema: {
        operationId: 'replaceSiteSettings',
        tags: ['admin: program'],
        summary: 'Replace the site settings',
        documentedBody: SiteSettings,
        errors: ['program_invalid'],
        response: { 200: Envelope(SiteSettings) },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const site = checkEntity(SiteSettings, request.body, request) as ProgramDocument['site'];
      await programs.modify(auth, (program) => void (program.site = site), rerooter('site'));
      return { response: (await programs.read(auth.siteId)).site };
    },
  );
};

/** The award account settings, which a site may have or not. */
const awardSettingsRoutes: ProgramAdminRoutes = async (app, { programs }) => {
  app.get(
    '/admin/award-settings',
    {
      config: admin,
      schema: {
        operationId: 'getAwardSettings',
        tags: ['admin: program'],
        summary: 'Award account settings',
        errors: ['not_found'],
        response: { 200: Envelope(AwardSettings) },
      },
    },
    async (request) => {
      const settings = (await programs.snapshot(authOf(request).siteId)).program.awardSettings;
      if (settings === undefined) throw new AppError('not_found', 'The site has no award settings');
      return { response: settings };
    },
  );

  app.put(
    '/admin/award-settings',
    {
      config: admin,
      schema: {
        operationId: 'replaceAwardSettings',
        tags: ['admin: program'],
        summary: 'Set the award account settings',
        // Not validated by the schema: checkEntity and the program validator check it (see the top of this file).
        documentedBody: AwardSettings,
        errors: ['program_invalid'],
        response: { 200: Envelope(AwardSettings) },
      },
    },
    async (request) => {
      const settings = checkEntity(AwardSettings, request.body, request) as NonNullable<ProgramDocument['awardSettings']>;
      const { program } = await programs.modify(authOf(request), (p) => void (p.awardSettings = settings), rerooter('awardSettings'));
      return { response: program.awardSettings as NonNullable<ProgramDocument['awardSettings']> };
    },
  );

  app.delete(
    '/admin/award-settings',
    {
      config: admin,
      schema: {
        operationId: 'deleteAwardSettings',
        tags: ['admin: program'],
        summary: 'Remove the award account settings',
        errors: ['not_found', 'program_invalid'],
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await programs.modify(authOf(request), (p) => {
        if (p.awardSettings === undefined) throw new AppError('not_found', 'The site has no award settings');
        delete p.awardSettings;
      });
      return reply.status(204).send(null);
    },
  );
};

/** One collection's list and its entities one by one, read from the program's snapshot. */
const collectionReadRoutes: CollectionRoutes = async (app, { programs, collection, tags, one }) => {
  app.get(
    `/admin/${collection.path}`,
    {
      config: admin,
      schema: {
        operationId: `list${collection.operationNouns[1]}`,
        tags,
        summary: `List ${collection.path}`,
        querystring: PagingQuery,
        response: { 200: Envelope(Type.Array(collection.schema)) },
      },
    },
    async (request, reply) => {
      const program = (await programs.snapshot(authOf(request).siteId)).program;
      return { response: page(entitiesOf(program, collection), request.query, reply) };
    },
  );

  app.get(
    `/admin/${collection.path}/:id`,
    {
      config: admin,
      schema: {
        operationId: `get${collection.operationNouns[0]}`,
        tags,
        summary: `One ${collection.noun}`,
        params: idParams('id'),
        errors: ['not_found'],
        response: { 200: one },
      },
    },
    async (request) => ({ response: findEntity((await programs.snapshot(authOf(request).siteId)).program, collection, request.params.id) as never }),
  );
};

/**
 * One collection's entities created, replaced and deleted, each a change of the program; validation
 * paths are given relative to the entity written, and what the change archived in a header.
 */
const collectionWriteRoutes: CollectionRoutes = async (app, { programs, collection, tags, one }) => {
  // Not validated by the schema: checkEntity and the program validator check it (see the top of this file).
  app.post(
    `/admin/${collection.path}`,
    {
      config: admin,
      schema: {
        operationId: `create${collection.operationNouns[0]}`,
        tags,
        summary: `Create a ${collection.noun}`,
        documentedBody: collection.schema,
        errors: ['conflict', 'program_invalid'],
        response: { 201: one },
      },
    },
    async (request, reply) => {
      const entity = checkEntity(collection.schema, request.body, request);
      let index = -1;
      const change = await programs.modify(
        authOf(request),
        (draft) => void (index = addEntity(draft, collection, entity)),
        (errors) => rerooter(`${collection.key}.${index}`)(errors),
      );
      reportArchived(reply, change);
      return reply.status(201).send({ response: entitiesOf(change.program, collection)[index] as never });
    },
  );

  app.put(
    `/admin/${collection.path}/:id`,
    {
      config: admin,
      schema: {
        operationId: `replace${collection.operationNouns[0]}`,
        tags,
        summary: `Create or replace a ${collection.noun}`,
        params: idParams('id'),
        // Not validated by the schema: checkEntity and the program validator check it (see the top of this file).
        documentedBody: collection.schema,
        errors: ['program_invalid'],
        response: { 200: one, 201: one },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const entity = entityAtPath(collection, id, request);
      let put = { index: -1, created: false };
      const change = await programs.modify(
        authOf(request),
        (draft) => void (put = putEntity(draft, collection, id, entity)),
        (errors) => rerooter(`${collection.key}.${put.index}`)(errors),
      );
      reportArchived(reply, change);
      return reply.status(put.created ? 201 : 200).send({ response: entitiesOf(change.program, collection)[put.index] as never });
    },
  );

  app.delete(
    `/admin/${collection.path}/:id`,
    {
      config: admin,
      schema: {
        operationId: `delete${collection.operationNouns[0]}`,
        tags,
        summary: `Delete a ${collection.noun} (refused while others refer to it)`,
        params: idParams('id'),
        errors: ['not_found', 'program_invalid'],
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const change = await programs.modify(authOf(request), (draft) => removeEntity(draft, collection, request.params.id));
      reportArchived(reply, change);
      return reply.status(204).send(null);
    },
  );
};
