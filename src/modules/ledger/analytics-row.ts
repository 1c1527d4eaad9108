// What a written write set changed in the overview's figures (src/db/analytics-changes.ts), as the
// row SQLite writes with the set (./sqlite.ts; PostgreSQL derives its rows in the statement that
// writes the set, from the rows it wrote: ./postgres.ts): each action recorded, each points entry,
// each completion added or removed and each level reached.
import { uuidv7 } from '../../uuid.js';
import type { AnalyticsChange } from '../../db/analytics-changes.js';
import type { AnalyticsChangesTable } from '../../db/schema.js';
import type { WriteSet } from './write-set.js';

/** A completion a write set's amendments removed, as it was stored. */
export interface RemovedCompletionRow {
  site_id: string;
  mission_id: string;
  completed_at: number;
}

/** The set's changes as one row, or undefined when it changes no figure. */
export function changesRow(writes: WriteSet, removed: readonly RemovedCompletionRow[]): AnalyticsChangesTable | undefined {
  const changes: AnalyticsChange[] = [];
  let siteId: string | undefined;
  for (const e of writes.events) {
    if (e.recorded !== 1) continue;
    changes.push(['a', e.occurred_at, e.action, 1]);
    siteId = e.site_id;
  }
  for (const l of writes.ledger) {
    if (l.credited === 0) continue;
    changes.push(['p', l.occurred_at, l.category, l.credited]);
    siteId = l.site_id;
  }
  for (const c of writes.completions) {
    changes.push(['c', c.completed_at, c.mission_id, 1]);
    siteId = c.site_id;
  }
  for (const r of removed) {
    changes.push(['c', Number(r.completed_at), r.mission_id, -1]);
    siteId = r.site_id;
  }
  for (const l of writes.levelChanges) {
    if (l.direction !== 'up' || l.to_level === null) continue;
    changes.push(['l', l.changed_at, l.to_level, 1]);
    siteId = l.site_id;
  }
  return siteId === undefined ? undefined : { site_id: siteId, change_id: uuidv7(), changes: JSON.stringify(changes) };
}
