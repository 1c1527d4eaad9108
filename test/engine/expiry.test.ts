// Point expiry, the pure rule (docs/points.md): lots spent and expired oldest first across
// credits, debits and reversals; afterDays rounded to the end of a local day (time zones, DST);
// a fixed date; a negative balance never expires; verify's check of written expiries.
import { describe, expect, it } from 'vitest';
import { dueExpiries, expiredBefore, expiresAt, nextExpiry, replayLots, reversibleAmount, type LedgerMove } from '../../src/engine/elements/expiry.js';

const at = (iso: string) => Date.parse(iso);
const credit = (amount: number, when: string, causeId = `c${when}`): LedgerMove => ({ amount, recordedAt: at(when), cause: 'mission', causeId });
const debit = (amount: number, when: string, cause = 'adjustment', causeId = 'd'): LedgerMove => ({ amount: -amount, recordedAt: at(when), cause, causeId });

describe('expiresAt', () => {
  it.each([
    // afterDays: kept through the Nth local day after the day earned, gone at the midnight ending it.
    { rule: { afterDays: 30 }, zone: 'UTC', earned: '2026-01-01T15:00:00Z', expires: '2026-02-01T00:00:00.000Z' },
    { rule: { afterDays: 1 }, zone: 'UTC', earned: '2026-01-01T00:00:00Z', expires: '2026-01-03T00:00:00.000Z' },
    { rule: { afterDays: 1 }, zone: 'UTC', earned: '2026-01-01T23:59:59.999Z', expires: '2026-01-03T00:00:00.000Z' },
    // The local day decides: 23:30 UTC on Jan 1 is already Jan 2 in Paris.
    { rule: { afterDays: 1 }, zone: 'Europe/Paris', earned: '2026-01-01T23:30:00Z', expires: '2026-01-03T23:00:00.000Z' },
    { rule: { afterDays: 1 }, zone: 'America/Los_Angeles', earned: '2026-01-02T07:59:00Z', expires: '2026-01-03T08:00:00.000Z' },
    // Across the spring-forward night, the local midnight moves by the offset change (23 h day).
    { rule: { afterDays: 1 }, zone: 'Europe/Paris', earned: '2026-03-28T12:00:00Z', expires: '2026-03-29T22:00:00.000Z' },
    { rule: { afterDays: 1 }, zone: 'America/New_York', earned: '2026-11-01T12:00:00Z', expires: '2026-11-03T05:00:00.000Z' },
    // A fixed date (local): earned before it expires at it; earned at or after it never.
    { rule: { date: '2026-12-31T23:59:59' }, zone: 'Europe/Paris', earned: '2026-06-01T00:00:00Z', expires: '2026-12-31T22:59:59.000Z' },
    { rule: { date: '2026-12-31T23:59:59' }, zone: 'Europe/Paris', earned: '2026-12-31T22:59:59Z', expires: null },
  ])('$rule in $zone, earned $earned → $expires', ({ rule, zone, earned, expires }) => {
    const instant = expiresAt(rule, at(earned), zone);
    expect(instant === null ? null : new Date(instant).toISOString()).toBe(expires);
  });

  it('expiredBefore(now) agrees with expiresAt for every earning hour around a DST change', () => {
    const zone = 'Europe/Paris';
    const rule = { afterDays: 3 };
    for (let now = at('2026-03-26T00:00:00Z'); now < at('2026-04-05T00:00:00Z'); now += 5_400_000) {
      const cutoff = expiredBefore(rule, now, zone);
      for (let earned = at('2026-03-20T00:00:00Z'); earned < at('2026-04-05T00:00:00Z'); earned += 7_200_000)
        expect(expiresAt(rule, earned, zone)! <= now).toBe(earned < cutoff);
    }
  });
});

describe('replayLots', () => {
  const remaining = (moves: LedgerMove[]) => {
    const state = replayLots(moves);
    return { lots: state.lots.map((lot) => [new Date(lot.earnedAt).toISOString().slice(0, 10), lot.remaining]), debt: state.debt };
  };

  it.each([
    {
      name: 'credits make lots in order',
      moves: [credit(10, '2026-01-01'), credit(5, '2026-01-02')],
      lots: [
        ['2026-01-01', 10],
        ['2026-01-02', 5],
      ],
      debt: 0,
    },
    {
      name: 'a debit takes the oldest lot first, then the next',
      moves: [credit(10, '2026-01-01'), credit(5, '2026-01-02'), debit(12, '2026-01-03')],
      lots: [['2026-01-02', 3]],
      debt: 0,
    },
    {
      name: 'a debit past every lot is debt, repaid by the next credits before they make lots',
      moves: [credit(10, '2026-01-01'), debit(15, '2026-01-02'), credit(3, '2026-01-03'), credit(7, '2026-01-04')],
      lots: [['2026-01-04', 5]],
      debt: 0,
    },
    {
      name: 'a reversal takes back its own credit first, not the oldest lot',
      moves: [credit(10, '2026-01-01', 'a'), credit(5, '2026-01-02', 'b'), debit(5, '2026-01-03', 'reversal', 'b')],
      lots: [['2026-01-01', 10]],
      debt: 0,
    },
    {
      name: 'a reversal whose credit was partly spent takes the rest from the oldest lots',
      moves: [credit(10, '2026-01-01', 'a'), credit(5, '2026-01-02', 'b'), debit(12, '2026-01-03'), debit(5, '2026-01-04', 'reversal', 'b')],
      lots: [],
      debt: 2,
    },
    {
      name: 'an expiry takes the oldest lots',
      moves: [credit(10, '2026-01-01'), credit(5, '2026-01-02'), debit(10, '2026-02-01', 'expiry')],
      lots: [['2026-01-02', 5]],
      debt: 0,
    },
    {
      name: 'a reversed debit (a positive reversal) is a new lot',
      moves: [credit(10, '2026-01-01'), debit(-4, '2026-01-05', 'reversal')],
      lots: [
        ['2026-01-01', 10],
        ['2026-01-05', 4],
      ],
      debt: 0,
    },
  ])('$name', ({ moves, lots, debt }) => {
    expect(remaining(moves)).toEqual({ lots, debt });
  });

  it('checks written expiries against what remained earned before their instant', () => {
    const ok = replayLots([credit(10, '2026-01-01'), debit(3, '2026-01-02'), { ...debit(7, '2026-02-01', 'expiry', 'x'), earnedBefore: at('2026-01-02') }]);
    expect(ok.mismatches).toEqual([]);
    const wrong = replayLots([
      credit(10, '2026-01-01'),
      credit(4, '2026-01-03'),
      { ...debit(14, '2026-02-01', 'expiry', 'x'), earnedBefore: at('2026-01-02') },
    ]);
    expect(wrong.mismatches).toEqual([{ causeId: 'x', expired: 14, expected: 10 }]);
  });
});

describe('reversibleAmount', () => {
  const expire = (amount: number, when: string): LedgerMove => debit(amount, when, 'expiry', 'x');
  it.each([
    { name: 'nothing expired: the whole credit', moves: [credit(100, '2026-01-01', 'a')], reversible: 100 },
    { name: 'the credit expired: nothing', moves: [credit(100, '2026-01-01', 'a'), expire(100, '2026-02-01')], reversible: 0 },
    {
      name: 'partly spent, the rest expired: the spent part only',
      moves: [credit(100, '2026-01-01', 'a'), debit(30, '2026-01-05'), expire(70, '2026-02-01')],
      reversible: 30,
    },
    {
      name: 'an older lot expired, not this credit: the whole credit',
      moves: [credit(50, '2026-01-01', 'old'), credit(100, '2026-01-20', 'a'), expire(50, '2026-02-01')],
      reversible: 100,
    },
    {
      name: 'an expiry that took an older lot and part of this one',
      moves: [credit(50, '2026-01-01', 'old'), credit(100, '2026-01-01T12:00:00Z', 'a'), debit(20, '2026-01-10'), expire(130, '2026-02-01')],
      reversible: 0,
    },
    {
      name: 'a credit that repaid debt expires only its lot',
      moves: [debit(40, '2026-01-01'), credit(100, '2026-01-02', 'a'), expire(60, '2026-02-03')],
      reversible: 40,
    },
  ])('$name → $reversible', ({ moves, reversible }) => {
    expect(reversibleAmount(replayLots(moves), 'a', 100)).toBe(reversible);
  });
});

describe('dueExpiries and nextExpiry', () => {
  const rule = { afterDays: 30 };
  const state = () =>
    replayLots([credit(10, '2026-01-01T10:00:00Z'), credit(5, '2026-01-01T20:00:00Z'), credit(7, '2026-01-03T10:00:00Z'), debit(4, '2026-01-04T00:00:00Z')]);

  it.each([
    { now: '2026-01-31T23:59:59.999Z', due: [] },
    { now: '2026-02-01T00:00:00Z', due: [{ at: '2026-02-01T00:00:00.000Z', amount: 11, earnedBefore: '2026-01-02T00:00:00.000Z' }] },
    {
      now: '2026-02-05T00:00:00Z',
      due: [
        { at: '2026-02-01T00:00:00.000Z', amount: 11, earnedBefore: '2026-01-02T00:00:00.000Z' },
        { at: '2026-02-03T00:00:00.000Z', amount: 7, earnedBefore: '2026-01-04T00:00:00.000Z' },
      ],
    },
  ])('at $now', ({ now, due }) => {
    const found = dueExpiries(state(), rule, at(now), 'UTC').map((d) => ({
      at: new Date(d.at).toISOString(),
      amount: d.amount,
      earnedBefore: new Date(d.earnedBefore).toISOString(),
    }));
    expect(found).toEqual(due);
  });

  it('the next expiry sums the lots that expire at the earliest instant', () => {
    expect(nextExpiry(state(), rule, 'UTC')).toEqual({ amount: 11, at: at('2026-02-01T00:00:00Z') });
    expect(nextExpiry(replayLots([]), rule, 'UTC')).toBeNull();
  });

  it('a negative balance expires nothing', () => {
    const inDebt = replayLots([credit(10, '2026-01-01'), debit(25, '2026-01-02')]);
    expect(dueExpiries(inDebt, rule, at('2027-01-01'), 'UTC')).toEqual([]);
    expect(nextExpiry(inDebt, rule, 'UTC')).toBeNull();
  });

  it('a fixed date expires everything earned before it, once it has passed', () => {
    const dated = { date: '2026-03-01T00:00:00' };
    const lots = replayLots([credit(10, '2026-01-01'), credit(5, '2026-02-15'), credit(3, '2026-03-02')]);
    expect(dueExpiries(lots, dated, at('2026-02-28T23:00:00Z'), 'UTC')).toEqual([]);
    expect(dueExpiries(lots, dated, at('2026-03-01T00:00:00Z'), 'UTC')).toEqual([{ at: at('2026-03-01'), amount: 15, earnedBefore: at('2026-03-01') }]);
    expect(nextExpiry(lots, dated, 'UTC')).toEqual({ amount: 15, at: at('2026-03-01') });
  });
});
