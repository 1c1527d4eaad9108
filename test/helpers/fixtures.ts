// Shared test fixtures: the canonical example program (examples/program.json, the one README and
// docs/program.md point to), a one-mission program for leaderboard tests, a weekly board with
// prizes and three named users for the tests of closed windows, and a clock that starts at a fixed
// instant and then runs in real time.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const EXAMPLE_PROGRAM_PATH: string = resolve(repoRoot, 'examples/program.json');

/** A site in UTC with one action, `play`, whose repeatable mission pays 10 Points, and the given boards. */
export function playProgram(name: string, leaderboards: Array<Record<string, unknown>>): Record<string, unknown> {
  return {
    site: { name, timezone: 'UTC' },
    pointCategories: [{ name: 'Points', isDefault: true }],
    actions: [{ name: 'play' }],
    missions: [
      {
        id: 'm-play',
        name: 'Play',
        startDate: '2026-01-01T00:00:00',
        endDate: '2027-12-31T23:59:59',
        rules: [{ id: 'r-1', action: 'play', type: 'count', goal: 1, metadata: [] }],
        rewards: { points: [{ category: 'Points', amount: 10 }] },
        repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
      },
    ],
    leaderboards,
  };
}

/** A mission of 2026–2027 (New York) that pays `points` Points for each `action`, up to 1000 times. */
export function repeatableMission(id: string, action: string, points: number): Record<string, unknown> {
  return {
    id,
    name: id,
    startDate: '2026-01-01T00:00:00',
    endDate: '2027-12-31T23:59:59',
    timezone: 'America/New_York',
    rules: [{ id: 'r-1', action, type: 'count', goal: 1, metadata: [] }],
    rewards: { points: [{ category: 'Points', amount: points }] },
    repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
  };
}

/**
 * Acme (New York) with one action, `small`, whose repeatable mission pays 10 Points, the Champion
 * badge (`b-champ`), and `lb-week`, "Weekly stars" (top 5), whose closed windows pay rank 1 100
 * Points and the badge and ranks 2–3 10 Points; `site` adds settings, `boards` more boards.
 */
export function weeklyPrizeProgram(site: Record<string, unknown> = {}, boards: Array<Record<string, unknown>> = []): Record<string, unknown> {
  return {
    site: { name: 'Acme', timezone: 'America/New_York', ...site },
    pointCategories: [{ name: 'Points', isDefault: true }],
    actions: [{ name: 'small' }],
    badges: [{ id: 'b-champ', name: 'Champion' }],
    missions: [repeatableMission('m-small', 'small', 10)],
    leaderboards: [
      {
        id: 'lb-week',
        name: 'Weekly stars',
        metric: { type: 'points', category: 'Points' },
        period: 'week',
        size: 5,
        prizes: [
          { ranks: '1', rewards: { points: [{ category: 'Points', amount: 100 }], badge: 'b-champ' } },
          { ranks: '2-3', rewards: { points: [{ category: 'Points', amount: 10 }] } },
        ],
      },
      ...boards,
    ],
  };
}

/** The users of the prize tests: id, first name, last name. */
export const PRIZE_USERS = [
  ['ann', 'Ann', 'Lee'],
  ['bob', 'Bob', 'Stone'],
  ['cat', 'Cat', 'Ng'],
] as const;

/** A fresh copy of the example program. */
export function exampleProgram<T = Record<string, unknown>>(): T {
  return JSON.parse(readFileSync(EXAMPLE_PROGRAM_PATH, 'utf8')) as T;
}
