// Award accounts (SPEC §11): a user's access, balance and statement, marketplace sign-in URLs,
// on-the-spot code batches and their redemption, and the debits admins post for marketplace
// purchases and gifts (notified through the outbox as `award.debited`) and their refunds. Every
// write locks the user first, as every writer does, so the running balance is exact.
import type { JWK } from 'jose';
import { uuidv7 } from '../../uuid.js';
import { awardAccess, currencyValue, normalizeCode, type AwardAccess } from '../../engine/elements/awards.js';
import type { Database, Trx } from '../../db/index.js';
import type { AwardEntryKind, AwardLedgerTable, OtsCodesTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { counted } from '../../plural.js';
import type { RateLimitStore } from '../../infra/rate-limit-store.js';
import type { Decided, Locked } from '../ledger/locked.js';
import type { LedgerRepository } from '../ledger/repository.js';
import type { PartyKey } from '../ledger/write-set.js';
import { visibleTo, type ActionOutcome, type ActionService } from '../actions/service.js';
import type { ProgramService } from '../program/service.js';
import { codeHash, newCode } from './codes.js';
import { postAwardEntry, type AwardSettingsDocument } from '../ledger/award-entries.js';
import type { AwardsRepository } from './repository.js';
import type { MarketplaceKeys } from './sign-in-tokens.js';

export interface AwardBalance {
  /** Points that can be spent now. */
  available: number;
  /** Points credited but still held (holdDays). */
  pending: number;
  currency: string | null;
  conversionRate: number | null;
  /** `available` in the currency, rounded to its minor unit; null without award settings. */
  availableValue: number | null;
}

export interface StatementEntry {
  entryId: string;
  kind: AwardEntryKind;
  amount: number;
  /** The balance (available and pending) after this entry. */
  balance: number;
  reference: string;
  description: string | null;
  postedAt: string;
  availableAt: string;
}

export interface MarketplaceUrl {
  type: string;
  url: string;
  browseOnly: boolean;
  expiresAt: string;
}

export interface CodeBatch {
  batchId: string;
  amount: number;
  expiresAt: string;
  /** Shown only here, once: only their hashes are kept. */
  codes: string[];
}

export interface Redemption {
  codeId: string;
  amount: number;
  entry: StatementEntry;
  balance: AwardBalance;
  /** The OTS_REDEMPTION action logged, and what it did. */
  eventId: string;
  pointsAwarded: ActionOutcome['pointsAwarded'];
  missionsCompleted: ActionOutcome['missionsCompleted'];
  levelChanged?: ActionOutcome['levelChanged'];
  badgesEarned: ActionOutcome['badgesEarned'];
}

export interface Debit {
  kind: 'purchase' | 'gift';
  amount: number;
  reference: string;
  description?: string | undefined;
}

export interface Posted {
  entry: StatementEntry;
  balance: AwardBalance;
  /** The same reference was posted before: this is that entry, and nothing changed. */
  duplicate: boolean;
}

export interface AwardLimits {
  failureLimit: number;
  failureWindowSeconds: number;
}

export class AwardService {
  constructor(
    private readonly database: Pick<Database, 'db' | 'transaction'>,
    private readonly repository: AwardsRepository,
    private readonly ledger: LedgerRepository,
    private readonly actions: ActionService,
    private readonly programs: ProgramService,
    private readonly keys: MarketplaceKeys,
    private readonly failures: RateLimitStore,
    private readonly limits: AwardLimits,
    private readonly clock: () => number,
  ) {}

  /** GET /users/{u}/award-access. */
  async access(siteId: string, userId: string): Promise<AwardAccess> {
    const settings = await this.settings(siteId);
    const account = await this.repository.account({ db: this.database.db }, siteId, userId);
    return awardAccess(settings, { countryCode: account?.country_code ?? null, verified: account?.verified === 1 });
  }

  /** PATCH /admin/users/{u}/award-access: the user's country and verification; what is left out stays. */
  async setAccess(siteId: string, userId: string, change: { countryCode?: string | null; verified?: boolean }): Promise<AwardAccess> {
    const standing = {
      ...(change.countryCode !== undefined ? { country_code: change.countryCode } : {}),
      ...(change.verified !== undefined ? { verified: change.verified ? 1 : 0 } : {}),
    };
    await this.repository.setStanding({ db: this.database.db }, siteId, userId, standing, this.clock());
    return this.access(siteId, userId);
  }

  /** GET /users/{u}/award-balance. */
  async balance(siteId: string, userId: string): Promise<AwardBalance> {
    return this.balanceWithin({ db: this.database.db }, await this.settings(siteId), siteId, userId, this.clock());
  }

  /** GET /users/{u}/award-statement: newest first. */
  async statement(siteId: string, userId: string, limit: number, offset: number): Promise<{ entries: StatementEntry[]; total: number }> {
    const { rows, total } = await this.repository.statement(siteId, userId, limit, offset);
    return { entries: rows.map(presentEntry), total };
  }

  /** GET /users/{u}/award-marketplace-url/{type}. */
  async marketplaceUrl(siteId: string, userId: string, type: string): Promise<MarketplaceUrl> {
    const settings = await this.settings(siteId);
    const marketplace = settings?.marketplaces.find((m) => m.type === type);
    if (settings === undefined || marketplace === undefined) throw new AppError('unknown_marketplace', `The site has no marketplace of type "${type}"`);
    return this.signIn(settings, marketplace, siteId, userId);
  }

  /** GET /users/{u}/award-catalog (deprecated): the sign-in URL of every marketplace. */
  async catalog(siteId: string, userId: string): Promise<MarketplaceUrl[]> {
    const settings = await this.settings(siteId);
    if (settings === undefined) return [];
    return Promise.all(settings.marketplaces.map((marketplace) => this.signIn(settings, marketplace, siteId, userId)));
  }

  /** GET /sites/{siteId}/jwks.json (public): the keys marketplaces verify sign-in tokens with. */
  async jwks(siteId: string): Promise<{ keys: JWK[] }> {
    await this.programs.snapshot(siteId); // not_found for a site that does not exist
    return this.keys.jwks(siteId);
  }

  /** POST /admin/ots-codes. */
  async issueCodes(siteId: string, input: { count: number; amount: number; expiresAt: string }): Promise<CodeBatch> {
    const now = this.clock();
    const expiresAt = Date.parse(input.expiresAt);
    if (!(expiresAt > now))
      throw new AppError('validation_failed', 'The batch is invalid', { errors: [{ path: 'expiresAt', message: 'must be in the future' }] });
    const batchId = `otsb_${uuidv7()}`;
    const codes = Array.from({ length: input.count }, () => newCode());
    await this.database.transaction((trx) =>
      this.repository.insertCodes(
        trx,
        codes.map((code) => ({
          site_id: siteId,
          code_hash: codeHash(normalizeCode(code) as string),
          code_id: `otc_${uuidv7()}`,
          batch_id: batchId,
          amount: input.amount,
          expires_at: expiresAt,
          created_at: now,
          redeemed_by: null,
          redeemed_at: null,
        })),
      ),
    );
    return { batchId, amount: input.amount, expiresAt: new Date(expiresAt).toISOString(), codes };
  }

  /** GET /admin/ots-codes/{batchId}. */
  async batch(siteId: string, batchId: string): Promise<{ batchId: string; count: number; redeemed: number }> {
    const batch = await this.repository.batch(siteId, batchId);
    if (batch.count === 0) throw new AppError('not_found', `The site has no code batch "${batchId}"`);
    return { batchId, ...batch };
  }

  /**
   * POST /users/{u}/award-ots. Every attempt counts against the user's failure limit before the
   * code is looked at, so concurrent guesses cannot all slip under it; a redemption that succeeds
   * is taken back off the count.
   */
  async redeem(siteId: string, userId: string, typed: string): Promise<Redemption> {
    const snapshot = await this.programs.snapshot(siteId);
    const settings = snapshot.program.awardSettings;
    const failureKey = await this.countAttempt(siteId, userId, settings);
    const code = normalizeCode(typed);
    const hash = code === null ? null : codeHash(code);
    const user: PartyKey = { siteId, type: 'user', id: userId };
    const involved = await this.actions.groupsOf(snapshot, user, 'OTS_REDEMPTION');
    const redemption = await this.actions.transaction(snapshot, this.clock(), async (within) => {
      const { trx, now } = within;
      await this.ledger.lock(trx, [...involved.groups, user], now);
      const claimed = await this.claim(trx, siteId, hash, userId, now);
      const amount = Number(claimed.amount);
      const credit = { siteId, userId, kind: 'ots' as const, amount, reference: claimed.code_id, description: null, availableAt: now, postedAt: now };
      const entry = await this.actions.writeWithin(within, [user], async (locked) => ({
        writes: locked.writes,
        answer: await postAwardEntry(trx, locked.writes, credit),
      }));
      const eventId = `ots_${uuidv7()}`;
      const metadata = { code_id: claimed.code_id, batch_id: claimed.batch_id };
      const outcome = await this.actions.logWithin(
        within,
        user,
        involved,
        { action: 'OTS_REDEMPTION', value: amount, metadata, eventId: undefined, timestamp: now },
        eventId,
      );
      return {
        codeId: claimed.code_id,
        amount,
        entry: presentEntry(entry),
        balance: await this.balanceWithin(trx, settings, siteId, userId, now),
        eventId,
        pointsAwarded: outcome.pointsAwarded,
        missionsCompleted: visibleTo(outcome, true).missionsCompleted,
        ...(outcome.levelChanged !== undefined ? { levelChanged: outcome.levelChanged } : {}),
        badgesEarned: outcome.badgesEarned,
      };
    });
    await this.failures.unhit(failureKey);
    return redemption;
  }

  /**
   * Refuses a user who may not redeem, or who failed too often lately; else counts this attempt
   * as a failure (redeem() takes it back when it succeeds). The key failures are counted under.
   */
  private async countAttempt(siteId: string, userId: string, settings: AwardSettingsDocument | undefined): Promise<string> {
    const access = awardAccess(settings, await this.standing(siteId, userId));
    if (!access.otsAccess)
      throw new AppError(
        'award_access_denied',
        settings === undefined ? 'The site has no award accounts' : `User "${userId}" may not redeem: ${denial(settings, access)}`,
      );

    // '/' is in no id (src/http/ids.ts), so no two (site, user) pairs share a key.
    const failureKey = `ots-failures:${siteId}/${userId}`;
    const attempt = await this.failures.hit(failureKey, this.limits.failureWindowSeconds);
    if (attempt.count > this.limits.failureLimit) {
      throw new AppError('ots_attempts_exceeded', 'Too many failed code redemptions; retry later', {
        headers: { 'retry-after': String(Math.max(1, attempt.ttlSeconds)) },
      });
    }
    return failureKey;
  }

  /** Takes the code (by its hash; null: not a code's shape) for the user: its row, or why it cannot be redeemed. */
  private async claim(trx: Trx, siteId: string, hash: string | null, userId: string, now: number): Promise<OtsCodesTable> {
    const claimed = hash === null ? undefined : await this.repository.claimCode(trx, siteId, hash, userId, now);
    if (claimed !== undefined) return claimed;
    const known = hash === null ? undefined : await this.repository.code(trx, siteId, hash);
    if (known === undefined) throw new AppError('ots_code_unknown', 'No such code');
    if (known.redeemed_at !== null) throw new AppError('ots_code_used', 'The code has been redeemed already');
    throw new AppError('ots_code_expired', `The code expired at ${new Date(Number(known.expires_at)).toISOString()}`);
  }

  /**
   * POST /admin/users/{u}/award-debits: a marketplace purchase or a gift, at most what is
   * available; `award.debited` goes to itemPurchaseNotifyUrl or giftNotifyUrl. The same kind and
   * reference again returns the first debit and changes nothing (a retried order is not charged
   * twice); with another amount it is a conflict.
   */
  async debit(siteId: string, userId: string, debit: Debit): Promise<Posted> {
    return this.#postFor(siteId, userId, async ({ trx, now, writes }, settings, user) => {
      const earlier = await this.repository.byReference(trx, siteId, userId, debit.kind, debit.reference);
      if (earlier !== undefined) {
        if (Number(earlier.amount) !== -debit.amount)
          throw new AppError(
            'conflict',
            `A ${debit.kind} with reference "${debit.reference}" was posted already, for ${counted(-Number(earlier.amount), 'point')}`,
          );
        return { writes, answer: await this.#repeated(trx, settings, earlier, now) };
      }
      const before = await this.balanceWithin(trx, settings, siteId, userId, now);
      if (debit.amount > before.available) {
        throw new AppError('insufficient_award_balance', `The debit of ${debit.amount} exceeds the ${counted(before.available, 'point')} available`);
      }
      const entry = await postAwardEntry(trx, writes, {
        siteId,
        userId,
        kind: debit.kind,
        amount: -debit.amount,
        reference: debit.reference,
        description: debit.description ?? null,
        availableAt: now,
        postedAt: now,
      });
      // Available at once: what is pending stays as it was.
      const balance = presentBalance(settings, entry.balance_after, before.pending);
      const value = settings === undefined ? null : currencyValue(debit.amount, settings.conversionRate, settings.currency);
      const data = {
        kind: debit.kind,
        entryId: entry.entry_id,
        amount: debit.amount,
        reference: debit.reference,
        description: debit.description ?? null,
        currency: balance.currency,
        value,
        balance: { available: balance.available, pending: balance.pending },
      };
      writes.enqueue(user, { type: 'award.debited', occurredAt: now, data }, now);
      return { writes, answer: { entry: presentEntry(entry), balance, duplicate: false } };
    });
  }

  /** POST /admin/users/{u}/award-debits/{entryId}/refund: gives a debit back in full, once. */
  async refund(siteId: string, userId: string, entryId: string): Promise<Posted> {
    return this.#postFor(siteId, userId, async ({ trx, now, writes }, settings) => {
      const debit = await this.repository.entry(trx, siteId, userId, entryId);
      if (debit === undefined || (debit.kind !== 'purchase' && debit.kind !== 'gift'))
        throw new AppError('not_found', `User "${userId}" has no award debit "${entryId}"`);
      const earlier = await this.repository.byReference(trx, siteId, userId, 'refund', entryId);
      if (earlier !== undefined) return { writes, answer: await this.#repeated(trx, settings, earlier, now) };
      const pending = await this.repository.pending(trx, siteId, userId, now);
      const entry = await postAwardEntry(trx, writes, {
        siteId,
        userId,
        kind: 'refund',
        amount: -Number(debit.amount),
        reference: entryId,
        description: debit.description,
        availableAt: now,
        postedAt: now,
      });
      return { writes, answer: { entry: presentEntry(entry), balance: presentBalance(settings, entry.balance_after, pending), duplicate: false } };
    });
  }

  /** A post to the user's award account, decided and written in a transaction that locks the user. */
  async #postFor(
    siteId: string,
    userId: string,
    post: (locked: Locked, settings: AwardSettingsDocument | undefined, user: PartyKey) => Promise<Decided<Posted>>,
  ): Promise<Posted> {
    const snapshot = await this.programs.snapshot(siteId);
    const user: PartyKey = { siteId, type: 'user', id: userId };
    return this.actions.transaction(snapshot, this.clock(), (within) =>
      this.actions.writeWithin<Posted>(within, [user], (locked) => post(locked, snapshot.program.awardSettings, user)),
    );
  }

  /** The answer to a post made before under the same reference: that entry, and the balance now. */
  async #repeated(trx: Trx, settings: AwardSettingsDocument | undefined, earlier: AwardLedgerTable, now: number): Promise<Posted> {
    return { entry: presentEntry(earlier), balance: await this.balanceWithin(trx, settings, earlier.site_id, earlier.user_id, now), duplicate: true };
  }

  private async settings(siteId: string): Promise<AwardSettingsDocument | undefined> {
    return (await this.programs.snapshot(siteId)).program.awardSettings;
  }

  private async standing(siteId: string, userId: string): Promise<{ countryCode: string | null; verified: boolean }> {
    const account = await this.repository.account({ db: this.database.db }, siteId, userId);
    return { countryCode: account?.country_code ?? null, verified: account?.verified === 1 };
  }

  private async balanceWithin(
    trx: { db: Database['db'] },
    settings: AwardSettingsDocument | undefined,
    siteId: string,
    userId: string,
    now: number,
  ): Promise<AwardBalance> {
    const [account, pending] = await Promise.all([this.repository.account(trx, siteId, userId), this.repository.pending(trx, siteId, userId, now)]);
    return presentBalance(settings, Number(account?.balance ?? 0), pending);
  }

  private async signIn(
    settings: AwardSettingsDocument,
    marketplace: { type: string; urlTemplate: string },
    siteId: string,
    userId: string,
  ): Promise<MarketplaceUrl> {
    const [standing, balance] = await Promise.all([this.standing(siteId, userId), this.balance(siteId, userId)]);
    const { browseOnly } = awardAccess(settings, standing);
    const { token, expiresAt } = await this.keys.sign({
      siteId,
      userId,
      type: marketplace.type,
      browseOnly,
      available: balance.available,
      currency: settings.currency,
    });
    return {
      type: marketplace.type,
      url: fillTemplate(marketplace.urlTemplate, { token, userId, type: marketplace.type }),
      browseOnly,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }
}

/** `{token}`, `{userId}` and `{type}` in the template, URL-encoded; without `{token}` the token goes in a `token` query parameter. */
export function fillTemplate(template: string, values: { token: string; userId: string; type: string }): string {
  const filled = template.replace(/\{(token|userId|type)\}/g, (_, name: keyof typeof values) => encodeURIComponent(values[name]));
  if (template.includes('{token}')) return filled;
  const url = new URL(filled);
  url.searchParams.set('token', values.token);
  return url.toString();
}

function denial(settings: AwardSettingsDocument, access: AwardAccess): string {
  if (settings.allowedCountries.length > 0 && (access.countryCode === null || !settings.allowedCountries.includes(access.countryCode))) {
    return access.countryCode === null ? 'no country is set for them' : `country ${access.countryCode} is not allowed`;
  }
  return 'they are not verified';
}

/** The account's balance (available and pending) with `pending` of it still held. */
function presentBalance(settings: AwardSettingsDocument | undefined, balance: number, pending: number): AwardBalance {
  const available = balance - pending;
  return {
    available,
    pending,
    currency: settings?.currency ?? null,
    conversionRate: settings?.conversionRate ?? null,
    availableValue: settings === undefined ? null : currencyValue(available, settings.conversionRate, settings.currency),
  };
}

function presentEntry(row: AwardLedgerTable): StatementEntry {
  return {
    entryId: row.entry_id,
    kind: row.kind,
    amount: Number(row.amount),
    balance: Number(row.balance_after),
    reference: row.reference,
    description: row.description,
    postedAt: new Date(Number(row.posted_at)).toISOString(),
    availableAt: new Date(Number(row.available_at)).toISOString(),
  };
}
