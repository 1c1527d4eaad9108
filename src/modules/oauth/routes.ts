import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { toAppError } from '../../plugins/errors.js';
import { OAuthErrorBody, TokenRequestBody, TokenResponseBody } from './schemas.js';
import { OAuthError, type OAuthService } from './service.js';

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = header === undefined ? null : /^Basic[ \t]+([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before being joined.
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  return reply
    .status(error.status)
    .headers({ ...error.headers, 'cache-control': 'no-store' })
    .send({ error: error.error, error_description: error.message });
}

/** A form value sent twice arrives as an array; the grant wants exactly one. */
function single(value: unknown, name: string): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  throw new OAuthError(400, 'invalid_request', `${name} must be given once, as a string`);
}

export const oauthRoutes: FastifyPluginAsyncTypebox<{ oauth: OAuthService }> = async (app, { oauth }) => {
  app.post(
    '/oauth/token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Get a bearer token (client credentials; add xoauth_end_user_id for a user-level token)',
        security: [],
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: TokenRequestBody,
        response: { 200: TokenResponseBody, '4xx': OAuthErrorBody },
      },
      errorHandler: (error, request, reply) => {
        if (error instanceof OAuthError) return sendOAuthError(reply, error);
        const appError = toAppError(error);
        if (appError.status >= 500) {
          request.log.error({ err: error }, 'token request failed');
          return sendOAuthError(reply, new OAuthError(500, 'server_error', 'An unexpected error occurred'));
        }
        return sendOAuthError(reply, new OAuthError(appError.status, 'invalid_request', appError.message));
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const basic = basicCredentials(request.headers.authorization);
      const result = await oauth.grant({
        grantType: single(body.grant_type, 'grant_type'),
        clientId: basic?.id ?? single(body.client_id, 'client_id'),
        clientSecret: basic?.secret ?? single(body.client_secret, 'client_secret'),
        endUserId: single(body.xoauth_end_user_id, 'xoauth_end_user_id'),
      });
      reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
      return result;
    },
  );
};
