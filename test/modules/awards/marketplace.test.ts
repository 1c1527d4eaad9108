// Marketplace sign-in (SPEC §11, interface document §4 Award accounts): GET
// /users/{u}/award-marketplace-url/{type} answers a URL carrying a short-lived ES256 token that a
// marketplace verifies with the site's public keys (GET /sites/{siteId}/jwks.json), and whether
// the user may only browse. The three endpoints deprecated on 30 September 2026 (award-catalog,
// award-country-code, award-verification) keep answering the same data as their successors, with
// Deprecation and successor Link headers and no Sunset.
import type { LightMyRequestResponse } from 'fastify';
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify, type JSONWebKeySet, type JWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AwardAccess } from '../../../src/engine/elements/awards.js';
import type { AwardBalance, MarketplaceUrl } from '../../../src/modules/awards/service.js';
import { MarketplaceKeys } from '../../../src/modules/awards/sign-in-tokens.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';

// Noon in New York on Monday 2026-06-15, a whole second.
const START = Date.parse('2026-06-15T16:00:00Z');
const TOKEN_SECONDS = 300;
const DEPRECATION = '@1790726400'; // 2026-09-30T00:00:00Z
const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const SHOP = 'https://market.acme.example/sso?token={token}';
const TRAVEL = 'https://travel.acme.example/sso?token={token}';
const awardSettings = {
  pointCategory: 'Award',
  currency: 'USD',
  conversionRate: 0.01,
  marketplaces: [
    { type: 'shop', urlTemplate: SHOP },
    { type: 'travel', urlTemplate: TRAVEL },
  ],
  allowedCountries: ['US', 'CA', 'GB'],
  verificationRequired: true,
};
/** A small program; `null`: without award settings. */
const program = (settings: Record<string, unknown> | null = awardSettings): Record<string, unknown> => ({
  site: { name: 'Awards', timezone: 'UTC' },
  pointCategories: [
    { name: 'Points', isDefault: true },
    { name: 'Award', isDefault: false },
  ],
  actions: [{ name: 'read' }],
  ...(settings !== null ? { awardSettings: settings } : {}),
});

interface Ctx {
  site: TestSite;
  admin: string;
  app: string;
}

interface Claims extends JWTPayload {
  site: string;
  browseOnly: boolean;
  available: number;
  currency: string;
}

interface LinkTarget {
  path: string;
  rel: string | undefined;
  title: string | undefined;
}

/** The targets of a Link header: `<path>; rel="…"; title="…", …`. */
function parseLink(header: string | string[] | number | undefined): LinkTarget[] {
  expect(typeof header, 'Link header').toBe('string');
  return (header as string).split(/,\s*(?=<)/).map((part) => {
    const match = /^<([^>]*)>((?:\s*;\s*[a-z]+="[^"]*")*)$/.exec(part.trim());
    expect(match, part).not.toBeNull();
    const params = Object.fromEntries([...(match?.[2] ?? '').matchAll(/([a-z]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    return { path: match?.[1] as string, rel: params.rel, title: params.title };
  });
}

/** The token in a sign-in URL's `token` query parameter. */
function tokenOf(url: string): string {
  const token = new URL(url).searchParams.get('token');
  expect(token, url).toMatch(JWT);
  return token as string;
}

/** The URL without its token (the parts a marketplace routes on). */
function withoutToken(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('token');
  return parsed.toString();
}

describe.each(configurations)('award marketplaces (%s)', (configuration) => {
  let t: TestApp;
  let now = START;

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => now, config: { clientRate: { rate: 100_000, burst: 100_000 } } });
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    now = START;
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: token !== undefined ? { authorization: `Bearer ${token}` } : {},
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const body = <T>(response: LightMyRequestResponse, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return (response.json() as { response: T }).response;
  };
  const expectProblem = (response: LightMyRequestResponse, status: number, code: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status, code });
  };
  const setUp = async (document: Record<string, unknown> = program()): Promise<Ctx> => {
    const site = await t.createSite();
    const ctx = { site, admin: await t.token(site.admin), app: await t.token(site.app) };
    body(await call('PUT', '/admin/program', ctx.admin, document));
    return ctx;
  };
  const u = (user: string) => `/users/${encodeURIComponent(user)}`;
  const credit = async (c: Ctx, user: string, amount: number) =>
    body(await call('POST', `/admin/users/${encodeURIComponent(user)}/points`, c.admin, { category: 'Award', amount, reason: 'test credit' }), 201);
  const setAccess = async (c: Ctx, user: string, change: { countryCode?: string | null; verified?: boolean }) =>
    body<AwardAccess>(await call('PATCH', `/admin/users/${encodeURIComponent(user)}/award-access`, c.admin, change));
  const access = async (c: Ctx, user: string) => {
    const response = await call('GET', `${u(user)}/award-access`, c.app);
    expect(response.headers.deprecation).toBeUndefined();
    return body<AwardAccess>(response);
  };
  const balance = async (c: Ctx, user: string) => body<AwardBalance>(await call('GET', `${u(user)}/award-balance`, c.app));
  const signIn = async (c: Ctx, user: string, type: string, token = c.app) => {
    const response = await call('GET', `${u(user)}/award-marketplace-url/${type}`, token);
    // The successor is not deprecated.
    expect(response.headers.deprecation).toBeUndefined();
    expect(response.headers.sunset).toBeUndefined();
    expect(response.headers.link).toBeUndefined();
    return body<MarketplaceUrl>(response);
  };
  const jwksOf = async (siteId: string): Promise<JSONWebKeySet> => {
    const response = await call('GET', `/sites/${siteId}/jwks.json`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as JSONWebKeySet;
  };
  const verify = async (token: string, siteId: string, type: string, options: { at?: number; jwks?: JSONWebKeySet } = {}) =>
    jwtVerify<Claims>(token, createLocalJWKSet(options.jwks ?? (await jwksOf(siteId))), {
      issuer: `questline:${siteId}`,
      audience: type,
      currentDate: new Date(options.at ?? now),
    });
  /** A ready user: `amount` award points, verified in the US. */
  const member = async (c: Ctx, user: string, amount: number) => {
    if (amount !== 0) await credit(c, user, amount);
    await setAccess(c, user, { countryCode: 'US', verified: true });
  };

  describe('GET /users/{u}/award-marketplace-url/{type}', () => {
    it('answers the type, the template filled with a token that verifies, browseOnly and the expiry', async () => {
      const c = await setUp();
      await member(c, 'ann', 12_345);
      const jwks = await jwksOf(c.site.siteId);

      const shop = await signIn(c, 'ann', 'shop');
      expect(Object.keys(shop).sort()).toEqual(['browseOnly', 'expiresAt', 'type', 'url']);
      const token = tokenOf(shop.url);
      expect(shop).toEqual({
        type: 'shop',
        url: SHOP.replace('{token}', token),
        browseOnly: false,
        expiresAt: new Date(START + TOKEN_SECONDS * 1000).toISOString(),
      });

      const { payload, protectedHeader } = await verify(token, c.site.siteId, 'shop', { jwks });
      expect(protectedHeader).toEqual({ alg: 'ES256', typ: 'JWT', kid: jwks.keys[0]?.kid });
      expect(payload).toEqual({
        iss: `questline:${c.site.siteId}`,
        sub: 'ann',
        aud: 'shop',
        site: c.site.siteId,
        browseOnly: false,
        available: 12_345,
        currency: 'USD',
        jti: expect.stringMatching(UUID),
        iat: START / 1000,
        exp: START / 1000 + TOKEN_SECONDS,
      });
      expect((payload.exp as number) - (payload.iat as number)).toBe(300);
      expect(new Date((payload.exp as number) * 1000).toISOString()).toBe(shop.expiresAt);
      // The balance the token carries is the one the user sees.
      expect(payload.available).toBe((await balance(c, 'ann')).available);

      // The other marketplace: its own template and audience; a shop token is not a travel token.
      const travel = await signIn(c, 'ann', 'travel');
      const travelToken = tokenOf(travel.url);
      expect(travel).toEqual({ type: 'travel', url: TRAVEL.replace('{token}', travelToken), browseOnly: false, expiresAt: shop.expiresAt });
      expect((await verify(travelToken, c.site.siteId, 'travel', { jwks })).payload).toMatchObject({ aud: 'travel', sub: 'ann', available: 12_345 });
      await expect(verify(token, c.site.siteId, 'travel', { jwks })).rejects.toThrow(errors.JWTClaimValidationFailed);
      await expect(jwtVerify(token, createLocalJWKSet(jwks), { issuer: 'questline:elsewhere', audience: 'shop', currentDate: new Date(now) })).rejects.toThrow(
        errors.JWTClaimValidationFailed,
      );

      // Every token is a new one.
      const again = await signIn(c, 'ann', 'shop');
      expect(tokenOf(again.url)).not.toBe(token);
      expect((await verify(tokenOf(again.url), c.site.siteId, 'shop', { jwks })).payload.jti).not.toBe(payload.jti);
    });

    it('issues tokens at the app clock, expiring 300 s after issue', async () => {
      const c = await setUp();
      await member(c, 'ann', 10);
      now = START + 3_600_000 + 700; // an hour and 0.7 s later: iat is in whole seconds
      const later = await signIn(c, 'ann', 'shop');
      const { payload } = await verify(tokenOf(later.url), c.site.siteId, 'shop');
      expect(payload.iat).toBe(START / 1000 + 3600);
      expect(payload.exp).toBe(START / 1000 + 3600 + TOKEN_SECONDS);
      expect(later.expiresAt).toBe(new Date((START / 1000 + 3600 + TOKEN_SECONDS) * 1000).toISOString());
    });

    it('expires: 299 s after issue it verifies, 301 s after it is JWTExpired', async () => {
      const c = await setUp();
      await member(c, 'ann', 10);
      const token = tokenOf((await signIn(c, 'ann', 'shop')).url);
      const jwks = await jwksOf(c.site.siteId);
      await expect(verify(token, c.site.siteId, 'shop', { jwks, at: START + 299_000 })).resolves.toBeDefined();
      await expect(verify(token, c.site.siteId, 'shop', { jwks, at: START + 301_000 })).rejects.toThrow(errors.JWTExpired);
      await expect(verify(token, c.site.siteId, 'shop', { jwks, at: START + 86_400_000 })).rejects.toThrow(errors.JWTExpired);
    });

    it('carries the available balance, without credits still on hold', async () => {
      const c = await setUp(program({ ...awardSettings, holdDays: 7 }));
      await member(c, 'ann', 100);
      const held = await verify(tokenOf((await signIn(c, 'ann', 'shop')).url), c.site.siteId, 'shop');
      expect(held.payload.available).toBe(0);
      expect(await balance(c, 'ann')).toMatchObject({ available: 0, pending: 100 });
      now = START + 7 * 86_400_000;
      c.app = await t.token(c.site.app); // the first one has expired by now
      const freed = await verify(tokenOf((await signIn(c, 'ann', 'shop')).url), c.site.siteId, 'shop');
      expect(freed.payload.available).toBe(100);
    });

    it('a token changed in one character, or with claims of its own making, does not verify', async () => {
      const c = await setUp();
      await member(c, 'ann', 50);
      await setAccess(c, 'bob', { countryCode: 'FR' });
      const jwks = await jwksOf(c.site.siteId);
      const token = tokenOf((await signIn(c, 'bob', 'shop')).url);
      const [header, payload, signature] = token.split('.') as [string, string, string];
      await expect(verify(token, c.site.siteId, 'shop', { jwks })).resolves.toBeDefined();

      // One character of the payload, anywhere in it.
      for (const at of [0, Math.floor(payload.length / 2), payload.length - 2]) {
        const changed = payload.slice(0, at) + (payload[at] === 'A' ? 'B' : 'A') + payload.slice(at + 1);
        await expect(verify(`${header}.${changed}.${signature}`, c.site.siteId, 'shop', { jwks }), `payload[${at}]`).rejects.toThrow(
          errors.JWSSignatureVerificationFailed,
        );
      }
      // One character of the signature (not the last, whose low bits are padding).
      const middle = Math.floor(signature.length / 2);
      const badSignature = signature.slice(0, middle) + (signature[middle] === 'A' ? 'B' : 'A') + signature.slice(middle + 1);
      await expect(verify(`${header}.${payload}.${badSignature}`, c.site.siteId, 'shop', { jwks })).rejects.toThrow(errors.JWSSignatureVerificationFailed);

      // bob may only browse and has nothing; claims rewritten to say otherwise are refused.
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
      expect(claims).toMatchObject({ sub: 'bob', browseOnly: true, available: 0 });
      const forged = Buffer.from(JSON.stringify({ ...claims, browseOnly: false, available: 1_000_000 })).toString('base64url');
      await expect(verify(`${header}.${forged}.${signature}`, c.site.siteId, 'shop', { jwks })).rejects.toThrow(errors.JWSSignatureVerificationFailed);
      // Nor can ann's signature be moved onto bob's claims.
      const annSignature = tokenOf((await signIn(c, 'ann', 'shop')).url).split('.')[2] as string;
      await expect(verify(`${header}.${payload}.${annSignature}`, c.site.siteId, 'shop', { jwks })).rejects.toThrow(errors.JWSSignatureVerificationFailed);
      // Nor is an unsigned token accepted.
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${forged}.`;
      await expect(verify(none, c.site.siteId, 'shop', { jwks })).rejects.toThrow();
    });

    it("another site's key set does not verify the site's tokens", async () => {
      const a = await setUp();
      const b = await setUp();
      await member(a, 'ann', 10);
      const token = tokenOf((await signIn(a, 'ann', 'shop')).url);
      const jwksA = await jwksOf(a.site.siteId);
      const jwksB = await jwksOf(b.site.siteId);
      const [keyA, keyB] = [jwksA.keys[0] as JWK, jwksB.keys[0] as JWK];
      expect(keyB.kid).not.toBe(keyA.kid);
      expect([keyB.x, keyB.y]).not.toEqual([keyA.x, keyA.y]);
      expect(decodeProtectedHeader(token).kid).toBe(keyA.kid);

      await expect(verify(token, a.site.siteId, 'shop', { jwks: jwksA })).resolves.toBeDefined();
      // B's set has no key of that id...
      await expect(verify(token, a.site.siteId, 'shop', { jwks: jwksB })).rejects.toThrow(errors.JWKSNoMatchingKey);
      // ...and B's key under A's key id does not verify A's signature either.
      await expect(verify(token, a.site.siteId, 'shop', { jwks: { keys: [{ ...keyB, kid: keyA.kid }] } })).rejects.toThrow(
        errors.JWSSignatureVerificationFailed,
      );
    });
  });

  describe('GET /sites/{siteId}/jwks.json', () => {
    it('publishes one public P-256 key for ES256, without its private part, to callers without a token', async () => {
      const c = await setUp();
      const response = await call('GET', `/sites/${c.site.siteId}/jwks.json`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const jwks = response.json() as { keys: Array<Record<string, unknown>> };
      expect(Object.keys(jwks)).toEqual(['keys']);
      expect(jwks.keys).toHaveLength(1);
      const key = jwks.keys[0] as Record<string, unknown>;
      expect(key).toMatchObject({
        kty: 'EC',
        crv: 'P-256',
        alg: 'ES256',
        kid: expect.any(String),
        x: expect.stringMatching(/^[\w-]{43}$/),
        y: expect.stringMatching(/^[\w-]{43}$/),
      });
      expect(key).not.toHaveProperty('d');
      expect(response.body).not.toMatch(/"d"\s*:/);
      expect(key.key_ops ?? ['verify']).not.toContain('sign');
      expect(['sig', undefined]).toContain(key.use);
      // Only public members.
      for (const name of Object.keys(key)) expect(['kty', 'crv', 'x', 'y', 'kid', 'alg', 'use', 'key_ops'], name).toContain(name);

      // With a token it is the same.
      const withToken = await call('GET', `/sites/${c.site.siteId}/jwks.json`, c.app);
      expect(withToken.statusCode).toBe(200);
      expect(withToken.json()).toEqual(jwks);
    });

    it('stays the same across calls and for another instance over the same database', async () => {
      const c = await setUp();
      await member(c, 'ann', 10);
      // Published before any token is signed: the key is made on first use, whichever that is.
      const first = await jwksOf(c.site.siteId);
      const token = tokenOf((await signIn(c, 'ann', 'shop')).url);
      const second = await jwksOf(c.site.siteId);
      expect(second).toEqual(first);
      await expect(verify(token, c.site.siteId, 'shop', { jwks: first })).resolves.toBeDefined();
      now = START + 86_400_000;
      c.app = await t.token(c.site.app); // the first one has expired by now
      expect(await jwksOf(c.site.siteId)).toEqual(first);
      await expect(verify(tokenOf((await signIn(c, 'ann', 'shop')).url), c.site.siteId, 'shop', { jwks: first })).resolves.toBeDefined();

      // Another node reads the stored key instead of making its own.
      const otherNode = new MarketplaceKeys(t.app.services.sites, () => now);
      expect(await otherNode.jwks(c.site.siteId)).toEqual(first);
      const signed = await otherNode.sign({ siteId: c.site.siteId, userId: 'ann', type: 'shop', browseOnly: false, available: 1, currency: 'USD' });
      await expect(verify(signed.token, c.site.siteId, 'shop', { jwks: first })).resolves.toBeDefined();

      // Two nodes making a fresh site's key at the same time end up with the same one.
      const fresh = await setUp();
      const [one, two] = await Promise.all([
        new MarketplaceKeys(t.app.services.sites, () => now).jwks(fresh.site.siteId),
        new MarketplaceKeys(t.app.services.sites, () => now).jwks(fresh.site.siteId),
      ]);
      expect(two).toEqual(one);
      expect(await jwksOf(fresh.site.siteId)).toEqual(one);
    });

    it('answers 404 for a site that does not exist', async () => {
      expectProblem(await call('GET', '/sites/no-such-site/jwks.json'), 404, 'not_found');
      const c = await setUp();
      expectProblem(await call('GET', '/sites/no-such-site/jwks.json', c.app), 404, 'not_found');
    });
  });

  describe('browseOnly', () => {
    it('is true until the user is verified in an allowed country; the token says the same', async () => {
      const c = await setUp();
      const steps: Array<[{ countryCode?: string | null; verified?: boolean } | null, boolean]> = [
        [null, true], // no account: no country, not verified
        [{ countryCode: 'US' }, true], // not verified
        [{ verified: true, countryCode: 'FR' }, true], // verified, but FR is not allowed
        [{ countryCode: 'US' }, false], // verified stays
        [{ verified: false }, true], // US stays
        [{ verified: true }, false],
        [{ countryCode: null }, true],
        [{ countryCode: 'GB', verified: true }, false],
      ];
      for (const [change, browseOnly] of steps) {
        const label = JSON.stringify(change);
        if (change !== null) expect((await setAccess(c, 'ann', change)).browseOnly, label).toBe(browseOnly);
        expect((await access(c, 'ann')).browseOnly, label).toBe(browseOnly);
        for (const type of ['shop', 'travel']) {
          const url = await signIn(c, 'ann', type);
          expect(url.browseOnly, `${label} ${type}`).toBe(browseOnly);
          expect((await verify(tokenOf(url.url), c.site.siteId, type)).payload.browseOnly, `${label} ${type} token`).toBe(browseOnly);
        }
      }
    });

    it('is false for everyone where every country is allowed and no verification is required', async () => {
      const c = await setUp(program({ ...awardSettings, allowedCountries: [], verificationRequired: false }));
      const url = await signIn(c, 'nobody-yet', 'shop');
      expect(url.browseOnly).toBe(false);
      expect((await verify(tokenOf(url.url), c.site.siteId, 'shop')).payload).toMatchObject({ browseOnly: false, available: 0, sub: 'nobody-yet' });
    });
  });

  describe('unknown marketplaces', () => {
    it('answers 404 unknown_marketplace for a type the site does not have', async () => {
      const c = await setUp();
      for (const type of ['nope', 'SHOP', 'shop2'])
        expectProblem(await call('GET', `/users/ann/award-marketplace-url/${type}`, c.app), 404, 'unknown_marketplace');
    });

    it('answers 404 unknown_marketplace on a site without award settings, or once they are removed', async () => {
      const none = await setUp(program(null));
      expectProblem(await call('GET', '/admin/award-settings', none.admin), 404, 'not_found');
      expectProblem(await call('GET', '/users/ann/award-marketplace-url/shop', none.app), 404, 'unknown_marketplace');

      const c = await setUp();
      await signIn(c, 'ann', 'shop');
      expect((await call('DELETE', '/admin/award-settings', c.admin)).statusCode).toBe(204);
      expectProblem(await call('GET', '/users/ann/award-marketplace-url/shop', c.app), 404, 'unknown_marketplace');
    });
  });

  describe('URL templates', () => {
    const put = async (c: Ctx, marketplaces: Array<{ type: string; urlTemplate: string }>) =>
      body(await call('PUT', '/admin/award-settings', c.admin, { ...awardSettings, allowedCountries: [], verificationRequired: false, marketplaces }));

    it('adds the token as a query parameter to a template without {token}', async () => {
      const c = await setUp();
      await put(c, [
        { type: 'query', urlTemplate: 'https://m.example/x?a=1' },
        { type: 'bare', urlTemplate: 'https://m.example/x' },
      ]);
      const query = await signIn(c, 'ann', 'query');
      const token = tokenOf(query.url);
      expect(query.url).toBe(`https://m.example/x?a=1&token=${token}`);
      expect((await verify(token, c.site.siteId, 'query')).payload).toMatchObject({ aud: 'query', sub: 'ann' });
      const bare = await signIn(c, 'ann', 'bare');
      expect(bare.url).toBe(`https://m.example/x?token=${tokenOf(bare.url)}`);
      await expect(verify(tokenOf(bare.url), c.site.siteId, 'bare')).resolves.toBeDefined();
    });

    it('fills {userId} and {type} URL-encoded', async () => {
      const c = await setUp();
      await put(c, [
        { type: 'paths', urlTemplate: 'https://m.example/{type}/u/{userId}?token={token}' },
        { type: 'userq', urlTemplate: 'https://m.example/x?user={userId}' },
      ]);
      const user = 'a+b@c';
      const paths = await signIn(c, user, 'paths');
      const token = tokenOf(paths.url);
      expect(paths.url).toBe(`https://m.example/paths/u/a%2Bb%40c?token=${token}`);
      expect((await verify(token, c.site.siteId, 'paths')).payload.sub).toBe(user);

      const userq = await signIn(c, user, 'userq');
      const queryToken = tokenOf(userq.url);
      expect(userq.url).toBe(`https://m.example/x?user=a%2Bb%40c&token=${queryToken}`);
      expect(new URL(userq.url).searchParams.get('user')).toBe(user);
      expect((await verify(queryToken, c.site.siteId, 'userq')).payload.sub).toBe(user);

      // The user's own user-level token works for such an id.
      const own = await t.token(c.site.app, user);
      expect((await signIn(c, user, 'paths', own)).url).toMatch(/^https:\/\/m\.example\/paths\/u\/a%2Bb%40c\?token=/);

      // The deprecated catalog links to the encoded successor paths, and following them works.
      const catalog = await call('GET', `${u(user)}/award-catalog`, own);
      const links = parseLink(catalog.headers.link).map((l) => l.path);
      expect(links).toEqual(['/users/a%2Bb%40c/award-marketplace-url/paths', '/users/a%2Bb%40c/award-marketplace-url/userq']);
      expect(body<MarketplaceUrl[]>(catalog).map((m) => withoutToken(m.url))).toEqual([withoutToken(paths.url), withoutToken(userq.url)]);
      for (const link of links)
        expect(
          (await verify(tokenOf(body<MarketplaceUrl>(await call('GET', link, own)).url), c.site.siteId, link.split('/').pop() as string)).payload.sub,
        ).toBe(user);
    });
  });

  describe('deprecated endpoints', () => {
    const expectDeprecated = (response: LightMyRequestResponse, successors: string[]) => {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers.deprecation).toBe(DEPRECATION);
      expect(response.headers.sunset).toBeUndefined();
      const links = parseLink(response.headers.link);
      expect(links.map((l) => l.path)).toEqual(successors);
      for (const link of links) {
        expect(link.rel).toBe('successor-version');
        expect(link.title).toEqual(expect.any(String));
      }
    };

    it('GET award-catalog: one entry per marketplace, as award-marketplace-url/{type} answers, linked to it', async () => {
      const c = await setUp();
      await member(c, 'ann', 4_321);
      await setAccess(c, 'bob', { countryCode: 'US' }); // not verified: browse-only
      for (const [user, browseOnly] of [
        ['ann', false],
        ['bob', true],
      ] as const) {
        const response = await call('GET', `/users/${user}/award-catalog`, c.app);
        expectDeprecated(response, [`/users/${user}/award-marketplace-url/shop`, `/users/${user}/award-marketplace-url/travel`]);
        const catalog = body<MarketplaceUrl[]>(response);
        expect(catalog.map((m) => m.type)).toEqual(['shop', 'travel']);
        for (const [i, link] of parseLink(response.headers.link).entries()) {
          const entry = catalog[i] as MarketplaceUrl;
          // Follow the Link to the successor.
          const successorResponse = await call('GET', link.path, c.app);
          expect(successorResponse.headers.deprecation).toBeUndefined();
          expect(successorResponse.headers.link).toBeUndefined();
          const successor = body<MarketplaceUrl>(successorResponse);
          expect({ type: entry.type, browseOnly: entry.browseOnly, url: withoutToken(entry.url), expiresAt: entry.expiresAt }).toEqual({
            type: successor.type,
            browseOnly: successor.browseOnly,
            url: withoutToken(successor.url),
            expiresAt: successor.expiresAt,
          });
          expect(entry.browseOnly).toBe(browseOnly);
          const mine = await verify(tokenOf(entry.url), c.site.siteId, entry.type);
          const theirs = await verify(tokenOf(successor.url), c.site.siteId, successor.type);
          expect(mine.payload).toEqual({ ...theirs.payload, jti: expect.stringMatching(UUID) });
          expect(mine.payload.jti).not.toBe(theirs.payload.jti);
          expect(mine.payload).toMatchObject({ sub: user, browseOnly, available: user === 'ann' ? 4_321 : 0 });
        }
      }
    });

    it("GET award-catalog lists the example program's marketplaces", async () => {
      const example = exampleProgram<{ awardSettings: { marketplaces: Array<{ type: string; urlTemplate: string }> } }>();
      const c = await setUp(example as unknown as Record<string, unknown>);
      const catalog = body<MarketplaceUrl[]>(await call('GET', '/users/ann/award-catalog', c.app));
      expect(catalog.map((m) => m.type)).toEqual(example.awardSettings.marketplaces.map((m) => m.type));
      for (const [i, m] of example.awardSettings.marketplaces.entries()) {
        const entry = catalog[i] as MarketplaceUrl;
        expect(entry.url).toBe(m.urlTemplate.replace('{token}', tokenOf(entry.url)));
        expect(entry.browseOnly).toBe(true); // verificationRequired, no country
      }
    });

    it('GET award-catalog answers [] without award settings', async () => {
      const none = await setUp(program(null));
      expectProblem(await call('GET', '/admin/award-settings', none.admin), 404, 'not_found');
      const response = await call('GET', '/users/ann/award-catalog', none.app);
      expect(response.statusCode).toBe(200);
      expect(response.headers.deprecation).toBe(DEPRECATION);
      expect(response.headers.sunset).toBeUndefined();
      expect(parseLink(response.headers.link).every((l) => l.rel === 'successor-version')).toBe(true);
      expect(body(response)).toEqual([]);
      // The other two still answer the stored standing.
      expectDeprecated(await call('GET', '/users/ann/award-country-code', none.app), ['/users/ann/award-access']);
      expect(body(await call('GET', '/users/ann/award-country-code', none.app))).toEqual({ countryCode: null });
      expect(body(await call('GET', '/users/ann/award-verification', none.app))).toEqual({ verified: false });
    });

    it('GET award-country-code and award-verification: the values of award-access, linked to it', async () => {
      const c = await setUp();
      const steps: Array<{ countryCode?: string | null; verified?: boolean } | null> = [
        null,
        { countryCode: 'CA' },
        { verified: true },
        { countryCode: 'FR' },
        { countryCode: null },
        { verified: false },
      ];
      for (const change of steps) {
        if (change !== null) await setAccess(c, 'ann', change);
        const successor = await access(c, 'ann');
        const country = await call('GET', '/users/ann/award-country-code', c.app);
        expectDeprecated(country, ['/users/ann/award-access']);
        expect(body(country), JSON.stringify(change)).toEqual({ countryCode: successor.countryCode });
        const verification = await call('GET', '/users/ann/award-verification', c.app);
        expectDeprecated(verification, ['/users/ann/award-access']);
        expect(body(verification), JSON.stringify(change)).toEqual({ verified: successor.verified });
      }
      // The last state, spelled out.
      expect(await access(c, 'ann')).toMatchObject({ countryCode: null, verified: false });
    });

    it('are marked deprecated in the OpenAPI document, and their successors are not', async () => {
      const response = await call('GET', '/docs/json');
      expect(response.statusCode).toBe(200);
      const paths = (response.json() as { paths: Record<string, { get?: { deprecated?: boolean } }> }).paths;
      for (const path of ['/users/{userId}/award-catalog', '/users/{userId}/award-country-code', '/users/{userId}/award-verification'])
        expect(paths[path]?.get?.deprecated, path).toBe(true);
      for (const path of ['/users/{userId}/award-access', '/users/{userId}/award-marketplace-url/{type}'])
        expect(paths[path]?.get?.deprecated ?? false, path).toBe(false);
    });
  });

  describe('security', () => {
    const paths = (user: string) => [
      `/users/${user}/award-marketplace-url/shop`,
      `/users/${user}/award-catalog`,
      `/users/${user}/award-country-code`,
      `/users/${user}/award-verification`,
    ];

    it('needs a token; a user-level token serves only its own user', async () => {
      const c = await setUp();
      const annToken = await t.token(c.site.app, 'ann');
      for (const path of paths('ann')) {
        expectProblem(await call('GET', path), 401, 'missing_token');
        expectProblem(await call('GET', path, 'not-a-token'), 401, 'invalid_token');
        expect((await call('GET', path, annToken)).statusCode, path).toBe(200);
        expect((await call('GET', path, c.app)).statusCode, path).toBe(200);
      }
      for (const path of paths('bob')) expectProblem(await call('GET', path, annToken), 403, 'forbidden');
      // ann's own token signs her in, as herself.
      const own = await signIn(c, 'ann', 'shop', annToken);
      expect((await verify(tokenOf(own.url), c.site.siteId, 'shop')).payload.sub).toBe('ann');
    });

    it('keeps sites apart: standing, balance, issuer and keys are per site', async () => {
      const a = await setUp();
      const b = await setUp();
      await member(a, 'ann', 777);

      const inA = await signIn(a, 'ann', 'shop');
      const inB = await signIn(b, 'ann', 'shop');
      expect(inA.browseOnly).toBe(false);
      expect(inB.browseOnly).toBe(true); // B never verified ann
      const tokenA = tokenOf(inA.url);
      const tokenB = tokenOf(inB.url);
      expect((await verify(tokenA, a.site.siteId, 'shop')).payload).toMatchObject({
        iss: `questline:${a.site.siteId}`,
        site: a.site.siteId,
        available: 777,
        browseOnly: false,
      });
      expect((await verify(tokenB, b.site.siteId, 'shop')).payload).toMatchObject({
        iss: `questline:${b.site.siteId}`,
        site: b.site.siteId,
        available: 0,
        browseOnly: true,
      });
      // Neither site's keys verify the other's token, even with the other's issuer expected.
      await expect(jwtVerify(tokenB, createLocalJWKSet(await jwksOf(a.site.siteId)), { currentDate: new Date(now) })).rejects.toThrow(errors.JWKSNoMatchingKey);
      await expect(jwtVerify(tokenA, createLocalJWKSet(await jwksOf(b.site.siteId)), { currentDate: new Date(now) })).rejects.toThrow(errors.JWKSNoMatchingKey);

      // The deprecated endpoints read the caller's site too.
      expect(body(await call('GET', '/users/ann/award-country-code', a.app))).toEqual({ countryCode: 'US' });
      expect(body(await call('GET', '/users/ann/award-country-code', b.app))).toEqual({ countryCode: null });
      expect(body(await call('GET', '/users/ann/award-verification', b.app))).toEqual({ verified: false });
      // A user-level token of site B for ann reads B's ann.
      const annInB = await t.token(b.site.app, 'ann');
      const viaUserToken = await signIn(b, 'ann', 'shop', annInB);
      expect((await verify(tokenOf(viaUserToken.url), b.site.siteId, 'shop')).payload).toMatchObject({ site: b.site.siteId, available: 0 });
      // B's admin changing B's ann leaves A's ann as she was.
      await setAccess(b, 'ann', { countryCode: 'FR', verified: false });
      expect(await access(a, 'ann')).toMatchObject({ countryCode: 'US', verified: true, browseOnly: false });
    });
  });
});
