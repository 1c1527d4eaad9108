// Award accounts (interface document §4 Award accounts, SPEC §11): a user's access, balance,
// statement and marketplace sign-in URLs, on-the-spot code redemption, the three endpoints
// deprecated on 30 September 2026, and the admin side: access, code batches, debits and refunds.
// The marketplaces' verification keys are public.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { deprecate } from '../../http/deprecation.js';
import { MAX_ADJUSTMENT } from '../../engine/amounts.js';
import { idParams } from '../../http/ids.js';
import { Envelope, pageResponse, PagingQuery } from '../../http/paging.js';
import { Instant, Nullable } from '../../http/schemas.js';
import { authOf } from '../../plugins/auth.js';
import { ActionOutcomeSchema } from '../actions/schemas.js';
import type { AwardService } from './service.js';

const tags = ['award accounts'];
const adminTags = ['admin: award accounts'];
const user = { access: 'user' as const };
const admin = { access: 'admin' as const };

/** Deprecated on 30 September 2026 with no removal date announced: no Sunset (SPEC §8). */
export const AWARD_ENDPOINTS_DEPRECATED = Date.UTC(2026, 8, 30);

const Access = Type.Object({
  marketplaceAccess: Type.Boolean({ description: 'The site has a marketplace the user can visit' }),
  otsAccess: Type.Boolean({ description: 'The user may redeem on-the-spot codes' }),
  countryCode: Nullable(Type.String()),
  verified: Type.Boolean(),
  browseOnly: Type.Boolean({ description: 'The user may look but not spend: their country is not allowed, or they are not verified where that is required' }),
});
const Balance = Type.Object({
  available: Type.Integer({ description: 'Points that can be spent now' }),
  pending: Type.Integer({ description: 'Points credited but held (holdDays)' }),
  currency: Nullable(Type.String()),
  conversionRate: Nullable(Type.Number({ description: 'Currency units per point' })),
  availableValue: Nullable(Type.Number({ description: 'available in the currency, rounded to its minor unit' })),
});
// Every AwardEntryKind (src/db/schema.ts); TypeBox types a union only from a literal tuple.
const Kind = Type.Union([
  Type.Literal('mission'),
  Type.Literal('adjustment'),
  Type.Literal('recognition'),
  Type.Literal('prize'),
  Type.Literal('reversal'),
  Type.Literal('expiry'),
  Type.Literal('ots'),
  Type.Literal('purchase'),
  Type.Literal('gift'),
  Type.Literal('refund'),
]);
const Entry = Type.Object({
  entryId: Type.String(),
  kind: Kind,
  amount: Type.Integer({ description: 'Credits positive, debits negative' }),
  balance: Type.Integer({ description: 'The balance (available and pending) after this entry' }),
  reference: Type.String({ description: 'The completion, recognition, adjustment, code, order or gift reference, or the debit a refund gives back' }),
  description: Nullable(Type.String()),
  postedAt: Instant,
  availableAt: Instant,
});
const MarketplaceUrl = Type.Object({
  type: Type.String(),
  url: Type.String({ description: 'Sign-in URL with a signed token (ES256; keys at /sites/{siteId}/jwks.json)' }),
  browseOnly: Type.Boolean(),
  expiresAt: Instant,
});
const Redemption = Type.Object({
  codeId: Type.String(),
  amount: Type.Integer(),
  entry: Entry,
  balance: Balance,
  eventId: Type.String({ description: 'The OTS_REDEMPTION action logged' }),
  pointsAwarded: ActionOutcomeSchema.properties.pointsAwarded,
  missionsCompleted: ActionOutcomeSchema.properties.missionsCompleted,
  levelChanged: ActionOutcomeSchema.properties.levelChanged,
  badgesEarned: ActionOutcomeSchema.properties.badgesEarned,
});
const Posted = Type.Object({ entry: Entry, balance: Balance, duplicate: Type.Boolean() });
const AccessChange = Type.Object(
  {
    countryCode: Type.Optional(Nullable(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2; null clears it' }))),
    verified: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, examples: [{ countryCode: 'US', verified: true }] },
);
const CodeBatchRequest = Type.Object(
  {
    count: Type.Integer({ minimum: 1, maximum: 10_000 }),
    amount: Type.Integer({ minimum: 1, maximum: MAX_ADJUSTMENT, description: 'Points each code credits' }),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, examples: [{ count: 100, amount: 500, expiresAt: '2027-01-31T23:59:59Z' }] },
);
const CodeBatch = Type.Object({ batchId: Type.String(), amount: Type.Integer(), expiresAt: Instant, codes: Type.Array(Type.String()) });
const DebitRequest = Type.Object(
  {
    kind: Type.Union([Type.Literal('purchase'), Type.Literal('gift')]),
    amount: Type.Integer({ minimum: 1, maximum: MAX_ADJUSTMENT, description: 'Points' }),
    reference: Type.String({
      minLength: 1,
      maxLength: 255,
      description: "The marketplace's order or gift reference; the same one again is not charged twice",
    }),
    description: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false, examples: [{ kind: 'purchase', amount: 2500, reference: 'shop-order-20261127-0042', description: 'Wireless headphones' }] },
);

const UserParams = idParams('userId');

type AwardRoutes = FastifyPluginAsyncTypebox<{ awards: AwardService }>;

// Registered in the order the API document lists the routes.
export const awardRoutes: AwardRoutes = async (app, options) => {
  await app.register(accountRoutes, options);
  await app.register(redemptionRoutes, options);
  await app.register(deprecatedAccountRoutes, options);
  await app.register(accessAdminRoutes, options);
  await app.register(codeBatchRoutes, options);
  await app.register(debitRoutes, options);
  await app.register(marketplaceKeyRoutes, options);
};

/** A user's access, balance, statement and marketplace sign-in URLs. */
const accountRoutes: AwardRoutes = async (app, { awards }) => {
  app.get(
    '/users/:userId/award-access',
    {
      config: user,
      schema: {
        operationId: 'getUserAwardAccess',
        tags,
        summary: "The user's access to marketplaces and on-the-spot redemption",
        params: UserParams,
        response: { 200: Envelope(Access) },
      },
    },
    async (request) => ({ response: await awards.access(authOf(request).siteId, request.params.userId) }),
  );

  app.get(
    '/users/:userId/award-balance',
    {
      config: user,
      schema: {
        operationId: 'getUserAwardBalance',
        tags,
        summary: 'Award balance available for redemption, and pending',
        params: UserParams,
        response: { 200: Envelope(Balance) },
      },
    },
    async (request) => ({ response: await awards.balance(authOf(request).siteId, request.params.userId) }),
  );

  app.get(
    '/users/:userId/award-statement',
    {
      config: user,
      schema: {
        operationId: 'listUserAwardStatement',
        tags,
        summary: 'Award account credits and debits, newest first (X-Total-Count)',
        params: UserParams,
        querystring: PagingQuery,
        response: { 200: Envelope(Type.Array(Entry)) },
      },
    },
    async (request, reply) => {
      const { userId } = request.params;
      const { limit = 50, offset = 0 } = request.query;
      const { entries, total } = await awards.statement(authOf(request).siteId, userId, limit, offset);
      return pageResponse(reply, entries, total);
    },
  );

  app.get(
    '/users/:userId/award-marketplace-url/:type',
    {
      config: user,
      schema: {
        operationId: 'getUserAwardMarketplaceUrl',
        tags,
        summary: 'A short-lived signed sign-in URL for the marketplace, and whether the user may only browse',
        params: idParams('userId', 'type'),
        errors: ['unknown_marketplace'],
        response: { 200: Envelope(MarketplaceUrl) },
      },
    },
    async (request) => ({ response: await awards.marketplaceUrl(authOf(request).siteId, request.params.userId, request.params.type) }),
  );
};

/** On-the-spot code redemption. */
const redemptionRoutes: AwardRoutes = async (app, { awards }) => {
  app.post(
    '/users/:userId/award-ots',
    {
      config: user,
      schema: {
        operationId: 'redeemOtsCode',
        tags,
        summary: 'Redeem an on-the-spot code (201): credits the award account and logs OTS_REDEMPTION',
        params: UserParams,
        body: Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }, { examples: [{ code: '7K2M-Q9XD-4TVA-H3PB' }] }),
        errors: ['award_access_denied', 'ots_code_unknown', 'ots_code_expired', 'ots_code_used', 'ots_attempts_exceeded', 'amount_out_of_range'],
        response: { 201: Envelope(Redemption) },
      },
    },
    async (request, reply) => {
      const { userId } = request.params;
      return reply.status(201).send({ response: await awards.redeem(authOf(request).siteId, userId, request.body.code) });
    },
  );
};

/** The successors of the deprecated award-catalog: each marketplace's award-marketplace-url. */
function marketplaceUrlPaths(userId: string, catalog: ReadonlyArray<{ type: string }>): string | string[] {
  const user = `/users/${encodeURIComponent(userId)}`;
  return catalog.length > 0 ? catalog.map((m) => `${user}/award-marketplace-url/${encodeURIComponent(m.type)}`) : `${user}/award-marketplace-url/{type}`;
}

function successorIsAccess(reply: FastifyReply, userId: string): void {
  deprecate(reply, { since: AWARD_ENDPOINTS_DEPRECATED, successor: `/users/${encodeURIComponent(userId)}/award-access`, title: 'call award-access' });
}

/** The three endpoints deprecated on 30 September 2026 (interface document §4, §9); no removal date, so no Sunset. */
const deprecatedAccountRoutes: AwardRoutes = async (app, { awards }) => {
  app.get(
    '/users/:userId/award-catalog',
    {
      config: user,
      schema: {
        operationId: 'listUserAwardMarketplaceUrls',
        tags,
        deprecated: true,
        summary: 'Deprecated: the sign-in URL of every marketplace; use award-marketplace-url/{type}',
        params: UserParams,
        response: { 200: Envelope(Type.Array(MarketplaceUrl)) },
      },
    },
    async (request, reply) => {
      const { userId } = request.params;
      const catalog = await awards.catalog(authOf(request).siteId, userId);
      deprecate(reply, { since: AWARD_ENDPOINTS_DEPRECATED, successor: marketplaceUrlPaths(userId, catalog), title: 'call award-marketplace-url/{type}' });
      return { response: catalog };
    },
  );

  app.get(
    '/users/:userId/award-country-code',
    {
      config: user,
      schema: {
        operationId: 'getUserAwardCountryCode',
        tags,
        deprecated: true,
        summary: "Deprecated: the user's award country; use award-access",
        params: UserParams,
        response: { 200: Envelope(Type.Object({ countryCode: Nullable(Type.String()) })) },
      },
    },
    async (request, reply) => {
      const { countryCode } = await awards.access(authOf(request).siteId, request.params.userId);
      successorIsAccess(reply, request.params.userId);
      return { response: { countryCode } };
    },
  );

  app.get(
    '/users/:userId/award-verification',
    {
      config: user,
      schema: {
        operationId: 'getUserAwardVerification',
        tags,
        deprecated: true,
        summary: 'Deprecated: whether the user is verified; use award-access',
        params: UserParams,
        response: { 200: Envelope(Type.Object({ verified: Type.Boolean() })) },
      },
    },
    async (request, reply) => {
      const { verified } = await awards.access(authOf(request).siteId, request.params.userId);
      successorIsAccess(reply, request.params.userId);
      return { response: { verified } };
    },
  );
};

/** The admin sets a user's award country and verification. */
const accessAdminRoutes: AwardRoutes = async (app, { awards }) => {
  app.patch(
    '/admin/users/:userId/award-access',
    {
      config: admin,
      schema: {
        operationId: 'updateUserAwardAccess',
        tags: adminTags,
        summary: "Set the user's award country and verification; what is left out stays",
        params: UserParams,
        body: AccessChange,
        response: { 200: Envelope(Access) },
      },
    },
    async (request) => {
      const { userId } = request.params;
      return { response: await awards.setAccess(authOf(request).siteId, userId, request.body) };
    },
  );
};

/** Batches of on-the-spot codes: issued, then counted. */
const codeBatchRoutes: AwardRoutes = async (app, { awards }) => {
  app.post(
    '/admin/ots-codes',
    {
      config: admin,
      schema: {
        operationId: 'issueOtsCodes',
        tags: adminTags,
        summary: 'Issue a batch of on-the-spot codes (201); the codes are in this response only',
        body: CodeBatchRequest,
        response: { 201: Envelope(CodeBatch) },
      },
    },
    async (request, reply) => {
      return reply.status(201).send({ response: await awards.issueCodes(authOf(request).siteId, request.body) });
    },
  );

  app.get(
    '/admin/ots-codes/:batchId',
    {
      config: admin,
      schema: {
        operationId: 'getOtsCodeBatch',
        tags: adminTags,
        summary: "A batch's codes: how many, and how many are redeemed",
        params: idParams('batchId'),
        errors: ['not_found'],
        response: { 200: Envelope(Type.Object({ batchId: Type.String(), count: Type.Integer(), redeemed: Type.Integer() })) },
      },
    },
    async (request) => {
      const { batchId } = request.params;
      return { response: await awards.batch(authOf(request).siteId, batchId) };
    },
  );
};

/** Marketplace purchases and gifts debited, and debits given back; a reference posted before answers 200. */
const debitRoutes: AwardRoutes = async (app, { awards }) => {
  app.post(
    '/admin/users/:userId/award-debits',
    {
      config: admin,
      schema: {
        operationId: 'debitUserAwardAccount',
        tags: adminTags,
        summary: 'Debit a marketplace purchase or a gift (201; 200 for a reference posted before); notifies itemPurchaseNotifyUrl or giftNotifyUrl',
        params: UserParams,
        body: DebitRequest,
        errors: ['conflict', 'insufficient_award_balance'],
        response: { 200: Envelope(Posted), 201: Envelope(Posted) },
      },
    },
    async (request, reply) => {
      const { userId } = request.params;
      const posted = await awards.debit(authOf(request).siteId, userId, request.body);
      return reply.status(posted.duplicate ? 200 : 201).send({ response: posted });
    },
  );

  app.post(
    '/admin/users/:userId/award-debits/:entryId/refund',
    {
      config: admin,
      schema: {
        operationId: 'refundAwardDebit',
        tags: adminTags,
        summary: 'Give a debit back in full (201; 200 when it was given back before)',
        params: idParams('userId', 'entryId'),
        errors: ['not_found'],
        response: { 200: Envelope(Posted), 201: Envelope(Posted) },
      },
    },
    async (request, reply) => {
      const { userId, entryId } = request.params;
      const posted = await awards.refund(authOf(request).siteId, userId, entryId);
      return reply.status(posted.duplicate ? 200 : 201).send({ response: posted });
    },
  );
};

/** The marketplaces' verification keys, public. */
const marketplaceKeyRoutes: AwardRoutes = async (app, { awards }) => {
  app.get(
    '/sites/:siteId/jwks.json',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getSiteJwks',
        tags,
        security: [],
        summary: "The site's public keys, which verify marketplace sign-in tokens (a JWK set)",
        params: idParams('siteId'),
        errors: ['not_found'],
        response: { 200: Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) }) },
      },
    },
    async (request, reply) => {
      const { siteId } = request.params;
      const jwks = await awards.jwks(siteId);
      reply.header('cache-control', 'public, max-age=300');
      return jwks;
    },
  );
};
