// The ledger's one lock protocol (src/modules/ledger/parties.ts): callers name the parties in any
// order, the ledger locks them in one order, so writers that share parties never deadlock; a
// party's version moves with what is written of it, not with the lock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Trx } from '../../../src/db/index.js';
import { inLockOrder } from '../../../src/modules/ledger/parties.js';
import { LedgerRepository } from '../../../src/modules/ledger/repository.js';
import type { PartyKey } from '../../../src/modules/ledger/write-set.js';
import { configurations, freshDatabase } from '../../helpers/app.js';

const user = (id: string): PartyKey => ({ siteId: 's-1', type: 'user', id });
const group = (id: string): PartyKey => ({ siteId: 's-1', type: 'group', id });

/** Every order of the parties. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

describe('inLockOrder', () => {
  it.each([
    ['a user before a group', [user('ann'), group('crew')], [group('crew'), user('ann')]],
    ['a group before a user', [group('crew'), user('ann')], [group('crew'), user('ann')]],
    ['users', [user('bob'), user('ann')], [user('ann'), user('bob')]],
    ['groups, by code units (as Array.prototype.sort)', [group('g2'), group('g10'), group('G3')], [group('G3'), group('g10'), group('g2')]],
    ['users, upper case first', [user('ann'), user('Zoe')], [user('Zoe'), user('ann')]],
    ['a party named twice, once', [user('ann'), group('crew'), user('ann'), group('crew')], [group('crew'), user('ann')]],
    ['mixed', [user('bob'), group('y'), user('ann'), group('x')], [group('x'), group('y'), user('ann'), user('bob')]],
    // The action path locks a user's groups (sorted ids) and then the user: that is the lock order.
    ["the action path's [...groups, user]", [group('a'), group('b'), user('a')], [group('a'), group('b'), user('a')]],
    ['a user whose id equals a group id', [user('x'), group('x')], [group('x'), user('x')]],
    ['nothing', [], []],
  ])('%s', (_name, named, locked) => {
    expect(inLockOrder(named)).toEqual(locked);
  });

  it('is one order whatever order the parties are named in', () => {
    const parties = [user('bob'), group('crew'), user('ann'), group('band')];
    const orders = permutations(parties).map((named) => JSON.stringify(inLockOrder(named)));
    expect(orders).toHaveLength(24);
    expect(new Set(orders)).toEqual(new Set([JSON.stringify([group('band'), group('crew'), user('ann'), user('bob')])]));
  });
});

describe.each(configurations)('LedgerRepository.lock (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  let ledger: LedgerRepository;
  const site = 's-locks';
  const ann: PartyKey = { siteId: site, type: 'user', id: 'ann' };
  const crew: PartyKey = { siteId: site, type: 'group', id: 'crew' };
  const hold = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const versions = async () =>
    Object.fromEntries(
      (await database.db.selectFrom('parties').select(['party_type', 'party_id', 'version']).where('site_id', '=', site).execute()).map((row) => [
        `${row.party_type}:${row.party_id}`,
        Number(row.version),
      ]),
    );

  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
    ledger = new LedgerRepository(database.dialect);
  });
  afterAll(async () => fresh.drop());

  // A decision that writes a row for each party it locked (a day marked active, an outbox event).
  const decide = (trx: Trx, parties: PartyKey[], now: number, pause = 0) =>
    ledger.write(trx, { parties, now }, async (locked) => {
      await hold(pause);
      locked.writes.markActive(site, `day-${now}`, 'ann');
      return { writes: locked.writes, answer: undefined };
    });

  it('lets writers that name the same parties in opposite orders run one after the other (no deadlock)', async () => {
    // Each writer holds its locks for a while before it commits; had each locked in the order it
    // named, each would hold one party and wait for the other's (PostgreSQL fails one of them).
    const writer = (parties: PartyKey[], now: number) => database.transaction((trx) => decide(trx, parties, now, 30));
    for (let round = 0; round < 5; round++) await Promise.all([writer([ann, crew], 2 * round), writer([crew, ann], 2 * round + 1)]);
    // The first round created both; every decision written raised each version once.
    expect(await versions()).toEqual({ 'user:ann': 10, 'group:crew': 10 });
  });

  it('raises the version of a party named twice once', async () => {
    const before = await versions();
    await database.transaction((trx) => decide(trx, [ann, crew, ann], 2_000));
    expect(await versions()).toEqual({ 'user:ann': (before['user:ann'] as number) + 1, 'group:crew': (before['group:crew'] as number) + 1 });
  });

  it('changes no party by the lock alone: a transaction that locks and writes nothing of them leaves their versions', async () => {
    const before = await versions();
    await database.transaction(async (trx) => {
      await ledger.lock(trx, [ann, crew], 3_000);
      await ledger.write(trx, { parties: [ann], now: 3_000 }, async (locked) => ({ writes: locked.writes, answer: undefined }));
    });
    expect(await versions()).toEqual(before);
  });
});
