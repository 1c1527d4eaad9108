// Quizzes (SPEC §10): GET /users/{u}/quizzes (the quizzes open now with the user's status,
// attempts and best score), GET …/questions (in program order, never revealing which choices are
// correct), POST …/questions/{q}/responses (one answer per question per attempt; the answer that
// completes an attempt scores it and logs QUIZ_COMPLETED through the engine, so missions can reward
// quizzes), GET …/responses (the user's answers per attempt with their correctness).
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PastAnswer, QuizSummary, RecordedAnswer } from '../../../src/modules/quizzes/service.js';
import { VerifyService } from '../../../src/modules/verify/service.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../../helpers/app.js';
import { exampleProgram } from '../../helpers/fixtures.js';
import { expectBalancesMatchLedger } from '../../helpers/ledger.js';

// Noon in New York on Monday 2026-06-15.
const START = Date.parse('2026-06-15T16:00:00Z');
const LA = 'America/Los_Angeles';
const NY = 'America/New_York';

const yesNo = (id: string) => ({
  id,
  text: `${id}?`,
  type: 'single',
  choices: [
    { id: 'yes', text: 'Yes', correct: true },
    { id: 'no', text: 'No' },
  ],
});

/** Quiz X: three questions, 60% to pass (2 of 3), three attempts; a mission rewards passing it. */
const quizX = {
  id: 'q-x',
  name: 'Quiz X',
  description: 'Three questions',
  passingPercent: 60,
  maxAttempts: 3,
  questions: [
    {
      id: 'x-1',
      text: 'Which is first?',
      type: 'single',
      choices: [
        { id: 'a', text: 'A', correct: true },
        { id: 'b', text: 'B' },
      ],
    },
    {
      id: 'x-2',
      text: 'Which are safe?',
      type: 'multiple',
      choices: [
        { id: 'a', text: 'A', correct: true },
        { id: 'b', text: 'B', correct: true },
        { id: 'c', text: 'C' },
      ],
    },
    // The correct choice is listed first here, the choices are not in id order.
    {
      id: 'x-3',
      text: 'Which is last?',
      type: 'single',
      choices: [
        { id: 'c', text: 'C', correct: true },
        { id: 'a', text: 'A' },
        { id: 'b', text: 'B' },
      ],
    },
  ],
};

const program = {
  site: { name: 'Quizzes', timezone: 'UTC' },
  pointCategories: [{ name: 'Points', isDefault: true }],
  actions: [{ name: 'read' }],
  missions: [
    {
      id: 'm-pass-x',
      name: 'Pass X',
      rules: [
        {
          id: 'r-1',
          action: 'QUIZ_COMPLETED',
          type: 'count',
          goal: 1,
          metadata: [
            { name: 'quiz_id', value: 'q-x' },
            { name: 'passed', value: 'true' },
          ],
        },
      ],
      rewards: { points: [{ category: 'Points', amount: 50 }] },
    },
  ],
  quizzes: [
    quizX,
    // One question, two attempts, 100% to pass.
    { id: 'q-once', name: 'Once', maxAttempts: 2, questions: [yesNo('o-1')] },
    // Unlimited attempts, 100% to pass.
    {
      id: 'q-free',
      name: 'Free',
      questions: [
        yesNo('f-1'),
        {
          id: 'f-2',
          text: 'Pick the even ones',
          type: 'multiple',
          choices: [
            { id: 'one', text: '1' },
            { id: 'two', text: '2', correct: true },
            { id: 'four', text: '4', correct: true },
          ],
        },
      ],
    },
    // 2 of 3 shows as 66.67 but is below 66.67.
    { id: 'q-thirds', name: 'Thirds', passingPercent: 66.67, questions: [yesNo('t-1'), yesNo('t-2'), yesNo('t-3')] },
    // Dates: now is 16:00Z = 12:00 in New York = 01:00 on the 16th in Tokyo.
    { id: 'q-past', name: 'Past', startDate: '2026-05-01T00:00:00', endDate: '2026-06-01T00:00:00', timezone: 'UTC', questions: [yesNo('p-1')] },
    { id: 'q-future', name: 'Future', startDate: '2026-07-01T00:00:00', timezone: 'UTC', questions: [yesNo('u-1')] },
    // Until 16:30Z: open now (in UTC it would have ended at 12:30Z).
    { id: 'q-ny-ends', name: 'NY ends', endDate: '2026-06-15T12:30:00', timezone: NY, questions: [yesNo('ne-1')] },
    { id: 'q-utc-ended', name: 'UTC ended', endDate: '2026-06-15T12:30:00', timezone: 'UTC', questions: [yesNo('ue-1')] },
    // From 16:30Z: not open yet (in UTC it would have started at 12:30Z).
    { id: 'q-ny-starts', name: 'NY starts', startDate: '2026-06-15T12:30:00', endDate: '2026-12-31T23:59:59', timezone: NY, questions: [yesNo('ns-1')] },
    // From 15:30Z on the 15th: open now (in UTC it would start tomorrow).
    { id: 'q-tokyo', name: 'Tokyo', startDate: '2026-06-16T00:30:00', timezone: 'Asia/Tokyo', questions: [yesNo('tk-1')] },
  ],
};
const ALWAYS_OPEN = ['q-x', 'q-once', 'q-free', 'q-thirds'];

interface Ctx {
  site: TestSite;
  admin: string;
  app: string;
}

type Result = NonNullable<RecordedAnswer['result']>;

describe.each(configurations)('quizzes (%s)', (configuration) => {
  let t: TestApp;
  let now = START;

  beforeAll(async () => {
    t = await buildTestApp(configuration, { clock: () => now, config: { clientRate: { rate: 100_000, burst: 100_000 } } });
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    now = START;
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: token !== undefined ? { authorization: `Bearer ${token}` } : {},
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  const body = <T>(response: LightMyRequestResponse, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status);
    return (response.json() as { response: T }).response;
  };
  const expectProblem = (response: LightMyRequestResponse, status: number, code: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toMatchObject({ status, code });
  };
  const setUp = async (document: Record<string, unknown> = program): Promise<Ctx> => {
    const site = await t.createSite();
    const ctx = { site, admin: await t.token(site.admin), app: await t.token(site.app) };
    body(await call('PUT', '/admin/program', ctx.admin, document));
    return ctx;
  };
  const answerUrl = (user: string, quiz: string, question: string) => `/users/${user}/quizzes/${quiz}/questions/${question}/responses`;
  /** POSTs an answer a second after the previous one. */
  const post = (c: Ctx, user: string, quiz: string, question: string, payload: unknown, token = c.app) => {
    now += 1_000;
    return call('POST', answerUrl(user, quiz, question), token, payload);
  };
  const answer = async (c: Ctx, user: string, quiz: string, question: string, choiceIds: string[], token = c.app) =>
    body<RecordedAnswer>(await post(c, user, quiz, question, { choiceIds }, token), 201);
  /** Answers every question of quiz X in one attempt; returns the completing answer's result. */
  const takeX = async (c: Ctx, user: string, answers: [string[], string[], string[]]) => {
    expect((await answer(c, user, 'q-x', 'x-1', answers[0])).result).toBeNull();
    expect((await answer(c, user, 'q-x', 'x-2', answers[1])).result).toBeNull();
    return (await answer(c, user, 'q-x', 'x-3', answers[2])).result as Result;
  };
  const list = async (c: Ctx, user: string, token = c.app) => body<QuizSummary[]>(await call('GET', `/users/${user}/quizzes`, token));
  const summary = async (c: Ctx, user: string, quiz: string) => (await list(c, user)).find((q) => q.id === quiz);
  const responses = async (c: Ctx, user: string, quiz: string, question: string) =>
    body<PastAnswer[]>(await call('GET', answerUrl(user, quiz, question), c.app));
  const balance = async (c: Ctx, user: string) => body<{ balance: number; lifetimeBalance: number }>(await call('GET', `/users/${user}/point-balance`, c.app));
  const count = async (c: Ctx, table: 'quiz_responses' | 'quiz_attempts' | 'mission_completions', user = 'ann') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('site_id', '=', c.site.siteId)
          .where(table === 'mission_completions' ? 'party_id' : 'user_id', '=', user)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const quizActions = async (c: Ctx, user: string) =>
    body<Array<{ eventId: string; action: string; value: number; metadata: Record<string, string>; timestamp: string }>>(
      await call('GET', `/users/${user}/actions?action=QUIZ_COMPLETED`, c.app),
    );
  /** The ledger and every derived total agree (questline verify finds no drift). */
  const expectConsistent = async (c: Ctx) => {
    await expectBalancesMatchLedger(t.database.db, c.site.siteId);
    expect((await new VerifyService(t.database.db, t.app.services.programs).verify([c.site.siteId])).drift).toEqual([]);
  };

  describe('GET /users/{u}/quizzes', () => {
    it('follows a user through not_started → in_progress → failed → in_progress → passed', async () => {
      const c = await setUp();
      const base = { id: 'q-x', name: 'Quiz X', description: 'Three questions', timezone: LA, passingPercent: 60, maxAttempts: 3, questionCount: 3 };
      expect(await summary(c, 'ann', 'q-x')).toEqual({
        ...base,
        status: 'not_started',
        attemptsUsed: 0,
        attemptsLeft: 3,
        bestScore: null,
        currentAttempt: null,
      });

      // Attempt 1: right, partial (wrong), wrong: 1 of 3.
      await answer(c, 'ann', 'q-x', 'x-1', ['a']);
      expect(await summary(c, 'ann', 'q-x')).toEqual({
        ...base,
        status: 'in_progress',
        attemptsUsed: 1,
        attemptsLeft: 2,
        bestScore: null,
        currentAttempt: { attempt: 1, answered: 1 },
      });
      await answer(c, 'ann', 'q-x', 'x-2', ['a']);
      expect(await summary(c, 'ann', 'q-x')).toMatchObject({ status: 'in_progress', currentAttempt: { attempt: 1, answered: 2 } });
      const failed = (await answer(c, 'ann', 'q-x', 'x-3', ['a'])).result;
      expect(failed).toMatchObject({ attempt: 1, totalCorrect: 1, totalQuestions: 3, percentCorrect: 33.33, passed: false });
      expect(await summary(c, 'ann', 'q-x')).toEqual({ ...base, status: 'failed', attemptsUsed: 1, attemptsLeft: 2, bestScore: 33.33, currentAttempt: null });

      // Attempt 2 starts with the next answer, in any question order: 2 of 3 passes at 60%.
      expect(await answer(c, 'ann', 'q-x', 'x-2', ['b', 'a'])).toMatchObject({ attempt: 2, correct: true, choiceIds: ['a', 'b'], result: null });
      expect(await summary(c, 'ann', 'q-x')).toEqual({
        ...base,
        status: 'in_progress',
        attemptsUsed: 2,
        attemptsLeft: 1,
        bestScore: 33.33,
        currentAttempt: { attempt: 2, answered: 1 },
      });
      await answer(c, 'ann', 'q-x', 'x-1', ['b']);
      const passed = (await answer(c, 'ann', 'q-x', 'x-3', ['c'])).result;
      expect(passed).toMatchObject({ attempt: 2, totalCorrect: 2, totalQuestions: 3, percentCorrect: 66.67, passed: true });
      expect(await summary(c, 'ann', 'q-x')).toEqual({ ...base, status: 'passed', attemptsUsed: 2, attemptsLeft: 1, bestScore: 66.67, currentAttempt: null });

      // Passed: no further attempt, and nothing changes.
      expectProblem(await post(c, 'ann', 'q-x', 'x-1', { choiceIds: ['a'] }), 422, 'quiz_already_passed');
      expect(await summary(c, 'ann', 'q-x')).toMatchObject({ status: 'passed', attemptsUsed: 2, attemptsLeft: 1 });
      expect(await count(c, 'quiz_responses')).toBe(6);
      expect(await count(c, 'quiz_attempts')).toBe(2);

      // Another user is untouched.
      expect(await summary(c, 'bob', 'q-x')).toMatchObject({ status: 'not_started', attemptsUsed: 0, attemptsLeft: 3, bestScore: null, currentAttempt: null });
      await expectConsistent(c);
    });

    it('keeps the best score, not the last one, and shows unlimited attempts as null', async () => {
      const c = await setUp();
      expect(await summary(c, 'ann', 'q-free')).toEqual({
        id: 'q-free',
        name: 'Free',
        timezone: LA,
        passingPercent: 100,
        maxAttempts: null,
        questionCount: 2,
        status: 'not_started',
        attemptsUsed: 0,
        attemptsLeft: null,
        bestScore: null,
        currentAttempt: null,
      });
      // 1 of 2, then 0 of 2: best stays 50.
      await answer(c, 'ann', 'q-free', 'f-1', ['yes']);
      expect((await answer(c, 'ann', 'q-free', 'f-2', ['two'])).result).toMatchObject({ percentCorrect: 50, passed: false });
      await answer(c, 'ann', 'q-free', 'f-1', ['no']);
      expect((await answer(c, 'ann', 'q-free', 'f-2', ['one', 'two', 'four'])).result).toMatchObject({ attempt: 2, percentCorrect: 0, passed: false });
      expect(await summary(c, 'ann', 'q-free')).toMatchObject({ status: 'failed', attemptsUsed: 2, attemptsLeft: null, bestScore: 50, currentAttempt: null });
      // Attempts keep coming without a limit.
      for (let attempt = 3; attempt <= 5; attempt++) {
        await answer(c, 'ann', 'q-free', 'f-1', ['no']);
        expect((await answer(c, 'ann', 'q-free', 'f-2', ['one'])).result).toMatchObject({ attempt, passed: false });
      }
      await answer(c, 'ann', 'q-free', 'f-2', ['four', 'two']);
      expect((await answer(c, 'ann', 'q-free', 'f-1', ['yes'])).result).toMatchObject({ attempt: 6, percentCorrect: 100, passed: true });
      expect(await summary(c, 'ann', 'q-free')).toMatchObject({ status: 'passed', attemptsUsed: 6, attemptsLeft: null, bestScore: 100 });
      await expectConsistent(c);
    });

    it('lists only the quizzes open now, in program order, with dates read in each quiz’s timezone', async () => {
      const c = await setUp();
      // 16:00Z: New York's 12:30 end is still ahead, UTC's is past; New York's 12:30 start is ahead; Tokyo's 00:30 on the 16th is past.
      expect((await list(c, 'ann')).map((q) => q.id)).toEqual([...ALWAYS_OPEN, 'q-ny-ends', 'q-tokyo']);
      expect((await list(c, 'ann')).find((q) => q.id === 'q-ny-ends')).toMatchObject({ endDate: '2026-06-15T12:30:00', timezone: NY });
      expect((await list(c, 'ann')).find((q) => q.id === 'q-tokyo')).toMatchObject({ startDate: '2026-06-16T00:30:00', timezone: 'Asia/Tokyo' });

      // The last second of 12:30:00 in New York: still open.
      now = Date.parse('2026-06-15T16:30:00.999Z');
      expect((await list(c, 'ann')).map((q) => q.id)).toContain('q-ny-ends');
      // 16:30:01Z: New York's end is past and its start is reached.
      now = Date.parse('2026-06-15T16:30:01Z');
      expect((await list(c, 'ann')).map((q) => q.id)).toEqual([...ALWAYS_OPEN, 'q-ny-starts', 'q-tokyo']);

      // Before Tokyo's start (15:30Z), and before New York's.
      now = Date.parse('2026-06-15T15:29:59Z');
      expect((await list(c, 'ann')).map((q) => q.id)).toEqual([...ALWAYS_OPEN, 'q-ny-ends']);
      // Weeks away the tokens of today are expired (or not yet issued): read with a token of the time.
      const listAt = async (when: string) => {
        now = Date.parse(when);
        return (await list(c, 'ann', await t.token(c.site.app))).map((q) => q.id);
      };
      // In July, only the future quiz joins.
      expect(await listAt('2026-07-01T00:00:00Z')).toEqual([...ALWAYS_OPEN, 'q-future', 'q-ny-starts', 'q-tokyo']);
      // In May, the past quiz is open, and so are those with only an end date.
      expect(await listAt('2026-05-15T00:00:00Z')).toEqual([...ALWAYS_OPEN, 'q-past', 'q-ny-ends', 'q-utc-ended']);
      // The past quiz's end is inclusive to its last second.
      expect(await listAt('2026-06-01T00:00:00.999Z')).toContain('q-past');
      expect(await listAt('2026-06-01T00:00:01Z')).not.toContain('q-past');
    });

    it('lists nothing for a site without quizzes', async () => {
      const c = await setUp({ site: { name: 'Empty', timezone: 'UTC' }, pointCategories: [{ name: 'Points', isDefault: true }] });
      expect(await list(c, 'ann')).toEqual([]);
    });
  });

  describe('GET …/questions', () => {
    it('gives the questions and choices in program order, never saying which choices are correct, to every kind of token', async () => {
      const c = await setUp();
      const tokens = { admin: c.admin, app: c.app, user: await t.token(c.site.app, 'ann') };
      const expected = quizX.questions.map((q) => ({
        id: q.id,
        text: q.text,
        type: q.type,
        choices: q.choices.map((choice) => ({ id: choice.id, text: choice.text })),
      }));
      for (const [kind, token] of Object.entries(tokens)) {
        const response = await call('GET', '/users/ann/quizzes/q-x/questions', token);
        expect(body(response), kind).toEqual(expected);
        expect(response.body, kind).not.toContain('"correct"');
        expect(response.body, kind).not.toMatch(/correct/i);
        // The quiz list does not leak it either.
        const listed = await call('GET', '/users/ann/quizzes', token);
        expect(listed.statusCode, kind).toBe(200);
        expect(listed.body, kind).not.toContain('"correct"');
      }
      // Choices keep the program's order (not sorted by id, not correct-first).
      expect(expected[2]?.choices.map((choice) => choice.id)).toEqual(['c', 'a', 'b']);
      // The same order every time.
      expect(body(await call('GET', '/users/ann/quizzes/q-x/questions', c.app))).toEqual(expected);
    });

    it('answers 404 for a quiz the site does not have', async () => {
      const c = await setUp();
      expectProblem(await call('GET', '/users/ann/quizzes/q-nope/questions', c.app), 404, 'not_found');
    });
  });

  describe('POST …/questions/{q}/responses', () => {
    it('refuses invalid answers with 400, and unknown quizzes and questions with 404, recording nothing', async () => {
      const c = await setUp();
      const invalid: Array<[string, string, unknown]> = [
        ['single-choice with two ids', 'x-1', { choiceIds: ['a', 'b'] }],
        ['an unknown choice', 'x-1', { choiceIds: ['z'] }],
        ['an unknown choice with a known one', 'x-2', { choiceIds: ['a', 'z'] }],
        ['an empty list', 'x-2', { choiceIds: [] }],
        ['an empty string', 'x-1', { choiceIds: '' }],
        ['no choiceIds', 'x-1', {}],
        ['a number', 'x-1', { choiceIds: 1 }],
        ['a list with a non-string', 'x-1', { choiceIds: [1] }],
        ['a choice twice', 'x-2', { choiceIds: ['a', 'a'] }],
        ['an invalid id', 'x-1', { choiceIds: ['a b'] }],
      ];
      for (const [name, question, payload] of invalid) {
        const response = await post(c, 'ann', 'q-x', question, payload);
        expect(response.statusCode, name).toBe(400);
        expect(response.json(), name).toMatchObject({ status: 400, code: 'validation_failed' });
      }
      expectProblem(await post(c, 'ann', 'q-nope', 'x-1', { choiceIds: ['a'] }), 404, 'not_found');
      expectProblem(await post(c, 'ann', 'q-x', 'x-9', { choiceIds: ['a'] }), 404, 'not_found');
      // A question of another quiz is not a question of this one.
      expectProblem(await post(c, 'ann', 'q-x', 'o-1', { choiceIds: ['yes'] }), 404, 'not_found');
      expectProblem(await call('GET', answerUrl('ann', 'q-nope', 'x-1'), c.app), 404, 'not_found');
      expectProblem(await call('GET', answerUrl('ann', 'q-x', 'x-9'), c.app), 404, 'not_found');
      expect(await count(c, 'quiz_responses')).toBe(0);
      expect(await count(c, 'quiz_attempts')).toBe(0);
      expect(await summary(c, 'ann', 'q-x')).toMatchObject({ status: 'not_started', attemptsUsed: 0 });
    });

    it('records an answer and returns it with its correctness, choices sorted', async () => {
      const c = await setUp();
      const recorded = await answer(c, 'ann', 'q-x', 'x-2', ['b', 'a']);
      expect(recorded).toEqual({
        quizId: 'q-x',
        questionId: 'x-2',
        attempt: 1,
        choiceIds: ['a', 'b'],
        correct: true,
        answeredAt: new Date(now).toISOString(),
        result: null,
      });
      expect(await answer(c, 'ann', 'q-x', 'x-1', ['b'])).toMatchObject({ attempt: 1, choiceIds: ['b'], correct: false, result: null });
    });

    it('takes choiceIds from form bodies as a repeated key or as a,b', async () => {
      const c = await setUp();
      const form = (user: string, question: string, payload: string) => {
        now += 1_000;
        return t.app.inject({
          method: 'POST',
          url: answerUrl(user, 'q-x', question),
          headers: { authorization: `Bearer ${c.app}`, 'content-type': 'application/x-www-form-urlencoded' },
          payload,
        });
      };
      expect(body<RecordedAnswer>(await form('ann', 'x-2', 'choiceIds=b&choiceIds=a'), 201)).toMatchObject({ choiceIds: ['a', 'b'], correct: true });
      expect(body<RecordedAnswer>(await form('bob', 'x-2', 'choiceIds=b,a'), 201)).toMatchObject({ choiceIds: ['a', 'b'], correct: true });
      expect(body<RecordedAnswer>(await form('cy', 'x-2', 'choiceIds=a%2Cc'), 201)).toMatchObject({ choiceIds: ['a', 'c'], correct: false });
      expect(body<RecordedAnswer>(await form('ann', 'x-1', 'choiceIds=a'), 201)).toMatchObject({ choiceIds: ['a'], correct: true });
      // The same rules as JSON: two ids for a single-choice question, nothing, an unknown choice.
      expectProblem(await form('bob', 'x-1', 'choiceIds=a&choiceIds=b'), 400, 'validation_failed');
      expectProblem(await form('bob', 'x-1', 'choiceIds=a,b'), 400, 'validation_failed');
      expectProblem(await form('bob', 'x-1', 'choiceIds='), 400, 'validation_failed');
      expectProblem(await form('bob', 'x-1', 'choiceIds=z'), 400, 'validation_failed');
      expect((await responses(c, 'ann', 'q-x', 'x-2')).map((r) => r.choiceIds)).toEqual([['a', 'b']]);
      expect(await count(c, 'quiz_responses', 'bob')).toBe(1);
    });

    it('refuses a second answer to a question in the same attempt with 409, keeping the first', async () => {
      const c = await setUp();
      await answer(c, 'ann', 'q-x', 'x-1', ['b']);
      const firstAt = new Date(now).toISOString();
      expectProblem(await post(c, 'ann', 'q-x', 'x-1', { choiceIds: ['a'] }), 409, 'already_answered');
      expectProblem(await post(c, 'ann', 'q-x', 'x-1', { choiceIds: ['b'] }), 409, 'already_answered');
      expect(await responses(c, 'ann', 'q-x', 'x-1')).toEqual([{ attempt: 1, choiceIds: ['b'], correct: false, answeredAt: firstAt }]);
      expect(await summary(c, 'ann', 'q-x')).toMatchObject({ status: 'in_progress', attemptsUsed: 1, currentAttempt: { attempt: 1, answered: 1 } });
      expect(await count(c, 'quiz_responses')).toBe(1);
    });

    it('counts a partial or superset multiple-choice answer as wrong', async () => {
      const c = await setUp();
      expect(await answer(c, 'ann', 'q-x', 'x-2', ['a'])).toMatchObject({ correct: false });
      expect(await answer(c, 'bob', 'q-x', 'x-2', ['a', 'b', 'c'])).toMatchObject({ correct: false });
      expect(await answer(c, 'cy', 'q-x', 'x-2', ['a', 'b'])).toMatchObject({ correct: true });
      // In the score too: ann's partial answer leaves 2 of 3, bob's superset 1 of 3.
      await answer(c, 'ann', 'q-x', 'x-1', ['a']);
      expect((await answer(c, 'ann', 'q-x', 'x-3', ['c'])).result).toMatchObject({ totalCorrect: 2, totalQuestions: 3, percentCorrect: 66.67, passed: true });
      await answer(c, 'bob', 'q-x', 'x-1', ['b']);
      expect((await answer(c, 'bob', 'q-x', 'x-3', ['c'])).result).toMatchObject({ totalCorrect: 1, totalQuestions: 3, percentCorrect: 33.33, passed: false });
      // Only the exact set passes a 100% quiz.
      await answer(c, 'ann', 'q-free', 'f-1', ['yes']);
      expect((await answer(c, 'ann', 'q-free', 'f-2', ['two'])).result).toMatchObject({ totalCorrect: 1, percentCorrect: 50, passed: false });
    });

    it('compares the exact share with passingPercent, not the rounded percent', async () => {
      const c = await setUp();
      await answer(c, 'ann', 'q-thirds', 't-1', ['yes']);
      await answer(c, 'ann', 'q-thirds', 't-2', ['yes']);
      // 66.67% shown, but 2 of 3 is below 66.67%.
      expect((await answer(c, 'ann', 'q-thirds', 't-3', ['no'])).result).toMatchObject({
        totalCorrect: 2,
        totalQuestions: 3,
        percentCorrect: 66.67,
        passed: false,
      });
      expect(await summary(c, 'ann', 'q-thirds')).toMatchObject({ status: 'failed', bestScore: 66.67 });
    });

    it('allows a retry after a failed attempt up to maxAttempts, then 422 quiz_attempts_exhausted', async () => {
      const c = await setUp();
      expect((await answer(c, 'ann', 'q-once', 'o-1', ['no'])).result).toMatchObject({ attempt: 1, passed: false });
      expect(await summary(c, 'ann', 'q-once')).toMatchObject({ status: 'failed', attemptsUsed: 1, attemptsLeft: 1 });
      expect((await answer(c, 'ann', 'q-once', 'o-1', ['no'])).result).toMatchObject({ attempt: 2, passed: false });
      expect(await summary(c, 'ann', 'q-once')).toMatchObject({ status: 'failed', attemptsUsed: 2, attemptsLeft: 0, bestScore: 0 });

      // A right answer is refused all the same: every attempt is used.
      expectProblem(await post(c, 'ann', 'q-once', 'o-1', { choiceIds: ['yes'] }), 422, 'quiz_attempts_exhausted');
      expectProblem(await post(c, 'ann', 'q-once', 'o-1', { choiceIds: ['no'] }), 422, 'quiz_attempts_exhausted');
      expect(await count(c, 'quiz_responses')).toBe(2);
      expect(await count(c, 'quiz_attempts')).toBe(2);
      expect(await quizActions(c, 'ann')).toHaveLength(2);
      expect(await summary(c, 'ann', 'q-once')).toMatchObject({ status: 'failed', attemptsUsed: 2, attemptsLeft: 0, currentAttempt: null });
      // Another user still has both attempts.
      expect((await answer(c, 'bob', 'q-once', 'o-1', ['yes'])).result).toMatchObject({ attempt: 1, passed: true });

      // Three attempts at quiz X: fail, fail, pass on the last one.
      await takeX(c, 'cy', [['b'], ['a'], ['a']]);
      await takeX(c, 'cy', [['b'], ['c'], ['b']]);
      expect(await takeX(c, 'cy', [['a'], ['a', 'b'], ['c']])).toMatchObject({ attempt: 3, totalCorrect: 3, percentCorrect: 100, passed: true });
      expect(await summary(c, 'cy', 'q-x')).toMatchObject({ status: 'passed', attemptsUsed: 3, attemptsLeft: 0, bestScore: 100 });
      // Passed beats exhausted.
      expectProblem(await post(c, 'cy', 'q-x', 'x-1', { choiceIds: ['a'] }), 422, 'quiz_already_passed');
      await expectConsistent(c);
    });

    it('refuses answers to a quiz outside its dates with 422 quiz_closed, recording nothing', async () => {
      const c = await setUp();
      for (const [quiz, question] of [
        ['q-past', 'p-1'],
        ['q-future', 'u-1'],
        ['q-utc-ended', 'ue-1'],
        ['q-ny-starts', 'ns-1'],
      ] as const) {
        expectProblem(await post(c, 'ann', quiz, question, { choiceIds: ['yes'] }), 422, 'quiz_closed');
      }
      expect(await count(c, 'quiz_responses')).toBe(0);
      expect(await count(c, 'quiz_attempts')).toBe(0);
      expect(await quizActions(c, 'ann')).toEqual([]);

      // Open in its own timezone: New York's 12:30 end is ahead.
      expect(await answer(c, 'ann', 'q-ny-ends', 'ne-1', ['no'])).toMatchObject({ attempt: 1, correct: false });
      // Once it closes, even an attempt in progress takes no more answers.
      await answer(c, 'ann', 'q-x', 'x-1', ['a']);
      now = Date.parse('2026-06-15T16:31:00Z');
      expectProblem(await post(c, 'ann', 'q-ny-ends', 'ne-1', { choiceIds: ['yes'] }), 422, 'quiz_closed');
      expect(body<RecordedAnswer>(await post(c, 'ann', 'q-ny-starts', 'ns-1', { choiceIds: ['yes'] }), 201)).toMatchObject({ correct: true });
      // Invalid input is still 400, unknown questions still 404, on a closed quiz.
      expectProblem(await post(c, 'ann', 'q-past', 'p-1', { choiceIds: ['maybe'] }), 400, 'validation_failed');
      expectProblem(await post(c, 'ann', 'q-past', 'p-9', { choiceIds: ['yes'] }), 404, 'not_found');
      expect(await count(c, 'quiz_responses')).toBe(3);
    });

    it('scores the completing answer, logs QUIZ_COMPLETED through the engine, and completes the pass mission on the passing attempt only', async () => {
      const c = await setUp();
      // Failing attempt: 1 of 3.
      const failed = await takeX(c, 'ann', [['a'], ['a', 'c'], ['b']]);
      expect(failed).toEqual({
        attempt: 1,
        totalCorrect: 1,
        totalQuestions: 3,
        percentCorrect: 33.33,
        passed: false,
        eventId: expect.any(String),
        pointsAwarded: [],
        missionsCompleted: [],
        badgesEarned: [],
      });
      expect(await balance(c, 'ann')).toMatchObject({ balance: 0, lifetimeBalance: 0 });
      expect(await count(c, 'mission_completions')).toBe(0);

      // Passing attempt: 2 of 3.
      const passed = await takeX(c, 'ann', [['a'], ['a', 'b'], ['a']]);
      expect(passed).toEqual({
        attempt: 2,
        totalCorrect: 2,
        totalQuestions: 3,
        percentCorrect: 66.67,
        passed: true,
        eventId: expect.any(String),
        pointsAwarded: [{ category: 'Points', requested: 50, credited: 50 }],
        missionsCompleted: [{ id: 'm-pass-x', name: 'Pass X', completionId: expect.any(String) }],
        badgesEarned: [],
      });
      expect(passed.eventId).not.toBe(failed.eventId);
      expect(await balance(c, 'ann')).toMatchObject({ balance: 50, lifetimeBalance: 50 });
      expect(await count(c, 'mission_completions')).toBe(1);
      const completed = body<Array<{ id: string }>>(await call('GET', '/users/ann/challenges?type=completed', c.app));
      expect(completed.map((m) => m.id)).toEqual(['m-pass-x']);

      // The history holds both QUIZ_COMPLETED actions, newest first, with value = percent correct.
      const history = await quizActions(c, 'ann');
      expect(history).toEqual([
        expect.objectContaining({
          eventId: passed.eventId,
          action: 'QUIZ_COMPLETED',
          value: 66.67,
          metadata: { quiz_id: 'q-x', passed: 'true', totalCorrect: '2', totalQuestions: '3', percentCorrect: '66.67' },
        }),
        expect.objectContaining({
          eventId: failed.eventId,
          action: 'QUIZ_COMPLETED',
          value: 33.33,
          metadata: { quiz_id: 'q-x', passed: 'false', totalCorrect: '1', totalQuestions: '3', percentCorrect: '33.33' },
        }),
      ]);
      // The attempts record the actions they logged.
      const attempts = await t.database.db
        .selectFrom('quiz_attempts')
        .select(['attempt', 'event_id', 'passed'])
        .where('site_id', '=', c.site.siteId)
        .where('user_id', '=', 'ann')
        .orderBy('attempt')
        .execute();
      expect(attempts.map((a) => [Number(a.attempt), a.event_id, Number(a.passed)])).toEqual([
        [1, failed.eventId, 0],
        [2, passed.eventId, 1],
      ]);
      await expectConsistent(c);
    });

    it('does not complete the pass mission for a passing attempt at another quiz', async () => {
      const c = await setUp();
      await answer(c, 'ann', 'q-free', 'f-1', ['yes']);
      const result = (await answer(c, 'ann', 'q-free', 'f-2', ['two', 'four'])).result;
      expect(result).toMatchObject({ passed: true, percentCorrect: 100, missionsCompleted: [], pointsAwarded: [] });
      expect((await quizActions(c, 'ann'))[0]).toMatchObject({
        value: 100,
        metadata: { quiz_id: 'q-free', passed: 'true', totalCorrect: '2', totalQuestions: '2', percentCorrect: '100' },
      });
      expect(await balance(c, 'ann')).toMatchObject({ balance: 0 });
    });

    it('completes the canonical program’s m-quiz-safety when q-safety is passed', async () => {
      const example = exampleProgram<{ site: Record<string, unknown> }>();
      for (const key of ['achievementCallbackUrl', 'giftNotifyUrl', 'itemPurchaseNotifyUrl']) delete example.site[key];
      const c = await setUp(example);
      expect((await list(c, 'ann')).find((q) => q.id === 'q-safety')).toMatchObject({
        status: 'not_started',
        passingPercent: 60,
        maxAttempts: 3,
        attemptsLeft: 3,
        timezone: NY,
      });
      await answer(c, 'ann', 'q-safety', 'qq-1', ['a']);
      // A partial multiple-choice answer: 1 of 2 = 50% < 60%.
      expect((await answer(c, 'ann', 'q-safety', 'qq-2', ['a'])).result).toMatchObject({ percentCorrect: 50, passed: false, missionsCompleted: [] });
      await answer(c, 'ann', 'q-safety', 'qq-1', ['a']);
      const passed = (await answer(c, 'ann', 'q-safety', 'qq-2', ['b', 'a'])).result;
      expect(passed).toMatchObject({ attempt: 2, percentCorrect: 100, passed: true, pointsAwarded: [{ category: 'Award', requested: 100, credited: 100 }] });
      expect(passed?.missionsCompleted.map((m) => m.id)).toEqual(['m-quiz-safety']);
      const categories = body<{ categories: Array<{ name: string; balance: number }> }>(await call('GET', '/users/ann/point-balance', c.app)).categories;
      expect(categories.find((category) => category.name === 'Award')?.balance).toBe(100);
      await expectConsistent(c);
    });

    const takeXWith = async (c: Ctx, token: string) => {
      await answer(c, 'ann', 'q-x', 'x-1', ['a'], token);
      await answer(c, 'ann', 'q-x', 'x-2', ['a', 'b'], token);
      return (await answer(c, 'ann', 'q-x', 'x-3', ['c'], token)).result;
    };
    it('lets a user-level token answer for its own user, completing the quiz and the mission', async () => {
      const c = await setUp();
      const ann = await t.token(c.site.app, 'ann');
      expect(await takeXWith(c, ann)).toMatchObject({ passed: true, missionsCompleted: [{ id: 'm-pass-x' }] });
      expect(body<QuizSummary[]>(await call('GET', '/users/ann/quizzes', ann)).find((q) => q.id === 'q-x')).toMatchObject({ status: 'passed' });
      expect(body<PastAnswer[]>(await call('GET', answerUrl('ann', 'q-x', 'x-1'), ann))).toHaveLength(1);
      await expectConsistent(c);
    });
  });

  describe('GET …/responses', () => {
    it("lists the user's answers to a question per attempt, with their correctness", async () => {
      const c = await setUp();
      expect(await responses(c, 'ann', 'q-x', 'x-2')).toEqual([]);
      await answer(c, 'ann', 'q-x', 'x-2', ['c', 'a']);
      const first = new Date(now).toISOString();
      expect(await responses(c, 'ann', 'q-x', 'x-2')).toEqual([{ attempt: 1, choiceIds: ['a', 'c'], correct: false, answeredAt: first }]);
      await answer(c, 'ann', 'q-x', 'x-1', ['b']);
      await answer(c, 'ann', 'q-x', 'x-3', ['b']);
      await answer(c, 'ann', 'q-x', 'x-2', ['a', 'b']);
      const second = new Date(now).toISOString();
      await answer(c, 'ann', 'q-x', 'x-1', ['a']);
      await answer(c, 'ann', 'q-x', 'x-3', ['c']);

      expect(await responses(c, 'ann', 'q-x', 'x-2')).toEqual([
        { attempt: 1, choiceIds: ['a', 'c'], correct: false, answeredAt: first },
        { attempt: 2, choiceIds: ['a', 'b'], correct: true, answeredAt: second },
      ]);
      expect((await responses(c, 'ann', 'q-x', 'x-1')).map((r) => [r.attempt, r.choiceIds, r.correct])).toEqual([
        [1, ['b'], false],
        [2, ['a'], true],
      ]);
      // Only this user's answers, only this quiz's.
      expect(await responses(c, 'bob', 'q-x', 'x-2')).toEqual([]);
      expect(await responses(c, 'ann', 'q-free', 'f-1')).toEqual([]);
    });
  });

  describe('concurrency', () => {
    it('records one of ten concurrent submissions of the same answer: one 201, nine 409', async () => {
      const c = await setUp();
      now += 1_000;
      const results = await Promise.all(Array.from({ length: 10 }, () => call('POST', answerUrl('ann', 'q-x', 'x-1'), c.app, { choiceIds: ['a'] })));
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses, results.map((r) => r.body).join('\n')).toEqual([201, ...Array<number>(9).fill(409)]);
      for (const response of results.filter((r) => r.statusCode === 409)) expect(response.json()).toMatchObject({ code: 'already_answered' });
      expect(await count(c, 'quiz_responses')).toBe(1);
      expect(await count(c, 'quiz_attempts')).toBe(1);
      expect(await summary(c, 'ann', 'q-x')).toMatchObject({ status: 'in_progress', attemptsUsed: 1, currentAttempt: { attempt: 1, answered: 1 } });
    });

    it('completes an attempt exactly once when its last answers arrive together, and pays the mission once', async () => {
      const c = await setUp();
      now += 1_000;
      const results = await Promise.all([
        call('POST', answerUrl('ann', 'q-x', 'x-1'), c.app, { choiceIds: ['a'] }),
        call('POST', answerUrl('ann', 'q-x', 'x-2'), c.app, { choiceIds: ['a', 'b'] }),
        call('POST', answerUrl('ann', 'q-x', 'x-3'), c.app, { choiceIds: ['c'] }),
      ]);
      const answers = results.map((r) => body<RecordedAnswer>(r, 201));
      // One attempt, and the last of the three writers completed it.
      expect(answers.map((a) => a.attempt)).toEqual([1, 1, 1]);
      const completing = answers.filter((a) => a.result !== null);
      expect(completing).toHaveLength(1);
      expect(completing[0]?.result).toMatchObject({ totalCorrect: 3, passed: true, missionsCompleted: [{ id: 'm-pass-x' }] });
      expect(await count(c, 'quiz_attempts')).toBe(1);
      expect(await count(c, 'quiz_responses')).toBe(3);
      expect(await quizActions(c, 'ann')).toHaveLength(1);
      expect(await balance(c, 'ann')).toMatchObject({ balance: 50 });
      await expectConsistent(c);
    });

    it('starts one new attempt when answers after a failed attempt arrive together', async () => {
      const c = await setUp();
      await answer(c, 'ann', 'q-once', 'o-1', ['no']);
      now += 1_000;
      // Both race for the second and last attempt: one gets it, the other finds it completed and none left.
      const results = await Promise.all([
        call('POST', answerUrl('ann', 'q-once', 'o-1'), c.app, { choiceIds: ['no'] }),
        call('POST', answerUrl('ann', 'q-once', 'o-1'), c.app, { choiceIds: ['no'] }),
      ]);
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses, results.map((r) => r.body).join('\n')).toEqual([201, 422]);
      expect(results.find((r) => r.statusCode === 422)?.json()).toMatchObject({ code: 'quiz_attempts_exhausted' });
      expect(await count(c, 'quiz_attempts')).toBe(2);
      expect(await count(c, 'quiz_responses')).toBe(2);
    });
  });

  describe('security', () => {
    it("refuses a user-level token on another user's quizzes with 403, and no token with 401", async () => {
      const c = await setUp();
      const ann = await t.token(c.site.app, 'ann');
      const forbidden: Array<['GET' | 'POST', string, unknown]> = [
        ['GET', '/users/bob/quizzes', undefined],
        ['GET', '/users/bob/quizzes/q-x/questions', undefined],
        ['GET', answerUrl('bob', 'q-x', 'x-1'), undefined],
        ['POST', answerUrl('bob', 'q-x', 'x-1'), { choiceIds: ['a'] }],
      ];
      for (const [method, url, payload] of forbidden) {
        expectProblem(await call(method, url, ann, payload), 403, 'forbidden');
        const anonymous = await call(method, url, undefined, payload);
        expect(anonymous.statusCode, url).toBe(401);
        expect(anonymous.json(), url).toMatchObject({ code: 'missing_token' });
      }
      expect(await count(c, 'quiz_responses', 'bob')).toBe(0);
      // Its own user is fine.
      expect(body<QuizSummary[]>(await call('GET', '/users/ann/quizzes', ann)).map((q) => q.id)).toEqual(expect.arrayContaining(['q-x']));
    });

    it("does not reach another site's quizzes: 404 for them, and each site keeps its own attempts", async () => {
      const c = await setUp();
      const other = await t.createSite();
      const otherApp = await t.token(other.app);
      // A site with no quizzes of its own: this site's quiz is not found.
      expectProblem(await call('GET', '/users/ann/quizzes/q-x/questions', otherApp), 404, 'not_found');
      expectProblem(await call('POST', answerUrl('ann', 'q-x', 'x-1'), otherApp, { choiceIds: ['a'] }), 404, 'not_found');
      expectProblem(await call('GET', answerUrl('ann', 'q-x', 'x-1'), otherApp), 404, 'not_found');
      expect(body<QuizSummary[]>(await call('GET', '/users/ann/quizzes', otherApp))).toEqual([]);
      expect(await count(c, 'quiz_responses')).toBe(0);

      // A site with the same quiz id: the same user's attempts are the site's own.
      const twin = await setUp();
      await takeX(c, 'ann', [['a'], ['a', 'b'], ['c']]);
      expect(await summary(c, 'ann', 'q-x')).toMatchObject({ status: 'passed' });
      expect(await summary(twin, 'ann', 'q-x')).toMatchObject({ status: 'not_started', attemptsUsed: 0 });
      expect(await responses(twin, 'ann', 'q-x', 'x-1')).toEqual([]);
      expect(await answer(twin, 'ann', 'q-x', 'x-1', ['b'])).toMatchObject({ attempt: 1, correct: false });
      expect(await balance(twin, 'ann')).toMatchObject({ balance: 0 });
      await expectConsistent(c);
      await expectConsistent(twin);
    });
  });

  describe('QUIZ_COMPLETED as the program configures it', () => {
    it('is recorded and pays however the program limits the action: a failed then a passed attempt in one day', async () => {
      // A program that rate-limits QUIZ_COMPLETED to once a day and suppresses repeats: the
      // passing attempt must still be recorded, or its mission could never pay (a passed quiz is not taken again).
      const c = await setUp({
        ...program,
        actions: [{ name: 'read' }, { name: 'QUIZ_COMPLETED', rateLimit: { max: 1, period: 'day' }, suppressRepeats: true }],
      });
      expect((await takeX(c, 'ann', [['b'], ['a'], ['a']])).passed).toBe(false);
      const passed = await takeX(c, 'ann', [['a'], ['a', 'b'], ['c']]);
      expect(passed).toMatchObject({
        passed: true,
        missionsCompleted: [{ id: 'm-pass-x' }],
        pointsAwarded: [{ category: 'Points', requested: 50, credited: 50 }],
      });
      expect((await quizActions(c, 'ann')).map((a) => a.metadata.passed)).toEqual(['true', 'false']);
      expect((await balance(c, 'ann')).balance).toBe(50);
      await expectConsistent(c);
    });
  });
});
