import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/uuid.js';

describe('uuidv7', () => {
  it('makes distinct, time-ordered version 7 UUIDs, across many refills of its random buffer', () => {
    const ids = Array.from({ length: 20_000 }, () => uuidv7());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // The random part varies: no two consecutive ids share their last 12 hex digits.
    expect(ids.every((id, i) => i === 0 || id.slice(-12) !== ids[i - 1]?.slice(-12))).toBe(true);
  });
});
