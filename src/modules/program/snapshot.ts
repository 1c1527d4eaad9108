// A site's program as the engine and the read endpoints use it: the canonical document plus the
// indexes that keep lookups independent of program size (SPEC §5: missions are found by an index on
// the action name, never by scanning).
import { engineBoosts } from '../../engine/elements/boosts.js';
import type { EngineProgram } from '../../engine/types.js';
import type { SiteDestinations } from './event-routing.js';
import type { ActionDocument, BadgeDocument, MissionDocument, ProgramDocument } from './model.js';

export interface ProgramSnapshot {
  siteId: string;
  version: number;
  program: ProgramDocument;
  /** Configured actions by lower-cased name. */
  actionsByName: ReadonlyMap<string, ActionDocument>;
  missionsById: ReadonlyMap<string, MissionDocument>;
  /** Badges by id: an action's answer names the badges it earned (src/modules/actions/outcome.ts). */
  badgesById: ReadonlyMap<string, BadgeDocument>;
  /** Missions with at least one rule on the action, by lower-cased action name. */
  missionsByAction: ReadonlyMap<string, readonly MissionDocument[]>;
  /** The program as the rule engine reads it. */
  engine: EngineProgram;
  /**
   * What the site's events can go to: an event with no destination is not written to the outbox.
   * The site's webhook endpoints are not in the program document, so a change to them raises the
   * program version too (ProgramService.changeEndpoints).
   */
  destinations: SiteDestinations;
}

/** `subscribedTypes`: the event types some webhook endpoint of the site subscribes to. */
export function buildSnapshot(siteId: string, version: number, program: ProgramDocument, subscribedTypes: ReadonlySet<string>): ProgramSnapshot {
  const missionsByAction = new Map<string, MissionDocument[]>();
  for (const mission of program.missions) {
    for (const action of new Set(mission.rules.map((rule) => rule.action.toLowerCase()))) {
      const list = missionsByAction.get(action) ?? [];
      list.push(mission);
      missionsByAction.set(action, list);
    }
  }
  return {
    siteId,
    version,
    program,
    actionsByName: new Map(program.actions.map((action) => [action.name.toLowerCase(), action])),
    missionsById: new Map(program.missions.map((mission) => [mission.id, mission])),
    badgesById: new Map(program.badges.map((badge) => [badge.id, badge])),
    missionsByAction,
    engine: {
      timezone: program.site.timezone,
      levelType: program.site.levelType,
      categories: program.pointCategories,
      levels: program.levels,
      missionsByAction,
      // Only a program with boosts has the list: one without does no boost work per action.
      ...(program.boosts !== undefined && program.boosts.length > 0 ? { boosts: engineBoosts(program.boosts, program.site.timezone) } : {}),
    },
    destinations: { site: program.site, subscribedTypes },
  };
}
