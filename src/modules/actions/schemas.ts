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
export const ActionOutcomeSchema = Type.Object({
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
  badgesEarned: Type.Optional(
    Type.Array(Type.Object({ id: Type.String(), name: Type.String(), userId: Type.Optional(Type.String()), groupId: Type.Optional(Type.String()) }), {
      description: 'Dry run only: the badges the action would award (a user’s, or a group’s whose mission it completes)',
    }),
  ),
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
});
