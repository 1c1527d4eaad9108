// OpenAPI 3.1 generated from the route schemas (GET /docs/json) and an interactive reference (GET /docs).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifySchema } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * A body validated by the route itself (program documents go through one validator, see
     * src/modules/program/validate.ts), shown in the OpenAPI document as the request body.
     */
    documentedBody?: unknown;
  }
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

/** The route schema as documented: its documentedBody as the body, and both media types where a form can carry it. */
function documentedSchema(schema: FastifySchema): FastifySchema {
  const { documentedBody, ...rest } = schema;
  const body = (documentedBody ?? rest.body) as JsonSchema | undefined;
  return {
    ...rest,
    ...(body !== undefined ? { body } : {}),
    ...(rest.consumes === undefined && takesForm(body) ? { consumes: ['application/json', 'application/x-www-form-urlencoded'] } : {}),
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
          description:
            'Gamification service: actions, missions (challenges), points, levels, badges, leaderboards, recognitions, quizzes, award accounts and webhooks. Errors are RFC 9457 problem+json with a stable `code` (see docs/errors.md).',
        },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A token from POST /oauth/token/' },
          },
        },
        security: [{ bearer: [] }],
      },
      transform: ({ schema, url }) => ({ schema: schema === undefined ? schema : documentedSchema(schema), url }),
      transformObject: (documentObject) =>
        'openapiObject' in documentObject ? markDeprecatedParameters(documentObject.openapiObject) : documentObject.swaggerObject,
    });
    await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  },
  { name: 'openapi' },
);
