// The database, decorated on the instance so route modules and health checks share one pool.
import fp from 'fastify-plugin';
import type { Database } from '../db/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
  }
}

export const dbPlugin = fp<{ database: Database; closeOnShutdown: boolean }>(
  async (app, { database, closeOnShutdown }) => {
    app.decorate('database', database);
    if (closeOnShutdown) app.addHook('onClose', async () => database.close());
  },
  { name: 'db' },
);
