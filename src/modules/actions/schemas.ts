// What logging an action answers (SPEC §5): the outcome, as the action routes and the writers that
// log a system action with their own answer (quizzes, recognitions, awards) send it.
import { Type } from 'typebox';

const Level = Type.Union([Type.Null(), Type.Object({ id: Type.String(), name: Type.String() })]);
const AppliedBoost = Type.Object(
  {
    id: Type.String(),
    name: Type.Optional(Type.String()),
    multiplier: Type.Number(),
    requestedBefore: Type.Integer({ description: 'What the reward asked for before the boost' }),
  },
  { description: 'The boost in force for this reward (the largest multiplier when several were); absent when none was' },
);
/** A badge an action earned, as the program names it; in the trophy case of the user or of a group whose mission it completed. */
export const BadgeEarned = Type.Object({
  id: Type.String(),
  name: Type.String(),
  iconUrl: Type.Optional(Type.String({ description: 'The badge’s icon, when the program gives one' })),
  userId: Type.Optional(Type.String({ description: 'The user whose trophy case it went to' })),
  groupId: Type.Optional(Type.String({ description: 'The group whose trophy case it went to (a group mission the action completed)' })),
});

export const ActionOutcomeSchema = Type.Object(
  {
    eventId: Type.String(),
    recorded: Type.Boolean(),
    reason: Type.Optional(Type.Union([Type.Literal('repeat_suppressed'), Type.Literal('rate_limited')])),
    duplicate: Type.Boolean(),
    timestamp: Type.String({ format: 'date-time' }),
    pointsAwarded: Type.Array(
      Type.Object({
        category: Type.String(),
        requested: Type.Integer({ description: 'What the reward asked for (boosted, when a boost applied) before the caps' }),
        credited: Type.Integer(),
        boost: Type.Optional(AppliedBoost),
        groupId: Type.Optional(
          Type.String({ description: "Credited to this group's balance: the reward of a group mission the action completed (absent: the logging party's)" }),
        ),
      }),
    ),
    missionsCompleted: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), completionId: Type.String() })),
    progress: Type.Array(Type.Object({ challengeId: Type.String(), percentComplete: Type.Integer() })),
    levelChanged: Type.Optional(Type.Object({ from: Level, to: Level, direction: Type.Union([Type.Literal('up'), Type.Literal('down')]) })),
    streaksExtended: Type.Optional(
      Type.Array(
        Type.Object({
          id: Type.String(),
          name: Type.String(),
          period: Type.String({ format: 'date', description: 'The first local day of the period that newly counts' }),
          current: Type.Integer(),
          longest: Type.Integer(),
          freezesLeft: Type.Integer(),
          periodEnds: Type.String({ format: 'date-time', description: 'When the current period ends' }),
          milestones: Type.Array(
            Type.Object({
              length: Type.Integer(),
              points: Type.Array(Type.Object({ category: Type.String(), amount: Type.Integer() })),
              badge: Type.Union([Type.String(), Type.Null()]),
            }),
            { description: 'The milestones the run reached and was paid (usually none)' },
          ),
        }),
        { description: "The user's streaks the action made a new period count for, as of now; absent when none" },
      ),
    ),
    badgesEarned: Type.Array(BadgeEarned, {
      description:
        'The badges the action put in a trophy case (a completed mission’s reward, a streak milestone’s), in the order earned; ' +
        'empty when none. A dry run’s: those it would award',
    }),
    webhooks: Type.Optional(
      Type.Array(
        Type.Object({
          eventType: Type.String(),
          destinations: Type.Array(Type.Object({ destination: Type.String({ description: 'site:<setting> or endpoint:<id>' }), url: Type.String() })),
          payload: Type.Record(Type.String(), Type.Unknown(), {
            description: 'The event as it would be sent (its ids are the dry run’s; the user’s names are added when sent)',
          }),
        }),
        { description: "Dry run only, for a client's token: the webhook events the action would send, and where" },
      ),
    ),
  },
  {
    examples: [
      {
        eventId: 'cms-article-4711-read',
        recorded: true,
        duplicate: false,
        timestamp: '2026-11-27T14:30:00.000Z',
        pointsAwarded: [{ category: 'Points', requested: 10, credited: 10 }],
        missionsCompleted: [{ id: 'm-first-read', name: 'First read', completionId: 'cmp_01936a4e-7c2b-7d3e-9f10-2b3c4d5e6f70' }],
        progress: [{ challengeId: 'm-first-read', percentComplete: 100 }],
        badgesEarned: [{ id: 'b-reader', name: 'Reader', iconUrl: 'https://cdn.acme.example/badges/reader.png', userId: 'ann' }],
      },
    ],
  },
);
