// The award ledger (SPEC §11): every credit and debit of a user's award account, appended with the
// balance after it to the write set of what caused it, decided with the user locked (every writer
// locks the user first), so the running balance is exact.
//
// Points in the award point category reach the account here from every decision that appends a
// user's points ledger entry: mission credits and their reversals, admin adjustments, recognitions
// received. The account mirrors them, credits and debits alike; a
// credit from points waits `holdDays` (pending) before it can be spent, and a reversal is pending
// exactly as long as the credit it takes back, so it never takes what was not yet available. A
// reversal takes back what the account got for its completion in its category, and nothing for a
// credit the account never had (one made before the settings were), whatever the settings are now.
import { uuidv7 } from '../../uuid.js';
import type { Trx } from '../../db/index.js';
import type { AwardEntryKind, AwardLedgerTable, PointsLedgerTable } from '../../db/schema.js';
import type { WriteSet } from './write-set.js';
import type { ProgramDocument } from '../program/model.js';

export type AwardSettingsDocument = NonNullable<ProgramDocument['awardSettings']>;

export const DAY_MS = 86_400_000;

export interface AwardPosting {
  siteId: string;
  userId: string;
  kind: AwardEntryKind;
  amount: number;
  /** The point category, for an entry mirrored from points. */
  category?: string;
  reference: string;
  description: string | null;
  availableAt: number;
  postedAt: number;
}

/**
 * Appends one entry to the write set, moving the account's balance (read once per set, the user
 * locked); returns the entry as it will be stored.
 */
export async function postAwardEntry(trx: Trx, writes: WriteSet, posting: AwardPosting): Promise<AwardLedgerTable> {
  if (writes.awardBalance(posting.siteId, posting.userId) === undefined) {
    const account = await trx.db
      .selectFrom('award_accounts')
      .select('balance')
      .where('site_id', '=', posting.siteId)
      .where('user_id', '=', posting.userId)
      .executeTakeFirst();
    writes.awardAccount(posting.siteId, posting.userId, Number(account?.balance ?? 0));
  }
  return writes.postAward({
    site_id: posting.siteId,
    entry_id: `awd_${uuidv7()}`,
    user_id: posting.userId,
    kind: posting.kind,
    amount: posting.amount,
    category: posting.category ?? null,
    reference: posting.reference,
    description: posting.description,
    available_at: posting.availableAt,
    posted_at: posting.postedAt,
  });
}

/** The points ledger's causes that the award account mirrors, by the kind they take there. */
const MIRRORED: Record<PointsLedgerTable['cause'], AwardEntryKind> = {
  mission: 'mission',
  adjustment: 'adjustment',
  recognition: 'recognition',
  prize: 'prize',
  reversal: 'reversal',
  expiry: 'expiry',
  // A streak milestone's reward is a reward like a mission's.
  streak: 'mission',
};

/**
 * Mirrors a user's points entry in the award category into their award account, in the write set
 * that appends the entry. A reversal is decided by what the account got, not by the settings as
 * they are now: it takes back the credit of its completion and category if the account had one.
 */
export async function mirrorPoints(trx: Trx, writes: WriteSet, settings: AwardSettingsDocument | undefined, entry: PointsLedgerTable): Promise<void> {
  if (entry.party_type !== 'user' || entry.credited === 0) return;
  const now = entry.recorded_at;
  let availableAt = now;
  if (entry.cause === 'reversal') {
    const credit = await trx.db
      .selectFrom('award_ledger')
      .select((eb) => eb.fn.max('available_at').as('available_at'))
      .where('site_id', '=', entry.site_id)
      .where('user_id', '=', entry.party_id)
      .where('reference', '=', entry.cause_id)
      .where('kind', '=', 'mission')
      .where('category', '=', entry.category)
      .executeTakeFirst();
    if (credit?.available_at === null || credit?.available_at === undefined) return;
    // Pending exactly as long as the credit it takes back.
    availableAt = Math.max(now, Number(credit.available_at));
  } else {
    if (settings === undefined || entry.category !== settings.pointCategory) return;
    if (entry.credited > 0) availableAt = now + settings.holdDays * DAY_MS;
  }
  await postAwardEntry(trx, writes, {
    siteId: entry.site_id,
    userId: entry.party_id,
    kind: MIRRORED[entry.cause],
    amount: entry.credited,
    category: entry.category,
    reference: entry.cause_id,
    description: entry.reason,
    availableAt,
    postedAt: now,
  });
}
