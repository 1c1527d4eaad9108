// CORS for the UI blocks embedded on a company's own pages (SPEC §14). A preflight carries no
// token, so it is answered for the union of every site's `allowedOrigins`; the request itself is
// then checked against its token's site: from an origin that site does not allow it is refused
// (403 origin_not_allowed) before it runs, so a page cannot write through another site's blocks.
// Same-origin requests (the /demo page) and requests without an Origin (servers) pass as they are.
// Public routes (the bundle, health, the JWK sets) answer any origin; they carry no user data
// (the /demo page, which does, answers none).
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.js';
import type { ProgramService } from '../modules/program/service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public route whose answer no other origin may read (the /demo page holds a user's token). */
    sameOriginOnly?: boolean;
  }
}

const UNION_SECONDS = 5;
const EXPOSED = ['x-request-id', 'x-total-count', 'retry-after', 'ratelimit', 'ratelimit-policy', 'deprecation', 'sunset', 'link'].join(', ');
const ALLOWED_HEADERS = 'authorization, content-type, x-request-id';
const METHODS = 'GET, POST, PUT, PATCH, DELETE';

/** The origin of an allowed-origin setting (a URL): scheme, host and port, as browsers send it. */
export function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

export const corsPlugin = fp<{ programs: ProgramService; clock?: () => number }>(
  async (app, { programs, clock = Date.now }) => {
    const allOrigins = originUnion(programs, clock);

    // Preflights: answered here for every path (no route has OPTIONS), before routing's 404.
    app.addHook('onRequest', async (request, reply) => {
      const origin = request.headers.origin;
      if (request.method !== 'OPTIONS' || origin === undefined || request.headers['access-control-request-method'] === undefined) return;
      reply.header('vary', 'Origin');
      if (!sameOrigin(request, origin) && !(await allOrigins()).has(origin)) return reply.status(204).send();
      allow(reply, origin);
      reply.header('access-control-allow-methods', METHODS);
      reply.header('access-control-allow-headers', ALLOWED_HEADERS);
      reply.header('access-control-max-age', '600');
      return reply.status(204).send();
    });

    // Requests: after authentication (the auth plugin's onRequest hook has run), against the token's site.
    const siteAllows = async (siteId: string, origin: string) =>
      (await programs.snapshot(siteId)).program.site.allowedOrigins.some((url) => originOf(url) === origin);
    // Callback hooks: most requests carry no Origin and pass without a promise.
    app.addHook('preHandler', (request, _reply, done) => {
      const origin = request.headers.origin;
      const auth = request.auth;
      if (origin === undefined || auth === null || sameOrigin(request, origin)) return done();
      siteAllows(auth.siteId, origin).then(
        (allowed) =>
          done(allowed ? undefined : new AppError('origin_not_allowed', `The site does not allow requests from ${origin} (site setting allowedOrigins)`)),
        (error: Error) => done(error),
      );
    });

    // Every answer, errors included, is readable by the pages allowed to make the request: a
    // block shows the problem (an expired token, say) instead of a bare network error.
    app.addHook('onSend', (request, reply, payload, done) => {
      const origin = request.headers.origin;
      if (origin === undefined || request.method === 'OPTIONS' || sameOrigin(request, origin) || request.routeOptions.config?.sameOriginOnly === true)
        return done(null, payload);
      if (request.routeOptions.config?.access === 'public') {
        reply.header('access-control-allow-origin', '*');
        return done(null, payload);
      }
      const auth = request.auth;
      (auth !== null ? siteAllows(auth.siteId, origin) : allOrigins().then((origins) => origins.has(origin))).then(
        (allowed) => {
          if (allowed) allow(reply, origin);
          done(null, payload);
        },
        () => done(null, payload),
      );
    });
  },
  { name: 'cors', dependencies: ['auth', 'errors'] },
);

/** Every site's allowed origins together (what a preflight, which carries no token, is answered for), read at most every UNION_SECONDS. */
function originUnion(programs: Pick<ProgramService, 'allowedOrigins'>, clock: () => number): () => Promise<Set<string>> {
  let union: { origins: Set<string>; at: number } | undefined;
  return async () => {
    const now = clock();
    if (union !== undefined && now - union.at < UNION_SECONDS * 1000) return union.origins;
    const origins = await programs.allowedOrigins();
    union = { origins: new Set(origins.map(originOf).filter((origin) => origin !== null)), at: now };
    return union.origins;
  };
}

function sameOrigin(request: FastifyRequest, origin: string): boolean {
  return origin === `${request.protocol}://${request.host}`;
}

/** Lets the origin read the answer. */
function allow(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', EXPOSED);
  reply.header('vary', 'Origin');
}
