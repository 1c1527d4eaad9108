// The ledger's ranges (docs/actions.md, "Ranges"): which decisions can be written.
import { describe, expect, it } from 'vitest';
import { isPointsAmount, MAX_POINTS, unwritableAmount } from '../../src/engine/amounts.js';

const award = (requested: number, credited = requested) => ({ category: 'Points', requested, credited });
const progress = (current: number, percentComplete = 50) => ({ missionId: 'm-1', rules: [{ current }], percentComplete });

describe('isPointsAmount', () => {
  it.each([
    [0, true],
    [MAX_POINTS, true],
    [-MAX_POINTS, true],
    [MAX_POINTS + 1, false],
    [1.5, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    [1e21, false],
  ])('%d → %s', (amount, expected) => expect(isPointsAmount(amount)).toBe(expected));
});

describe('unwritableAmount', () => {
  it.each([
    ['nothing to write', [], [], undefined],
    ['ordinary awards and progress', [award(10, 5)], [progress(3)], undefined],
    ['an infinite request', [award(Number.POSITIVE_INFINITY, 0)], [], /Infinity Points/],
    ['a credit past the range', [award(MAX_POINTS, MAX_POINTS + 1)], [], /outside the ledger's range/],
    ['a fractional credit', [award(10, 2.5)], [], /outside/],
    ['infinite progress', [], [progress(Number.POSITIVE_INFINITY)], /mission "m-1"/],
    ['a NaN percentage', [], [progress(1, Number.NaN)], /mission "m-1"/],
  ])('%s', (_name, pointsAwarded, updates, expected) => {
    const problem = unwritableAmount({ pointsAwarded, progress: updates });
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });
});
