// counted (src/plural.ts): the singular for exactly one, the plural otherwise.
import { describe, expect, it } from 'vitest';
import { counted } from '../src/plural.js';

describe('counted', () => {
  it.each([
    [1, 'line', undefined, '1 line'],
    [0, 'line', undefined, '0 lines'],
    [2, 'line', undefined, '2 lines'],
    [-1, 'point', undefined, '-1 points'],
    [1.5, 'point', undefined, '1.5 points'],
    [1, 'ledger entry', 'ledger entries', '1 ledger entry'],
    [3, 'ledger entry', 'ledger entries', '3 ledger entries'],
    [1, 'user or group', 'users and groups', '1 user or group'],
    [0, 'user or group', 'users and groups', '0 users and groups'],
  ])('%d %s → %j', (count, singular, plural, expected) => {
    expect(counted(count, singular, plural)).toBe(expected);
  });
});
