// The program's entity collections as the admin API exposes them (SPEC §4: one CRUD resource per
// kind, at the interface document's path words).
import type { TSchema } from 'typebox';
import { Action, Badge, Exchange, Group, Layout, Leaderboard, Level, Mission, PointCategory, Quiz, type ProgramDocument } from './model.js';

type CollectionKey = 'actions' | 'pointCategories' | 'missions' | 'levels' | 'badges' | 'groups' | 'leaderboards' | 'layouts' | 'quizzes' | 'exchanges';

export interface Collection {
  /** Path segment under /admin/. */
  path: string;
  key: CollectionKey;
  idField: 'id' | 'name' | 'uuid';
  schema: TSchema;
  /** Singular noun for messages. */
  noun: string;
  caseInsensitive?: boolean;
}

export const collections: Collection[] = [
  { path: 'actions', key: 'actions', idField: 'name', schema: Action, noun: 'action', caseInsensitive: true },
  { path: 'point-categories', key: 'pointCategories', idField: 'name', schema: PointCategory, noun: 'point category', caseInsensitive: true },
  { path: 'challenges', key: 'missions', idField: 'id', schema: Mission, noun: 'mission' },
  { path: 'levels', key: 'levels', idField: 'id', schema: Level, noun: 'level' },
  { path: 'badges', key: 'badges', idField: 'id', schema: Badge, noun: 'badge' },
  { path: 'groups', key: 'groups', idField: 'id', schema: Group, noun: 'group' },
  { path: 'leaderboards', key: 'leaderboards', idField: 'id', schema: Leaderboard, noun: 'leaderboard' },
  { path: 'layouts', key: 'layouts', idField: 'uuid', schema: Layout, noun: 'layout' },
  { path: 'quizzes', key: 'quizzes', idField: 'id', schema: Quiz, noun: 'quiz' },
  { path: 'exchanges', key: 'exchanges', idField: 'id', schema: Exchange, noun: 'exchange' },
];

type Entity = Record<string, unknown>;

export function entitiesOf(program: ProgramDocument, collection: Collection): Entity[] {
  return program[collection.key] as unknown as Entity[];
}

export function indexOf(entities: Entity[], collection: Collection, id: string): number {
  const wanted = collection.caseInsensitive ? id.toLowerCase() : id;
  return entities.findIndex((entity) => {
    const value = String(entity[collection.idField]);
    return (collection.caseInsensitive ? value.toLowerCase() : value) === wanted;
  });
}
