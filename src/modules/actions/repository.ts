// Reads and writes of the action engine's state, all inside the caller's transaction.
import { sql } from 'kysely';
import type { Db, DialectName } from '../../db/index.js';
import { uuidv7 } from 'uuidv7';
import type { ActionEventsTable, MissionCompletionsTable, PartyType, PointsLedgerTable } from '../../db/schema.js';
import type { LevelChange } from '../../engine/types.js';

export interface PresentedLevelChange {
  from: { id: string; name: string } | null;
  to: { id: string; name: string } | null;
  direction: 'up' | 'down';
}

export interface PartyKey {
  siteId: string;
  type: PartyType;
  id: string;
}

/** The columns that name a party, for `where(partyIs(party))`. */
function partyIs(party: PartyKey) {
  return <E extends { and: (filter: { site_id: string; party_type: PartyType; party_id: string }) => unknown }>(eb: E) =>
    eb.and({ site_id: party.siteId, party_type: party.type, party_id: party.id }) as ReturnType<E['and']>;
}

export class ActionsRepository {
  constructor(private readonly dialect: DialectName) {}

  /** Creates the parties that do not exist yet, then locks them all, in the order given (callers sort). */
  async lockParties(trx: Db, parties: PartyKey[], now: number): Promise<void> {
    for (const party of parties) {
      await trx
        .insertInto('parties')
        .values({ site_id: party.siteId, party_type: party.type, party_id: party.id, created_at: now, last_recorded: null, level_id: null, sequence: 0 })
        .onConflict((oc) => oc.columns(['site_id', 'party_type', 'party_id']).doNothing())
        .execute();
      // SQLite transactions hold the database write lock from BEGIN IMMEDIATE already.
      if (this.dialect === 'postgres') {
        await trx
          .selectFrom('parties')
          .select('party_id')
          .where(partyIs(party))
          .forUpdate()
          .execute();
      }
    }
  }

  party(trx: Db, party: PartyKey) {
    return trx
      .selectFrom('parties')
      .select(['last_recorded', 'level_id', 'sequence'])
      .where(partyIs(party))
      .executeTakeFirstOrThrow();
  }

  findEvent(trx: Db, siteId: string, eventId: string): Promise<ActionEventsTable | undefined> {
    return trx.selectFrom('action_events').selectAll().where('site_id', '=', siteId).where('event_id', '=', eventId).executeTakeFirst();
  }

  async countRecorded(trx: Db, party: PartyKey, action: string, from: number, to: number): Promise<number> {
    const row = await trx
      .selectFrom('action_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(partyIs(party))
      .where('action', '=', action)
      .where('occurred_at', '>=', from)
      .where('occurred_at', '<', to)
      .where('recorded', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async memberships(db: Db, siteId: string, userId: string): Promise<string[]> {
    const rows = await db.selectFrom('group_members').select('group_id').where('site_id', '=', siteId).where('user_id', '=', userId).execute();
    return rows.map((row) => row.group_id);
  }

  progress(trx: Db, party: PartyKey, missionIds: string[]) {
    return trx
      .selectFrom('mission_progress')
      .select(['mission_id', 'rule_id', 'window_start', 'current'])
      .where(partyIs(party))
      .where('mission_id', 'in', missionIds)
      .execute();
  }

  /** Live (not removed) completions per mission and window. */
  completions(trx: Db, party: PartyKey, missionIds: string[]) {
    return trx
      .selectFrom('mission_completions')
      .select(['mission_id', 'window_start', (eb) => eb.fn.countAll<number>().as('n')])
      .where(partyIs(party))
      .where('mission_id', 'in', missionIds)
      .where('removed_at', 'is', null)
      .groupBy(['mission_id', 'window_start'])
      .execute();
  }

  async supplyUsed(trx: Db, siteId: string, missionIds: string[]): Promise<Map<string, number>> {
    if (missionIds.length === 0) return new Map(); // `in ()` is an error on PostgreSQL
    const rows = await trx.selectFrom('mission_supply').select(['mission_id', 'used']).where('site_id', '=', siteId).where('mission_id', 'in', missionIds).execute();
    return new Map(rows.map((row) => [row.mission_id, Number(row.used)]));
  }

  /** Takes one unit of a mission's site-wide supply; false when none is left (atomic across nodes). */
  async claimSupply(trx: Db, siteId: string, missionId: string, supply: number): Promise<boolean> {
    await trx
      .insertInto('mission_supply')
      .values({ site_id: siteId, mission_id: missionId, used: 0 })
      .onConflict((oc) => oc.columns(['site_id', 'mission_id']).doNothing())
      .execute();
    const result = await trx
      .updateTable('mission_supply')
      .set((eb) => ({ used: eb('used', '+', 1) }))
      .where('site_id', '=', siteId)
      .where('mission_id', '=', missionId)
      .where('used', '<', supply)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async earnings(trx: Db, party: PartyKey, categories: string[], dayStart: number, yearStart: number): Promise<Map<string, { day: number; year: number }>> {
    const rows = await trx
      .selectFrom('point_earnings')
      .select(['category', 'period', 'earned'])
      .where(partyIs(party))
      .where('category', 'in', categories)
      .where((eb) => eb.or([eb.and([eb('period', '=', 'day'), eb('period_start', '=', dayStart)]), eb.and([eb('period', '=', 'year'), eb('period_start', '=', yearStart)])]))
      .execute();
    const earned = new Map<string, { day: number; year: number }>();
    for (const row of rows) {
      const totals = earned.get(row.category) ?? { day: 0, year: 0 };
      totals[row.period] = Number(row.earned);
      earned.set(row.category, totals);
    }
    return earned;
  }

  async lifetime(trx: Db, party: PartyKey, category: string): Promise<number> {
    const row = await trx
      .selectFrom('point_balances')
      .select('lifetime')
      .where(partyIs(party))
      .where('category', '=', category)
      .executeTakeFirst();
    return Number(row?.lifetime ?? 0);
  }

  async insertEvent(trx: Db, event: ActionEventsTable): Promise<void> {
    await trx.insertInto('action_events').values(event).execute();
  }

  async markActive(trx: Db, siteId: string, day: string, userId: string): Promise<void> {
    await trx
      .insertInto('daily_active_users')
      .values({ site_id: siteId, day, user_id: userId })
      .onConflict((oc) => oc.columns(['site_id', 'day', 'user_id']).doNothing())
      .execute();
  }

  async setLastRecorded(trx: Db, party: PartyKey, lastRecorded: string): Promise<void> {
    await trx
      .updateTable('parties')
      .set({ last_recorded: lastRecorded })
      .where(partyIs(party))
      .execute();
  }

  async setProgress(trx: Db, party: PartyKey, missionId: string, windowStart: number, rules: ReadonlyArray<{ ruleId: string; current: number }>, now: number): Promise<void> {
    for (const rule of rules) {
      await trx
        .insertInto('mission_progress')
        .values({ site_id: party.siteId, party_type: party.type, party_id: party.id, mission_id: missionId, rule_id: rule.ruleId, window_start: windowStart, current: rule.current, updated_at: now })
        .onConflict((oc) => oc.columns(['site_id', 'party_type', 'party_id', 'mission_id', 'rule_id']).doUpdateSet({ window_start: windowStart, current: rule.current, updated_at: now }))
        .execute();
    }
  }

  async insertCompletion(trx: Db, completion: MissionCompletionsTable): Promise<void> {
    await trx.insertInto('mission_completions').values(completion).execute();
  }

  /** Appends a ledger entry and moves the balance (and lifetime, for credits) beside it. */
  async post(trx: Db, entry: PointsLedgerTable): Promise<void> {
    await trx.insertInto('points_ledger').values(entry).execute();
    const lifetime = Math.max(0, entry.credited);
    await trx
      .insertInto('point_balances')
      .values({ site_id: entry.site_id, party_type: entry.party_type, party_id: entry.party_id, category: entry.category, balance: entry.credited, lifetime })
      .onConflict((oc) =>
        oc.columns(['site_id', 'party_type', 'party_id', 'category']).doUpdateSet({
          balance: sql<number>`point_balances.balance + ${entry.credited}`,
          lifetime: sql<number>`point_balances.lifetime + ${lifetime}`,
        }),
      )
      .execute();
  }

  async addEarnings(trx: Db, party: PartyKey, category: string, period: 'day' | 'year', periodStart: number, amount: number): Promise<void> {
    await trx
      .insertInto('point_earnings')
      .values({ site_id: party.siteId, party_type: party.type, party_id: party.id, category, period, period_start: periodStart, earned: amount })
      .onConflict((oc) =>
        oc.columns(['site_id', 'party_type', 'party_id', 'category', 'period', 'period_start']).doUpdateSet({ earned: sql<number>`point_earnings.earned + ${amount}` }),
      )
      .execute();
  }

  async addTrophy(trx: Db, party: PartyKey, badgeId: string, at: number): Promise<void> {
    await trx
      .insertInto('trophies')
      .values({ site_id: party.siteId, party_type: party.type, party_id: party.id, badge_id: badgeId, earned_count: 1, first_earned_at: at, last_earned_at: at })
      .onConflict((oc) =>
        oc.columns(['site_id', 'party_type', 'party_id', 'badge_id']).doUpdateSet({ earned_count: sql<number>`trophies.earned_count + 1`, last_earned_at: at }),
      )
      .execute();
  }

  async setLevel(trx: Db, party: PartyKey, levelId: string | null): Promise<void> {
    await trx
      .updateTable('parties')
      .set({ level_id: levelId })
      .where(partyIs(party))
      .execute();
  }

  /** Sets the user's level, keeps the change in its history and tells webhooks; returns it as the API shows it. */
  async recordLevelChange(trx: Db, party: PartyKey, change: LevelChange, cause: { actionEventId: string } | { adjustmentId: string }, at: number, now: number): Promise<PresentedLevelChange> {
    const level = (l: { id: string; name: string } | null) => (l === null ? null : { id: l.id, name: l.name });
    const presented = { from: level(change.from), to: level(change.to), direction: change.direction };
    await this.setLevel(trx, party, change.to?.id ?? null);
    await trx
      .insertInto('level_changes')
      .values({
        site_id: party.siteId,
        change_id: `lvl_${uuidv7()}`,
        party_id: party.id,
        from_level: change.from?.id ?? null,
        to_level: change.to?.id ?? null,
        direction: change.direction,
        event_id: 'actionEventId' in cause ? cause.actionEventId : null,
        changed_at: at,
      })
      .execute();
    await this.enqueue(trx, party, { eventId: `evt_${uuidv7()}`, type: 'level.changed', occurredAt: at, payload: { siteId: party.siteId, userId: party.id, ...presented, ...cause } }, now);
    return presented;
  }

  /** Appends an outbox event with the party's next sequence number. */
  async enqueue(trx: Db, party: PartyKey, event: { eventId: string; type: string; payload: Record<string, unknown>; occurredAt: number }, now: number): Promise<void> {
    const { sequence } = await trx
      .updateTable('parties')
      .set((eb) => ({ sequence: eb('sequence', '+', 1) }))
      .where(partyIs(party))
      .returning('sequence')
      .executeTakeFirstOrThrow();
    const payload = { ...event.payload, sequence: Number(sequence) };
    await trx
      .insertInto('outbox')
      .values({
        site_id: party.siteId,
        event_id: event.eventId,
        event_type: event.type,
        party_type: party.type,
        party_id: party.id,
        sequence: Number(sequence),
        payload: JSON.stringify(payload),
        occurred_at: event.occurredAt,
        created_at: now,
      })
      .execute();
  }
}
