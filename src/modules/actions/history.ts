// GET /users/{u}/actions and GET /admin/actions/log (SPEC §8): recorded actions, newest first,
// filtered by time and action, paged with an opaque cursor (stable under concurrent inserts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { Id, idParams } from '../../http/ids.js';
import { Envelope, PagingQuery } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import type { ProgramService } from '../program/service.js';
import { MAX_INSTANT, parseInstant } from './input.js';
import type { ActionService } from './service.js';

const historyFields = {
  from: Type.Optional(Type.String({ description: 'Inclusive lower bound (ISO 8601 or epoch)' })),
  to: Type.Optional(Type.String({ description: 'Exclusive upper bound (ISO 8601 or epoch)' })),
  action: Type.Optional(Type.String({ maxLength: 255 })),
  limit: PagingQuery.properties.limit,
  cursor: Type.Optional(Type.String({ maxLength: 600, description: 'From the X-Next-Cursor header of the previous page' })),
};
const HistoryQuery = Type.Object(historyFields);
const LogQuery = Type.Object({ ...historyFields, userId: Type.Optional(Id) });

const LoggedAction = Type.Object({
  eventId: Type.String(),
  userId: Type.Optional(Type.String()),
  groupId: Type.Optional(Type.String()),
  action: Type.String(),
  value: Type.Number(),
  metadata: Type.Record(Type.String(), Type.String()),
  timestamp: Type.String({ format: 'date-time' }),
  receivedAt: Type.String({ format: 'date-time' }),
  reversedAt: Type.Optional(Type.String({ format: 'date-time', description: 'Present when an admin reversed the action (its effects were taken back)' })),
});

interface Filters {
  from?: string | undefined;
  to?: string | undefined;
  action?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

function decodeCursor(cursor: string): { at: number; eventId: string } {
  try {
    const [at, eventId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    // The instant goes to a bigint column: a whole number of milliseconds a Date can hold.
    if (Number.isSafeInteger(at) && (at as number) >= 0 && (at as number) <= MAX_INSTANT && typeof eventId === 'string') return { at: at as number, eventId };
  } catch {
    // reported below
  }
  throw new AppError('validation_failed', 'The request is invalid', { errors: [{ path: 'querystring.cursor', message: 'is not a cursor this API returned' }] });
}

async function page(
  actions: ActionService,
  request: FastifyRequest,
  reply: FastifyReply,
  siteId: string,
  timezone: string,
  filters: Filters,
  party?: { type: 'user'; id: string },
) {
  const bound = (name: 'from' | 'to') => {
    const raw = filters[name];
    if (raw === undefined) return undefined;
    const instant = parseInstant(raw, timezone);
    if (instant === undefined)
      throw new AppError('validation_failed', 'The request is invalid', {
        errors: [{ path: `querystring.${name}`, message: 'must be ISO 8601 or a Unix epoch number' }],
      });
    return instant;
  };
  const from = bound('from');
  const to = bound('to');
  const limit = filters.limit ?? 50;
  const before = filters.cursor !== undefined ? decodeCursor(filters.cursor) : undefined;
  const rows = await actions.history({ siteId, party, from, to, action: filters.action, before, limit: limit + 1 });
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  if (rows.length > limit && last !== undefined) {
    const cursor = Buffer.from(JSON.stringify([last.occurred_at, last.event_id])).toString('base64url');
    reply.header('x-next-cursor', cursor);
    const url = new URL(request.url, 'http://questline.invalid');
    url.searchParams.set('cursor', cursor);
    reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
  }
  return items.map((row) => ({
    eventId: row.event_id,
    ...(row.party_type === 'user' ? { userId: row.party_id } : { groupId: row.party_id }),
    action: row.action,
    value: Number(row.value),
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    timestamp: new Date(Number(row.occurred_at)).toISOString(),
    receivedAt: new Date(Number(row.received_at)).toISOString(),
    ...(row.reversed_at !== null ? { reversedAt: new Date(Number(row.reversed_at)).toISOString() } : {}),
  }));
}

const DAY = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD (site time zone)' });

type ActionHistoryRoutes = FastifyPluginAsyncTypebox<{ actions: ActionService; programs: ProgramService }>;

export const actionHistoryRoutes: ActionHistoryRoutes = async (app, options) => {
  await app.register(recordedActionRoutes, options);
  await app.register(activeUserRoutes, options);
};

/** The recorded actions, a user's or the whole site's, a page at a time. */
const recordedActionRoutes: ActionHistoryRoutes = async (app, { actions, programs }) => {
  app.get(
    '/users/:userId/actions',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'listUserActions',
        tags: ['actions'],
        summary: "The user's recorded actions, newest first",
        params: idParams('userId'),
        querystring: HistoryQuery,
        response: { 200: Envelope(Type.Array(LoggedAction)) },
      },
    },
    async (request, reply) => {
      const { siteId } = authOf(request);
      const { userId } = request.params;
      const { program } = await programs.snapshot(siteId);
      return { response: await page(actions, request, reply, siteId, program.site.timezone, request.query, { type: 'user', id: userId }) };
    },
  );

  app.get(
    '/admin/actions/log',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'listSiteActions',
        tags: ['admin: actions'],
        summary: 'Every recorded action of the site, newest first',
        querystring: LogQuery,
        response: { 200: Envelope(Type.Array(LoggedAction)) },
      },
    },
    async (request, reply) => {
      const { siteId } = authOf(request);
      const { program } = await programs.snapshot(siteId);
      const { userId, ...filters } = request.query;
      return {
        response: await page(actions, request, reply, siteId, program.site.timezone, filters, userId !== undefined ? { type: 'user', id: userId } : undefined),
      };
    },
  );
};

/** How many users acted on each day of a range. */
const activeUserRoutes: ActionHistoryRoutes = async (app, { actions }) => {
  app.get(
    '/admin/actions/active-users',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'listDailyActiveUsers',
        tags: ['admin: actions'],
        summary: 'Users with at least one recorded action per day (the calendar day of the action timestamp, so backdated actions count on their day)',
        querystring: Type.Object({ from: DAY, to: DAY }),
        response: { 200: Envelope(Type.Array(Type.Object({ date: Type.String(), activeUsers: Type.Integer() }))) },
      },
    },
    async (request) => {
      const { siteId } = authOf(request);
      const { from, to } = request.query;
      if (from > to)
        throw new AppError('validation_failed', 'The request is invalid', { errors: [{ path: 'querystring.to', message: 'must not be before from' }] });
      const days = await actions.activeUsers(siteId, from, to);
      return { response: days.map((day) => ({ date: day.day, activeUsers: day.users })) };
    },
  );
};
