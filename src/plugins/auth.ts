// Bearer authentication and the route-level declaration of who may call a route. Every route
// declares `config.access`; registering a route without one fails at start-up, so no endpoint
// is open by accident.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ClientRole } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { ClientRegistry, ClientState } from '../modules/sites/client-registry.js';
import type { TokenService } from '../modules/oauth/tokens.js';

/**
 * - public: no token.
 * - admin: a client-level token of an admin client.
 * - client: a client-level token (admin or app).
 * - user: a client-level token, or a user-level token for the `userId` in the path.
 * - definitions: any token of the site, user-level included (read-only program definitions).
 */
export type Access = 'public' | 'admin' | 'client' | 'user' | 'definitions';

export interface AuthContext {
  siteId: string;
  clientId: string;
  role: ClientRole;
  /** Set for user-level tokens. */
  userId: string | undefined;
  client: ClientState;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    /** Set on every route whose access is not public. */
    auth: AuthContext | null;
  }
}

/** The authenticated caller of a non-public route. */
export function authOf(request: FastifyRequest): AuthContext {
  if (request.auth === null) throw new AppError('missing_token');
  return request.auth;
}

const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-_.~+/]+=*)[ \t]*$/i;
const REVOKED_HEADERS = {
  'www-authenticate': 'Bearer realm="questline", error="invalid_token", error_description="token revoked"',
};

export const authPlugin = fp<{ tokens: TokenService; registry: ClientRegistry }>(
  async (app, { tokens, registry }) => {
    app.decorateRequest('auth', null);

    app.addHook('onRoute', (route) => {
      if (route.config?.access === undefined && !route.url.startsWith('/docs')) {
        throw new Error(`Route ${String(route.method)} ${route.url} declares no config.access`);
      }
    });

    async function authenticate(request: FastifyRequest): Promise<AuthContext> {
      const header = request.headers.authorization;
      if (header === undefined || header === '') {
        throw new AppError('missing_token', 'Send Authorization: Bearer <token>', { headers: { 'www-authenticate': 'Bearer realm="questline"' } });
      }
      const match = BEARER.exec(header);
      if (!match?.[1]) {
        throw new AppError('invalid_token', 'The Authorization header must be "Bearer <token>"', {
          headers: { 'www-authenticate': 'Bearer realm="questline", error="invalid_request"' },
        });
      }
      const claims = await tokens.verify(match[1]);
      const client = await registry.get(claims.clientId);
      // The client record, not the token, says what the client may do: a token whose role is not
      // its client's (signed by whoever holds the secret, or issued before a change) is refused.
      if (
        client === undefined ||
        client.deleted ||
        client.secretVersion !== claims.secretVersion ||
        client.siteId !== claims.siteId ||
        client.role !== claims.role
      ) {
        throw new AppError('token_revoked', 'The client behind this token was rotated or deleted; request a new token', { headers: REVOKED_HEADERS });
      }
      return { siteId: claims.siteId, clientId: claims.clientId, role: client.role, userId: claims.userId, client };
    }

    app.addHook('onRequest', async (request) => {
      const access = request.routeOptions.config.access;
      if (access === undefined || access === 'public') return;
      const auth = await authenticate(request);
      request.auth = auth;
      if (!isAllowed(access, auth, request)) {
        throw new AppError('forbidden', forbiddenReason(access, auth));
      }
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);

function isAllowed(access: Access, auth: AuthContext, request: FastifyRequest): boolean {
  switch (access) {
    case 'admin':
      return auth.userId === undefined && auth.role === 'admin';
    case 'client':
      return auth.userId === undefined;
    case 'user': {
      if (auth.userId === undefined) return true;
      const { params } = request;
      return typeof params === 'object' && params !== null && 'userId' in params && params.userId === auth.userId;
    }
    case 'definitions':
      return true;
    case 'public':
      return true;
  }
}

function forbiddenReason(access: Access, auth: AuthContext): string {
  if (auth.userId !== undefined) {
    return access === 'user' ? 'A user-level token may only call endpoints under its own /users/{userId}/' : 'A user-level token may not call this endpoint';
  }
  return 'This endpoint needs an admin client';
}
