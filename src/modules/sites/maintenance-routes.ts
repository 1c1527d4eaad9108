// GET and PUT /admin/maintenance (SPEC §15): the site's maintenance switch (src/plugins/maintenance-gate.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope } from '../../http/paging.js';
import { Instant, Nullable } from '../../http/schemas.js';
import { authOf } from '../../plugins/auth.js';
import type { MaintenanceSwitch } from './maintenance.js';

const tags = ['admin: site'];
const admin = { access: 'admin' as const };
const State = Type.Object({
  enabled: Type.Boolean(),
  retryAfterSeconds: Type.Integer({ description: 'The Retry-After of the 503 answers' }),
  message: Nullable(Type.String()),
  since: Nullable(Instant),
});

export const maintenanceRoutes: FastifyPluginAsyncTypebox<{ maintenance: MaintenanceSwitch }> = async (app, { maintenance }) => {
  app.get(
    '/admin/maintenance',
    { config: admin, schema: { operationId: 'getMaintenanceMode', tags, summary: "The site's maintenance switch", response: { 200: Envelope(State) } } },
    async (request) => ({
      response: await maintenance.get(authOf(request).siteId),
    }),
  );

  app.put(
    '/admin/maintenance',
    {
      config: admin,
      schema: {
        operationId: 'setMaintenanceMode',
        tags,
        summary: "Turn maintenance on or off: while on, every call but an admin client's answers 503 with Retry-After",
        body: Type.Object(
          {
            enabled: Type.Boolean(),
            retryAfterSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, default: 60 })),
            message: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
          },
          { additionalProperties: false, examples: [{ enabled: true, retryAfterSeconds: 600, message: 'Moving to the new database: back in ten minutes' }] },
        ),
        response: { 200: Envelope(State) },
      },
    },
    async (request) => ({ response: await maintenance.set(authOf(request).siteId, request.body) }),
  );
};
