import { Type } from 'typebox';

// Loose on purpose: the grant reports missing or wrong fields itself, as RFC 6749 errors.
export const TokenRequestBody = Type.Object(
  {
    grant_type: Type.Optional(Type.String({ description: 'client_credentials' })),
    client_id: Type.Optional(Type.String()),
    client_secret: Type.Optional(Type.String()),
    xoauth_end_user_id: Type.Optional(Type.String({ description: 'Issue a user-level token for this end user' })),
  },
  { additionalProperties: true },
);

/**
 * The token request as the interface document gives it (POST /oauth/token/, form-urlencoded), for
 * the OpenAPI document: TokenRequestBody above validates loosely so that the grant can answer a
 * missing field with an RFC 6749 error.
 */
export const TokenRequestDocumented = Type.Object(
  {
    grant_type: Type.Literal('client_credentials'),
    client_id: Type.String({ description: 'Or the user name of HTTP Basic credentials (RFC 6749 §2.3.1), then not in the body' }),
    client_secret: Type.String({ description: 'Or the password of HTTP Basic credentials, then not in the body' }),
    xoauth_end_user_id: Type.Optional(Type.String({ description: 'Issue a user-level token for this end user' })),
  },
  {
    examples: [
      {
        grant_type: 'client_credentials',
        client_id: 'qlc_b02725f62bb2b680192b87f5',
        client_secret: 'qls_58Jg3a3-an67SMRgRmGxg09oKbo4YZ43Isl05E5v2v4',
        xoauth_end_user_id: 'ann',
      },
    ],
  },
);

export const TokenResponseBody = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the token expires' }),
});

export const OAuthErrorBody = Type.Object({
  error: Type.String({ description: 'RFC 6749 §5.2 error code' }),
  error_description: Type.String(),
});
