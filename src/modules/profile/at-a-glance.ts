// GET /users/{u}/at-a-glance (SPEC §7): one summary of the user from the other reads: name and
// icon, points, level, badges, mission counts, rank on the primary leaderboard, last actions (each
// with the program's description of it and the points it earned, so that a block can say it in words).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { idParams } from '../../http/ids.js';
import { Envelope } from '../../http/paging.js';
import { authOf } from '../../plugins/auth.js';
import type { ActionService } from '../actions/service.js';
import type { LeaderboardService } from '../leaderboards/service.js';
import type { MissionReadService } from '../missions/service.js';
import type { ProgramService } from '../program/service.js';
import type { PreferencesService } from '../users/preferences.js';
import type { CategoryBalance, ProfileService } from './service.js';

const LATEST_BADGES = 3;
const RECENT_ACTIONS = 5;

const Level = Type.Union([Type.Null(), Type.Object({ id: Type.String(), name: Type.String(), iconUrl: Type.Optional(Type.String()) })]);
const AtAGlance = Type.Object({
  userId: Type.String(),
  firstName: Type.Union([Type.String(), Type.Null()]),
  lastName: Type.Union([Type.String(), Type.Null()]),
  iconUrl: Type.Union([Type.String(), Type.Null()]),
  points: Type.Object({
    balance: Type.Integer(),
    lifetimeBalance: Type.Integer(),
    category: Type.Union([Type.String(), Type.Null()]),
    expiringSoon: Type.Optional(
      Type.Union([Type.Object({ amount: Type.Integer(), date: Type.String({ format: 'date-time' }) }), Type.Null()], {
        description: 'Only when the default category has an expiry rule: its next points to expire (as in GET /users/{u}/point-balance)',
      }),
    ),
  }),
  level: Type.Object({
    current: Level,
    next: Level,
    pointsToNext: Type.Union([Type.Integer(), Type.Null()]),
    percentToNext: Type.Union([Type.Integer(), Type.Null()]),
  }),
  badges: Type.Object({
    count: Type.Integer({ description: 'Distinct badges in the trophy case' }),
    latest: Type.Array(
      Type.Object({ id: Type.String(), name: Type.String(), iconUrl: Type.Optional(Type.String()), lastEarnedAt: Type.String({ format: 'date-time' }) }),
    ),
  }),
  missions: Type.Object({
    completed: Type.Integer({ description: 'Distinct missions completed' }),
    inProgress: Type.Integer({ description: 'Eligible missions with some progress' }),
    eligible: Type.Integer(),
  }),
  rank: Type.Union([Type.Integer(), Type.Null()], {
    description: "Rank on the site's primary leaderboard in its current window (null: no primary board, or not on it)",
  }),
  recentActions: Type.Array(
    Type.Object({
      eventId: Type.String(),
      action: Type.String({ description: "The action's name (system actions: QUIZ_COMPLETED, OTS_REDEMPTION, RECOGNITION_GIVEN, RECOGNITION_RECEIVED)" }),
      description: Type.Union([Type.String(), Type.Null()], {
        description: "The action's description in the current program (null: none, or a system action the program does not describe)",
      }),
      value: Type.Number(),
      pointsEarned: Type.Array(Type.Object({ category: Type.String(), amount: Type.Integer() }), {
        description: 'The points the action credited, per category (none when it credited none, or was reversed)',
      }),
      timestamp: Type.String({ format: 'date-time' }),
    }),
  ),
});
export type AtAGlance = Static<typeof AtAGlance>;

export const atAGlanceRoutes: FastifyPluginAsyncTypebox<{
  actions: ActionService;
  profiles: ProfileService;
  preferences: PreferencesService;
  missions: MissionReadService;
  leaderboards: LeaderboardService;
  programs: ProgramService;
}> = async (app, { actions, profiles, preferences, missions, leaderboards, programs }) => {
  app.get(
    '/users/:userId/at-a-glance',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'getUserAtAGlance',
        tags: ['profile'],
        summary: "A summary of the user's activity",
        params: idParams('userId'),
        response: { 200: Envelope(AtAGlance) },
      },
    },
    async (request) => {
      const { siteId } = authOf(request);
      const { userId } = request.params;
      const [prefs, balance, levels, badges, counts, rank, recent, program] = await Promise.all([
        preferences.read(siteId, userId),
        profiles.pointBalance(siteId, userId),
        profiles.levels(siteId, userId),
        profiles.badges(siteId, userId, LATEST_BADGES, 0),
        missions.counts(siteId, 'user', userId),
        leaderboards.primaryRank(siteId, userId),
        actions.recentActions(siteId, userId, RECENT_ACTIONS),
        programs.snapshot(siteId),
      ]);
      const level = (l: { id: string; name: string; iconUrl?: string | undefined } | null) =>
        l === null ? null : { id: l.id, name: l.name, ...(l.iconUrl !== undefined ? { iconUrl: l.iconUrl } : {}) };
      return {
        response: {
          userId,
          firstName: prefs.firstName,
          lastName: prefs.lastName,
          iconUrl: prefs.iconUrl,
          points: pointsOf(balance),
          level: { current: level(levels.current), next: level(levels.next), pointsToNext: levels.pointsToNext, percentToNext: levels.percentToNext },
          badges: {
            count: badges.total,
            latest: badges.badges.map((b) => ({
              id: b.id,
              name: b.name,
              ...(b.iconUrl !== undefined ? { iconUrl: b.iconUrl } : {}),
              lastEarnedAt: b.lastEarnedAt,
            })),
          },
          missions: counts,
          rank,
          recentActions: recent.map(({ eventId, action, value, pointsEarned, occurredAt }) => ({
            eventId,
            action,
            description: program.actionsByName.get(action.toLowerCase())?.description ?? null,
            value,
            pointsEarned,
            timestamp: new Date(occurredAt).toISOString(),
          })),
        },
      };
    },
  );
};

/** The default category's figures, and its next expiry when it has an expiry rule. */
function pointsOf(balance: { balance: number; lifetimeBalance: number; categories: CategoryBalance[] }): AtAGlance['points'] {
  const main = balance.categories.find((c) => c.isDefault);
  return {
    balance: balance.balance,
    lifetimeBalance: balance.lifetimeBalance,
    category: main?.id ?? null,
    ...(main?.expiringSoon !== undefined ? { expiringSoon: main.expiringSoon } : {}),
  };
}
