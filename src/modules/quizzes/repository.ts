// Reads and writes of quiz attempts and answers.
import type { Kysely } from 'kysely';
import type { Trx } from '../../db/index.js';
import type { DatabaseSchema, QuizAttemptsTable, QuizResponsesTable } from '../../db/schema.js';

type Reader = Pick<Trx, 'db'>;

export class QuizRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /** The user's attempts at one quiz (or at every quiz), oldest first. */
  async attempts(trx: Reader, siteId: string, userId: string, quizId?: string): Promise<QuizAttemptsTable[]> {
    let query = trx.db.selectFrom('quiz_attempts').selectAll().where('site_id', '=', siteId).where('user_id', '=', userId);
    if (quizId !== undefined) query = query.where('quiz_id', '=', quizId);
    const rows = await query.orderBy('quiz_id').orderBy('attempt').execute();
    return rows.map((row) => ({ ...row, attempt: Number(row.attempt) }));
  }

  /** Answers of the user at one quiz: of one attempt, of one question, or all. */
  async responses(
    trx: Reader,
    siteId: string,
    userId: string,
    quizId: string,
    filter: { attempt?: number; questionId?: string } = {},
  ): Promise<QuizResponsesTable[]> {
    let query = trx.db.selectFrom('quiz_responses').selectAll().where('site_id', '=', siteId).where('user_id', '=', userId).where('quiz_id', '=', quizId);
    if (filter.attempt !== undefined) query = query.where('attempt', '=', filter.attempt);
    if (filter.questionId !== undefined) query = query.where('question_id', '=', filter.questionId);
    const rows = await query.orderBy('attempt').orderBy('answered_at').execute();
    return rows.map((row) => ({ ...row, attempt: Number(row.attempt) }));
  }

  /** How many questions each open attempt of the user has answered, by quiz. */
  async answeredInOpenAttempts(siteId: string, userId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('quiz_responses as r')
      .innerJoin('quiz_attempts as a', (join) =>
        join
          .onRef('a.site_id', '=', 'r.site_id')
          .onRef('a.user_id', '=', 'r.user_id')
          .onRef('a.quiz_id', '=', 'r.quiz_id')
          .onRef('a.attempt', '=', 'r.attempt'),
      )
      .select(['r.quiz_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('r.site_id', '=', siteId)
      .where('r.user_id', '=', userId)
      .where('a.completed_at', 'is', null)
      .groupBy('r.quiz_id')
      .execute();
    return new Map(rows.map((row) => [row.quiz_id, Number(row.n)]));
  }

  async startAttempt(trx: Trx, attempt: QuizAttemptsTable): Promise<void> {
    await trx.db.insertInto('quiz_attempts').values(attempt).execute();
  }

  async insertResponse(trx: Trx, response: QuizResponsesTable): Promise<void> {
    await trx.db.insertInto('quiz_responses').values(response).execute();
  }

  async completeAttempt(
    trx: Trx,
    key: { siteId: string; userId: string; quizId: string; attempt: number },
    result: Pick<QuizAttemptsTable, 'completed_at' | 'total_correct' | 'total_questions' | 'percent_correct' | 'passed' | 'event_id'>,
  ): Promise<void> {
    await trx.db
      .updateTable('quiz_attempts')
      .set(result)
      .where('site_id', '=', key.siteId)
      .where('user_id', '=', key.userId)
      .where('quiz_id', '=', key.quizId)
      .where('attempt', '=', key.attempt)
      .execute();
  }
}
