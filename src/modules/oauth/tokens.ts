// Signed bearer tokens (HS256, jose). Any node verifies them without the database; verified tokens
// are cached (bounded LRU, until expiry) because jose's verification costs ~150 µs and would
// otherwise cap the whole service. Revocation is checked separately, against the ClientRegistry.
import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import type { ClientRole } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { SitesService } from '../sites/service.js';

const ISSUER = 'questline';
const TOKEN_CACHE_SIZE = 100_000;
const WWW_AUTHENTICATE_INVALID = 'Bearer realm="questline", error="invalid_token"';

export interface TokenClaims {
  siteId: string;
  clientId: string;
  role: ClientRole;
  secretVersion: number;
  /** Present on user-level tokens: the end user the token acts for. */
  userId: string | undefined;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

interface JwtPayloadShape {
  sid?: unknown;
  cid?: unknown;
  role?: unknown;
  ver?: unknown;
  uid?: unknown;
  exp?: unknown;
}

export class TokenService {
  readonly #key: Uint8Array;
  readonly #verified = new LRUCache<string, TokenClaims>({ max: TOKEN_CACHE_SIZE });

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: () => number,
  ) {
    this.#key = new TextEncoder().encode(secret);
  }

  async issue(
    client: { siteId: string; clientId: string; role: ClientRole; secretVersion: number },
    userId?: string,
  ): Promise<{ token: string; expiresIn: number }> {
    const nowSeconds = Math.floor(this.clock() / 1000);
    const token = await new SignJWT({
      sid: client.siteId,
      cid: client.clientId,
      role: client.role,
      ver: client.secretVersion,
      ...(userId !== undefined ? { uid: userId } : {}),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + this.ttlSeconds)
      .setJti(randomBytes(9).toString('base64url'))
      .sign(this.#key);
    return { token, expiresIn: this.ttlSeconds };
  }

  /** The token's claims, or an AppError (invalid_token, token_expired). */
  async verify(token: string): Promise<TokenClaims> {
    const cached = this.#verified.get(token);
    if (cached !== undefined) {
      if (cached.expiresAt <= this.clock()) {
        this.#verified.delete(token);
        throw expired();
      }
      return cached;
    }
    let payload: JwtPayloadShape;
    try {
      ({ payload } = await jwtVerify(token, this.#key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: new Date(this.clock()),
        requiredClaims: ['exp', 'iat'],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw expired();
      throw new AppError('invalid_token', 'The bearer token is malformed or its signature does not verify', {
        headers: { 'www-authenticate': WWW_AUTHENTICATE_INVALID },
      });
    }
    const claims = toClaims(payload);
    this.#verified.set(token, claims, { ttl: Math.max(1, claims.expiresAt - this.clock()) });
    return claims;
  }
}

function expired(): AppError {
  return new AppError('token_expired', 'The bearer token has expired; request a new one', {
    headers: { 'www-authenticate': 'Bearer realm="questline", error="invalid_token", error_description="token expired"' },
  });
}

function toClaims(payload: JwtPayloadShape): TokenClaims {
  const { sid, cid, role, ver, uid, exp } = payload;
  if (
    typeof sid !== 'string' ||
    typeof cid !== 'string' ||
    (role !== 'admin' && role !== 'app') ||
    typeof ver !== 'number' ||
    typeof exp !== 'number' ||
    (uid !== undefined && typeof uid !== 'string')
  ) {
    throw new AppError('invalid_token', 'The bearer token lacks required claims', { headers: { 'www-authenticate': WWW_AUTHENTICATE_INVALID } });
  }
  return { siteId: sid, clientId: cid, role, secretVersion: ver, userId: uid, expiresAt: exp * 1000 };
}

/**
 * The signing secret: TOKEN_SECRET when configured, else one generated on first start and stored
 * in the database so that every node (and every restart) signs with the same key.
 */
export async function resolveTokenSecret(sites: Pick<SitesService, 'settingOnce'>, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured;
  return sites.settingOnce('', 'token_secret', randomBytes(48).toString('base64url'));
}
