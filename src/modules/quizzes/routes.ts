// Quizzes (interface document §4 Quizzes, SPEC §10): a user's quizzes, their questions, and answers.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { idParams } from '../../http/ids.js';
import { Envelope } from '../../http/paging.js';
import { Instant, Nullable } from '../../http/schemas.js';
import { authOf } from '../../plugins/auth.js';
import { ActionOutcomeSchema } from '../actions/schemas.js';
import type { QuizService } from './service.js';

const tags = ['quizzes'];
const user = { access: 'user' as const };

const QuizSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  startDate: Type.Optional(Type.String()),
  endDate: Type.Optional(Type.String()),
  timezone: Type.String(),
  passingPercent: Type.Number(),
  maxAttempts: Nullable(Type.Integer()),
  questionCount: Type.Integer(),
  status: Type.Union([Type.Literal('not_started'), Type.Literal('in_progress'), Type.Literal('passed'), Type.Literal('failed')]),
  attemptsUsed: Type.Integer(),
  attemptsLeft: Nullable(Type.Integer({ description: 'Null: unlimited' })),
  bestScore: Nullable(Type.Number({ description: 'Best percent correct of the completed attempts' })),
  currentAttempt: Nullable(Type.Object({ attempt: Type.Integer(), answered: Type.Integer() })),
});
// Only these properties are serialized: a choice's correctness has no way out.
const Question = Type.Object({
  id: Type.String(),
  text: Type.String(),
  type: Type.Union([Type.Literal('single'), Type.Literal('multiple')]),
  choices: Type.Array(Type.Object({ id: Type.String(), text: Type.String() })),
});
const Result = Type.Object({
  attempt: Type.Integer(),
  totalCorrect: Type.Integer(),
  totalQuestions: Type.Integer(),
  percentCorrect: Type.Number(),
  passed: Type.Boolean(),
  eventId: Type.String({ description: 'The QUIZ_COMPLETED action logged' }),
  // What the QUIZ_COMPLETED action did, as an action's outcome says it.
  pointsAwarded: ActionOutcomeSchema.properties.pointsAwarded,
  missionsCompleted: ActionOutcomeSchema.properties.missionsCompleted,
  levelChanged: ActionOutcomeSchema.properties.levelChanged,
  badgesEarned: ActionOutcomeSchema.properties.badgesEarned,
});
const RecordedAnswer = Type.Object({
  quizId: Type.String(),
  questionId: Type.String(),
  attempt: Type.Integer(),
  choiceIds: Type.Array(Type.String()),
  correct: Type.Boolean(),
  answeredAt: Instant,
  result: Nullable(Result),
});
const PastAnswer = Type.Object({ attempt: Type.Integer(), choiceIds: Type.Array(Type.String()), correct: Type.Boolean(), answeredAt: Instant });
const QuestionParams = idParams('userId', 'quizId', 'questionId');
const AnswerBody = Type.Object(
  {
    choiceIds: Type.Union([Type.Array(Type.String(), { minItems: 1 }), Type.String()], {
      description: 'One choice id (single) or one or more (multiple); form: repeated key or a,b',
    }),
  },
  {
    // Question qq-2 of the safety quiz (examples/program.json), a multiple-choice one.
    examples: [{ choiceIds: ['a', 'b'] }],
  },
);

type QuizRoutes = FastifyPluginAsyncTypebox<{ quizzes: QuizService }>;

export const quizRoutes: QuizRoutes = async (app, options) => {
  await app.register(quizReadRoutes, options);
  await app.register(answerRoutes, options);
};

/** The quizzes open to a user, and a quiz's questions. */
const quizReadRoutes: QuizRoutes = async (app, { quizzes }) => {
  app.get(
    '/users/:userId/quizzes',
    {
      config: user,
      schema: {
        operationId: 'listUserQuizzes',
        tags,
        summary: "The quizzes open now, with the user's status, attempts and best score",
        params: idParams('userId'),
        response: { 200: Envelope(Type.Array(QuizSummary)) },
      },
    },
    async (request) => {
      const { userId } = request.params;
      return { response: await quizzes.list(authOf(request).siteId, userId) };
    },
  );

  app.get(
    '/users/:userId/quizzes/:quizId/questions',
    {
      config: user,
      schema: {
        operationId: 'listQuizQuestions',
        tags,
        summary: 'The questions and their choices, in order; which choices are correct is never shown',
        params: idParams('userId', 'quizId'),
        errors: ['not_found'],
        response: { 200: Envelope(Type.Array(Question)) },
      },
    },
    async (request) => {
      const { quizId } = request.params;
      return { response: await quizzes.questions(authOf(request).siteId, quizId) };
    },
  );
};

/** A user's answers to a question: those given, and the next one. */
const answerRoutes: QuizRoutes = async (app, { quizzes }) => {
  app.get(
    '/users/:userId/quizzes/:quizId/questions/:questionId/responses',
    {
      config: user,
      schema: {
        operationId: 'listQuizQuestionAnswers',
        tags,
        summary: "The user's answers to the question, per attempt, with their correctness",
        params: QuestionParams,
        errors: ['not_found'],
        response: { 200: Envelope(Type.Array(PastAnswer)) },
      },
    },
    async (request) => {
      const { userId, quizId, questionId } = request.params;
      return { response: await quizzes.responses(authOf(request).siteId, userId, quizId, questionId) };
    },
  );

  app.post(
    '/users/:userId/quizzes/:quizId/questions/:questionId/responses',
    {
      config: user,
      schema: {
        operationId: 'answerQuizQuestion',
        tags,
        summary: 'Answer a question in the current attempt (201); the last answer of an attempt scores it and logs QUIZ_COMPLETED',
        params: QuestionParams,
        // Not validated by the schema: QuizService.answer checks choiceIds against the question's
        // choices and type, which only the program knows; the schema documents the body.
        documentedBody: AnswerBody,
        errors: ['not_found', 'quiz_closed', 'quiz_attempts_exhausted', 'quiz_already_passed', 'already_answered', 'amount_out_of_range'],
        response: { 201: Envelope(RecordedAnswer) },
      },
    },
    async (request, reply) => {
      const { userId, quizId, questionId } = request.params;
      return reply.status(201).send({ response: await quizzes.answer(authOf(request).siteId, userId, quizId, questionId, request.body) });
    },
  );
};
