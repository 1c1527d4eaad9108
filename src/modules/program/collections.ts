// The program's entity collections as the admin API exposes them (SPEC §4: one CRUD resource per
// kind, at the interface document's path words), and the edits that API makes to a draft of one.
import type { TSchema } from 'typebox';
import { AppError } from '../../errors.js';
import { Action, Badge, Boost, Exchange, Group, Layout, Leaderboard, Level, Mission, PointCategory, Quiz, Streak, type ProgramDocument } from './model.js';

type CollectionKey =
  'actions' | 'pointCategories' | 'missions' | 'levels' | 'badges' | 'groups' | 'leaderboards' | 'layouts' | 'quizzes' | 'exchanges' | 'streaks' | 'boosts';

export interface Collection {
  /** Path segment under /admin/. */
  path: string;
  key: CollectionKey;
  idField: 'id' | 'name' | 'uuid';
  schema: TSchema;
  /** Singular noun for messages. */
  noun: string;
  /**
   * The entity's name in operationIds, singular (getX, createX, replaceX, deleteX) and plural
   * (listX): "…Definition" where a public read has the plain word (GET /actions is listActions).
   */
  operationNouns: readonly [one: string, many: string];
  caseInsensitive?: boolean;
}

export const collections: Collection[] = [
  {
    path: 'actions',
    key: 'actions',
    idField: 'name',
    schema: Action,
    noun: 'action',
    operationNouns: ['ActionDefinition', 'ActionDefinitions'],
    caseInsensitive: true,
  },
  {
    path: 'point-categories',
    key: 'pointCategories',
    idField: 'name',
    schema: PointCategory,
    noun: 'point category',
    operationNouns: ['PointCategory', 'PointCategories'],
    caseInsensitive: true,
  },
  { path: 'challenges', key: 'missions', idField: 'id', schema: Mission, noun: 'mission', operationNouns: ['ChallengeDefinition', 'ChallengeDefinitions'] },
  { path: 'levels', key: 'levels', idField: 'id', schema: Level, noun: 'level', operationNouns: ['Level', 'Levels'] },
  { path: 'badges', key: 'badges', idField: 'id', schema: Badge, noun: 'badge', operationNouns: ['Badge', 'Badges'] },
  { path: 'groups', key: 'groups', idField: 'id', schema: Group, noun: 'group', operationNouns: ['Group', 'Groups'] },
  {
    path: 'leaderboards',
    key: 'leaderboards',
    idField: 'id',
    schema: Leaderboard,
    noun: 'leaderboard',
    operationNouns: ['LeaderboardDefinition', 'LeaderboardDefinitions'],
  },
  { path: 'layouts', key: 'layouts', idField: 'uuid', schema: Layout, noun: 'layout', operationNouns: ['Layout', 'Layouts'] },
  { path: 'quizzes', key: 'quizzes', idField: 'id', schema: Quiz, noun: 'quiz', operationNouns: ['Quiz', 'Quizzes'] },
  { path: 'exchanges', key: 'exchanges', idField: 'id', schema: Exchange, noun: 'exchange', operationNouns: ['Exchange', 'Exchanges'] },
  { path: 'streaks', key: 'streaks', idField: 'id', schema: Streak, noun: 'streak', operationNouns: ['Streak', 'Streaks'] },
  { path: 'boosts', key: 'boosts', idField: 'id', schema: Boost, noun: 'boost', operationNouns: ['Boost', 'Boosts'] },
];

type Entity = Record<string, unknown>;

/** The entities of a collection (none when a program predating the collection lacks it). */
export function entitiesOf(program: ProgramDocument, collection: Collection): readonly Entity[] {
  return (program[collection.key] ?? []) as unknown as readonly Entity[];
}

/** The draft's list of a collection to edit, added to the draft when it has none yet. */
function draftEntities(draft: ProgramDocument, collection: Collection): Entity[] {
  return ((draft as unknown as Record<CollectionKey, Entity[] | undefined>)[collection.key] ??= []);
}

export function indexOf(entities: readonly Entity[], collection: Collection, id: string): number {
  const wanted = collection.caseInsensitive ? id.toLowerCase() : id;
  return entities.findIndex((entity) => {
    const value = String(entity[collection.idField]);
    return (collection.caseInsensitive ? value.toLowerCase() : value) === wanted;
  });
}

function notFound(collection: Collection, id: string): AppError {
  return new AppError('not_found', `No ${collection.noun} "${id}"`);
}

/** The entity with this id; not found when there is none. */
export function findEntity(program: ProgramDocument, collection: Collection, id: string): Entity {
  const entities = entitiesOf(program, collection);
  const index = indexOf(entities, collection, id);
  if (index < 0) throw notFound(collection, id);
  return entities[index] as Entity;
}

/** Adds the entity to the draft, a conflict when one with its id is there; its index. */
export function addEntity(draft: ProgramDocument, collection: Collection, entity: Entity): number {
  const id = String(entity[collection.idField]);
  const entities = draftEntities(draft, collection);
  if (indexOf(entities, collection, id) >= 0) throw new AppError('conflict', `A ${collection.noun} "${id}" already exists`);
  return entities.push(entity) - 1;
}

/** Puts the entity in the place of the one with this id, or adds it: its index, and whether it was added. */
export function putEntity(draft: ProgramDocument, collection: Collection, id: string, entity: Entity): { index: number; created: boolean } {
  const entities = draftEntities(draft, collection);
  const index = indexOf(entities, collection, id);
  if (index < 0) return { index: entities.push(entity) - 1, created: true };
  entities[index] = entity;
  return { index, created: false };
}

/** Removes the entity with this id from the draft; not found when there is none. */
export function removeEntity(draft: ProgramDocument, collection: Collection, id: string): void {
  const entities = draftEntities(draft, collection);
  const index = indexOf(entities, collection, id);
  if (index < 0) throw notFound(collection, id);
  entities.splice(index, 1);
}
