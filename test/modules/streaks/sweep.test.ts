// The streak sweep on both stores (docs/streaks.md#webhooks): who is owed streak.frozen and
// streak.broken once a period ends without an action, also when the user acted again before the
// sweep reached them; a user whose notices fail is reported and skipped; a node sweeps a site's
// streak again only once a period ended, and reads only users not announced yet.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LedgerRepository } from '../../../src/modules/ledger/repository.js';
import { StreaksRepository } from '../../../src/modules/streaks/repository.js';
import { StreakService } from '../../../src/modules/streaks/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';

/** s-read: daily, no freezes. */
const program = {
  site: { name: 'Sweep', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read' }],
  streaks: [{ id: 's-read', name: 'Reading', action: 'read', period: 'day' }],
};

describe.each(configurations)('streak sweep (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let app: string;
  let now = Date.parse('2026-03-01T00:00:00Z');

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => now, config: { tokenTtlSeconds: 365 * 86_400 } });
    site = await t.createSite();
    app = await t.token(site.app);
    const response = await t.app.inject({
      method: 'PUT',
      url: '/admin/program',
      headers: { authorization: `Bearer ${await t.token(site.admin)}` },
      payload: program,
    });
    expect(response.statusCode, response.body).toBe(200);
  });
  afterAll(async () => t.close());

  const log = async (user: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/users/${user}/actions`,
      headers: { authorization: `Bearer ${app}` },
      payload: { action: 'read' },
    });
    expect(response.statusCode, response.body).toBe(201);
  };
  /** The notices recorded for the user: [kind, missed period's first day]. */
  const notices = async (user: string) =>
    (
      await t.database.db
        .selectFrom('streak_notices')
        .select(['kind', 'period'])
        .where('site_id', '=', site.siteId)
        .where('user_id', '=', user)
        .orderBy('period')
        .execute()
    ).map((row) => [row.kind, Number(row.period)]);
  const day = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

  it('sends streak.broken to a user who acted after the period ended, before the sweep reached them', async () => {
    now = Date.parse('2026-03-09T14:00:00Z'); // Monday 10:00 in New York
    await log('ann');
    await log('bob');
    // Tuesday missed. Wednesday 00:00:30: ann acts again before the sweep runs.
    now = Date.parse('2026-03-11T04:00:30Z');
    await log('ann');
    now = Date.parse('2026-03-11T04:01:00Z');
    expect(await t.app.services.streaks.sweep(now)).toBe(2);
    expect(await notices('bob')).toEqual([['broken', day('2026-03-10')]]);
    expect(await notices('ann')).toEqual([['broken', day('2026-03-10')]]);
  });

  /** A node's streak service of its own, reporting its errors to `onError`. */
  const node = (onError: (error: unknown) => void) =>
    new StreakService(t.database, new LedgerRepository(t.database.dialect), t.app.services.programs, () => now, { sweepIntervalMs: 60_000, onError });

  it('a user whose notices fail is reported and skipped; the others get theirs, and the next round retries', async () => {
    now = Date.parse('2026-04-06T14:00:00Z'); // Monday 10:00 in New York
    await log('cal');
    await log('dan');
    now = Date.parse('2026-04-08T14:00:00Z'); // Wednesday: Tuesday missed
    const write = LedgerRepository.prototype.write;
    const failing = vi.spyOn(LedgerRepository.prototype, 'write').mockImplementation(function (this: LedgerRepository, ...args) {
      if (args[1].parties.some((party) => party.id === 'cal')) throw new Error('cal cannot be written');
      return write.apply(this, args);
    });
    const errors: unknown[] = [];
    const sweeper = node((error) => errors.push(error));
    try {
      expect(await sweeper.sweep(now)).toBe(1);
    } finally {
      failing.mockRestore();
    }
    expect(errors).toEqual([expect.objectContaining({ message: 'cal cannot be written' })]);
    expect(await notices('dan')).toEqual([['broken', day('2026-04-07')]]);
    expect(await notices('cal')).toEqual([]);
    expect(await sweeper.sweep(now + 60_000)).toBe(1);
    expect(await notices('cal')).toEqual([['broken', day('2026-04-07')]]);
  });

  it('a second round in the same period reads no streak days; users announced already are not read again', async () => {
    now = Date.parse('2026-05-04T14:00:00Z'); // Monday 10:00 in New York
    await log('eli');
    now = Date.parse('2026-05-06T14:00:00Z'); // Wednesday: Tuesday missed
    const candidates = vi.spyOn(StreaksRepository.prototype, 'lastDaysBetween');
    const days = vi.spyOn(StreaksRepository.prototype, 'days');
    try {
      const sweeper = node((error) => {
        throw error;
      });
      await sweeper.sweep(now);
      expect(await notices('eli')).toEqual([['broken', day('2026-05-05')]]);
      expect(candidates).toHaveBeenCalled();
      candidates.mockClear();
      days.mockClear();
      // The same period: nothing is read.
      expect(await sweeper.sweep(now + 60_000)).toBe(0);
      expect(candidates).not.toHaveBeenCalled();
      expect(days).not.toHaveBeenCalled();
      // Another node's first round reads the candidates, but not eli, who was announced.
      expect(await node(() => {}).sweep(now + 120_000)).toBe(0);
      expect(candidates).toHaveBeenCalled();
      expect(days).not.toHaveBeenCalled();
      // The next period: the first node sweeps again.
      candidates.mockClear();
      expect(await sweeper.sweep(now + 24 * 3_600_000)).toBe(0);
      expect(candidates).toHaveBeenCalled();
    } finally {
      candidates.mockRestore();
      days.mockRestore();
    }
  });
});
