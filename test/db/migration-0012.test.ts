// Migration 0012 (quizzes): the attempt and answer tables. Migrating down drops them, up again
// rebuilds them; the primary keys hold one attempt per number and one answer per question per
// attempt, whatever the timing of the writers.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/index.js';
import type { QuizAttemptsTable, QuizResponsesTable } from '../../src/db/schema.js';
import { configurations, freshDatabase } from '../helpers/app.js';
import { migratorOf, tableExists as tableExistsIn } from '../helpers/migrations.js';

const TABLES = ['quiz_attempts', 'quiz_responses'];

describe.each(configurations)('migration 0012_quizzes (%s)', (configuration) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  beforeAll(async () => {
    fresh = await freshDatabase(configuration);
    database = fresh.database;
  });
  afterAll(async () => fresh.drop());

  const migrator = () => migratorOf(fresh);
  const tableExists = (table: string) => tableExistsIn(database.db, table);
  const attempt = (overrides: Partial<QuizAttemptsTable> = {}): QuizAttemptsTable => ({
    site_id: 's1',
    user_id: 'ann',
    quiz_id: 'q-x',
    attempt: 1,
    started_at: 1_000,
    completed_at: null,
    total_correct: null,
    total_questions: null,
    percent_correct: null,
    passed: null,
    event_id: null,
    ...overrides,
  });
  const response = (overrides: Partial<QuizResponsesTable> = {}): QuizResponsesTable => ({
    site_id: 's1',
    user_id: 'ann',
    quiz_id: 'q-x',
    attempt: 1,
    question_id: 'qq-1',
    choice_ids: '["a"]',
    correct: 1,
    answered_at: 2_000,
    ...overrides,
  });
  const count = async (table: 'quiz_attempts' | 'quiz_responses') =>
    Number(
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('runs after 0011_recognitions on a fresh migrate, and its tables exist', async () => {
    const names = (await migrator().getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
    expect(names.indexOf('0012_quizzes')).toBe(names.indexOf('0011_recognitions') + 1);
    for (const table of TABLES) expect(await tableExists(table), table).toBe(true);
  });

  it('goes down to 0011_recognitions, dropping the quiz tables, and up again', async () => {
    await database.db.insertInto('quiz_attempts').values(attempt()).execute();
    const down = await migrator().migrateTo('0011_recognitions');
    expect(down.error).toBeUndefined();
    // Later migrations go down first.
    expect(down.results?.map((r) => `${r.direction} ${r.migrationName}`).at(-1)).toEqual('Down 0012_quizzes');
    for (const table of TABLES) expect(await tableExists(table), table).toBe(false);
    // The earlier migrations' tables stay.
    expect(await tableExists('recognitions')).toBe(true);

    // Later migrations come back up after it.
    expect((await database.migrate())[0]).toEqual('0012_quizzes');
    for (const table of TABLES) expect(await tableExists(table), table).toBe(true);
    // Rebuilt empty.
    expect(await count('quiz_attempts')).toBe(0);
    expect(await count('quiz_responses')).toBe(0);
  });

  it('stores an attempt and its answers with their columns, and completes the attempt', async () => {
    await database.db.insertInto('quiz_attempts').values(attempt()).execute();
    await database.db.insertInto('quiz_responses').values(response()).execute();
    await database.db
      .insertInto('quiz_responses')
      .values(response({ question_id: 'qq-2', choice_ids: '["a","b"]', correct: 0, answered_at: 3_000 }))
      .execute();
    await database.db
      .updateTable('quiz_attempts')
      .set({ completed_at: 3_000, total_correct: 1, total_questions: 2, percent_correct: 66.67, passed: 0, event_id: 'qz_1' })
      .where('site_id', '=', 's1')
      .where('user_id', '=', 'ann')
      .where('quiz_id', '=', 'q-x')
      .where('attempt', '=', 1)
      .execute();

    const stored = await database.db.selectFrom('quiz_attempts').selectAll().executeTakeFirstOrThrow();
    expect({
      ...stored,
      attempt: Number(stored.attempt),
      started_at: Number(stored.started_at),
      completed_at: Number(stored.completed_at),
      total_correct: Number(stored.total_correct),
      total_questions: Number(stored.total_questions),
      percent_correct: Number(stored.percent_correct),
      passed: Number(stored.passed),
    }).toEqual(attempt({ completed_at: 3_000, total_correct: 1, total_questions: 2, percent_correct: 66.67, passed: 0, event_id: 'qz_1' }));
    const answers = await database.db.selectFrom('quiz_responses').selectAll().orderBy('question_id').execute();
    expect(answers.map((r) => ({ ...r, attempt: Number(r.attempt), correct: Number(r.correct), answered_at: Number(r.answered_at) }))).toEqual([
      response(),
      response({ question_id: 'qq-2', choice_ids: '["a","b"]', correct: 0, answered_at: 3_000 }),
    ]);
  });

  it('refuses a second answer to the same question in the same attempt, and a second attempt with the same number', async () => {
    // A second answer to qq-1 in attempt 1, whatever its content.
    await expect(
      database.db
        .insertInto('quiz_responses')
        .values(response({ choice_ids: '["b"]', correct: 0, answered_at: 9_000 }))
        .execute(),
    ).rejects.toThrow(/unique|duplicate key|primary/i);
    await expect(
      database.db
        .insertInto('quiz_attempts')
        .values(attempt({ started_at: 9_000 }))
        .execute(),
    ).rejects.toThrow(/unique|duplicate key|primary/i);
    expect(await count('quiz_responses')).toBe(2);
    expect(await count('quiz_attempts')).toBe(1);
    const first = await database.db.selectFrom('quiz_responses').select(['choice_ids', 'correct']).where('question_id', '=', 'qq-1').executeTakeFirstOrThrow();
    expect({ choice_ids: first.choice_ids, correct: Number(first.correct) }).toEqual({ choice_ids: '["a"]', correct: 1 });

    // Any other part of the key may differ: another attempt, user, quiz or site.
    await database.db
      .insertInto('quiz_attempts')
      .values(attempt({ attempt: 2 }))
      .execute();
    for (const other of [{ attempt: 2 }, { user_id: 'bob' }, { quiz_id: 'q-y' }, { site_id: 's2' }]) {
      await database.db.insertInto('quiz_responses').values(response(other)).execute();
    }
    expect(await count('quiz_responses')).toBe(6);
  });

  it('refuses nulls in the required columns', async () => {
    await expect(
      sql`insert into quiz_responses (site_id, user_id, quiz_id, attempt, question_id, choice_ids, correct, answered_at) values ('s1', 'ann', 'q-z', 1, 'qq-1', null, 1, 0)`.execute(
        database.db,
      ),
    ).rejects.toThrow();
    await expect(
      sql`insert into quiz_attempts (site_id, user_id, quiz_id, attempt, started_at) values ('s1', 'ann', 'q-z', 1, null)`.execute(database.db),
    ).rejects.toThrow();
  });
});
