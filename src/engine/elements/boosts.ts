// Boosts (docs/missions.md, "Boosts"): time-limited multipliers of the point rewards of mission
// completions. A boost is in force for an event whose own timestamp lies in its window (a backdated
// event takes the boost in force then), on the missions, actions and members it is restricted to.
// When several are in force for one reward the largest multiplier applies alone: overlapping
// campaigns never compound.
import { MAX_POINTS } from '../amounts.js';
import { localDateTimeEndInstant, localDateTimeToInstant } from '../calendar.js';
import type { ActionEvent, EngineBoost, EngineMission, Party, PartyState, PointsAward } from '../types.js';
import type { CapLedger } from './points.js';

/** A boost as the program stores it (structurally: the engine does not import the model). */
export interface BoostDefinition {
  id: string;
  name?: string | undefined;
  multiplier: number;
  start: string;
  end: string;
  timezone?: string | undefined;
  actions: readonly string[];
  missions: readonly string[];
  groups: readonly string[];
}

/** The boosts with their windows as instants: `start` and `end` read in the boost's zone (the site's when absent), the end's second (or minute) included. */
export function engineBoosts(boosts: readonly BoostDefinition[], siteTimezone: string): EngineBoost[] {
  return boosts.map((boost) => {
    const zone = boost.timezone ?? siteTimezone;
    return {
      id: boost.id,
      ...(boost.name !== undefined ? { name: boost.name } : {}),
      multiplier: boost.multiplier,
      start: localDateTimeToInstant(boost.start, zone),
      end: localDateTimeEndInstant(boost.end, zone),
      actions: new Set(boost.actions.map((action) => action.toLowerCase())),
      missions: new Set(boost.missions),
      groups: boost.groups,
    };
  });
}

/**
 * The boost in force for the mission's rewards: the largest multiplier among the boosts whose
 * window holds the event and whose restrictions it meets (the first listed on a tie). A boost
 * restricted to groups applies to their members' rewards, never to a group's own.
 */
export function boostFor(boosts: readonly EngineBoost[], mission: EngineMission, party: Party, state: PartyState, event: ActionEvent): EngineBoost | undefined {
  let best: EngineBoost | undefined;
  for (const boost of boosts) {
    if (event.timestamp < boost.start || event.timestamp > boost.end) continue;
    if (boost.missions.size > 0 && !boost.missions.has(mission.id)) continue;
    if (boost.actions.size > 0 && !boost.actions.has(event.action.name.toLowerCase())) continue;
    if (boost.groups.length > 0 && (party !== 'user' || !boost.groups.some((group) => state.groups.has(group)))) continue;
    if (best === undefined || boost.multiplier > best.multiplier) best = boost;
  }
  return best;
}

/** floor(requested × multiplier), at most MAX_POINTS: a boost never makes a reward unwritable. */
export function boostedAmount(requested: number, multiplier: number): number {
  // toPrecision(15) first, as for mission multipliers: 100 × 1.1 is 110.00000000000001.
  return Math.min(MAX_POINTS, Math.max(0, Math.floor(Number((requested * multiplier).toPrecision(15)))));
}

/** Credits one reward, multiplied by the boost in force when there is one (before the caps). */
export function creditReward(caps: CapLedger, category: string, requested: number, boost: EngineBoost | undefined): PointsAward {
  // A reward already beyond the ledger's range stays as it is: the action is refused for it.
  if (boost === undefined || requested > MAX_POINTS) return caps.credit(category, requested);
  const award = caps.credit(category, boostedAmount(requested, boost.multiplier));
  award.boost = { id: boost.id, ...(boost.name !== undefined ? { name: boost.name } : {}), multiplier: boost.multiplier, requestedBefore: requested };
  return award;
}
