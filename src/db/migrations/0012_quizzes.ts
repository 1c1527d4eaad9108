import type { Kysely } from 'kysely';

// Quizzes (SPEC §10). A user's attempts at a quiz are numbered from 1; an attempt is open until
// every question has an answer, then it holds its score. One answer per question per attempt: the
// primary key makes a concurrent second submission fail, whatever the timing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quiz_attempts')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('quiz_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    // Null while the attempt is open.
    .addColumn('completed_at', 'bigint')
    .addColumn('total_correct', 'integer')
    .addColumn('total_questions', 'integer')
    .addColumn('percent_correct', 'double precision')
    .addColumn('passed', 'integer')
    // The QUIZ_COMPLETED action the completed attempt logged.
    .addColumn('event_id', 'text')
    .addPrimaryKeyConstraint('quiz_attempts_pk', ['site_id', 'user_id', 'quiz_id', 'attempt'])
    .execute();

  await db.schema
    .createTable('quiz_responses')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('quiz_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('question_id', 'text', (c) => c.notNull())
    // JSON array of the choice ids given, sorted.
    .addColumn('choice_ids', 'text', (c) => c.notNull())
    .addColumn('correct', 'integer', (c) => c.notNull())
    .addColumn('answered_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('quiz_responses_pk', ['site_id', 'user_id', 'quiz_id', 'attempt', 'question_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quiz_responses').execute();
  await db.schema.dropTable('quiz_attempts').execute();
}
