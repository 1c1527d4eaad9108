// The recommendation score (docs/recommendations.md): each signal alone, and the order it makes.
import { describe, expect, it } from 'vitest';
import { rank, score, type RankInput } from '../../../src/modules/missions/ranking.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const DAY = 24 * 3600 * 1000;
const base: RankInput = {
  id: 'm',
  featured: false,
  importance: 0,
  percentComplete: 0,
  locked: false,
  endsAt: undefined,
  unlockedAt: undefined,
  rewardPoints: 0,
};

describe('score', () => {
  it.each<[string, Partial<RankInput>, number, string[]]>([
    ['nothing', {}, 0, []],
    ['featured', { featured: true }, 30, ['featured']],
    ['importance 5', { importance: 5 }, 10, ['important']],
    ['importance capped at 20', { importance: 50 }, 20, ['important']],
    ['negative importance', { importance: -3 }, -6, []],
    ['half way', { percentComplete: 50 }, 12.5, ['close_to_completion']],
    ['a quarter of the way', { percentComplete: 25 }, 6.25, []],
    ['ends in 3.5 days', { endsAt: NOW + 3.5 * DAY }, 10, ['expiring_soon']],
    ['ends in 8 days', { endsAt: NOW + 8 * DAY }, 0, []],
    ['unlocked yesterday', { unlockedAt: NOW - DAY }, 15, ['recently_unlocked']],
    ['unlocked 8 days ago', { unlockedAt: NOW - 8 * DAY }, 0, []],
    ['10 points of reward', { rewardPoints: 10 }, 2.5, []],
    ['1,000 points of reward', { rewardPoints: 1000 }, 7.5, ['big_reward']],
    ['a huge reward is capped', { rewardPoints: 1e9 }, 10, ['big_reward']],
    ['locked', { locked: true }, -40, []],
  ])('%s', (_name, input, expected, reasons) => {
    expect(score({ ...base, ...input }, NOW)).toEqual({ score: expected, reasons });
  });
});

describe('rank', () => {
  it('orders by score, then importance, then id', () => {
    const ranked = rank(
      [
        { ...base, id: 'm-plain' },
        { ...base, id: 'm-locked', featured: true, locked: true },
        { ...base, id: 'm-featured', featured: true },
        { ...base, id: 'm-expiring', endsAt: NOW + DAY, importance: 1 },
        { ...base, id: 'm-b', importance: 1 },
        { ...base, id: 'm-a', importance: 1 },
      ],
      NOW,
    );
    expect(ranked.map((m) => m.id)).toEqual(['m-featured', 'm-expiring', 'm-a', 'm-b', 'm-plain', 'm-locked']);
  });
});
