// OpenAPI 3.1 generated from the route schemas (GET /docs/json) and an interactive reference (GET /docs).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorCode } from '../errors.js';
import { optionalBody } from '../http/json.js';
import { documentErrors, problemComponents, routeErrorCodes, type DocumentedRoute } from './openapi-errors.js';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * A body validated by the route itself (program documents go through one validator, see
     * src/modules/program/validate.ts), shown in the OpenAPI document as the request body.
     */
    documentedBody?: unknown;
  }
}

/**
 * The tags operations are grouped by, in reading order, each with what its operations are for
 * (the lint, redocly.yaml, fails on an operation whose tag is not here).
 */
const TAGS: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'auth', description: 'Bearer tokens: client-level for servers, user-level (one end user) for pages and apps' },
  { name: 'actions', description: 'Log what people do; missions, points, badges and levels follow' },
  { name: 'definitions', description: "The site's actions and missions, readable by any token of the site" },
  { name: 'profile', description: "A user's points, levels, badges, streaks, preferences and summary" },
  { name: 'missions', description: "A user's missions (challenges): eligible, completed, progress" },
  { name: 'group missions', description: "A group's own missions and progress" },
  { name: 'leaderboards', description: 'Rankings, the viewer around their rank, and closed windows with their winners' },
  { name: 'recognitions', description: 'Peer recognition: exchanges, budgets, recipients, giving points' },
  { name: 'quizzes', description: 'Quizzes a user takes, question by question' },
  { name: 'award accounts', description: "A user's award account: access, balance, statement, marketplaces" },
  { name: 'deprecated', description: 'Kept working for existing integrations; each names its successor' },
  { name: 'admin: program', description: 'The whole program (actions, categories, missions, levels, badges…) as one document, its versions and previews' },
  { name: 'admin: actions', description: "One part of the program at a time: the site's actions" },
  { name: 'admin: point-categories', description: 'One part of the program at a time: point categories, their caps and expiry' },
  { name: 'admin: challenges', description: 'One part of the program at a time: missions (challenges)' },
  { name: 'admin: levels', description: 'One part of the program at a time: levels' },
  { name: 'admin: badges', description: 'One part of the program at a time: badges' },
  { name: 'admin: groups', description: 'One part of the program at a time: groups, and their members' },
  { name: 'admin: leaderboards', description: 'One part of the program at a time: leaderboards' },
  { name: 'admin: layouts', description: 'One part of the program at a time: leaderboard layouts' },
  { name: 'admin: quizzes', description: 'One part of the program at a time: quizzes' },
  { name: 'admin: exchanges', description: 'One part of the program at a time: recognition exchanges' },
  { name: 'admin: streaks', description: 'One part of the program at a time: streaks' },
  { name: 'admin: boosts', description: 'One part of the program at a time: point boosts' },
  { name: 'admin: site', description: 'Site settings and the maintenance switch' },
  { name: 'admin: users', description: "Users of the site: search, roles, a user's level" },
  { name: 'admin: points', description: "Credit or debit a user's points by hand; a user's point history" },
  { name: 'admin: reversals', description: 'Take back an action or a mission completion and what it earned' },
  { name: 'admin: analytics', description: "The program's figures over time" },
  { name: 'admin: award accounts', description: 'Award access, on-the-spot codes, debits and refunds' },
  { name: 'admin: webhooks', description: 'Webhook endpoints, deliveries and the signing secret' },
  { name: 'admin: backup', description: "Back up and restore a site's program and data" },
  { name: 'health', description: 'Liveness and readiness for load balancers and orchestrators' },
];

/** The extension fields that carry a route's codes, and whether its body may be left out, from `transform` to `transformObject`. */
const ERRORS_EXTENSION = 'x-questline-errors';
const OPTIONAL_BODY_EXTENSION = 'x-questline-optional-body';

/** A route's hooks of one kind, as a list. */
function hooksOf(hooks: unknown): unknown[] {
  return Array.isArray(hooks) ? hooks : hooks === undefined ? [] : [hooks];
}

/** Each operation's error responses, and `required: false` on a body that may be left out (optionalBody). */
function finishOperations<T extends { paths?: object; components?: object }>(document: T): T {
  for (const item of Object.values(document.paths ?? {}) as Array<Record<string, unknown> | undefined>) {
    for (const operation of Object.values(item ?? {}) as Array<Record<string, unknown> & { responses?: Record<string, unknown> }>) {
      if (operation[OPTIONAL_BODY_EXTENSION] === true && typeof operation.requestBody === 'object') {
        (operation.requestBody as { required?: boolean }).required = false;
      }
      const codes = operation[ERRORS_EXTENSION] as ErrorCode[] | undefined;
      if (codes !== undefined) documentErrors((operation.responses ??= {}), codes);
      delete operation[OPTIONAL_BODY_EXTENSION];
      delete operation[ERRORS_EXTENSION];
    }
  }
  const { schemas, responses } = problemComponents();
  document.components = { ...document.components, schemas, responses };
  return document;
}

/** The parts of a JSON schema that decide whether a form body can carry it. */
interface JsonSchema {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
}

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/** A value one form field carries: a scalar, a list of scalars (the name repeated, or a,b), or a union with either. */
function isFormValue(schema: JsonSchema): boolean {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) return alternatives.some(isFormValue);
  if (schema.type === 'array') return schema.items !== undefined && isFormValue(schema.items);
  return schema.const !== undefined || schema.enum !== undefined || (schema.type !== undefined && SCALAR_TYPES.has(schema.type));
}

/**
 * Whether a form body (`name=value&…`, which every POST and PUT accepts) can carry the body: an
 * object of named fields whose required ones are form values, or a map of form values. Bodies
 * that need nested objects (programs, missions, quizzes) are JSON only.
 */
function takesForm(body: JsonSchema | undefined): boolean {
  if (body?.type !== 'object') return false;
  const required = new Set(body.required ?? []);
  const named = Object.entries(body.properties ?? {});
  const open = [...Object.values(body.patternProperties ?? {}), ...(typeof body.additionalProperties === 'object' ? [body.additionalProperties] : [])];
  if (named.length === 0 && open.length === 0) return false;
  return named.every(([name, property]) => !required.has(name) || isFormValue(property)) && open.every(isFormValue);
}

/**
 * The route schema as documented: its documentedBody as the body, both media types where a form
 * can carry it, and (for finishOperations) its problem codes and whether its body may be left out.
 */
function documentedSchema(
  schema: FastifySchema,
  route: DocumentedRoute & { preValidation?: unknown; errorHandler?: unknown },
): FastifySchema & { [ERRORS_EXTENSION]?: ErrorCode[]; [OPTIONAL_BODY_EXTENSION]?: true } {
  const { documentedBody, errors: _declared, ...rest } = schema;
  const body = (documentedBody ?? rest.body) as JsonSchema | undefined;
  return {
    ...rest,
    ...(body !== undefined ? { body } : {}),
    ...(rest.consumes === undefined && takesForm(body) ? { consumes: ['application/json', 'application/x-www-form-urlencoded'] } : {}),
    // A route with an error handler of its own (the token endpoint's RFC 6749 errors) documents
    // its error answers in its schema; no problem+json is added.
    ...(route.errorHandler === undefined ? { [ERRORS_EXTENSION]: routeErrorCodes(route) } : {}),
    ...(hooksOf(route.preValidation).includes(optionalBody) ? { [OPTIONAL_BODY_EXTENSION]: true } : {}),
  };
}

interface OpenApiParameter {
  deprecated?: boolean;
  schema?: { deprecated?: boolean };
}

/** A parameter whose schema says `deprecated: true` is marked deprecated itself, where OpenAPI readers look. */
function markDeprecatedParameters<T extends { paths?: object }>(document: T): T {
  for (const item of Object.values(document.paths ?? {}) as Array<Record<string, unknown> | undefined>) {
    for (const operation of Object.values(item ?? {})) {
      const parameters = (operation as { parameters?: OpenApiParameter[] } | undefined)?.parameters ?? [];
      for (const parameter of parameters) if (parameter.schema?.deprecated === true) parameter.deprecated = true;
    }
  }
  return document;
}

export const openapiPlugin = fp<{ version: string }>(
  async (app, { version }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Questline API',
          version,
          license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
          description:
            'Gamification service: actions, missions (challenges), points, levels, badges, leaderboards, recognitions, quizzes, award accounts and webhooks. Errors are RFC 9457 problem+json with a stable `code` (see docs/errors.md).',
        },
        tags: [...TAGS],
        // The installation that serves this document: paths are relative to its origin.
        servers: [{ url: '/', description: 'This Questline installation' }],
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A token from POST /oauth/token/' },
          },
        },
        security: [{ bearer: [] }],
      },
      transform: ({ schema, url, route }) => ({ schema: schema === undefined ? schema : documentedSchema(schema, route), url }),
      transformObject: (documentObject) =>
        'openapiObject' in documentObject ? finishOperations(markDeprecatedParameters(documentObject.openapiObject)) : documentObject.swaggerObject,
    });
    await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  },
  { name: 'openapi' },
);
