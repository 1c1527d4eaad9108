// What a program change would do, in words a program manager reads: POST /admin/program/preview's
// answer (new, changed and removed entities; missions whose progress would reset, for how many
// users or groups) and field paths ('missions.3.rules.0.goal') as the form names them.
import { html, nothing, type TemplateResult } from 'lit';
import type { ProgramDocument } from '../../src/modules/program/model.js';
import type { ProgramPreview } from '../../src/modules/program/service.js';
import { KINDS, titleOf, type Entity, type Kind } from './program-kinds.js';
import { humanize } from './schema-form.js';

const kindOf = (part: string): Kind | undefined => KINDS.find((kind) => kind.key === part || (part === 'awardSettings' && kind.key === undefined));

const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString()} ${count === 1 ? one : many}`;

/** A path inside an entity ('/rules/0/goal' or 'rules.0.goal') in words: "Rules › 1 › Goal". */
export function fieldInWords(path: string, kind: Kind | undefined): string {
  const segments = path.split(/[/.]/).filter((segment) => segment !== '');
  const shape: string[] = [];
  return segments
    .map((segment) => {
      if (/^\d+$/.test(segment)) {
        shape.push('*');
        return String(Number(segment) + 1);
      }
      shape.push(segment);
      return kind?.hints.labels?.[shape.join('.')] ?? humanize(segment);
    })
    .join(' › ');
}

/** A whole-program path ('missions.3.rules.0.goal') in words: "Mission “Read 5 articles” › Rules › 1 › Goal". */
export function pathInWords(path: string, program: ProgramDocument): string {
  const [part = '', index, ...rest] = path.split('.');
  const kind = kindOf(part);
  if (kind === undefined) return fieldInWords(path, undefined);
  if (kind.key === undefined)
    return `${kind.label}${rest.length + (index === undefined ? 0 : 1) === 0 ? '' : ` › ${fieldInWords([index, ...rest].join('.'), kind)}`}`;
  if (index === undefined) return kind.label;
  const entity = (program[kind.key] as unknown as Entity[] | undefined)?.[Number(index)];
  const name = entity === undefined ? `${humanize(kind.noun)} ${Number(index) + 1}` : `${humanize(kind.noun)} “${titleOf(entity, kind)}”`;
  return rest.length === 0 ? name : `${name} › ${fieldInWords(rest.join('.'), kind)}`;
}

function nameOf(part: string, id: string | null, programs: ProgramDocument[]): string {
  const kind = kindOf(part);
  if (kind?.key === undefined || id === null) return kind?.label ?? humanize(part);
  for (const program of programs) {
    const entity = ((program[kind.key] ?? []) as unknown as Entity[]).find((candidate) => String(candidate[kind.idField]).toLowerCase() === id.toLowerCase());
    if (entity !== undefined) return `${humanize(kind.noun)} “${titleOf(entity, kind)}”`;
  }
  return `${humanize(kind.noun)} ${id}`;
}

/** The preview as the review dialog shows it. */
export function reviewOf(preview: ProgramPreview, before: ProgramDocument, after: ProgramDocument): TemplateResult {
  const changes = preview.changes.filter((change) => change.change !== 'reordered');
  const reset = preview.progressReset;
  const partyOf = (missionId: string) => [...before.missions, ...after.missions].find((mission) => mission.id === missionId)?.party ?? 'user';
  return html`
    <h3>Changes</h3>
    ${
      changes.length === 0
        ? html`<p>Nothing changes: the program is already like this.</p>`
        : html`<ul class="review-changes">
          ${changes.map((change) => {
            const name = nameOf(change.part, change.id, change.change === 'removed' ? [before] : [after, before]);
            if (change.change === 'added') return html`<li><sl-badge variant="success">New</sl-badge> ${name}</li>`;
            if (change.change === 'removed') return html`<li><sl-badge variant="danger">Removed</sl-badge> ${name}</li>`;
            const fields = change.change === 'changed' ? [...new Set(change.patch.map((operation) => fieldInWords(operation.path, kindOf(change.part))))] : [];
            return html`<li><sl-badge variant="primary">Changed</sl-badge> ${name}${fields.length === 0 ? nothing : html`: <span class="muted">${fields.join('; ')}</span>`}</li>`;
          })}
        </ul>`
    }
    <h3>Progress</h3>
    ${
      reset.missions.length === 0
        ? html`<p>No one’s progress resets: every rule with progress is kept.</p>`
        : html`<ul class="review-reset">
          ${reset.missions.map((mission) => {
            const who = partyOf(mission.missionId) === 'group' ? plural(mission.parties, 'group') : plural(mission.parties, 'user');
            if (mission.missionRemoved) return html`<li>“${mission.name}” is removed: the progress of ${who} on it is archived.</li>`;
            return html`<li>
              Progress of “${mission.name}” would reset for ${who}
              <span class="muted">(${mission.ruleIds.length === 1 ? 'rule' : 'rules'} ${mission.ruleIds.join(', ')} removed or renamed)</span>
            </li>`;
          })}
        </ul>`
    }
    <p class="muted small">Saving makes this version ${preview.version} of the program (it is version ${preview.currentVersion} now).</p>
  `;
}
