// Admin API for webhooks (SPEC §12): endpoint subscriptions, the delivery log and redelivery, and
// the signing secret (read in full, rotated with a day of overlap).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { formLists } from '../../http/form.js';
import { idParams } from '../../http/ids.js';
import { optionalBody } from '../../http/json.js';
import { Envelope, pageResponse, PagingQuery } from '../../http/paging.js';
import { Instant, Nullable } from '../../http/schemas.js';
import { authOf } from '../../plugins/auth.js';
import { EVENT_TYPES, SUBSCRIBABLE_TYPES } from '../program/event-routing.js';
import type { WebhookSecrets } from './signing-secrets.js';
import type { WebhookAdminService } from './service.js';

const admin = { access: 'admin' as const };
const tags = ['admin: webhooks'];

const EndpointParams = idParams('endpointId');
const DeliveryParams = idParams('deliveryId');
const EndpointBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'http or https' }),
    eventTypes: Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 10, description: `Any of ${SUBSCRIBABLE_TYPES.join(', ')}` }),
    description: Type.Optional(Type.String({ maxLength: 255 })),
  },
  {
    examples: [
      {
        url: 'https://hooks.acme.example/questline/announcements',
        eventTypes: ['badge.earned', 'level.changed'],
        description: 'Announce badges and levels in the team channel',
      },
    ],
  },
);
const Endpoint = Type.Object({
  id: Type.String(),
  url: Type.String(),
  eventTypes: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  createdAt: Instant,
});

const Status = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('dead')]);
const Delivery = Type.Object({
  id: Type.String(),
  eventId: Type.String({ description: 'Also the webhook-id header: the same on every attempt' }),
  eventType: Type.String(),
  userId: Type.Optional(Type.String()),
  groupId: Type.Optional(Type.String()),
  destination: Type.String({ description: 'site:<setting> or endpoint:<id>' }),
  status: Status,
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(Instant),
  lastAttemptAt: Nullable(Instant),
  lastUrl: Nullable(Type.String()),
  lastStatus: Nullable(Type.Integer({ description: 'The HTTP status of the last reply, null when none came' })),
  lastError: Nullable(Type.String()),
  deliveredAt: Nullable(Instant),
  createdAt: Instant,
});
const Secret = Type.Object({
  secret: Type.String({ description: 'whsec_… (Standard Webhooks)' }),
  previousSecretValidUntil: Nullable(Instant),
});

const DeliveriesQuery = Type.Intersect([
  PagingQuery,
  Type.Object({
    status: Type.Optional(Status),
    eventType: Type.Optional(Type.Union(EVENT_TYPES.map((type) => Type.Literal(type)))),
    userId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  }),
]);

/** A form body gives eventTypes as a repeated key or one comma-separated value. */
const lists = { preValidation: async (request: Parameters<typeof formLists>[0]) => formLists(request, ['eventTypes']) };

type WebhookRoutes = FastifyPluginAsyncTypebox<{ webhooks: WebhookAdminService; secrets: WebhookSecrets }>;

export const webhookRoutes: WebhookRoutes = async (app, options) => {
  await app.register(endpointRoutes, options);
  await app.register(deliveryRoutes, options);
  await app.register(secretRoutes, options);
};

/** The endpoints subscribed to event types. */
const endpointRoutes: WebhookRoutes = async (app, { webhooks }) => {
  app.get(
    '/admin/webhook-endpoints',
    {
      config: admin,
      schema: { operationId: 'listWebhookEndpoints', tags, summary: 'Endpoints subscribed to event types', response: { 200: Envelope(Type.Array(Endpoint)) } },
    },
    async (request) => ({ response: await webhooks.endpoints(authOf(request).siteId) }),
  );

  app.post(
    '/admin/webhook-endpoints',
    {
      config: admin,
      ...lists,
      schema: {
        operationId: 'createWebhookEndpoint',
        tags,
        summary: 'Subscribe an endpoint to event types that have no site URL',
        body: EndpointBody,
        response: { 201: Envelope(Endpoint) },
      },
    },
    async (request, reply) => reply.status(201).send({ response: await webhooks.createEndpoint(authOf(request).siteId, request.body) }),
  );

  app.get(
    '/admin/webhook-endpoints/:endpointId',
    {
      config: admin,
      schema: {
        operationId: 'getWebhookEndpoint',
        tags,
        summary: 'One endpoint',
        params: EndpointParams,
        errors: ['not_found'],
        response: { 200: Envelope(Endpoint) },
      },
    },
    async (request) => ({ response: await webhooks.endpoint(authOf(request).siteId, request.params.endpointId) }),
  );

  app.put(
    '/admin/webhook-endpoints/:endpointId',
    {
      config: admin,
      ...lists,
      schema: {
        operationId: 'replaceWebhookEndpoint',
        tags,
        summary: "Replace an endpoint's URL, event types and description",
        params: EndpointParams,
        body: EndpointBody,
        errors: ['not_found'],
        response: { 200: Envelope(Endpoint) },
      },
    },
    async (request) => ({ response: await webhooks.updateEndpoint(authOf(request).siteId, request.params.endpointId, request.body) }),
  );

  app.delete(
    '/admin/webhook-endpoints/:endpointId',
    {
      config: admin,
      schema: {
        operationId: 'deleteWebhookEndpoint',
        tags,
        summary: 'Remove an endpoint (its pending deliveries end as dead)',
        params: EndpointParams,
        errors: ['not_found'],
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await webhooks.deleteEndpoint(authOf(request).siteId, request.params.endpointId);
      return reply.status(204).send(null);
    },
  );
};

/** The delivery log, and sending a delivery again. */
const deliveryRoutes: WebhookRoutes = async (app, { webhooks }) => {
  app.get(
    '/admin/webhook-deliveries',
    {
      config: admin,
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'Webhook deliveries, newest first (X-Total-Count has the total)',
        querystring: DeliveriesQuery,
        response: { 200: Envelope(Type.Array(Delivery)) },
      },
    },
    async (request, reply) => {
      const { limit = 50, offset = 0, status, eventType, userId } = request.query;
      const { deliveries, total } = await webhooks.deliveries(authOf(request).siteId, { limit, offset, status, eventType, userId });
      return pageResponse(reply, deliveries, total);
    },
  );

  app.get(
    '/admin/webhook-deliveries/:deliveryId',
    {
      config: admin,
      schema: {
        operationId: 'getWebhookDelivery',
        tags,
        summary: 'One delivery',
        params: DeliveryParams,
        errors: ['not_found'],
        response: { 200: Envelope(Delivery) },
      },
    },
    async (request) => ({ response: await webhooks.delivery(authOf(request).siteId, request.params.deliveryId) }),
  );

  app.post(
    '/admin/webhook-deliveries/:deliveryId/redeliver',
    {
      config: admin,
      schema: {
        operationId: 'redeliverWebhookDelivery',
        tags,
        summary: 'Send a delivery again, whatever its status, with a new 3-day retry window',
        params: DeliveryParams,
        errors: ['not_found'],
        response: { 202: Envelope(Delivery) },
      },
    },
    async (request, reply) => reply.status(202).send({ response: await webhooks.redeliver(authOf(request).siteId, request.params.deliveryId) }),
  );
};

/** The signing secret, read in full and rotated. */
const secretRoutes: WebhookRoutes = async (app, { secrets }) => {
  app.get(
    '/admin/webhook-secret',
    {
      config: admin,
      schema: { operationId: 'getWebhookSecret', tags, summary: 'The signing secret in full (created on first use)', response: { 200: Envelope(Secret) } },
    },
    async (request) => ({ response: await secrets.reveal(authOf(request).siteId) }),
  );

  app.post(
    '/admin/webhook-secret/rotate',
    {
      config: admin,
      schema: {
        operationId: 'rotateWebhookSecret',
        tags,
        summary: 'Replace the signing secret (given, or generated); the old one keeps signing beside it for 24 hours',
        body: Type.Object(
          { secret: Type.Optional(Type.String({ maxLength: 255, description: 'whsec_ and 24–64 bytes in base64; generated when absent' })) },
          { examples: [{ secret: 'whsec_a3fitlaEiqQzGdr7YFCiwcjn4jIfKPhK' }] },
        ),
        response: { 200: Envelope(Secret) },
      },
      preValidation: optionalBody,
    },
    async (request) => ({ response: await secrets.rotate(authOf(request).siteId, request.body.secret) }),
  );
};
