// What the API answers about program changes (docs/program.md, "Program history" and "Previewing a
// change"): the per-part summary, one entity's change with its RFC 6902 patch, and the preview of
// saving a program. The program routes answer them, and so does POST /restore/preview, which
// previews restoring a backup.
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';
import { collections } from './collections.js';
import { SiteChangeSchema } from './site-changes.js';

const PartCounts = Type.Object({
  added: Type.Integer(),
  changed: Type.Integer(),
  removed: Type.Integer(),
  reordered: Type.Boolean({ description: 'The kept entities are in another order (lists answer the program order)' }),
});

const PARTS = ['site', ...collections.map((collection) => collection.key), 'awardSettings'];

export const ProgramSummarySchema = Type.Object(Object.fromEntries(PARTS.map((part) => [part, Type.Optional(PartCounts)])), {
  description: 'Per part of the program that changed (a collection, or site and awardSettings, which count as one entity), what its entities did',
});

const PatchOperation = Type.Object({
  op: Type.Union([Type.Literal('add'), Type.Literal('remove'), Type.Literal('replace'), Type.Literal('move'), Type.Literal('copy'), Type.Literal('test')]),
  path: Type.String({ description: 'A JSON Pointer inside the entity' }),
  from: Type.Optional(Type.String()),
  value: Type.Optional(Type.Unknown()),
});

export const EntityChangeSchema = Type.Object({
  part: Type.String({ description: 'The program key: missions, actions, …, or site, awardSettings' }),
  id: Nullable(
    Type.String({ description: "The entity's id (its name for actions and point categories, its uuid for layouts); null for site and awardSettings" }),
  ),
  change: Type.Union([Type.Literal('added'), Type.Literal('removed'), Type.Literal('changed'), Type.Literal('reordered')]),
  after: Type.Optional(Type.Unknown({ description: 'added: the entity' })),
  before: Type.Optional(Type.Unknown({ description: 'removed: the entity' })),
  patch: Type.Optional(Type.Array(PatchOperation, { description: 'changed: an RFC 6902 JSON Patch from the entity before to the entity after' })),
  order: Type.Optional(Type.Array(Type.String(), { description: "reordered: the collection's ids in their new order" })),
});

/** What saving a proposed program would do (ProgramService.preview). */
export const ProgramPreviewSchema = Type.Object({
  version: Type.Integer({ description: 'The version saving it would write (unless something else changes the program first)' }),
  currentVersion: Type.Integer(),
  summary: ProgramSummarySchema,
  changes: Type.Array(EntityChangeSchema),
  progressReset: Type.Object({
    parties: Type.Integer({ description: 'Users and groups whose progress would be archived' }),
    rows: Type.Integer({ description: 'Progress rows that would be archived' }),
    missions: Type.Array(
      Type.Object({
        missionId: Type.String(),
        name: Type.String(),
        missionRemoved: Type.Boolean(),
        ruleIds: Type.Array(Type.String(), { description: 'Its rules the change removes: progress on them resets' }),
        parties: Type.Integer(),
        rows: Type.Integer(),
      }),
    ),
  }),
  siteChanges: Type.Array(SiteChangeSchema),
});
