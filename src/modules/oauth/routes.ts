import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { toAppError } from '../../plugins/error-handler.js';
import { OAuthErrorBody, TokenRequestBody, TokenRequestDocumented, TokenResponseBody } from './schemas.js';
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

export const oauthRoutes: FastifyPluginAsyncTypebox<{ oauth: OAuthService }> = async (app, { oauth }) => {
  app.post(
    // With the trailing slash, as the interface document writes it (both forms are served).
    '/oauth/token/',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'issueToken',
        tags: ['auth'],
        summary: 'Get a bearer token (client credentials; add xoauth_end_user_id for a user-level token)',
        security: [],
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: TokenRequestBody,
        documentedBody: TokenRequestDocumented,
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
      // The body schema admits one string per field: a form field sent twice fails validation.
      const body = request.body ?? {};
      const basic = basicCredentials(request.headers.authorization);
      if (basic !== undefined && (body.client_id !== undefined || body.client_secret !== undefined)) {
        // RFC 6749 §2.3: a client must not use more than one authentication method per request.
        throw new OAuthError(400, 'invalid_request', 'Send client credentials either with HTTP Basic or in the body, not both');
      }
      const result = await oauth.grant({
        grantType: body.grant_type,
        clientId: basic?.id ?? body.client_id,
        clientSecret: basic?.secret ?? body.client_secret,
        endUserId: body.xoauth_end_user_id,
      });
      reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
      return result;
    },
  );
};
