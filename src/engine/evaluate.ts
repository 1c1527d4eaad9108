// (program, party state, action) → decision: SPEC §5 steps 3–8 for one party. Idempotency,
// unknown actions and input validation (steps 1–2) happen before, in the service; recording and
// writing the decision happen after it, in one transaction.
import { boostFor, creditReward } from './elements/boosts.js';
import { isEligible } from './elements/eligibility.js';
import { isRateLimited, isSuppressedRepeat } from './elements/limits.js';
import { levelChange } from './elements/levels.js';
import { advance, isWithinDates, mayComplete, percentComplete, prerequisitesHold, ruleMatches, windowStart } from './elements/missions.js';
import { CapLedger, requestedPoints } from './elements/points.js';
import type { ActionEvent, Decision, EngineMission, EngineProgram, MissionCompletion, MissionProgressUpdate, Party, PartyState } from './types.js';

export interface EvaluateOptions {
  /**
   * The action was already recorded for a member of this group: skip the recording checks
   * (suppression and rate limits belong to the acting user) and only advance group missions.
   */
  memberAction?: boolean;
}

export function evaluate(program: EngineProgram, party: Party, state: PartyState, event: ActionEvent, options: EvaluateOptions = {}): Decision {
  if (!options.memberAction) {
    if (isSuppressedRepeat(event, state)) return notRecorded('repeat_suppressed');
    if (isRateLimited(event, state)) return notRecorded('rate_limited');
  }

  const progress: MissionProgressUpdate[] = [];
  const completed: Array<{ mission: EngineMission; windowStart: number }> = [];
  for (const mission of program.missionsByAction.get(event.action.name.toLowerCase()) ?? []) {
    if (mission.party !== party) continue;
    if (!isWithinDates(mission, event.timestamp)) continue;
    if (!prerequisitesHold(mission, state) || !isEligible(program, mission, party, state)) continue;
    if (mission.supply !== undefined && (state.supplyRemaining.get(mission.id) ?? mission.supply) <= 0) continue;
    if (!mission.rules.some((rule) => ruleMatches(rule, event))) continue;
    const missionState = state.missions.get(mission.id);
    if (!mayComplete(mission, missionState)) continue;

    const window = windowStart(mission, event.timestamp);
    // Progress from an earlier window does not carry into this one.
    const previous = missionState !== undefined && missionState.progressWindowStart === window ? missionState.progress : new Map<string, number>();
    const { progress: next, met } = advance(mission, previous, event);
    // A completion restarts progress from zero; any overshoot is discarded.
    const rules = mission.rules.map((rule) => ({ ruleId: rule.id, current: met ? 0 : (next.get(rule.id) ?? 0) }));
    progress.push({ missionId: mission.id, windowStart: window, rules, percentComplete: met ? 100 : percentComplete(mission, next) });
    if (met) completed.push({ mission, windowStart: window });
  }

  // Credits apply in order of importance (highest first), then id, so caps cut the least important.
  completed.sort((a, b) => b.mission.importance - a.mission.importance || (a.mission.id < b.mission.id ? -1 : a.mission.id > b.mission.id ? 1 : 0));
  const caps = new CapLedger(new Map(program.categories.map((category) => [category.name, category])), state.earned);
  const completions: MissionCompletion[] = completed.map(({ mission, windowStart: window }) => {
    const boost = program.boosts === undefined ? undefined : boostFor(program.boosts, mission, party, state, event);
    return {
      missionId: mission.id,
      name: mission.name,
      windowStart: window,
      points: mission.rewards.points.map((reward) => creditReward(caps, reward.category, requestedPoints(mission, reward.amount, event.value), boost)),
      badge: mission.rewards.badge,
      usesSupply: mission.supply !== undefined,
    };
  });
  const pointsAwarded = completions.flatMap((completion) => completion.points);

  const decision: Decision = { recorded: true, progress, completions, pointsAwarded };
  const defaultCategory = program.categories.find((category) => category.isDefault)?.name;
  if (program.levelType === 'points' && party === 'user' && defaultCategory !== undefined) {
    const gained = pointsAwarded.filter((award) => award.category === defaultCategory).reduce((sum, award) => sum + award.credited, 0);
    const change = levelChange(program.levels, state.lifetimeDefaultPoints, state.lifetimeDefaultPoints + gained);
    if (change !== undefined) decision.levelChanged = change;
  }
  return decision;
}

function notRecorded(reason: 'repeat_suppressed' | 'rate_limited'): Decision {
  return { recorded: false, reason, progress: [], completions: [], pointsAwarded: [] };
}
