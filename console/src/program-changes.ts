// What a program change did, for a person: the history's summary in words ("2 missions changed,
// 1 badge added"), each changed entity by its name with its patch in sentences ("Rule ‘r-a’ › goal
// changed from 5 to 8") and, beside them, jsondiffpatch's before-and-after view of the entity; and
// what saving or restoring a program would do (a preview: whose progress resets, which site
// settings change). Changes are the API's (per entity, RFC 6902 patches); `before` is the program
// they apply to, which names the entities and holds the values the patches replace.
import { html, nothing, type TemplateResult } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { create } from 'jsondiffpatch';
import { format } from 'jsondiffpatch/formatters/html';
import { applyPatch, type Operation } from 'rfc6902';
import type { ProgramDocument } from '../../src/modules/program/model.js';
import type { ProgramPreview } from '../../src/modules/program/service.js';
import type { EntityChange, ProgramSummary } from '../../src/modules/program/version-diff.js';

type Entity = Record<string, unknown>;
type Part = EntityChange['part'];

/** Each part's noun, singular and plural; the collections' ids, as the API matches them. */
const PARTS: Record<Part, { one: string; many: string; idField?: string }> = {
  site: { one: 'site settings', many: 'site settings' },
  actions: { one: 'action', many: 'actions', idField: 'name' },
  pointCategories: { one: 'point category', many: 'point categories', idField: 'name' },
  missions: { one: 'mission', many: 'missions', idField: 'id' },
  levels: { one: 'level', many: 'levels', idField: 'id' },
  badges: { one: 'badge', many: 'badges', idField: 'id' },
  groups: { one: 'group', many: 'groups', idField: 'id' },
  leaderboards: { one: 'leaderboard', many: 'leaderboards', idField: 'id' },
  layouts: { one: 'layout', many: 'layouts', idField: 'uuid' },
  quizzes: { one: 'quiz', many: 'quizzes', idField: 'id' },
  exchanges: { one: 'recognition exchange', many: 'recognition exchanges', idField: 'id' },
  streaks: { one: 'streak', many: 'streaks', idField: 'id' },
  boosts: { one: 'boost', many: 'boosts', idField: 'id' },
  awardSettings: { one: 'award settings', many: 'award settings' },
};

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const SINGLE: ReadonlySet<Part> = new Set(['site', 'awardSettings']);

/** The summary of a kept version in words; null: the first version, with nothing before it. */
export function summaryInWords(summary: ProgramSummary | null): string {
  if (summary === null) return 'The first version';
  const phrases = Object.entries(summary).flatMap(([part, counts]) => {
    const noun = PARTS[part as Part];
    if (SINGLE.has(part as Part)) return [`${noun.one} ${counts.added > 0 ? 'added' : counts.removed > 0 ? 'removed' : 'changed'}`];
    const counted = (['added', 'changed', 'removed'] as const)
      .filter((what) => counts[what] > 0)
      .map((what) => `${counts[what]} ${counts[what] === 1 ? noun.one : noun.many} ${what}`);
    return counts.reordered ? [...counted, `${noun.many} reordered`] : counted;
  });
  return phrases.length === 0 ? 'No change to the program' : capitalized(phrases.join(', '));
}

// Array items are matched by their id (or name, or category), as the API matches entities, and a
// moved item is shown as removed and added: the HTML formatter draws moves with an inline script,
// which the console's Content-Security-Policy would refuse.
const differ = create({
  objectHash: (item: object, index?: number) => {
    const { id, name, category } = item as Entity;
    return String(id ?? name ?? category ?? `#${index ?? 0}`);
  },
  arrays: { detectMove: false },
});

/** An entity's name as a person knows it: its name, else its id. */
function nameOf(entity: unknown, id: string | null): string {
  const name = (entity as Entity | undefined)?.name;
  return typeof name === 'string' && name !== '' ? name : (id ?? '');
}

/** One entity of the program, by its part and id (case-insensitively where ids are). */
function entityOf(program: ProgramDocument, part: Part, id: string | null): Entity | undefined {
  if (SINGLE.has(part)) return program[part as 'site'] as unknown as Entity | undefined;
  const idField = PARTS[part].idField as string;
  const wanted = (id ?? '').toLowerCase();
  // (Lists added later, such as streaks and boosts, are absent from programs stored before them.)
  return ((program[part as 'missions'] as unknown as Entity[] | undefined) ?? []).find((entity) => String(entity[idField]).toLowerCase() === wanted);
}

/** A value in words: text in quotes, numbers as the browser writes them, lists and records briefly. */
function shown(value: unknown): string {
  if (value === undefined || value === null) return 'nothing';
  if (value === '') return 'empty';
  if (typeof value === 'string') return `‘${value}’`;
  if (typeof value === 'number') return value.toLocaleString();
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(shown).join(', ');
  const entries = Object.entries(value as Entity).filter(([, field]) => typeof field !== 'object' || field === null);
  return entries.map(([key, field]) => `${words(key)} ${shown(field)}`).join(', ');
}

/** An added or removed entry's settings, its name and id aside (its title shows them): lists by their length. */
function settingsInWords(entity: unknown): string {
  if (entity === null || typeof entity !== 'object') return shown(entity);
  return Object.entries(entity as Entity)
    .filter(([key]) => key !== 'id' && key !== 'name' && key !== 'uuid')
    .flatMap(([key, value]) => {
      if (Array.isArray(value)) return value.length === 0 ? [] : [`${value.length} ${words(key)}`];
      if (value !== null && typeof value === 'object') return [];
      return [`${words(key)} ${shown(value)}`];
    })
    .join(' · ');
}

/** camelCase → camel case. */
const words = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

/** A list item by what names it (its name, id or point category), else its place. */
function itemLabel(item: unknown, index: number): string {
  if (item !== null && typeof item === 'object') {
    const { name, id, category } = item as Entity;
    const label = name ?? id ?? category;
    if (typeof label === 'string') return `‘${label}’`;
  }
  return `#${index + 1}`;
}

/** A JSON Pointer's segments, unescaped (RFC 6901). */
const segmentsOf = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));

/** Where a pointer leads, in words ("rules ‘r-a’ › goal"), and the value there (undefined past the end). */
function located(root: unknown, segments: string[], added: unknown): { label: string; value: unknown } {
  const labels: string[] = [];
  let value = root;
  for (const segment of segments) {
    if (Array.isArray(value)) {
      const index = segment === '-' ? value.length : Number(segment);
      const item = value[index];
      labels[labels.length - 1] = `${labels.at(-1) ?? 'item'} ${itemLabel(item ?? added, index)}`;
      value = item;
    } else {
      labels.push(words(segment));
      value = value !== null && typeof value === 'object' ? (value as Entity)[segment] : undefined;
    }
  }
  return { label: capitalized(labels.join(' › ')), value };
}

/** A reward's points in a mission: `rewards/points/<i>/amount`. */
const REWARD_AMOUNT = /^\/rewards\/points\/\d+\/amount$/;

/** A patch in sentences, each operation read against the entity as the operations before it left it. */
export function patchInWords(before: unknown, patch: readonly Operation[]): string[] {
  const working = structuredClone(before);
  return patch.map((operation) => {
    const { label, value } = located(working, segmentsOf(operation.path), 'value' in operation ? operation.value : undefined);
    let sentence: string;
    if (operation.op === 'replace' && REWARD_AMOUNT.test(operation.path)) {
      // The category names the unit: "from 10 to 20 Points", "from 5 to 8 Coins".
      const category = (located(working, segmentsOf(operation.path.replace(/amount$/, 'category')), undefined).value as string | undefined) ?? 'points';
      sentence = `Reward changed from ${shown(value)} to ${shown(operation.value)} ${category}`;
    } else if (operation.op === 'replace') sentence = `${label} changed from ${shown(value)} to ${shown(operation.value)}`;
    else if (operation.op === 'add') sentence = value === undefined ? `${label} set to ${shown(operation.value)}` : `${label} added: ${shown(operation.value)}`;
    else if (operation.op === 'remove') sentence = `${label} removed (was ${shown(value)})`;
    else sentence = `${label}: ${operation.op}`;
    applyPatch(working, [operation]);
    return sentence;
  });
}

/** jsondiffpatch's view of an entity before and after, the unchanged fields left out. */
function visualDiff(before: unknown, after: unknown): TemplateResult | typeof nothing {
  const delta = differ.diff(before, after);
  if (delta === undefined) return nothing;
  // The formatter escapes every key and value it writes.
  return html`<div class="visual-diff" aria-label="Before and after">${unsafeHTML(format(delta, before) ?? '')}</div>`;
}

const CHANGE_VARIANT = { added: 'success', removed: 'danger', changed: 'primary', reordered: 'neutral' } as const;

/** One entity's change: its part and name, what changed in words, and the before-and-after view. */
function entityChange(change: EntityChange, before: ProgramDocument): TemplateResult {
  const noun = PARTS[change.part];
  if (change.change === 'reordered') {
    const names = change.order.map((id) => nameOf(entityOf(before, change.part, id), id));
    return html`<article class="change">
      <header><sl-badge variant="neutral" pill>reordered</sl-badge><strong>${capitalized(noun.many)}</strong></header>
      <p>New order: ${names.join(', ')}</p>
    </article>`;
  }
  const earlier = change.change === 'removed' ? change.before : entityOf(before, change.part, change.id);
  const later = change.change === 'added' ? change.after : change.change === 'changed' ? applied(earlier, change.patch) : undefined;
  const title = SINGLE.has(change.part) ? capitalized(noun.one) : `${capitalized(noun.one)} ‘${nameOf(later ?? earlier, change.id)}’`;
  const showId = change.id !== null && change.id !== nameOf(later ?? earlier, change.id);
  return html`<article class="change">
    <header>
      <sl-badge variant=${CHANGE_VARIANT[change.change]} pill>${change.change}</sl-badge><strong>${title}</strong>${
        showId ? html`<code class="muted">${change.id}</code>` : nothing
      }
    </header>
    ${
      change.change === 'changed'
        ? html`<ul class="sentences">
            ${patchInWords(earlier, change.patch).map((sentence) => html`<li>${sentence}</li>`)}
          </ul>`
        : html`<p class="muted">${settingsInWords(later ?? earlier)}</p>`
    }
    ${change.change === 'changed' ? visualDiff(earlier, later) : nothing}
  </article>`;
}

function applied(entity: unknown, patch: Operation[]): unknown {
  const copy = structuredClone(entity);
  applyPatch(copy, patch);
  return copy;
}

/** Every change, in the program's order; `before` is the program they apply to. */
export function changesView(changes: readonly EntityChange[], before: ProgramDocument): TemplateResult {
  if (changes.length === 0) return html`<p class="muted">Nothing in the program changes.</p>`;
  return html`<div class="changes">${changes.map((change) => entityChange(change, before))}</div>`;
}

/** What saving (or restoring) would do: whose progress resets, the site settings, then each change. */
export function previewView(preview: ProgramPreview, current: ProgramDocument): TemplateResult {
  const { progressReset, siteChanges } = preview;
  return html`<div class="preview">
    <p>
      It would become version <strong>${preview.version}</strong> of the program (now at version ${preview.currentVersion}):
      ${summaryInWords(preview.summary).toLowerCase()}.
    </p>
    ${
      progressReset.parties === 0
        ? html`<p class="muted">Nobody’s mission progress resets.</p>`
        : html`<sl-alert variant="warning" open>
          <sl-icon slot="icon" name="exclamation-triangle"></sl-icon>
          <strong>Progress resets for ${progressReset.parties.toLocaleString()} ${progressReset.parties === 1 ? 'user or group' : 'users and groups'}</strong>
          <ul class="resets">
            ${progressReset.missions.map(
              (mission) =>
                html`<li>
                  Mission ‘${mission.name}’ ${mission.missionRemoved ? '(removed)' : `(its rules ${mission.ruleIds.join(', ')} removed)`}:
                  ${mission.parties.toLocaleString()} ${mission.parties === 1 ? 'user or group' : 'users and groups'}
                </li>`,
            )}
          </ul>
        </sl-alert>`
    }
    ${
      siteChanges.length === 0
        ? nothing
        : html`<h3>Site settings</h3>
          <dl class="details">
            ${siteChanges.map((change) => html`<dt>${capitalized(words(change.field))}</dt><dd>${shown(change.from)} → ${shown(change.to)}</dd>`)}
          </dl>`
    }
    <h3>Changes</h3>
    ${changesView(preview.changes, current)}
  </div>`;
}
