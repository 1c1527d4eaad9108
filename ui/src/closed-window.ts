// A leaderboard's closed window in words (docs/leaderboards.md, "Closed windows and prizes"): its
// days in the site's calendar and what a winner was paid. Shared by <ql-leaderboard> and the
// console's Leaderboards page, so that both say it alike.
import type { ClosedWindow, PresentedPrize } from '../../src/modules/leaderboard-results/service.js';

/** A day of the site's calendar (YYYY-MM-DD), in the reader's words, whatever their own time zone. */
const day = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** The closed window's days in the site's calendar; an allTime board's, its last day. */
export function windowDays(window: Pick<ClosedWindow, 'firstDay' | 'lastDay'>): string {
  if (window.firstDay === null) return `Ended ${day(window.lastDay)}`;
  return window.firstDay === window.lastDay ? day(window.lastDay) : `${day(window.firstDay)} – ${day(window.lastDay)}`;
}

/** "+100 Points, Champion badge". */
export function prizeText(prize: PresentedPrize): string {
  const parts = prize.points.map((p) => `+${new Intl.NumberFormat().format(p.amount)} ${p.category}`);
  if (prize.badge !== undefined) parts.push(`${prize.badge.name} badge`);
  return parts.join(', ');
}
