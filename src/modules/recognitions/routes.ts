// Recognitions (interface document §4 Recognitions, SPEC §9): a user's exchanges, categories,
// budget and recipients, and the recognitions they give and receive.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { MAX_POINTS } from '../../engine/amounts.js';
import { deprecate } from '../../http/deprecation.js';
import { idParams } from '../../http/ids.js';
import { Envelope, pageResponse, PagingQuery } from '../../http/paging.js';
import { Instant, Nullable } from '../../http/schemas.js';
import { Person } from '../users/schemas.js';
import { authOf } from '../../plugins/auth.js';
import { ActionOutcomeSchema } from '../actions/schemas.js';
import { Exchange } from '../program/model.js';
import { MAX_COMMENT } from './input.js';
import type { RecognitionService } from './service.js';

const tags = ['recognitions'];
const user = { access: 'user' as const };

const PresentedExchange = Type.Object({
  ...Exchange.properties,
  timezone: Type.String({ description: "The exchange's time zone (the site's unless it has its own)" }),
  active: Type.Boolean({ description: 'Open now (its dates, in its time zone)' }),
  canGive: Type.Boolean({ description: 'This user may give in it now' }),
});
const Category = Type.Object({ id: Type.String(), name: Type.String(), iconUrl: Type.Optional(Type.String()) });
const Budget = Type.Object({
  amount: Type.Integer({ description: "Points the giver may give per period: the exchange's budget.amount" }),
  used: Type.Integer(),
  remaining: Type.Integer(),
  period: Type.Union([Type.Literal('none'), Type.Literal('month'), Type.Literal('quarter'), Type.Literal('year')]),
  resetsAt: Nullable(Instant),
});

const ExchangeParams = idParams('userId', 'exchangeId');
const RecognitionBody = Type.Object(
  {
    exchangeId: Type.String(),
    categoryId: Type.String(),
    comment: Type.Optional(Type.String({ maxLength: MAX_COMMENT, description: `At most ${MAX_COMMENT} characters (Unicode code points)` })),
    recipients: Type.Optional(
      Type.Array(Type.String(), { description: 'User ids (form: repeated key or a,b); may be left out when recipientPoints names them' }),
    ),
    points: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_POINTS, description: 'The amount each recipient gets' })),
    recipientPoints: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.Integer({ minimum: 1, maximum: MAX_POINTS })), Type.String({ description: 'Form: ann:5,bob:15' })], {
        description: 'An amount per recipient, instead of points',
      }),
    ),
  },
  {
    examples: [{ exchangeId: 'x-kudos', categoryId: 'c-teamwork', comment: 'Thanks for covering the Friday shift!', recipients: ['bob', 'carla'], points: 10 }],
  },
);
const GivenRecognition = Type.Object({
  id: Type.String(),
  exchangeId: Type.String(),
  category: Type.Object({ id: Type.String(), name: Type.String() }),
  comment: Type.String(),
  giver: Type.Object({ userId: Type.String() }),
  recipients: Type.Array(Type.Object({ userId: Type.String(), points: Type.Integer(), levelChanged: ActionOutcomeSchema.properties.levelChanged })),
  points: Type.Integer({ description: 'The total, charged to the budget' }),
  givenAt: Instant,
  budget: Budget,
  // Missions the giver completed by giving, and the badges the giver earned by it.
  missionsCompleted: ActionOutcomeSchema.properties.missionsCompleted,
  badgesEarned: ActionOutcomeSchema.properties.badgesEarned,
});
const Interaction = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal('given'), Type.Literal('received')]),
  exchangeId: Type.String(),
  category: Type.Object({ id: Type.String(), name: Type.String() }),
  comment: Type.String(),
  giver: Person,
  recipients: Type.Array(Type.Object({ ...Person.properties, points: Type.Integer() })),
  points: Type.Integer({ description: 'The total given' }),
  pointsReceived: Type.Optional(Type.Integer({ description: 'What this user received (received recognitions)' })),
  givenAt: Instant,
});

const RecipientsQuery = Type.Object({
  ...PagingQuery.properties,
  q: Type.Optional(Type.String({ maxLength: 255, description: 'Part of a name, or the start of a user id (case-insensitive)' })),
  preferences: Type.Optional(
    Type.String({ deprecated: true, description: 'Deprecated (28 June 2023; removal announced for November 2023): accepted and ignored' }),
  ),
});

/** 28 June 2023: the recipients `preferences` parameter is deprecated; its removal was announced for November 2023 (interface document §9, SPEC §8). */
const PREFERENCES_DEPRECATED = Date.UTC(2023, 5, 28);
const PREFERENCES_SUNSET = Date.UTC(2023, 10, 30);

/** Says that the deprecated `preferences` parameter was sent and ignored: the successor is the same path without it. */
function preferencesIgnored(reply: FastifyReply, url: string): void {
  deprecate(reply, {
    since: PREFERENCES_DEPRECATED,
    sunset: PREFERENCES_SUNSET,
    successor: url.split('?')[0] as string,
    title: 'stop sending preferences; it is ignored',
  });
}

type RecognitionRoutes = FastifyPluginAsyncTypebox<{ recognitions: RecognitionService }>;

// Registered in the order the API document lists the routes.
export const recognitionRoutes: RecognitionRoutes = async (app, options) => {
  await app.register(exchangeRoutes, options);
  await app.register(recipientRoutes, options);
  await app.register(interactionRoutes, options);
};

/** The exchanges a user may give in, their categories and the user's budget in each. */
const exchangeRoutes: RecognitionRoutes = async (app, { recognitions }) => {
  app.get(
    '/users/:userId/exchanges',
    {
      config: user,
      schema: {
        operationId: 'listUserExchanges',
        tags,
        summary: 'The exchanges the user may give in now',
        params: idParams('userId'),
        response: { 200: Envelope(Type.Array(PresentedExchange)) },
      },
    },
    async (request) => ({ response: await recognitions.exchanges(authOf(request).siteId, request.params.userId) }),
  );

  app.get(
    '/users/:userId/exchanges/:exchangeId',
    {
      config: user,
      schema: {
        operationId: 'getUserExchange',
        tags,
        summary: 'One exchange, and whether the user may give in it now',
        params: ExchangeParams,
        errors: ['not_found'],
        response: { 200: Envelope(PresentedExchange) },
      },
    },
    async (request) => {
      const { userId, exchangeId } = request.params;
      return { response: await recognitions.exchange(authOf(request).siteId, userId, exchangeId) };
    },
  );

  app.get(
    '/users/:userId/exchanges/:exchangeId/categories',
    {
      config: user,
      schema: {
        operationId: 'listExchangeCategories',
        tags,
        summary: 'The categories of the exchange',
        params: ExchangeParams,
        errors: ['not_found'],
        response: { 200: Envelope(Type.Array(Category)) },
      },
    },
    async (request) => ({ response: await recognitions.categories(authOf(request).siteId, request.params.exchangeId) }),
  );

  app.get(
    '/users/:userId/exchanges/:exchangeId/points',
    {
      config: user,
      schema: {
        operationId: 'getExchangePointBudget',
        tags,
        summary: "The user's points budget for the exchange in the current period",
        params: ExchangeParams,
        errors: ['not_found'],
        response: { 200: Envelope(Budget) },
      },
    },
    async (request) => {
      const { userId, exchangeId } = request.params;
      return { response: await recognitions.budget(authOf(request).siteId, userId, exchangeId) };
    },
  );
};

/** The users a user may recognize in an exchange, found by name. */
const recipientRoutes: RecognitionRoutes = async (app, { recognitions }) => {
  app.get(
    '/users/:userId/exchanges/:exchangeId/recipients',
    {
      config: user,
      schema: {
        operationId: 'listExchangeRecipients',
        tags,
        summary: 'Users the user may recognize in the exchange (never themselves), by name; total in X-Total-Count',
        params: ExchangeParams,
        querystring: RecipientsQuery,
        errors: ['not_found'],
        response: { 200: Envelope(Type.Array(Person)) },
      },
    },
    async (request, reply) => {
      const { userId, exchangeId } = request.params;
      const { q, limit = 50, offset = 0, preferences } = request.query;
      const { items, total } = await recognitions.recipients(authOf(request).siteId, userId, exchangeId, q, { limit, offset });
      if (preferences !== undefined) preferencesIgnored(reply, request.url);
      return pageResponse(reply, items, total);
    },
  );
};

/** The recognitions a user gave and received, and giving one. */
const interactionRoutes: RecognitionRoutes = async (app, { recognitions }) => {
  app.get(
    '/users/:userId/interactions-collection',
    {
      config: user,
      schema: {
        operationId: 'listUserRecognitions',
        tags,
        summary: 'Recognitions the user gave and/or received, newest first; total in X-Total-Count',
        params: idParams('userId'),
        querystring: Type.Object({
          ...PagingQuery.properties,
          type: Type.Optional(Type.Union([Type.Literal('given'), Type.Literal('received'), Type.Literal('all')], { default: 'all' })),
        }),
        response: { 200: Envelope(Type.Array(Interaction)) },
      },
    },
    async (request, reply) => {
      const { userId } = request.params;
      const { type = 'all', limit = 50, offset = 0 } = request.query;
      const { items, total } = await recognitions.interactions(authOf(request).siteId, userId, type, { limit, offset });
      return pageResponse(reply, items, total);
    },
  );

  app.post(
    '/users/:userId/interactions-collection',
    {
      config: user,
      schema: {
        operationId: 'giveRecognition',
        tags,
        summary: 'Recognize one or more users: their points come from the giver’s budget (201)',
        params: idParams('userId'),
        // Not validated by the schema: parseRecognitionInput (./input.ts) reads form and JSON bodies
        // alike and checks what depends on several fields (points or recipientPoints, for the users
        // in recipients), naming the field of each problem; the schema documents the body.
        documentedBody: RecognitionBody,
        errors: [
          'unknown_exchange',
          'unknown_category',
          'exchange_closed',
          'giver_not_eligible',
          'self_recognition',
          'too_many_recipients',
          'points_out_of_range',
          'recipient_not_eligible',
          'budget_exceeded',
          'amount_out_of_range',
        ],
        response: { 201: Envelope(GivenRecognition) },
      },
    },
    async (request, reply) => {
      const { userId } = request.params;
      return reply.status(201).send({ response: await recognitions.give(authOf(request).siteId, userId, request.body) });
    },
  );
};
