// The points.earned webhook (docs/webhooks.md): for systems that mirror balances, one event per
// party, category and cause a write set credits, with the balance and lifetime points it leaves. Added
// as the set is written (LedgerRepository.apply and commit), from the stored balances read then
// (the party is locked, or its version is checked by the write: the figures are exact), and only
// when some endpoint of the site subscribes: otherwise a write pays one Set lookup for it.
import type { Trx } from '../../db/index.js';
import type { PointsLedgerTable } from '../../db/schema.js';
import { storedPoints } from './locked.js';
import type { PartyKey, WriteSet } from './write-set.js';

export const POINTS_EARNED = 'points.earned';

/**
 * Enqueues a points.earned event per party, category and cause the set credits (a positive entry
 * that is not a reversal; the credits of one cause summed, with the first one's causeId), if
 * subscribed.
 */
export async function announceEarned(trx: Trx, writes: WriteSet): Promise<void> {
  if (writes.ledger.length === 0 || !writes.subscribes(POINTS_EARNED)) return;
  const earned = new Map<string, { party: PartyKey; first: PointsLedgerTable; amount: number }>();
  for (const entry of writes.ledger) {
    if (entry.credited <= 0 || entry.cause === 'reversal') continue;
    const key = `${entry.party_type}\u0000${entry.party_id}\u0000${entry.category}\u0000${entry.cause}`;
    const known = earned.get(key);
    if (known !== undefined) known.amount += entry.credited;
    else earned.set(key, { party: { siteId: entry.site_id, type: entry.party_type, id: entry.party_id }, first: entry, amount: entry.credited });
  }
  for (const { party, first, amount } of earned.values()) {
    // (Every party whose balance a set moves is named in it; one that is not gets no event rather than a wrong sequence.)
    if (writes.saved(party) === undefined) continue;
    const stored = await storedPoints(trx, party, first.category);
    const moved = writes.balanceMoved(party, first.category);
    writes.enqueue(
      party,
      {
        type: POINTS_EARNED,
        occurredAt: first.occurred_at,
        data: {
          category: first.category,
          amount,
          balance: stored.balance + (moved?.credited ?? 0),
          lifetimeBalance: stored.lifetime + (moved?.lifetime ?? 0),
          cause: first.cause,
          causeId: first.cause_id,
          ...(first.event_id !== null ? { actionEventId: first.event_id } : {}),
        },
      },
      first.recorded_at,
    );
  }
}
