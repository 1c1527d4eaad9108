// The client-credentials grant (interface document §5, SPEC §3). Errors are RFC 6749 §5.2 errors,
// not problem+json, because OAuth client libraries expect that shape from a token endpoint.
import { isValidId } from '../../http/ids.js';
import type { RateLimitStore } from '../../infra/rate-limit-store.js';
import { UNKNOWN_CLIENT_HASH, verifySecret } from '../sites/client-secrets.js';
import type { SitesService } from '../sites/service.js';
import type { TokenService } from './tokens.js';

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'slow_down' | 'server_error';

export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: OAuthErrorCode,
    description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

export interface TokenRequest {
  grantType: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  endUserId: string | undefined;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export class OAuthService {
  constructor(
    private readonly sites: Pick<SitesService, 'findClient'>,
    private readonly tokens: TokenService,
    private readonly failures: RateLimitStore,
    private readonly limits: { failureLimit: number; failureWindowSeconds: number },
  ) {}

  async grant(request: TokenRequest): Promise<TokenResponse> {
    const { grantType, clientId, clientSecret, endUserId } = request;
    if (grantType === undefined || grantType === '') throw new OAuthError(400, 'invalid_request', 'grant_type is required');
    if (grantType !== 'client_credentials') {
      throw new OAuthError(400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported');
    }
    if (clientId === undefined || clientId === '') throw new OAuthError(400, 'invalid_request', 'client_id is required');
    if (clientSecret === undefined || clientSecret === '') throw new OAuthError(400, 'invalid_request', 'client_secret is required');
    if (clientId.length > 255 || clientSecret.length > 1024) throw new OAuthError(400, 'invalid_request', 'client_id or client_secret is too long');
    if (endUserId !== undefined && !isValidId(endUserId)) {
      throw new OAuthError(400, 'invalid_request', 'xoauth_end_user_id must be 1–255 letters, digits or -_.@:+');
    }

    // Every attempt is counted before the secret is checked, so concurrent guesses cannot all
    // slip under the limit; a successful attempt is taken back off the count.
    const failureKey = `token-failures:${clientId}`;
    const attempt = await this.failures.hit(failureKey, this.limits.failureWindowSeconds);
    if (attempt.count > this.limits.failureLimit) {
      throw new OAuthError(429, 'slow_down', 'Too many failed attempts for this client; retry later', {
        'retry-after': String(Math.max(1, attempt.ttlSeconds)),
      });
    }

    const client = await this.sites.findClient(clientId);
    // The unknown-client path hashes too, so response time does not reveal which ids exist.
    const secretMatches = await verifySecret(clientSecret, client?.secret_hash ?? UNKNOWN_CLIENT_HASH);
    if (client === undefined || !secretMatches) {
      throw new OAuthError(401, 'invalid_client', 'Unknown client or wrong secret', { 'www-authenticate': 'Basic realm="questline"' });
    }
    await this.failures.unhit(failureKey);

    const { token, expiresIn } = await this.tokens.issue(
      { siteId: client.site_id, clientId: client.client_id, role: client.role, secretVersion: client.secret_version },
      endUserId,
    );
    return { access_token: token, token_type: 'Bearer', expires_in: expiresIn };
  }
}
