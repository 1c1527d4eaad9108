// GET /health/live and /health/ready: whether the process is up, and whether it can serve requests (its database answers).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';

const HealthStatus = Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]) });

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health/live',
    {
      config: { access: 'public' },
      schema: { operationId: 'getLiveness', tags: ['health'], summary: 'The process is up', security: [], response: { 200: HealthStatus } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getReadiness',
        tags: ['health'],
        summary: 'The node can serve requests (database reachable)',
        security: [],
        response: { 200: HealthStatus, 503: HealthStatus },
      },
    },
    async (request, reply) => {
      try {
        await app.database.ping();
        return { status: 'ok' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    },
  );
};
