// `questline verify`'s check of leaderboard prizes (docs/leaderboards.md): each closed window's
// kept standings are ranked again (ties share a rank), each rank's prize is taken again from the
// prizes kept with the closing, and what the points ledger paid per closing, party and category
// must be exactly that, once (a prize paid twice doubles the sum; a prize entry of no closing, or
// of a party the results do not name, is drift). The prize badges are handed to the trophy check.
import { finalStandings, type Prize } from '../../engine/elements/prizes.js';
import type { VerifyRepository } from './repository.js';

export interface PrizeDrift {
  check: 'prize';
  subject: string;
  detail: string;
  expected: number | string | null;
  actual: number | string | null;
}

/** A badge a prize awarded: the party's key (`user:ann`), the badge, and when the window closed. */
export interface PrizeBadge {
  party: string;
  badgeId: string;
  at: number;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

export async function verifyPrizes(repository: VerifyRepository, siteId: string, drift: (d: PrizeDrift) => void): Promise<PrizeBadge[]> {
  const [closings, results, credits] = await Promise.all([repository.closings(siteId), repository.results(siteId), repository.prizeCredits(siteId)]);
  const resultsOf = new Map<string, typeof results>();
  for (const row of results) {
    const rows = resultsOf.get(row.closing_id) ?? [];
    rows.push(row);
    resultsOf.set(row.closing_id, rows);
  }
  // What the kept results say each closing paid: closing, party and category (lower case) → amount.
  const expectedPoints = new Map<string, number>();
  const badges: PrizeBadge[] = [];
  for (const closing of closings) {
    const kept = resultsOf.get(closing.closing_id) ?? [];
    const prizes = JSON.parse(closing.prizes) as Prize[];
    const ranked = finalStandings(
      kept.map((row) => ({ partyId: row.party_id, score: Number(row.score) })),
      prizes,
    );
    const subject = `leaderboard:${closing.board_id}`;
    const window = new Date(Number(closing.window_start)).toISOString();
    for (const [i, standing] of ranked.entries()) {
      const row = kept[i] as (typeof kept)[number];
      if (Number(row.rank) !== standing.rank)
        drift({ check: 'prize', subject, detail: `window from ${window}: rank of ${row.party_id}`, expected: standing.rank, actual: Number(row.rank) });
      const keptPrize = row.prize === null ? null : row.prize;
      if (keptPrize !== json(standing.prize))
        drift({
          check: 'prize',
          subject,
          detail: `window from ${window}: prize of ${row.party_id} at rank ${standing.rank}`,
          expected: json(standing.prize),
          actual: keptPrize,
        });
      if (standing.prize === undefined) continue;
      const party = `${closing.party_type}:${standing.partyId}`;
      for (const reward of standing.prize.points) {
        if (reward.amount <= 0) continue;
        const key = `${closing.closing_id}\u0000${party}\u0000${reward.category.toLowerCase()}`;
        expectedPoints.set(key, (expectedPoints.get(key) ?? 0) + reward.amount);
      }
      if (standing.prize.badge !== undefined) badges.push({ party, badgeId: standing.prize.badge, at: Number(closing.closed_at) });
    }
  }
  for (const credit of credits) {
    const key = `${credit.cause_id}\u0000${credit.party_type}:${credit.party_id}\u0000${credit.category.toLowerCase()}`;
    const expected = expectedPoints.get(key) ?? null;
    expectedPoints.delete(key);
    if (expected !== Number(credit.credited))
      drift({
        check: 'prize',
        subject: `${credit.party_type}:${credit.party_id}`,
        detail: `${credit.category} paid for closing ${credit.cause_id} (${Number(credit.n)} entries)`,
        expected,
        actual: Number(credit.credited),
      });
  }
  for (const [key, expected] of expectedPoints) {
    const [closingId, subject, category] = key.split('\u0000') as [string, string, string];
    drift({ check: 'prize', subject, detail: `${category} prize of closing ${closingId} (not paid)`, expected, actual: null });
  }
  return badges;
}
