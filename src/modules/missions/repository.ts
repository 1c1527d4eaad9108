// Reads of a party's mission state (SPEC §6): progress, live completions per mission and window,
// supply used; each bounded by the program's size, never by the party's history.
import type { Db } from '../../db/index.js';
import { precompiled } from '../../db/precompiled.js';
import type { PartyType } from '../../db/schema.js';

type P = { siteId: string; type: PartyType; id: string };

// The party's mission state, read on every mission list: precompiled (src/db/precompiled.ts),
// not built with Kysely on each read.
const q = {
  completionTotals: precompiled<P, { mission_id: string; n: number; last: number }>((db, p) =>
    db
      .selectFrom('mission_completions')
      .select(['mission_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('completed_at').as('last')])
      .where('site_id', '=', p.siteId)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id)
      .where('removed_at', 'is', null)
      .groupBy('mission_id'),
  ),
  recentCompletions: precompiled<P & { from: number }, { mission_id: string; window_start: number; n: number }>((db, p) =>
    db
      .selectFrom('mission_completions')
      .select(['mission_id', 'window_start', (eb) => eb.fn.countAll<number>().as('n')])
      .where('site_id', '=', p.siteId)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id)
      .where('removed_at', 'is', null)
      .where('window_start', '>=', p.from)
      .groupBy(['mission_id', 'window_start']),
  ),
  progress: precompiled<P, { mission_id: string; rule_id: string; window_start: number; current: number }>((db, p) =>
    db
      .selectFrom('mission_progress')
      .select(['mission_id', 'rule_id', 'window_start', 'current'])
      .where('site_id', '=', p.siteId)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id),
  ),
  supply: precompiled<{ siteId: string }, { mission_id: string; used: number }>((db, p) =>
    db.selectFrom('mission_supply').select(['mission_id', 'used']).where('site_id', '=', p.siteId),
  ),
};

export class MissionsRepository {
  constructor(private readonly db: Db) {}

  /** Live completions per mission: how many, and the last one. */
  async completionTotals(party: P): Promise<Array<{ mission_id: string; n: number; last: number }>> {
    return q.completionTotals({ db: this.db }, party);
  }

  /** Live completions per mission and window, in windows starting at or after `from`. */
  async recentCompletions(party: P, from: number): Promise<Array<{ mission_id: string; window_start: number; n: number }>> {
    return q.recentCompletions({ db: this.db }, { ...party, from });
  }

  async progress(party: P): Promise<Array<{ mission_id: string; rule_id: string; window_start: number; current: number }>> {
    return q.progress({ db: this.db }, party);
  }

  async supplyUsed(siteId: string): Promise<Array<{ mission_id: string; used: number }>> {
    return q.supply({ db: this.db }, { siteId });
  }

  /** The missions the user has completed (not removed). */
  async completedBy(siteId: string, userId: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('mission_completions')
      .select('mission_id')
      .distinct()
      .where('site_id', '=', siteId)
      .where('party_type', '=', 'user')
      .where('party_id', '=', userId)
      .where('removed_at', 'is', null)
      .execute();
    return new Set(rows.map((row) => row.mission_id));
  }
}
