// What one party's decision of an action writes (applyDecision). Its progress, its completions
// with their supply claims, points, badges and webhook events, and its level go into the action's
// write set (src/modules/ledger/); its cached state is kept in step, and what happened is added to
// the action's outcome.
import { uuidv7 } from '../../uuid.js';
import type { ScoreChange } from '../../engine/elements/leaderboards.js';
import type { ActionEvent, Decision, EngineMission, MissionCompletion, PointsAward } from '../../engine/types.js';
import type { Trx } from '../../db/index.js';
import type { PointsLedgerTable } from '../../db/schema.js';
import { mirrorPoints } from '../ledger/award-entries.js';
import { changeLevel } from '../ledger/level-changes.js';
import { lifetimeDelta, type PartyKey, type WriteSet } from '../ledger/write-set.js';
import type { ProgramSnapshot } from '../program/snapshot.js';
import type { ActionOutcome } from './outcome.js';
import type { PartyEntry } from './party-cache.js';
import { earnedKey, missionEntry } from './party-state.js';
import type { Periods, RateWindow } from './reads.js';
import type { ProgressUpdate } from './repository.js';

/** What the decisions of one action's parties share: the event and its windows, and the write set they add to. */
export interface ActionContext {
  trx: Trx;
  snapshot: ProgramSnapshot;
  now: number;
  eventId: string;
  event: ActionEvent;
  periods: Periods;
  /** The action's rate-limit window holding the event (for the party that logs it, not the groups it advances). */
  rateWindow: RateWindow | undefined;
  /** Everything the decision writes, written at once at the end (src/modules/ledger/). */
  writes: WriteSet;
}

/** Writes one party's decision, keeping its cached state in step; adds what happened to the response and returns it for the leaderboards. */
export async function applyDecision(
  context: ActionContext,
  party: PartyKey,
  entry: PartyEntry,
  decision: Decision,
  outcome: ActionOutcome,
): Promise<ScoreChange[]> {
  const { trx, writes, snapshot, event } = context;
  const changes: ScoreChange[] = [];
  setProgress(context, party, entry, decision.progress);
  for (const update of decision.progress) outcome.progress.push({ challengeId: update.missionId, percentComplete: update.percentComplete });
  for (const completion of decision.completions) {
    const mission = snapshot.missionsById.get(completion.missionId) as EngineMission;
    const completionId = complete(context, party, entry, mission, completion);
    for (const award of completion.points) {
      const ledgerEntry = missionCredit(context, party, award, completionId);
      writes.post(ledgerEntry, lifetimeDelta(ledgerEntry));
      await mirrorPoints(trx, writes, snapshot.program.awardSettings, ledgerEntry);
      keepCredited(context, party, entry, award);
      // A group mission's reward, completed by a member's action, is the group's: said so.
      outcome.pointsAwarded.push(party.type === 'group' ? { ...award, groupId: party.id } : award);
      if (award.credited !== 0) changes.push({ kind: 'points', category: award.category, amount: award.credited, at: event.timestamp });
    }
    announce(context, party, mission, completion, completionId);
    outcome.missionsCompleted.push({ id: mission.id, name: mission.name, completionId });
    changes.push({ kind: 'completion', at: event.timestamp });
  }
  if (decision.levelChanged !== undefined && party.type === 'user') {
    outcome.levelChanged = changeLevel(writes, party, decision.levelChanged, { actionEventId: context.eventId }, event.timestamp, context.now);
  }
  return changes;
}

function setProgress({ writes, now }: ActionContext, party: PartyKey, entry: PartyEntry, updates: ReadonlyArray<ProgressUpdate>): void {
  for (const { missionId, windowStart, rules } of updates) {
    writes.setProgress(party, missionId, windowStart, rules, now);
    const mission = missionEntry(entry, missionId);
    mission.windowStart = windowStart;
    mission.progress = new Map(rules.map((rule) => [rule.ruleId, rule.current]));
  }
}

/** The completion's row (and its claim on the mission's supply), counted in the party's state; its id. */
function complete(
  { writes, eventId, event, now }: ActionContext,
  party: PartyKey,
  entry: PartyEntry,
  mission: EngineMission,
  completion: MissionCompletion,
): string {
  // (A unit of the mission's site-wide supply: taken when the set is written, if still left.)
  if (completion.usesSupply) writes.claimSupply(party.siteId, mission.id, mission.supply as number);
  const completionId = `cmp_${uuidv7()}`;
  writes.completions.push({
    site_id: party.siteId,
    completion_id: completionId,
    party_type: party.type,
    party_id: party.id,
    mission_id: mission.id,
    window_start: completion.windowStart,
    event_id: eventId,
    completed_at: event.timestamp,
    recorded_at: now,
    removed_at: null,
    badge_id: completion.badge ?? null,
  });
  const completed = missionEntry(entry, mission.id);
  completed.completions.set(completion.windowStart, (completed.completions.get(completion.windowStart) ?? 0) + 1);
  completed.completionsTotal += 1;
  return completionId;
}

/** The points ledger entry of one reward of a completion. */
function missionCredit({ eventId, event, now }: ActionContext, party: PartyKey, award: PointsAward, completionId: string): PointsLedgerTable {
  return {
    site_id: party.siteId,
    entry_id: `pts_${uuidv7()}`,
    party_type: party.type,
    party_id: party.id,
    category: award.category,
    requested: award.requested,
    credited: award.credited,
    cause: 'mission' as const,
    cause_id: completionId,
    event_id: eventId,
    reason: null,
    occurred_at: event.timestamp,
    recorded_at: now,
  };
}

/** The credit in the party's cap totals (written) and cached lifetime points. */
function keepCredited({ writes, periods }: ActionContext, party: PartyKey, entry: PartyEntry, award: PointsAward): void {
  const lifetime = entry.lifetime.get(award.category);
  if (lifetime !== undefined) entry.lifetime.set(award.category, lifetime + Math.max(0, award.credited));
  if (award.credited > 0) {
    for (const period of ['day', 'year'] as const) {
      writes.addEarnings(party, award.category, period, periods[period], award.credited);
      const key = earnedKey(award.category, period, periods[period]);
      const earned = entry.earned.get(key);
      if (earned !== undefined) entry.earned.set(key, earned + award.credited);
    }
  }
}

/** The completion's badge in the trophy case, and its webhook events. */
function announce(
  { writes, snapshot, eventId, event, now }: ActionContext,
  party: PartyKey,
  mission: EngineMission,
  completion: MissionCompletion,
  completionId: string,
): void {
  if (completion.badge !== undefined) {
    writes.addTrophy(party, completion.badge, event.timestamp);
    const badge = snapshot.program.badges.find((b) => b.id === completion.badge);
    writes.enqueue(
      party,
      {
        type: 'badge.earned',
        occurredAt: event.timestamp,
        data: { badge: { id: completion.badge, name: badge?.name ?? completion.badge }, completionId, actionEventId: eventId },
      },
      now,
    );
  }
  writes.enqueue(
    party,
    {
      type: 'mission.completed',
      occurredAt: event.timestamp,
      data: {
        mission: { id: mission.id, name: mission.name },
        completionStatus: 'completed',
        completionId,
        points: completion.points.map((award) => ({
          category: award.category,
          amount: award.credited,
          ...(award.boost !== undefined ? { boost: award.boost } : {}),
        })),
        actionEventId: eventId,
        timestamp: new Date(event.timestamp).toISOString(),
      },
    },
    now,
  );
}
