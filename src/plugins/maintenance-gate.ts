// The admin maintenance switch (SPEC §15) at work: while a site is in maintenance every call of its
// tokens answers 503 `maintenance` with Retry-After (SPEC §8: callers retry), except the calls of
// its admin clients, who are doing the maintenance. Public routes (health, tokens, the UI bundle)
// are not a site's and stay up. The switch itself: src/modules/sites/maintenance.ts.
import fp from 'fastify-plugin';
import { AppError } from '../errors.js';
import type { Maintenance, MaintenanceSwitch } from '../modules/sites/maintenance.js';

export const maintenancePlugin = fp<{ maintenance: MaintenanceSwitch }>(
  async (app, { maintenance }) => {
    // After authentication (the auth plugin's onRequest hook), which names the site.
    // A callback hook: with the switch cached (nearly always), a request passes without a promise.
    const check = (state: Maintenance) =>
      state.enabled
        ? new AppError('maintenance', state.message ?? 'The site is down for maintenance; retry later', {
            headers: { 'retry-after': String(state.retryAfterSeconds) },
          })
        : undefined;
    app.addHook('preHandler', (request, _reply, done) => {
      const auth = request.auth;
      if (auth === null || (auth.role === 'admin' && auth.userId === undefined)) return done();
      const cached = maintenance.cached(auth.siteId);
      if (cached !== undefined) return done(check(cached));
      maintenance.get(auth.siteId).then(
        (state) => done(check(state)),
        (error: Error) => done(error),
      );
    });
  },
  { name: 'maintenance', dependencies: ['auth', 'errors'] },
);
