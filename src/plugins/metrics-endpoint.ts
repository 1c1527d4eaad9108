// GET /metrics in the Prometheus text format, from the app's registry (src/infra/metrics.ts), and
// the hook that counts every request by route. The route is public like /health: it names routes
// and counts, never a site or a user; restrict it at the proxy where that matters.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '../infra/metrics.js';

export const metricsPlugin = fp<{ metrics: Metrics }>(
  async (app: FastifyInstance, { metrics }) => {
    // A callback hook: no promise per request.
    app.addHook('onResponse', (request, reply, done) => {
      // The route's pattern (/users/:userId/actions), never the path: ids would explode the labels.
      const route = request.routeOptions.url ?? 'unmatched';
      if (route !== '/metrics') {
        metrics.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
        metrics.latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      }
      done();
    });
    app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    });
  },
  { name: 'metrics' },
);
