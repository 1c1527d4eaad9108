// `questline verify` on recognitions (SPEC §9, §12): each giver's budget use per exchange and
// calendar window is recomputed from the gifts charged to it, and each recipient's amount must be
// credited once to them through the points ledger. Gifts leave no drift; each kind of tampering
// (a budget's use changed, a budget row deleted or made up, a gift's ledger credit changed,
// deleted or made up) is reported with the giver or recipient it concerns, and undoing it makes the
// site clean again.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/cli/index.js';
import type { GivenRecognition } from '../../../src/modules/recognitions/service.js';
import { VerifyService, type Drift, type VerifyReport } from '../../../src/modules/verify/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { capture } from '../../helpers/cli.js';
import { expectBalancesMatchLedger } from '../../helpers/ledger.js';

// Noon in New York on 2026-06-15; the app's clock stays where a test puts it.
const START = Date.parse('2026-06-15T16:00:00Z');
/** The June budget window of a monthly budget in New York. */
const JUNE = Date.parse('2026-06-01T04:00:00Z');
const JULY = Date.parse('2026-07-01T04:00:00Z');

const program = {
  site: { name: 'Verify recognitions', timezone: 'America/New_York' },
  pointCategories: [{ name: 'Points', isDefault: true }, { name: 'Kudos' }],
  exchanges: [
    {
      id: 'x-kudos',
      name: 'Kudos',
      pointCategory: 'Points',
      budget: { amount: 100, period: 'month' },
      maxPoints: 50,
      categories: [{ id: 'c-thanks', name: 'Thanks' }],
    },
    { id: 'x-forever', name: 'Forever', pointCategory: 'Kudos', budget: { amount: 50, period: 'none' }, categories: [{ id: 'c-thanks', name: 'Thanks' }] },
  ],
};

describe.each(configurations)('verify recognitions (%s)', (configuration) => {
  let t: TestApp;
  let now = START;
  let site: TestSite;
  let admin: string;
  let client: string;
  const gifts: GivenRecognition[] = [];

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload !== undefined ? { payload } : {}) });
  const body = <T>(response: LightMyRequestResponse, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return (response.json() as { response: T }).response;
  };
  const give = async (giver: string, gift: Record<string, unknown>, token = client) => {
    const given = body<GivenRecognition>(await call('POST', `/users/${giver}/interactions-collection`, token, gift), 201);
    gifts.push(given);
    return given;
  };
  const db = () => t.database.db;
  const verify = (siteIds: string[] = [site.siteId]): Promise<VerifyReport> => new VerifyService(db(), t.app.services.programs).verify(siteIds);
  const expectClean = async () => {
    await expectBalancesMatchLedger(db(), site.siteId);
    expect((await verify()).drift).toEqual([]);
  };
  /** Verifying the site reports exactly these drifts. */
  const expectDrift = async (...drift: Array<Omit<Drift, 'siteId'>>) => {
    expect((await verify()).drift).toEqual(drift.map((d) => ({ siteId: site.siteId, ...d })));
  };
  const budgetRow = (exchange: string, giver: string, windowStart: number) =>
    db()
      .selectFrom('recognition_budgets')
      .selectAll()
      .where('site_id', '=', site.siteId)
      .where('exchange_id', '=', exchange)
      .where('giver_id', '=', giver)
      .where('window_start', '=', windowStart)
      .executeTakeFirstOrThrow();
  const setUsed = (exchange: string, giver: string, windowStart: number, used: number) =>
    db()
      .updateTable('recognition_budgets')
      .set({ used })
      .where('site_id', '=', site.siteId)
      .where('exchange_id', '=', exchange)
      .where('giver_id', '=', giver)
      .where('window_start', '=', windowStart)
      .execute();
  const credit = (recognitionId: string, recipient: string) =>
    db()
      .selectFrom('points_ledger')
      .selectAll()
      .where('site_id', '=', site.siteId)
      .where('cause', '=', 'recognition')
      .where('cause_id', '=', recognitionId)
      .where('party_id', '=', recipient)
      .executeTakeFirstOrThrow();
  const setCredited = (entryId: string, credited: number) =>
    db().updateTable('points_ledger').set({ credited }).where('site_id', '=', site.siteId).where('entry_id', '=', entryId).execute();
  const balance = async (user: string, category: string) =>
    Number(
      (
        await db()
          .selectFrom('point_balances')
          .select('balance')
          .where('site_id', '=', site.siteId)
          .where('party_id', '=', user)
          .where('category', '=', category)
          .executeTakeFirstOrThrow()
      ).balance,
    );

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => now, config: { clientRate: { rate: 100_000, burst: 100_000 } } });
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    body(await call('PUT', '/admin/program', admin, program));
    for (const user of ['ann', 'bob', 'carol']) body(await call('PUT', `/users/${user}/preferences`, client, { firstName: user }));
    // ann: 10 in x-kudos (5 each to bob and carol) and 3 in x-forever; bob: 10 in x-kudos; carol: 6 in x-kudos.
    await give('ann', { exchangeId: 'x-kudos', categoryId: 'c-thanks', recipients: ['bob', 'carol'], points: 5 });
    now += 1000;
    await give('bob', { exchangeId: 'x-kudos', categoryId: 'c-thanks', recipients: ['ann'], points: 10 });
    now += 1000;
    await give('ann', { exchangeId: 'x-forever', categoryId: 'c-thanks', recipients: ['bob'], points: 3 });
    now += 1000;
    await give('carol', { exchangeId: 'x-kudos', categoryId: 'c-thanks', recipientPoints: { ann: 2, bob: 4 } });
  });
  afterAll(async () => t.close());

  it('finds no drift after gifts, and the budgets and credits it checks are there', async () => {
    await expectClean();
    expect(Number((await budgetRow('x-kudos', 'ann', JUNE)).used)).toBe(10);
    expect(Number((await budgetRow('x-kudos', 'bob', JUNE)).used)).toBe(10);
    expect(Number((await budgetRow('x-kudos', 'carol', JUNE)).used)).toBe(6);
    expect(Number((await budgetRow('x-forever', 'ann', 0)).used)).toBe(3);
    expect(Number((await credit(gifts[0]?.id as string, 'bob')).credited)).toBe(5);
    expect(await balance('bob', 'Points')).toBe(9);
    expect(await balance('bob', 'Kudos')).toBe(3);
    expect(await balance('ann', 'Points')).toBe(12);
  });

  it("reports a changed budget use as a 'budget' drift naming the giver and the period", async () => {
    await setUsed('x-kudos', 'ann', JUNE, 12);
    try {
      await expectDrift({
        check: 'budget',
        subject: 'user:ann',
        detail: 'x-kudos budget used in the period from 2026-06-01T04:00:00.000Z',
        expected: 10,
        actual: 12,
      });
    } finally {
      await setUsed('x-kudos', 'ann', JUNE, 10);
    }
    await setUsed('x-forever', 'ann', 0, 0);
    try {
      await expectDrift({ check: 'budget', subject: 'user:ann', detail: 'x-forever budget used in all time', expected: 3, actual: 0 });
    } finally {
      await setUsed('x-forever', 'ann', 0, 3);
    }
    await expectClean();
  });

  it('reports a deleted budget row with actual null', async () => {
    const row = await budgetRow('x-kudos', 'bob', JUNE);
    await db()
      .deleteFrom('recognition_budgets')
      .where('site_id', '=', site.siteId)
      .where('exchange_id', '=', 'x-kudos')
      .where('giver_id', '=', 'bob')
      .execute();
    try {
      await expectDrift({
        check: 'budget',
        subject: 'user:bob',
        detail: 'x-kudos budget used in the period from 2026-06-01T04:00:00.000Z (no row)',
        expected: 10,
        actual: null,
      });
    } finally {
      await db().insertInto('recognition_budgets').values(row).execute();
    }
    await expectClean();
  });

  it('reports a budget row without gifts', async () => {
    await db()
      .insertInto('recognition_budgets')
      .values({ site_id: site.siteId, exchange_id: 'x-kudos', giver_id: 'dave', window_start: JUNE, used: 7 })
      .execute();
    try {
      await expectDrift({
        check: 'budget',
        subject: 'user:dave',
        detail: 'x-kudos budget used in the period from 2026-06-01T04:00:00.000Z',
        expected: 0,
        actual: 7,
      });
    } finally {
      await db().deleteFrom('recognition_budgets').where('site_id', '=', site.siteId).where('giver_id', '=', 'dave').execute();
    }
    await expectClean();
  });

  it("reports a changed gift credit as a 'recognition_points' drift, with the balance it no longer matches", async () => {
    const gift = gifts[0] as GivenRecognition;
    const entry = await credit(gift.id, 'bob');
    await setCredited(entry.entry_id, 8);
    try {
      await expectDrift(
        { check: 'balance', subject: 'user:bob', detail: 'Points balance', expected: 12, actual: 9 },
        { check: 'lifetime', subject: 'user:bob', detail: 'Points lifetime points', expected: 12, actual: 9 },
        { check: 'recognition_points', subject: 'user:bob', detail: `points received in ${gift.id}`, expected: 5, actual: 8 },
      );
    } finally {
      await setCredited(entry.entry_id, 5);
    }
    await expectClean();
  });

  it('reports a deleted gift credit with actual null', async () => {
    const gift = gifts[0] as GivenRecognition;
    const entry = await credit(gift.id, 'carol');
    await db().deleteFrom('points_ledger').where('site_id', '=', site.siteId).where('entry_id', '=', entry.entry_id).execute();
    try {
      await expectDrift(
        { check: 'balance', subject: 'user:carol', detail: 'Points balance', expected: 0, actual: 5 },
        { check: 'lifetime', subject: 'user:carol', detail: 'Points lifetime points', expected: 0, actual: 5 },
        { check: 'recognition_points', subject: 'user:carol', detail: `points received in ${gift.id}`, expected: 5, actual: null },
      );
    } finally {
      await db().insertInto('points_ledger').values(entry).execute();
    }
    await expectClean();
  });

  it('reports a gift credit to someone the gift did not name', async () => {
    const gift = gifts[1] as GivenRecognition;
    const entry = { ...(await credit(gift.id, 'ann')), entry_id: 'pts_forged', party_id: 'dave', credited: 4, requested: 4 };
    await db().insertInto('points_ledger').values(entry).execute();
    try {
      await expectDrift(
        { check: 'balance', subject: 'user:dave', detail: 'Points balance (no balance row)', expected: 4, actual: null },
        { check: 'recognition_points', subject: 'user:dave', detail: `points credited for ${gift.id}, which gave them none`, expected: 0, actual: 4 },
      );
    } finally {
      await db().deleteFrom('points_ledger').where('site_id', '=', site.siteId).where('entry_id', '=', 'pts_forged').execute();
    }
    await expectClean();
  });

  it('reports a deleted gift as budget drift of its giver and credits it never gave', async () => {
    const gift = gifts[3] as GivenRecognition;
    const recognition = await db()
      .selectFrom('recognitions')
      .selectAll()
      .where('site_id', '=', site.siteId)
      .where('recognition_id', '=', gift.id)
      .executeTakeFirstOrThrow();
    const recipients = await db()
      .selectFrom('recognition_recipients')
      .selectAll()
      .where('site_id', '=', site.siteId)
      .where('recognition_id', '=', gift.id)
      .execute();
    await db().deleteFrom('recognition_recipients').where('site_id', '=', site.siteId).where('recognition_id', '=', gift.id).execute();
    await db().deleteFrom('recognitions').where('site_id', '=', site.siteId).where('recognition_id', '=', gift.id).execute();
    try {
      const report = await verify();
      expect(report.drift).toEqual(
        expect.arrayContaining([
          {
            siteId: site.siteId,
            check: 'budget',
            subject: 'user:carol',
            detail: 'x-kudos budget used in the period from 2026-06-01T04:00:00.000Z',
            expected: 0,
            actual: 6,
          },
          {
            siteId: site.siteId,
            check: 'recognition_points',
            subject: 'user:ann',
            detail: `points credited for ${gift.id}, which gave them none`,
            expected: 0,
            actual: 2,
          },
          {
            siteId: site.siteId,
            check: 'recognition_points',
            subject: 'user:bob',
            detail: `points credited for ${gift.id}, which gave them none`,
            expected: 0,
            actual: 4,
          },
        ]),
      );
      expect(report.drift).toHaveLength(3);
    } finally {
      await db().insertInto('recognitions').values(recognition).execute();
      await db().insertInto('recognition_recipients').values(recipients).execute();
    }
    await expectClean();
  });

  it('keeps one budget per period: a gift in the next month is clean, and a drift names its period', async () => {
    now = Date.parse('2026-07-02T12:00:00Z');
    const token = await t.token(site.app);
    try {
      await give('ann', { exchangeId: 'x-kudos', categoryId: 'c-thanks', recipients: ['carol'], points: 20 }, token);
      expect(Number((await budgetRow('x-kudos', 'ann', JULY)).used)).toBe(20);
      expect(Number((await budgetRow('x-kudos', 'ann', JUNE)).used)).toBe(10);
      await expectClean();

      await setUsed('x-kudos', 'ann', JULY, 19);
      try {
        await expectDrift({
          check: 'budget',
          subject: 'user:ann',
          detail: 'x-kudos budget used in the period from 2026-07-01T04:00:00.000Z',
          expected: 20,
          actual: 19,
        });
      } finally {
        await setUsed('x-kudos', 'ann', JULY, 20);
      }
      await expectClean();
    } finally {
      now = START;
    }
  });

  it("verifies each site on its own: another site's tampering is not this site's drift", async () => {
    const other = await t.createSite();
    const otherAdmin = await t.token(other.admin);
    const otherClient = await t.token(other.app);
    body(await call('PUT', '/admin/program', otherAdmin, program));
    body(await call('PUT', '/users/bob/preferences', otherClient, { firstName: 'bob' }));
    body(
      await call('POST', '/users/ann/interactions-collection', otherClient, { exchangeId: 'x-kudos', categoryId: 'c-thanks', recipients: ['bob'], points: 1 }),
      201,
    );
    await db().updateTable('recognition_budgets').set({ used: 50 }).where('site_id', '=', other.siteId).execute();
    try {
      expect((await verify()).drift).toEqual([]);
      expect((await verify([other.siteId])).drift).toEqual([
        {
          siteId: other.siteId,
          check: 'budget',
          subject: 'user:ann',
          detail: 'x-kudos budget used in the period from 2026-06-01T04:00:00.000Z',
          expected: 1,
          actual: 50,
        },
      ]);
      const both = await verify([site.siteId, other.siteId]);
      expect(both.sites).toBe(2);
      expect(both.drift.map((d) => [d.siteId, d.check])).toEqual([[other.siteId, 'budget']]);
    } finally {
      await db().updateTable('recognition_budgets').set({ used: 1 }).where('site_id', '=', other.siteId).execute();
    }
    expect((await verify([other.siteId])).drift).toEqual([]);
  });

  it('prints a budget drift as a DRIFT line and exits 1 through the CLI', async () => {
    await setUsed('x-kudos', 'carol', JUNE, 9);
    try {
      const { printed, out } = capture(false);
      expect(await run(['verify', '--site', site.siteId], t.config, out)).toBe(1);
      const human = printed[0]?.human ?? '';
      expect(human.split('\n').filter((line) => line.startsWith('DRIFT'))).toEqual([
        `DRIFT ${site.siteId} budget user:carol: x-kudos budget used in the period from 2026-06-01T04:00:00.000Z: expected 6, found 9`,
      ]);
    } finally {
      await setUsed('x-kudos', 'carol', JUNE, 6);
    }
    const { out } = capture(false);
    expect((await run(['verify', '--site', site.siteId], t.config, out)) ?? 0).toBe(0);
  });
});
