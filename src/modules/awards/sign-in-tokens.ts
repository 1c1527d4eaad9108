// Marketplace sign-in tokens (SPEC §11): a short-lived JWT (ES256, jose) the marketplace verifies
// with the site's public key, published at GET /sites/{siteId}/jwks.json, so that no secret is
// shared with it. Each site has its own key, made on first use and kept in instance_settings, so
// a marketplace that trusts one site's key can never be handed another site's token.
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { SitesService } from '../sites/service.js';

export const MARKETPLACE_TOKEN_SECONDS = 300;
const SETTING = 'marketplace_signing_key';
const ALG = 'ES256';

interface SiteKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface MarketplaceClaims {
  siteId: string;
  userId: string;
  type: string;
  browseOnly: boolean;
  available: number;
  currency: string;
}

export class MarketplaceKeys {
  readonly #keys = new Map<string, Promise<SiteKey>>();

  constructor(
    private readonly sites: Pick<SitesService, 'setting' | 'settingOnce'>,
    private readonly clock: () => number,
  ) {}

  /** A signed token for the claims, and when it expires (ms since the epoch). */
  async sign(claims: MarketplaceClaims): Promise<{ token: string; expiresAt: number }> {
    const key = await this.key(claims.siteId);
    const issuedAt = Math.floor(this.clock() / 1000);
    const expiresAt = issuedAt + MARKETPLACE_TOKEN_SECONDS;
    const token = await new SignJWT({ site: claims.siteId, browseOnly: claims.browseOnly, available: claims.available, currency: claims.currency })
      .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
      .setIssuer(`questline:${claims.siteId}`)
      .setSubject(claims.userId)
      .setAudience(claims.type)
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(key.privateKey);
    return { token, expiresAt: expiresAt * 1000 };
  }

  /** The site's public keys as a JWK set. */
  async jwks(siteId: string): Promise<{ keys: JWK[] }> {
    const key = await this.key(siteId);
    return { keys: [key.publicJwk] };
  }

  private key(siteId: string): Promise<SiteKey> {
    let key = this.#keys.get(siteId);
    if (key === undefined) {
      key = this.load(siteId);
      key.catch(() => this.#keys.delete(siteId));
      this.#keys.set(siteId, key);
    }
    return key;
  }

  /** The stored key, or a new one: the first writer wins, and every node reads what it wrote. */
  private async load(siteId: string): Promise<SiteKey> {
    let stored = await this.sites.setting(siteId, SETTING);
    if (stored === undefined) {
      const { privateKey } = await generateKeyPair(ALG, { extractable: true });
      const fresh = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: ALG, use: 'sig' };
      stored = await this.sites.settingOnce(siteId, SETTING, JSON.stringify(fresh));
    }
    const jwk = JSON.parse(stored) as JWK & { kid: string };
    const { d: _private, ...publicJwk } = jwk;
    return { kid: jwk.kid, privateKey: (await importJWK(jwk, ALG)) as CryptoKey, publicJwk };
  }
}
