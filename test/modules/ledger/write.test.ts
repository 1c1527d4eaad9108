// The ledger's one "decide, then write" entry (LedgerRepository.write): the parties named are
// locked, the decision gets their rows and reads its own writes, and its write set is checked and
// written at once, or refused with nothing of it stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/index.js';
import type { PointsLedgerTable } from '../../../src/db/schema.js';
import { AppError } from '../../../src/errors.js';
import { LedgerRepository } from '../../../src/modules/ledger/repository.js';
import { lifetimeDelta, type PartyKey } from '../../../src/modules/ledger/write-set.js';
import { SupplyTaken } from '../../../src/modules/ledger/written.js';
import { initialProgram } from '../../../src/modules/program/service.js';
import { SUBSCRIBABLE_TYPES, type SiteDestinations } from '../../../src/modules/program/event-routing.js';
import { configurations, freshDatabase } from '../../helpers/app.js';

const site = 's-decide';
const everywhere: SiteDestinations = {
  site: { ...initialProgram('Decide').site, achievementCallbackUrl: 'https://hooks.example.com/q' },
  // (Except points.earned, which a write adds by itself for each credit: test/modules/webhooks/points-earned.test.ts.)
  subscribedTypes: new Set(SUBSCRIBABLE_TYPES.filter((type) => type !== 'points.earned')),
};
const user = (id: string): PartyKey => ({ siteId: site, type: 'user', id });
const group = (id: string): PartyKey => ({ siteId: site, type: 'group', id });
const credit = (party: PartyKey, amount: number, id: string, category = 'Points'): PointsLedgerTable => ({
  site_id: site,
  entry_id: id,
  party_type: party.type,
  party_id: party.id,
  category,
  requested: amount,
  credited: amount,
  cause: 'adjustment',
  cause_id: id,
  event_id: null,
  reason: null,
  occurred_at: 1,
  recorded_at: 1,
});

describe.each(configurations)('LedgerRepository.write (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  let ledger: LedgerRepository;
  const party = async (p: PartyKey) =>
    database.db
      .selectFrom('parties')
      .select(['version', 'sequence', 'level_id'])
      .where('site_id', '=', site)
      .where('party_type', '=', p.type)
      .where('party_id', '=', p.id)
      .executeTakeFirst();
  const entries = async () =>
    (await database.db.selectFrom('points_ledger').select('entry_id').where('site_id', '=', site).execute()).map((r) => r.entry_id).sort();
  const balance = async (p: PartyKey) =>
    Number(
      (
        await database.db
          .selectFrom('point_balances')
          .select('balance')
          .where('site_id', '=', site)
          .where('party_id', '=', p.id)
          .where('category', '=', 'Points')
          .executeTakeFirst()
      )?.balance ?? 0,
    );

  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
    ledger = new LedgerRepository(database.dialect);
  });
  afterAll(async () => fresh.drop());

  it('locks the parties named (creating them), hands their rows, and writes the decision at once with its answer and scores', async () => {
    const ann = user('ann');
    const { answer, scores } = await database.transaction((trx) =>
      ledger.write(trx, { parties: [ann, group('crew'), ann], now: 1_000, destinations: everywhere }, async (locked) => {
        const row = locked.row(ann);
        locked.writes.post(credit(ann, 7, 'w-1'), 7);
        locked.writes.enqueue(ann, { type: 'mission.completed', occurredAt: 1_000, data: {} }, 1_000);
        locked.writes.addScores(site, 'ann', [{ boardId: 'lb', windowStart: 0, delta: 7, at: 1_000 }]);
        return {
          writes: locked.writes,
          answer: { version: row.version, balance: await locked.balance(ann, 'Points'), lifetime: await locked.lifetime(ann, 'Points') },
        };
      }),
    );
    // New parties: created at version 0 by the lock, raised once by the write.
    expect(answer).toEqual({ version: 0, balance: 7, lifetime: 7 });
    expect(scores.map((s) => [s.party_id, s.board_id, Number(s.score)])).toEqual([['ann', 'lb', 7]]);
    expect(await entries()).toEqual(['w-1']);
    expect(Number((await party(ann))?.sequence)).toBe(1);
    expect(Number((await party(group('crew')))?.version)).toBe(1);
  });

  it('lets decisions of one transaction read what the earlier ones wrote', async () => {
    const bob = user('bob');
    const seen = await database.transaction(async (trx) => {
      await ledger.lock(trx, [bob, group('crew')], 2_000);
      const decide = (amount: number, id: string) =>
        ledger.write(trx, { parties: [bob], now: 2_000, destinations: everywhere }, async (locked) => {
          const before = await locked.balance(bob, 'Points');
          locked.writes.post(credit(bob, amount, id), amount);
          locked.writes.enqueue(bob, { type: 'mission.completed', occurredAt: 2_000, data: {} }, 2_000);
          return { writes: locked.writes, answer: [before, locked.row(bob).sequence] };
        });
      return [(await decide(3, 'w-2')).answer, (await decide(4, 'w-3')).answer];
    });
    expect(seen).toEqual([
      [0, 0],
      [3, 1],
    ]);
    expect(await balance(bob)).toBe(7);
  });

  it.each([
    ['an amount that is not whole', (p: PartyKey) => credit(p, 2.5, 'w-bad'), AppError],
    ['an amount past what one entry holds', (p: PartyKey) => credit(p, 2_000_000_000_000, 'w-big'), AppError],
  ])('refuses a decision with %s before anything of it is stored', async (_name, entry, kind) => {
    const cat = user('cat');
    const refused = await database
      .transaction((trx) =>
        ledger.write(trx, { parties: [cat], now: 3_000 }, async (locked) => {
          locked.writes.post(credit(cat, 1, 'w-fine'), 1);
          const bad = entry(cat);
          locked.writes.post(bad, lifetimeDelta(bad));
          return { writes: locked.writes, answer: null };
        }),
      )
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(kind);
    expect((refused as AppError).code).toBe('amount_out_of_range');
    expect(await entries()).not.toContain('w-fine');
    expect(await party(cat)).toBeUndefined();
  });

  it('refuses a decision that writes for a party it did not lock, and one that names a party its transaction did not lock first', async () => {
    const dan = user('dan');
    const stranger = await database
      .transaction((trx) =>
        ledger.write(trx, { parties: [dan], now: 4_000 }, async (locked) => {
          locked.writes.post(credit(user('eve'), 1, 'w-eve'), 1);
          return { writes: locked.writes, answer: null };
        }),
      )
      .catch((error: unknown) => error);
    expect(String(stranger)).toMatch(/did not lock it/);
    const late = await database
      .transaction(async (trx) => {
        await ledger.lock(trx, [dan], 4_000);
        return ledger.write(trx, { parties: [dan, user('eve')], now: 4_000 }, async (locked) => ({ writes: locked.writes, answer: null }));
      })
      .catch((error: unknown) => error);
    expect(String(late)).toMatch(/not locked with the transaction's other parties/);
    expect(await entries()).not.toContain('w-eve');
  });

  it('leaves the parties of a decision that changes nothing as they were (created by the lock, changed by nothing)', async () => {
    const fay = user('fay');
    const { scores } = await database.transaction((trx) =>
      ledger.write(trx, { parties: [fay], now: 5_000 }, async (locked) => ({ writes: locked.writes, answer: null })),
    );
    const row = await party(fay);
    expect([scores, Number(row?.version), Number(row?.sequence), row?.level_id]).toEqual([[], 0, 0, null]);
  });

  it("takes units of a mission's supply with the set, and refuses the whole set when fewer are left than it claims", async () => {
    const gus = user('gus');
    const claim = (units: number, id: string) =>
      database.transaction((trx) =>
        ledger.write(trx, { parties: [gus], now: 6_000 }, async (locked) => {
          for (let i = 0; i < units; i++) locked.writes.claimSupply(site, 'm-supply', 3);
          locked.writes.post(credit(gus, 1, id), 1);
          return { writes: locked.writes, answer: null };
        }),
      );
    const used = async () =>
      Number(
        (await database.db.selectFrom('mission_supply').select('used').where('site_id', '=', site).where('mission_id', '=', 'm-supply').executeTakeFirst())
          ?.used,
      );
    await claim(2, 'w-s1');
    expect(await used()).toBe(2);
    expect(await claim(2, 'w-s2').catch((error: unknown) => error)).toBeInstanceOf(SupplyTaken);
    await claim(1, 'w-s3');
    expect(await used()).toBe(3);
    const written = await entries();
    expect([written.includes('w-s1'), written.includes('w-s2'), written.includes('w-s3')]).toEqual([true, false, true]);
  });
});
