// Quizzes (SPEC §10): a user answers a quiz's questions one at a time, one answer per question per
// attempt. The answer that completes an attempt scores it and logs QUIZ_COMPLETED through the
// engine in the same transaction (metadata quiz_id, passed, totalCorrect, totalQuestions,
// percentCorrect; value: percentCorrect), so that missions can reward quizzes. Answers are
// written with the user locked (the order every writer uses), so concurrent submissions of one
// answer record one (and an answer's primary key holds regardless). Which choices are correct
// never leaves the server; an answer's own correctness is shown once it is given.
import { uuidv7 } from '../../uuid.js';
import { withinDates } from '../../engine/calendar.js';
import { isCorrect, scoreAttempt, type AttemptScore } from '../../engine/elements/quizzes.js';
import type { Database, Trx } from '../../db/index.js';
import type { QuizAttemptsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isValidId } from '../../http/ids.js';
import type { PresentedLevelChange } from '../ledger/level-changes.js';
import type { LedgerRepository } from '../ledger/repository.js';
import type { PartyKey } from '../ledger/write-set.js';
import { visibleTo, type ActionOutcome, type ActionService, type Involved, type WithinTransaction } from '../actions/service.js';
import type { ProgramDocument } from '../program/model.js';
import type { ProgramService } from '../program/service.js';
import type { QuizRepository } from './repository.js';

type Quiz = ProgramDocument['quizzes'][number];
type Question = Quiz['questions'][number];
export type QuizStatus = 'not_started' | 'in_progress' | 'passed' | 'failed';

export interface QuizSummary {
  id: string;
  name: string;
  description?: string;
  startDate?: string;
  endDate?: string;
  timezone: string;
  passingPercent: number;
  maxAttempts: number | null;
  questionCount: number;
  status: QuizStatus;
  attemptsUsed: number;
  /** Null when attempts are unlimited. */
  attemptsLeft: number | null;
  /** The best percent correct of the user's completed attempts; null before the first. */
  bestScore: number | null;
  /** The open attempt and how many of its questions are answered. */
  currentAttempt: { attempt: number; answered: number } | null;
}

export interface PresentedQuestion {
  id: string;
  text: string;
  type: 'single' | 'multiple';
  choices: Array<{ id: string; text: string }>;
}

export interface AttemptResult extends AttemptScore {
  attempt: number;
  eventId: string;
  pointsAwarded: ActionOutcome['pointsAwarded'];
  missionsCompleted: ActionOutcome['missionsCompleted'];
  levelChanged?: PresentedLevelChange;
  badgesEarned: ActionOutcome['badgesEarned'];
}

export interface RecordedAnswer {
  quizId: string;
  questionId: string;
  attempt: number;
  choiceIds: string[];
  correct: boolean;
  answeredAt: string;
  /** Set by the answer that completed its attempt. */
  result: AttemptResult | null;
}

export interface PastAnswer {
  attempt: number;
  choiceIds: string[];
  correct: boolean;
  answeredAt: string;
}

export class QuizService {
  constructor(
    private readonly database: Pick<Database, 'db'>,
    private readonly repository: QuizRepository,
    private readonly ledger: LedgerRepository,
    private readonly actions: ActionService,
    private readonly programs: ProgramService,
    private readonly clock: () => number,
  ) {}

  /** GET /users/{u}/quizzes: the quizzes open now, with the user's standing in each. */
  async list(siteId: string, userId: string): Promise<QuizSummary[]> {
    const { program } = await this.programs.snapshot(siteId);
    const now = this.clock();
    const open = program.quizzes.filter((quiz) => isOpen(quiz, now));
    if (open.length === 0) return [];
    const [attempts, answered] = await Promise.all([
      this.repository.attempts({ db: this.database.db }, siteId, userId),
      this.repository.answeredInOpenAttempts(siteId, userId),
    ]);
    return open.map((quiz) =>
      summarize(
        quiz,
        attempts.filter((a) => a.quiz_id === quiz.id),
        answered.get(quiz.id) ?? 0,
      ),
    );
  }

  /** GET …/questions: in the program's order; choices without their correctness. */
  async questions(siteId: string, quizId: string): Promise<PresentedQuestion[]> {
    const quiz = findQuiz((await this.programs.snapshot(siteId)).program, quizId);
    return quiz.questions.map((question) => ({
      id: question.id,
      text: question.text,
      type: question.type,
      choices: question.choices.map((choice) => ({ id: choice.id, text: choice.text })),
    }));
  }

  /** GET …/questions/{q}/responses: the user's answers to the question, per attempt. */
  async responses(siteId: string, userId: string, quizId: string, questionId: string): Promise<PastAnswer[]> {
    findQuestion(findQuiz((await this.programs.snapshot(siteId)).program, quizId), questionId);
    const rows = await this.repository.responses({ db: this.database.db }, siteId, userId, quizId, { questionId });
    return rows.map((row) => ({
      attempt: row.attempt,
      choiceIds: JSON.parse(row.choice_ids) as string[],
      correct: row.correct === 1,
      answeredAt: new Date(Number(row.answered_at)).toISOString(),
    }));
  }

  /** POST …/questions/{q}/responses: records the answer in the current attempt (starting one when none is open). */
  async answer(siteId: string, userId: string, quizId: string, questionId: string, body: unknown): Promise<RecordedAnswer> {
    const snapshot = await this.programs.snapshot(siteId);
    const quiz = findQuiz(snapshot.program, quizId);
    const question = findQuestion(quiz, questionId);
    const choiceIds = parseChoices(body, question);
    const now = this.clock();
    if (!isOpen(quiz, now)) throw new AppError('quiz_closed', `Quiz "${quiz.id}" is not open now`);

    const user: PartyKey = { siteId, type: 'user', id: userId };
    const involved = await this.actions.groupsOf(snapshot, user, 'QUIZ_COMPLETED');
    return this.actions.transaction(snapshot, now, async (within) => {
      const { trx } = within;
      await this.ledger.lock(trx, [...involved.groups, user], now);
      const current = await this.currentAttempt(trx, siteId, userId, quiz, now);
      const given = await this.repository.responses(trx, siteId, userId, quiz.id, { attempt: current.attempt });
      if (given.some((r) => r.question_id === question.id))
        throw new AppError('already_answered', `Question "${question.id}" is answered already in attempt ${current.attempt}`);
      const correct = isCorrect(question, choiceIds);
      await this.repository.insertResponse(trx, {
        site_id: siteId,
        user_id: userId,
        quiz_id: quiz.id,
        attempt: current.attempt,
        question_id: question.id,
        choice_ids: JSON.stringify(choiceIds),
        correct: correct ? 1 : 0,
        answered_at: now,
      });

      // The attempt is complete when every question of the quiz as it is now has an answer.
      const answers = new Map(given.map((r) => [r.question_id, r.correct === 1]));
      answers.set(question.id, correct);
      const complete = quiz.questions.every((q) => answers.has(q.id));
      const answer: RecordedAnswer = {
        quizId: quiz.id,
        questionId: question.id,
        attempt: current.attempt,
        choiceIds,
        correct,
        answeredAt: new Date(now).toISOString(),
        result: null,
      };
      if (complete)
        answer.result = await this.complete(
          within,
          user,
          involved,
          quiz,
          current,
          quiz.questions.map((q) => answers.get(q.id) === true),
        );
      return answer;
    });
  }

  /** The user's open attempt at the quiz, started when there is none; refused once the quiz is passed or its attempts are used. */
  private async currentAttempt(trx: Trx, siteId: string, userId: string, quiz: Quiz, now: number): Promise<QuizAttemptsTable> {
    const attempts = await this.repository.attempts(trx, siteId, userId, quiz.id);
    if (attempts.some((a) => a.passed === 1)) throw new AppError('quiz_already_passed', `User "${userId}" has passed quiz "${quiz.id}" already`);
    const open = attempts.find((a) => a.completed_at === null);
    if (open !== undefined) return open;
    if (quiz.maxAttempts !== undefined && attempts.length >= quiz.maxAttempts) {
      throw new AppError('quiz_attempts_exhausted', `Quiz "${quiz.id}" allows ${quiz.maxAttempts} attempt${quiz.maxAttempts === 1 ? '' : 's'}; all are used`);
    }
    const started: QuizAttemptsTable = {
      site_id: siteId,
      user_id: userId,
      quiz_id: quiz.id,
      attempt: attempts.length + 1,
      started_at: now,
      completed_at: null,
      total_correct: null,
      total_questions: null,
      percent_correct: null,
      passed: null,
      event_id: null,
    };
    await this.repository.startAttempt(trx, started);
    return started;
  }

  private async complete(
    within: WithinTransaction,
    user: PartyKey,
    involved: Involved,
    quiz: Quiz,
    attempt: QuizAttemptsTable,
    answers: boolean[],
  ): Promise<AttemptResult> {
    const score = scoreAttempt(quiz.passingPercent, answers);
    const eventId = `qz_${uuidv7()}`;
    const metadata = {
      quiz_id: quiz.id,
      passed: String(score.passed),
      totalCorrect: String(score.totalCorrect),
      totalQuestions: String(score.totalQuestions),
      percentCorrect: String(score.percentCorrect),
    };
    const outcome = await this.actions.logWithin(
      within,
      user,
      involved,
      { action: 'QUIZ_COMPLETED', value: score.percentCorrect, metadata, eventId: undefined, timestamp: within.now },
      eventId,
    );
    await this.repository.completeAttempt(
      within.trx,
      { siteId: user.siteId, userId: user.id, quizId: quiz.id, attempt: attempt.attempt },
      {
        completed_at: within.now,
        total_correct: score.totalCorrect,
        total_questions: score.totalQuestions,
        percent_correct: score.percentCorrect,
        passed: score.passed ? 1 : 0,
        event_id: eventId,
      },
    );
    return {
      attempt: attempt.attempt,
      ...score,
      eventId,
      pointsAwarded: outcome.pointsAwarded,
      missionsCompleted: visibleTo(outcome, true).missionsCompleted,
      ...(outcome.levelChanged !== undefined ? { levelChanged: outcome.levelChanged } : {}),
      badgesEarned: outcome.badgesEarned,
    };
  }
}

function findQuiz(program: ProgramDocument, quizId: string): Quiz {
  const quiz = program.quizzes.find((q) => q.id === quizId);
  if (quiz === undefined) throw new AppError('not_found', `The site has no quiz "${quizId}"`);
  return quiz;
}

function findQuestion(quiz: Quiz, questionId: string): Question {
  const question = quiz.questions.find((q) => q.id === questionId);
  if (question === undefined) throw new AppError('not_found', `Quiz "${quiz.id}" has no question "${questionId}"`);
  return question;
}

function isOpen(quiz: Quiz, now: number): boolean {
  return withinDates(quiz, quiz.timezone, now);
}

/** `choiceIds`: a list (form: repeated key or a,b); one for single-choice questions, one or more for multiple-choice. */
function parseChoices(body: unknown, question: Question): string[] {
  const raw = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).choiceIds : undefined;
  const list =
    typeof raw === 'string'
      ? raw
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== '')
      : raw;
  const invalid = (message: string) => new AppError('validation_failed', 'The answer is invalid', { errors: [{ path: 'choiceIds', message }] });
  if (!Array.isArray(list) || list.length === 0 || list.some((id) => !isValidId(id))) throw invalid('must be a list of one or more choice ids');
  const ids = [...new Set(list as string[])];
  if (ids.length !== list.length) throw invalid('names a choice twice');
  const unknown = ids.filter((id) => !question.choices.some((choice) => choice.id === id));
  if (unknown.length > 0) throw invalid(`question "${question.id}" has no choice ${unknown.map((id) => `"${id}"`).join(', ')}`);
  if (question.type === 'single' && ids.length !== 1) throw invalid(`question "${question.id}" takes exactly one choice`);
  return ids.sort();
}

function summarize(quiz: Quiz, attempts: QuizAttemptsTable[], answered: number): QuizSummary {
  const completed = attempts.filter((a) => a.completed_at !== null);
  const open = attempts.find((a) => a.completed_at === null);
  const status: QuizStatus = completed.some((a) => a.passed === 1)
    ? 'passed'
    : open !== undefined
      ? 'in_progress'
      : completed.length > 0
        ? 'failed'
        : 'not_started';
  const best = completed.reduce<number | null>((max, a) => Math.max(max ?? 0, Number(a.percent_correct)), null);
  return {
    id: quiz.id,
    name: quiz.name,
    ...(quiz.description !== undefined ? { description: quiz.description } : {}),
    ...(quiz.startDate !== undefined ? { startDate: quiz.startDate } : {}),
    ...(quiz.endDate !== undefined ? { endDate: quiz.endDate } : {}),
    timezone: quiz.timezone,
    passingPercent: quiz.passingPercent,
    maxAttempts: quiz.maxAttempts ?? null,
    questionCount: quiz.questions.length,
    status,
    attemptsUsed: attempts.length,
    attemptsLeft: quiz.maxAttempts === undefined ? null : Math.max(0, quiz.maxAttempts - attempts.length),
    bestScore: best,
    currentAttempt: open === undefined ? null : { attempt: open.attempt, answered },
  };
}
