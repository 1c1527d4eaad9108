// SPEC §11: who may redeem from an award account, how a typed on-the-spot code is read, and what
// points are worth in the site's currency.
//
// A user may redeem (spend in a marketplace, redeem an on-the-spot code) when the site has award
// settings, their country is allowed (no allowed countries: every country; a user without a
// country is then allowed only if the list is empty) and, where verification is required, an admin
// has verified them. A user who may not redeem can still browse a marketplace: browse-only.

export interface AwardRules {
  marketplaces: ReadonlyArray<{ type: string }>;
  allowedCountries: readonly string[];
  verificationRequired: boolean;
}

export interface AwardStanding {
  countryCode: string | null;
  verified: boolean;
}

export interface AwardAccess {
  marketplaceAccess: boolean;
  otsAccess: boolean;
  countryCode: string | null;
  verified: boolean;
  browseOnly: boolean;
}

export function awardAccess(rules: AwardRules | undefined, standing: AwardStanding): AwardAccess {
  const countryAllowed =
    rules !== undefined && (rules.allowedCountries.length === 0 || (standing.countryCode !== null && rules.allowedCountries.includes(standing.countryCode)));
  const mayRedeem = countryAllowed && (!(rules?.verificationRequired ?? false) || standing.verified);
  const marketplaceAccess = rules !== undefined && rules.marketplaces.length > 0;
  return {
    marketplaceAccess,
    otsAccess: mayRedeem,
    countryCode: standing.countryCode,
    verified: standing.verified,
    browseOnly: marketplaceAccess && !mayRedeem,
  };
}

/** Points in the currency, rounded (half away from zero) to the currency's minor unit (USD 2, JPY 0, KWD 3). */
export function currencyValue(points: number, conversionRate: number, currency: string): number {
  const digits = minorDigits(currency);
  const scale = 10 ** digits;
  // toPrecision(12) first drops binary noise (0.1 × 3 = 0.30000000000000004) before rounding.
  const exact = Number((points * conversionRate * scale).toPrecision(12));
  // `|| 0`: a small debit rounds to 0, not -0.
  return (Math.sign(exact) * Math.round(Math.abs(exact))) / scale || 0;
}

function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

// On-the-spot codes are 16 characters of Crockford's base32 (no I, L, O, U), shown in four groups.
export const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CODE_LENGTH = 16;

/** A code as typed (any case, with or without dashes or spaces, O for 0, I or L for 1) in its one stored form; null when it cannot be a code. */
export function normalizeCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== CODE_LENGTH || [...code].some((c) => !CODE_ALPHABET.includes(c))) return null;
  return code;
}
