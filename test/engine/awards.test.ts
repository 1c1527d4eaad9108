// SPEC §11, the pure parts of award accounts: who may redeem and who may only browse
// (awardAccess), what points are worth in the site's currency (currencyValue), how a typed
// on-the-spot code is read (normalizeCode), how codes are made (newCode) and how a marketplace's
// sign-in URL is filled in (fillTemplate).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  awardAccess,
  CODE_ALPHABET,
  CODE_LENGTH,
  currencyValue,
  normalizeCode,
  type AwardRules,
  type AwardStanding,
} from '../../src/engine/elements/awards.js';
import { codeHash, newCode } from '../../src/modules/awards/codes.js';
import { fillTemplate } from '../../src/modules/awards/service.js';

const shop = [{ type: 'shop' }];
const rules = (overrides: Partial<AwardRules> = {}): AwardRules => ({ marketplaces: shop, allowedCountries: [], verificationRequired: false, ...overrides });
const standing = (countryCode: string | null, verified: boolean): AwardStanding => ({ countryCode, verified });

describe('awardAccess', () => {
  const listed = ['US', 'CA', 'GB'];
  it.each<[string, AwardRules | undefined, AwardStanding, { marketplaceAccess: boolean; otsAccess: boolean; browseOnly: boolean }]>([
    // No award settings: nothing, not even browsing, whatever the standing.
    ['no rules, verified user in a country', undefined, standing('US', true), { marketplaceAccess: false, otsAccess: false, browseOnly: false }],
    ['no rules, nobody', undefined, standing(null, false), { marketplaceAccess: false, otsAccess: false, browseOnly: false }],
    // No allowed countries: every country, and no country at all.
    ['empty list, no country', rules(), standing(null, false), { marketplaceAccess: true, otsAccess: true, browseOnly: false }],
    ['empty list, any country', rules(), standing('FR', false), { marketplaceAccess: true, otsAccess: true, browseOnly: false }],
    // A list: the country must be on it; no country is not on it.
    ['listed country', rules({ allowedCountries: listed }), standing('CA', false), { marketplaceAccess: true, otsAccess: true, browseOnly: false }],
    ['unlisted country', rules({ allowedCountries: listed }), standing('FR', false), { marketplaceAccess: true, otsAccess: false, browseOnly: true }],
    ['no country with a list', rules({ allowedCountries: listed }), standing(null, true), { marketplaceAccess: true, otsAccess: false, browseOnly: true }],
    [
      'country compared exactly (case)',
      rules({ allowedCountries: listed }),
      standing('us', true),
      { marketplaceAccess: true, otsAccess: false, browseOnly: true },
    ],
    // Verification required × verified.
    [
      'verification required, not verified',
      rules({ verificationRequired: true }),
      standing(null, false),
      { marketplaceAccess: true, otsAccess: false, browseOnly: true },
    ],
    [
      'verification required, verified',
      rules({ verificationRequired: true }),
      standing(null, true),
      { marketplaceAccess: true, otsAccess: true, browseOnly: false },
    ],
    [
      'verification not required, not verified',
      rules({ verificationRequired: false }),
      standing(null, false),
      { marketplaceAccess: true, otsAccess: true, browseOnly: false },
    ],
    // Both rules: both must hold.
    [
      'both rules, listed and verified',
      rules({ allowedCountries: listed, verificationRequired: true }),
      standing('GB', true),
      { marketplaceAccess: true, otsAccess: true, browseOnly: false },
    ],
    [
      'both rules, listed but not verified',
      rules({ allowedCountries: listed, verificationRequired: true }),
      standing('GB', false),
      { marketplaceAccess: true, otsAccess: false, browseOnly: true },
    ],
    [
      'both rules, verified but unlisted',
      rules({ allowedCountries: listed, verificationRequired: true }),
      standing('DE', true),
      { marketplaceAccess: true, otsAccess: false, browseOnly: true },
    ],
    [
      'both rules, neither',
      rules({ allowedCountries: listed, verificationRequired: true }),
      standing(null, false),
      { marketplaceAccess: true, otsAccess: false, browseOnly: true },
    ],
    // No marketplaces: codes may still be redeemed, but there is nothing to browse, so never browse-only.
    ['no marketplaces, may redeem', rules({ marketplaces: [] }), standing('US', true), { marketplaceAccess: false, otsAccess: true, browseOnly: false }],
    [
      'no marketplaces, may not redeem',
      rules({ marketplaces: [], allowedCountries: listed, verificationRequired: true }),
      standing('FR', false),
      { marketplaceAccess: false, otsAccess: false, browseOnly: false },
    ],
    [
      'two marketplaces',
      rules({ marketplaces: [{ type: 'shop' }, { type: 'travel' }] }),
      standing(null, false),
      { marketplaceAccess: true, otsAccess: true, browseOnly: false },
    ],
  ])('%s', (_, given, who, expected) => {
    expect(awardAccess(given, who)).toEqual({ ...expected, countryCode: who.countryCode, verified: who.verified });
  });

  it('browseOnly is exactly marketplaceAccess without otsAccess, over every combination', () => {
    for (const marketplaces of [[], shop])
      for (const allowedCountries of [[], ['US']])
        for (const verificationRequired of [false, true])
          for (const countryCode of [null, 'US', 'FR'])
            for (const verified of [false, true]) {
              const access = awardAccess({ marketplaces, allowedCountries, verificationRequired }, { countryCode, verified });
              const countryAllowed = allowedCountries.length === 0 || (countryCode !== null && allowedCountries.includes(countryCode));
              expect(access.otsAccess).toBe(countryAllowed && (!verificationRequired || verified));
              expect(access.marketplaceAccess).toBe(marketplaces.length > 0);
              expect(access.browseOnly).toBe(access.marketplaceAccess && !access.otsAccess);
            }
  });
});

describe('currencyValue', () => {
  it.each<[string, number, number, string, number]>([
    ['USD cents', 12_345, 0.01, 'USD', 123.45],
    ['binary noise dropped: 0.1 × 3', 3, 0.1, 'USD', 0.3],
    ['binary noise dropped: 0.1 × 7', 7, 0.1, 'USD', 0.7],
    ['1.005 rounds up (not 1.00 as 1.005 × 100 in binary suggests)', 201, 0.005, 'USD', 1.01],
    ['half a cent rounds away from zero', 1, 0.005, 'USD', 0.01],
    ['below half a cent rounds down', 4, 0.001, 'USD', 0],
    ['negative half a cent rounds away from zero', -1, 0.005, 'USD', -0.01],
    ['-0.005 USD', -5, 0.001, 'USD', -0.01],
    ['negative cents', -12_345, 0.01, 'USD', -123.45],
    ['zero', 0, 0.01, 'USD', 0],
    ['large balance', 123_456_789, 0.01, 'USD', 1_234_567.89],
    ['EUR', 999, 0.015, 'EUR', 14.99],
    // No minor unit.
    ['JPY whole yen', 1_234, 0.5, 'JPY', 617],
    ['JPY half rounds up', 1_235, 0.5, 'JPY', 618],
    ['JPY 1.5 → 2', 3, 0.5, 'JPY', 2],
    ['JPY -1.5 → -2', -3, 0.5, 'JPY', -2],
    ['JPY 0.4 → 0', 4, 0.1, 'JPY', 0],
    ['KRW', 10, 1.25, 'KRW', 13],
    // Three decimals.
    ['KWD 3 decimals', 12_345, 0.001, 'KWD', 12.345],
    ['KWD rounds at the third decimal', 12_345, 0.0001, 'KWD', 1.235],
    ['KWD below half', 12_344, 0.0001, 'KWD', 1.234],
    ['BHD 3 decimals', 7, 0.0015, 'BHD', 0.011],
    // Unknown or malformed currencies: two digits.
    ['unknown currency code', 12_345, 0.001, 'XYZ', 12.35],
    ['malformed currency', 12_345, 0.001, 'US', 12.35],
    ['empty currency', 12_345, 0.001, '', 12.35],
  ])('%s: %d × %d %s = %d', (_, points, rate, currency, expected) => {
    expect(currencyValue(points, rate, currency)).toBe(expected);
  });

  it('is symmetric around zero', () => {
    for (const points of [1, 3, 5, 7, 199, 201, 12_345]) {
      for (const [rate, currency] of [
        [0.005, 'USD'],
        [0.5, 'JPY'],
        [0.0005, 'KWD'],
      ] as const) {
        expect(currencyValue(-points, rate, currency)).toBe(-currencyValue(points, rate, currency));
      }
    }
  });

  it('never has more decimals than the currency allows', () => {
    for (let points = 1; points <= 500; points += 7) {
      for (const [currency, digits] of [
        ['USD', 2],
        ['JPY', 0],
        ['KWD', 3],
      ] as const) {
        const value = currencyValue(points, 0.0123, currency);
        expect(Number(value.toFixed(digits)), `${points} ${currency}`).toBe(value);
      }
    }
  });
});

describe('normalizeCode', () => {
  it.each<[string, string, string | null]>([
    ['as issued', 'ABCD-EFGH-JKMN-PQRS', 'ABCDEFGHJKMNPQRS'],
    ['lower case', 'abcd-efgh-jkmn-pqrs', 'ABCDEFGHJKMNPQRS'],
    ['mixed case', 'aBcD-eFgH-jKmN-pQrS', 'ABCDEFGHJKMNPQRS'],
    ['no dashes', 'ABCDEFGHJKMNPQRS', 'ABCDEFGHJKMNPQRS'],
    ['spaces instead of dashes', 'ABCD EFGH JKMN PQRS', 'ABCDEFGHJKMNPQRS'],
    ['surrounding and doubled whitespace', '  ABCD  EFGH\tJKMN\nPQRS ', 'ABCDEFGHJKMNPQRS'],
    ['dashes anywhere', 'A-B-C-D-EFGHJKMNPQRS', 'ABCDEFGHJKMNPQRS'],
    ['digits', '0123-4567-89VW-XYZT', '0123456789VWXYZT'],
    ['O is read as 0', 'OOOO-oooo-0000-VWXY', '000000000000VWXY'],
    ['I and L are read as 1', 'IIII-iiii-LLLL-llll', '1111111111111111'],
    ['U is not in the alphabet', 'ABCD-EFGH-JKMN-PQRU', null],
    ['u lower case is not either', 'abcd-efgh-jkmn-pqru', null],
    ['15 characters', 'ABCD-EFGH-JKMN-PQR', null],
    ['17 characters', 'ABCD-EFGH-JKMN-PQRST', null],
    ['empty', '', null],
    ['only dashes and spaces', '---- ---- ----', null],
    ['other punctuation', 'ABCD.EFGH.JKMN.PQRS', null],
    ['underscores', 'ABCD_EFGH_JKMN_PQRS', null],
  ])('%s: %j → %j', (_, typed, expected) => {
    expect(normalizeCode(typed)).toBe(expected);
  });

  it('returns only codes of the alphabet and length', () => {
    expect(CODE_ALPHABET).toHaveLength(32);
    expect(new Set(CODE_ALPHABET).size).toBe(32);
    for (const letter of 'ILOU') expect(CODE_ALPHABET).not.toContain(letter);
    expect(CODE_LENGTH).toBe(16);
  });
});

describe('newCode', () => {
  const FORMAT = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
  const codes = Array.from({ length: 1000 }, () => newCode());

  it('is four dash-separated groups of four Crockford base32 characters', () => {
    for (const code of codes) expect(code).toMatch(FORMAT);
  });

  it('normalizes to itself without the dashes, in any case and spacing', () => {
    for (const code of codes.slice(0, 100)) {
      const stored = code.replaceAll('-', '');
      expect(normalizeCode(code)).toBe(stored);
      expect(normalizeCode(code.toLowerCase())).toBe(stored);
      expect(normalizeCode(code.replaceAll('-', ' '))).toBe(stored);
      expect(normalizeCode(stored)).toBe(stored);
    }
  });

  it('makes 1000 distinct codes, with distinct hashes', () => {
    expect(new Set(codes).size).toBe(1000);
    expect(new Set(codes.map((code) => codeHash(normalizeCode(code) as string))).size).toBe(1000);
  });

  it('uses the whole alphabet in every position (80 random bits, none wasted)', () => {
    // With 1000 codes, a given character is missing from a position with probability (31/32)^1000 ≈ 2e-14.
    for (let position = 0; position < CODE_LENGTH; position++) {
      const seen = new Set(codes.map((code) => code.replaceAll('-', '').charAt(position)));
      expect(seen.size, `position ${position}`).toBe(32);
    }
  });

  it('hashes a normalized code to its SHA-256 in hex', () => {
    expect(codeHash('0000000000000000')).toBe(createHash('sha256').update('0000000000000000', 'utf8').digest('hex'));
    expect(codeHash('0000000000000000')).toMatch(/^[0-9a-f]{64}$/);
    expect(codeHash('ABCDEFGHJKMNPQRS')).toBe(codeHash('ABCDEFGHJKMNPQRS'));
    expect(codeHash('ABCDEFGHJKMNPQRS')).not.toBe(codeHash('ABCDEFGHJKMNPQRT'));
  });
});

describe('fillTemplate', () => {
  const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2ln-_';
  it.each<[string, string, { userId: string; type: string }, string]>([
    ['{token} in the query', 'https://m.example/sso?token={token}', { userId: 'ann', type: 'shop' }, `https://m.example/sso?token=${token}`],
    ['{token} in the path', 'https://m.example/sso/{token}', { userId: 'ann', type: 'shop' }, `https://m.example/sso/${token}`],
    ['{token} twice', 'https://m.example/{token}?t={token}', { userId: 'ann', type: 'shop' }, `https://m.example/${token}?t=${token}`],
    ['no {token}: a query parameter added to the query', 'https://m.example/x?a=1', { userId: 'ann', type: 'shop' }, `https://m.example/x?a=1&token=${token}`],
    ['no {token} and no query', 'https://m.example/x', { userId: 'ann', type: 'shop' }, `https://m.example/x?token=${token}`],
    ['no {token}, before the fragment', 'https://m.example/x#top', { userId: 'ann', type: 'shop' }, `https://m.example/x?token=${token}#top`],
    [
      'no {token}, a token parameter already there is replaced',
      'https://m.example/x?token=old&a=1',
      { userId: 'ann', type: 'shop' },
      `https://m.example/x?token=${token}&a=1`,
    ],
    [
      '{userId} and {type}',
      'https://m.example/{type}/{userId}?token={token}',
      { userId: 'ann', type: 'travel' },
      `https://m.example/travel/ann?token=${token}`,
    ],
    ['{userId} URL-encoded', 'https://m.example/u/{userId}?token={token}', { userId: 'a+b@c', type: 'shop' }, `https://m.example/u/a%2Bb%40c?token=${token}`],
    [
      '{userId} with a slash, ? and #',
      'https://m.example/u/{userId}?token={token}',
      { userId: 'a/b?c#d', type: 'shop' },
      `https://m.example/u/a%2Fb%3Fc%23d?token=${token}`,
    ],
    ['{userId} URL-encoded, no {token}', 'https://m.example/u/{userId}', { userId: 'a+b@c', type: 'shop' }, `https://m.example/u/a%2Bb%40c?token=${token}`],
    [
      'a userId spelling a placeholder is not expanded',
      'https://m.example/u/{userId}?token={token}',
      { userId: '{token}', type: 'shop' },
      `https://m.example/u/%7Btoken%7D?token=${token}`,
    ],
    ['unknown placeholders stay', 'https://m.example/{other}?token={token}', { userId: 'ann', type: 'shop' }, `https://m.example/{other}?token=${token}`],
  ])('%s', (_, template, values, expected) => {
    expect(fillTemplate(template, { token, ...values })).toBe(expected);
  });

  it('cannot be made to add query parameters through the userId', () => {
    const url = new URL(fillTemplate('https://m.example/x?user={userId}', { token, userId: 'a b&token=forged&c=d', type: 'shop' }));
    expect([...url.searchParams.keys()]).toEqual(['user', 'token']);
    expect(url.searchParams.get('user')).toBe('a b&token=forged&c=d');
    expect(url.searchParams.get('token')).toBe(token);

    const withToken = new URL(fillTemplate('https://m.example/x?user={userId}&token={token}', { token, userId: 'x&token=forged', type: 'shop' }));
    expect(withToken.searchParams.getAll('token')).toEqual([token]);
    expect(withToken.searchParams.get('user')).toBe('x&token=forged');
  });
});
