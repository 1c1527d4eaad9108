// What a program change does to the site's own settings (the program's `site`: name, time zone,
// callback URLs, …). A restore reports them: restoring one site's backup into another renames the
// site and moves its time zone, which must not happen without saying so.
import { isDeepStrictEqual } from 'node:util';
import { Type } from 'typebox';
import { SiteSettings, type ProgramDocument } from './model.js';

/** A setting's value; null while it is not set. */
export type SiteSettingValue = string | number | boolean | string[] | null;

export interface SiteChange {
  field: string;
  from: SiteSettingValue;
  to: SiteSettingValue;
}

const SiteSettingValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String()), Type.Null()], { description: 'null: not set' });

/** A SiteChange as the API answers it (a restore, a program preview). */
export const SiteChangeSchema = Type.Object({
  field: Type.String({ description: 'The site setting, as named in the program (site.<field>) and the backup (SiteConfiguration/@<field>)' }),
  from: SiteSettingValue,
  to: SiteSettingValue,
});

/** The settings that differ, in the model's order. The write-only webhook secret is never listed. */
export function siteChanges(before: ProgramDocument['site'], after: ProgramDocument['site']): SiteChange[] {
  const valueOf = (site: ProgramDocument['site'], field: string) => ((site as Record<string, unknown>)[field] ?? null) as SiteSettingValue;
  return Object.keys(SiteSettings.properties)
    .filter((field) => field !== 'webhookSecret')
    .flatMap((field) => {
      const from = valueOf(before, field);
      const to = valueOf(after, field);
      return isDeepStrictEqual(from, to) ? [] : [{ field, from, to }];
    });
}

/** The changes in a sentence, for the CLI: `site settings changed: name "A" → "B", …`. */
export function describeSiteChanges(changes: SiteChange[]): string {
  if (changes.length === 0) return 'site settings unchanged';
  const show = (value: SiteSettingValue) => (value === null ? 'unset' : JSON.stringify(value));
  return `site settings changed: ${changes.map(({ field, from, to }) => `${field} ${show(from)} → ${show(to)}`).join(', ')}`;
}
