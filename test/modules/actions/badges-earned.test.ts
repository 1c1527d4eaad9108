// The badges an action earned, in its answer (docs/actions.md), through the HTTP stack on both
// stores: a completed mission's badge (id, name, icon), a group mission's (groupId) and a streak
// milestone's, none for an action that earns nothing, the same badges for a repeated eventId (none
// for an event stored before the list existed), a dry run's without awarding them; the quiz's and
// the recognition's answers say the badges of the action they log; and no caller sees another
// user's or another site's badges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionOutcome } from '../../../src/modules/actions/service.js';
import type { RecordedAnswer } from '../../../src/modules/quizzes/service.js';
import type { GivenRecognition } from '../../../src/modules/recognitions/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { body, caller } from '../../helpers/http.js';
import { expectProblem } from '../../helpers/problem.js';

const DAY = 86_400_000;
const ICON = 'https://cdn.acme.example/badges/reader.png';

const program = {
  site: { name: 'Badges', timezone: 'UTC' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read', clientLoggable: true }, { name: 'other' }, { name: 'team' }],
  groups: [{ id: 'g-team', name: 'Team' }],
  badges: [
    { id: 'b-reader', name: 'Reader', iconUrl: ICON },
    { id: 'b-two', name: 'Two days running' },
    { id: 'b-quiz', name: 'Quiz whiz' },
    { id: 'b-giver', name: 'Generous' },
    { id: 'b-thanked', name: 'Thanked' },
    { id: 'b-team', name: 'Team spirit' },
  ],
  missions: [
    {
      id: 'm-first-read',
      name: 'First read',
      rules: [{ id: 'r-1', action: 'read', type: 'count', goal: 1 }],
      rewards: { points: [{ category: 'Points', amount: 10 }], badge: 'b-reader' },
    },
    {
      id: 'm-other',
      name: 'Other',
      rules: [{ id: 'r-1', action: 'other', type: 'count', goal: 1 }],
      rewards: { points: [{ category: 'Points', amount: 5 }] },
      repeatableWindow: { period: 'none', maxPerPeriod: 1000 },
    },
    { id: 'm-team', name: 'Team', party: 'group', rules: [{ id: 'r-1', action: 'team', type: 'count', goal: 1 }], rewards: { badge: 'b-team' } },
    { id: 'm-quiz', name: 'Quiz', rules: [{ id: 'r-1', action: 'QUIZ_COMPLETED', type: 'count', goal: 1 }], rewards: { badge: 'b-quiz' } },
    { id: 'm-give', name: 'Give', rules: [{ id: 'r-1', action: 'RECOGNITION_GIVEN', type: 'count', goal: 1 }], rewards: { badge: 'b-giver' } },
    { id: 'm-thanked', name: 'Thanked', rules: [{ id: 'r-1', action: 'RECOGNITION_RECEIVED', type: 'count', goal: 1 }], rewards: { badge: 'b-thanked' } },
  ],
  streaks: [{ id: 's-read', name: 'Daily reading', action: 'read', period: 'day', milestones: [{ length: 2, rewards: { badge: 'b-two' } }] }],
  quizzes: [
    {
      id: 'q-one',
      name: 'One question',
      questions: [
        {
          id: 'q-1',
          text: 'Yes?',
          type: 'single',
          choices: [
            { id: 'yes', text: 'Yes', correct: true },
            { id: 'no', text: 'No' },
          ],
        },
      ],
    },
  ],
  exchanges: [
    { id: 'x-kudos', name: 'Kudos', pointCategory: 'Points', budget: { amount: 100, period: 'month' }, categories: [{ id: 'c-thanks', name: 'Thanks' }] },
  ],
};

interface Ctx {
  site: TestSite;
  admin: string;
  app: string;
}

describe.each(configurations)('badges earned by an action (%s)', (configuration) => {
  let t: TestApp;
  // Noon UTC on 2026-06-15; the streak test moves it a day on.
  let now = Date.parse('2026-06-15T12:00:00Z');

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => now, config: { tokenTtlSeconds: 30 * 86_400, clientRate: { rate: 100_000, burst: 100_000 } } });
  });
  afterAll(async () => {
    await t.close();
  });

  const call = caller(() => t);
  const setUp = async (): Promise<Ctx> => {
    const site = await t.createSite();
    const c = { site, admin: await t.token(site.admin), app: await t.token(site.app) };
    body(await call('PUT', '/admin/program', c.admin, program));
    return c;
  };
  const log = async (c: Ctx, user: string, payload: Record<string, unknown>, status = 201, token = c.app) =>
    body<ActionOutcome>(await call('POST', `/users/${user}/actions`, token, payload), status);
  const trophies = async (c: Ctx, user: string) =>
    body<Array<{ id: string; earnedCount: number }>>(await call('GET', `/users/${user}/badges`, c.app)).map((b) => `${b.id}×${b.earnedCount}`);
  const reader = (userId: string) => ({ id: 'b-reader', name: 'Reader', iconUrl: ICON, userId });

  it("answers a completed mission's badge with its name and icon, and [] for an action that earns none", async () => {
    const c = await setUp();
    const first = await log(c, 'ann', { action: 'read' });
    expect(first.missionsCompleted.map((m) => m.id)).toEqual(['m-first-read']);
    expect(first.badgesEarned).toEqual([reader('ann')]);
    expect(await trophies(c, 'ann')).toEqual(['b-reader×1']);

    // A mission completed with points only, and a read on the same day: no badge.
    const other = await log(c, 'ann', { action: 'other' });
    expect(other.missionsCompleted.map((m) => m.id)).toEqual(['m-other']);
    expect(other.badgesEarned).toEqual([]);
    expect((await log(c, 'ann', { action: 'read' })).badgesEarned).toEqual([]);
    // Not recorded (a group's own action with no mission: still the field, empty).
    expect(body<ActionOutcome>(await call('POST', '/groups/g-1/actions', c.app, { action: 'other' }), 201).badgesEarned).toEqual([]);
  });

  it('answers a repeated eventId with the badges of the first time; an event stored without the list, with none', async () => {
    const c = await setUp();
    const first = await log(c, 'bob', { action: 'read', eventId: 'e-bob-1' });
    expect(first.badgesEarned).toEqual([reader('bob')]);
    const again = await log(c, 'bob', { action: 'read', eventId: 'e-bob-1' }, 200);
    expect(again).toEqual({ ...first, duplicate: true });
    expect(await trophies(c, 'bob')).toEqual(['b-reader×1']);

    // An outcome stored before `badgesEarned` existed.
    const stored = await t.database.db
      .selectFrom('action_events')
      .select('outcome')
      .where('site_id', '=', c.site.siteId)
      .where('event_id', '=', 'e-bob-1')
      .executeTakeFirstOrThrow();
    const { badgesEarned: _dropped, ...old } = JSON.parse(stored.outcome) as ActionOutcome;
    await t.database.db
      .updateTable('action_events')
      .set({ outcome: JSON.stringify(old) })
      .where('site_id', '=', c.site.siteId)
      .where('event_id', '=', 'e-bob-1')
      .execute();
    const older = await log(c, 'bob', { action: 'read', eventId: 'e-bob-1' }, 200);
    expect(older.badgesEarned).toEqual([]);
    expect(older.missionsCompleted).toEqual(first.missionsCompleted);
  });

  it('answers a dry run with the badges it would award, awarding none', async () => {
    const c = await setUp();
    const preview = body<ActionOutcome>(await call('POST', '/users/dan/actions?dryRun=true', c.app, { action: 'read' }), 201);
    expect(preview.badgesEarned).toEqual([reader('dan')]);
    expect(await trophies(c, 'dan')).toEqual([]);
    expect((await log(c, 'dan', { action: 'read' })).badgesEarned).toEqual([reader('dan')]);
  });

  it("answers a group's badge, with its groupId, when a member's action completes the group's mission", async () => {
    const c = await setUp();
    body(await call('PUT', '/admin/groups/g-team/members/hal', c.admin), 201);
    const own = await t.token(c.site.app, 'hal');
    expect((await log(c, 'hal', { action: 'team' })).badgesEarned).toEqual([{ id: 'b-team', name: 'Team spirit', groupId: 'g-team' }]);
    // Completed once: the next member's action earns nothing, whoever's token logs it.
    expect((await log(c, 'hal', { action: 'read' }, 201, own)).badgesEarned).toEqual([reader('hal')]);
    expect((await log(c, 'hal', { action: 'team' })).badgesEarned).toEqual([]);
  });

  it("answers a streak milestone's badge (with the mission's, in the order earned)", async () => {
    const c = await setUp();
    now = Date.parse('2026-06-15T12:00:00Z');
    expect((await log(c, 'eve', { action: 'read' })).badgesEarned).toEqual([reader('eve')]);
    now += DAY;
    const second = await log(c, 'eve', { action: 'read' });
    expect(second.streaksExtended?.map((s) => s.current)).toEqual([2]);
    expect(second.badgesEarned).toEqual([{ id: 'b-two', name: 'Two days running', userId: 'eve' }]);
    expect(await trophies(c, 'eve')).toEqual(expect.arrayContaining(['b-reader×1', 'b-two×1']));
    now -= DAY;
  });

  it("lets a user-level token see its own badges, and no one else's: another user's, another site's, no token", async () => {
    const c = await setUp();
    const own = await t.token(c.site.app, 'fay');
    expect((await log(c, 'fay', { action: 'read' }, 201, own)).badgesEarned).toEqual([reader('fay')]);
    // A repeated eventId for another user is refused without a word about the first use.
    await log(c, 'fay', { action: 'read', eventId: 'e-fay' }, 201, own);
    expectProblem(await call('POST', '/users/gus/actions', c.app, { action: 'read', eventId: 'e-fay' }), 409, 'event_id_conflict');
    expectProblem(await call('POST', '/users/gus/actions', own, { action: 'read' }), 403, 'forbidden');
    expectProblem(await call('POST', '/users/fay/actions', undefined, { action: 'read' }), 401, 'missing_token');
    // Another site's token logs on its own site, which has no such action: nothing of this one.
    const other = await t.createSite();
    expectProblem(await call('POST', '/users/fay/actions', await t.token(other.app), { action: 'read', eventId: 'e-fay' }), 422, 'unknown_action');
    expect(await trophies(c, 'gus')).toEqual([]);
  });

  it("answers the badges of the QUIZ_COMPLETED a quiz's last answer logs", async () => {
    const c = await setUp();
    const answered = body<RecordedAnswer>(await call('POST', '/users/ann/quizzes/q-one/questions/q-1/responses', c.app, { choiceIds: ['yes'] }), 201);
    expect(answered.result?.badgesEarned).toEqual([{ id: 'b-quiz', name: 'Quiz whiz', userId: 'ann' }]);
  });

  it("answers a recognition with the giver's badges, not the recipient's", async () => {
    const c = await setUp();
    body(await call('PUT', '/users/bob/preferences', c.app, { firstName: 'Bob', lastName: 'Stone' }));
    const given = body<GivenRecognition>(
      await call('POST', '/users/ann/interactions-collection', c.app, {
        exchangeId: 'x-kudos',
        categoryId: 'c-thanks',
        recipients: ['bob'],
        points: 5,
        comment: 'Thanks!',
      }),
      201,
    );
    expect(given.badgesEarned).toEqual([{ id: 'b-giver', name: 'Generous', userId: 'ann' }]);
    expect(await trophies(c, 'bob')).toEqual(['b-thanked×1']);
  });
});
