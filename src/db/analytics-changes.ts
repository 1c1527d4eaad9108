// What the writers of figures the console's overview shows tell it (docs/analytics.md), as rows of
// analytics_changes: each row a JSON list of [kind, instant, key, amount], the instant being when
// the change counts (an action's timestamp, so that a backdated action lands on its day; a webhook
// delivery's creation). The ledger writes one with every write set that records an action, moves
// points, adds or removes a completion or reaches a level (src/modules/ledger/); the webhooks
// module one with every delivery it makes and every change of a delivery's status; both in the
// statement or transaction of the change itself. The analytics module folds them into its daily
// rollup and deletes them in one transaction, so that each counts exactly once.

/**
 * a: an action recorded (key: the action); p: points, signed (key: the category); c: a completion
 * (1) or its removal (-1) (key: the mission); l: a level reached (key: the level); w: a webhook
 * delivery entering (1) or leaving (-1) a status (key: pending, delivered or dead).
 */
export type ChangeKind = 'a' | 'p' | 'c' | 'l' | 'w';

export type AnalyticsChange = [kind: ChangeKind, at: number, key: string, amount: number];

const KINDS = new Set<string>(['a', 'p', 'c', 'l', 'w']);

/** A row's changes as stored; one of another shape is skipped (none is written). */
export function parseChanges(text: string): AnalyticsChange[] {
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed)) return [];
  return parsed
    .filter(
      (c): c is AnalyticsChange =>
        Array.isArray(c) && KINDS.has(c[0] as string) && Number.isFinite(Number(c[1])) && typeof c[2] === 'string' && Number.isFinite(Number(c[3])),
    )
    .map((c) => [c[0], Number(c[1]), c[2], Number(c[3])]);
}
