// OpenAPI 3.1 generated from the route schemas (GET /docs/json) and an interactive reference (GET /docs).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
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
      transform: ({ schema, url }) => {
        if (schema?.documentedBody === undefined) return { schema, url };
        const { documentedBody, ...rest } = schema;
        return { schema: { ...rest, body: documentedBody }, url };
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  },
  { name: 'openapi' },
);
