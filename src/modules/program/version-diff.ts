// What one program document changes against another, entity by entity: the program history's diff
// and summary, and a preview's (docs/program.md, "Program history"). Entities are matched by their
// id (case-insensitively where ids are, as the admin API matches them), not by position, so that
// removing the first of 500 missions reads as one removal; a changed entity carries an RFC 6902
// JSON Patch (from rfc6902) whose paths are inside the entity.
import { isDeepStrictEqual } from 'node:util';
import { createPatch, type Operation } from 'rfc6902';
import { collections, entitiesOf, type Collection } from './collections.js';
import type { ProgramDocument } from './model.js';

/** The part of the program an entity is in: a collection's key (`missions`), or `site`, `awardSettings`. */
type Part = Collection['key'] | 'site' | 'awardSettings';

export type EntityChange =
  | { part: Part; id: string | null; change: 'added'; after: unknown }
  | { part: Part; id: string | null; change: 'removed'; before: unknown }
  | { part: Part; id: string | null; change: 'changed'; patch: Operation[] }
  /** The kept entities of a collection are in another order (lists answer the program's order). */
  | { part: Part; id: null; change: 'reordered'; order: string[] };

export interface PartCounts {
  added: number;
  changed: number;
  removed: number;
  reordered: boolean;
}

/** Per part of the program that changed, how many of its entities did what. */
export type ProgramSummary = Partial<Record<Part, PartCounts>>;

type Entity = Record<string, unknown>;

/** The patch from `before` to `after`; empty when they are equal (the order of an object's keys aside). */
function patchOf(before: unknown, after: unknown): Operation[] {
  return isDeepStrictEqual(before, after) ? [] : createPatch(before, after);
}

/** One entity that stands alone (the site settings, the award settings): id null. */
function single(part: Part, before: unknown, after: unknown): EntityChange[] {
  if (before === undefined && after === undefined) return [];
  if (before === undefined) return [{ part, id: null, change: 'added', after }];
  if (after === undefined) return [{ part, id: null, change: 'removed', before }];
  const patch = patchOf(before, after);
  return patch.length === 0 ? [] : [{ part, id: null, change: 'changed', patch }];
}

function collectionChanges(collection: Collection, before: readonly Entity[], after: readonly Entity[]): EntityChange[] {
  const part = collection.key;
  const idOf = (entity: Entity) => String(entity[collection.idField]);
  const keyOf = (entity: Entity) => (collection.caseInsensitive ? idOf(entity).toLowerCase() : idOf(entity));
  const earlier = new Map(before.map((entity) => [keyOf(entity), entity]));
  const later = new Map(after.map((entity) => [keyOf(entity), entity]));
  const changes: EntityChange[] = [];
  for (const [key, entity] of earlier) if (!later.has(key)) changes.push({ part, id: idOf(entity), change: 'removed', before: entity });
  for (const [key, entity] of later) {
    const previous = earlier.get(key);
    if (previous === undefined) changes.push({ part, id: idOf(entity), change: 'added', after: entity });
    else {
      const patch = patchOf(previous, entity);
      if (patch.length > 0) changes.push({ part, id: idOf(entity), change: 'changed', patch });
    }
  }
  const keptBefore = [...earlier.keys()].filter((key) => later.has(key));
  const keptAfter = [...later.keys()].filter((key) => earlier.has(key));
  if (!isDeepStrictEqual(keptBefore, keptAfter)) changes.push({ part, id: null, change: 'reordered', order: after.map(idOf) });
  return changes;
}

/** What `after` changes against `before`, part by part in the program's order; empty when they are the same. */
export function programChanges(before: ProgramDocument, after: ProgramDocument): EntityChange[] {
  return [
    ...single('site', withoutSecret(before.site), withoutSecret(after.site)),
    ...collections.flatMap((collection) => collectionChanges(collection, entitiesOf(before, collection), entitiesOf(after, collection))),
    ...single('awardSettings', before.awardSettings, after.awardSettings),
  ];
}

/** The changes counted per part; parts that did not change are left out. */
export function summarize(changes: readonly EntityChange[]): ProgramSummary {
  const summary: ProgramSummary = {};
  for (const change of changes) {
    const counts = (summary[change.part] ??= { added: 0, changed: 0, removed: 0, reordered: false });
    if (change.change === 'reordered') counts.reordered = true;
    else counts[change.change] += 1;
  }
  return summary;
}

/** The webhook secret is no part of a stored document (a proposed program may carry it): never compared, never shown. */
function withoutSecret(site: ProgramDocument['site']): ProgramDocument['site'] {
  const { webhookSecret: _secret, ...rest } = site;
  return rest;
}
