// GET /admin/analytics/overview (docs/analytics.md): the console's overview of a site's program,
// every series of the last 7, 30 or 90 days (site time zone) in one answer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope } from '../../http/paging.js';
import { Instant, Nullable } from '../../http/schemas.js';
import { authOf } from '../../plugins/auth.js';
import { RANGES } from './days.js';
import type { AnalyticsService } from './service.js';

const PerDay = Type.Array(Type.Integer(), { description: 'One figure per day of `days`, in the same order (oldest first)' });
const Figures = { total: Type.Integer({ description: 'The sum over the range' }), perDay: PerDay };

const OverviewQuery = Type.Object({
  days: Type.Optional(
    Type.Union(
      RANGES.map((n) => Type.Literal(n)),
      { default: 30, description: `The range: the last ${RANGES.join(', ')} days up to today (today included), in the site's time zone` },
    ),
  ),
});

const Overview = Type.Object({
  timezone: Type.String({ description: "The site's time zone, which the days are of" }),
  days: Type.Array(Type.String({ format: 'date' }), { description: 'YYYY-MM-DD, oldest first, today last: every day of the range' }),
  generatedAt: Instant,
  actions: Type.Object(
    {
      ...Figures,
      byAction: Type.Array(Type.Object({ action: Type.String(), ...Figures }), { description: 'Actions recorded in the range, most first' }),
    },
    { description: 'Recorded actions of users and groups, on the day of their timestamp; a reversed action still counts (it happened)' },
  ),
  activeUsers: Type.Object(
    { perDay: PerDay },
    { description: 'Users with at least one recorded action of their own that day (receiving a recognition does not count)' },
  ),
  points: Type.Array(Type.Object({ category: Type.String(), isDefault: Type.Boolean(), ...Figures }), {
    description:
      'Points issued per category, net: credits less the debits that took points back, on the day the points count (a reversal lowers the day of the credit it takes back)',
  }),
  completions: Type.Object(
    {
      ...Figures,
      missions: Type.Array(Type.Object({ missionId: Type.String(), name: Type.String(), ...Figures }), {
        description: 'Every mission of the program in its order, then missions no longer in it that completed in the range',
      }),
    },
    { description: 'Mission completions on the day of the completing action, net: a removed completion no longer counts' },
  ),
  topMissions: Type.Array(Type.Object({ missionId: Type.String(), name: Type.String(), completions: Type.Integer() }), {
    description: 'The 10 missions completed most in the range (none with 0)',
  }),
  levels: Type.Array(Type.Object({ levelId: Type.String(), name: Type.String(), ...Figures }), {
    description: 'Times a user reached each level (a change up into it), per day',
  }),
  webhooks: Type.Object(
    {
      delivered: PerDay,
      failed: PerDay,
      pending: PerDay,
      backlog: Type.Object({
        pending: Type.Integer({ description: 'Deliveries waiting for an attempt' }),
        retrying: Type.Integer({ description: 'Of those, deliveries that failed at least once' }),
        oldestPendingAt: Nullable(Instant),
        unrouted: Type.Integer({ description: 'Events written, not routed into deliveries yet' }),
      }),
    },
    { description: 'Deliveries made each day by their status now (failed: given up after 3 days of retries), and what waits now' },
  ),
});

export const analyticsRoutes: FastifyPluginAsyncTypebox<{ analytics: AnalyticsService }> = async (app, { analytics }) => {
  app.get(
    '/admin/analytics/overview',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'getAnalyticsOverview',
        tags: ['admin: analytics'],
        summary: "The program's health per day: actions, active users, points, completions, levels and webhook deliveries",
        querystring: OverviewQuery,
        response: { 200: Envelope(Overview) },
      },
    },
    async (request) => {
      const { siteId } = authOf(request);
      return { response: await analytics.overview(siteId, request.query.days ?? 30) };
    },
  );
};
