// Program: the site's program, one part at a time (missions, actions, point categories, levels,
// badges, leaderboards, groups, exchanges, quizzes, award settings). Each part lists its entities;
// an entity opens in a form generated from the program's schema (../schema-form.ts) and in a JSON
// editor of the same entity. Nothing is written until it is reviewed: "Review changes" previews
// the whole program with the entity changed (POST /admin/program/preview) and says what saving
// would do; "Save" writes the entity through its own route (so that what others saved meanwhile
// stays). The API's field errors show on their fields.
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { Tabulator } from 'tabulator-tables';
import type { ProgramDocument } from '../../../src/modules/program/model.js';
import type { ProgramPreview } from '../../../src/modules/program/service.js';
import { api, ApiProblem } from '../api.js';
import { grid } from '../grid.js';
import { entitiesOf, KINDS, referencesOf, titleOf, type Entity, type Kind } from '../program-kinds.js';
import { pathInWords, reviewOf } from '../program-review.js';
import { blank, controlFor, entityForm, humanize, pointerOf } from '../schema-form.js';
import { toast } from '../toast.js';
import './group-members.js';

/** The editor's address for a new entity ('~' is in no id). */
export const NEW = '~new';

/** Goes to a console address, as a followed link would. */
export function navigate(path: string): void {
  window.history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

const sameId = (kind: Kind, a: unknown, b: string) => (kind.idField === 'name' ? String(a).toLowerCase() === b.toLowerCase() : a === b);

/** `value` with the value at `pointer` set (or removed, for undefined), copied. */
function setAt(value: Entity, pointer: string, next: unknown): Entity {
  const copy = structuredClone(value);
  const segments = pointer.split('/').slice(1);
  const last = segments.pop() ?? '';
  let node = copy as Record<string, unknown>;
  for (const segment of segments) {
    if (typeof node[segment] !== 'object' || node[segment] === null) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
  if (next === undefined && !Array.isArray(node)) delete node[last];
  else node[last] = next;
  return copy;
}

interface Pending {
  preview: ProgramPreview;
  document: ProgramDocument;
  deleting: boolean;
}

@customElement('ql-program-page')
export class QlProgramPage extends LitElement {
  @property() kindSlug = 'missions';
  /** The entity open in the editor (NEW for a new one); none: the part's list. */
  @property() entityId: string | undefined;
  @state() private program: ProgramDocument | undefined;
  @state() private draft: Entity | undefined;
  @state() private errors = new Map<string, string>();
  @state() private unplaced: Array<{ where: string; message: string }> = [];
  @state() private jsonError: string | undefined;
  @state() private pending: Pending | undefined;
  @state() private error: string | undefined;
  @state() private busy = false;
  @query('.entities') private readonly listElement: HTMLElement | null | undefined;
  private list: Tabulator | undefined;
  private listOf: HTMLElement | undefined;
  private listKind: Kind | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  override disconnectedCallback(): void {
    this.list?.destroy();
    super.disconnectedCallback();
  }

  private get kind(): Kind {
    return KINDS.find((kind) => kind.slug === this.kindSlug) ?? (KINDS[0] as Kind);
  }

  /** Where the open entity is in the saved program; undefined for a new one (and award settings). */
  private get index(): number | undefined {
    const { entityId, program, kind } = this;
    if (program === undefined || entityId === undefined || entityId === NEW) return undefined;
    const found = entitiesOf(program, kind).findIndex((entity) => sameId(kind, entity[kind.idField], entityId));
    return found < 0 ? undefined : found;
  }

  private get editing(): boolean {
    return this.kind.key === undefined || this.entityId !== undefined;
  }

  private async load(): Promise<void> {
    try {
      this.program = await api<ProgramDocument>('GET', '/admin/program');
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('kindSlug') || changed.has('entityId') || changed.has('program')) {
      this.draft = this.editing ? this.opened() : undefined;
      this.errors = new Map();
      this.unplaced = [];
      this.jsonError = undefined;
    }
  }

  /** The entity the address names, as saved; a new one; or undefined when there is none of that id. */
  private opened(): Entity | undefined {
    const { program, kind } = this;
    if (program === undefined) return undefined;
    if (kind.key === undefined) return structuredClone((program.awardSettings as Entity | undefined) ?? (blank(kind.schema) as Entity));
    if (this.entityId === NEW) {
      const fresh = blank(kind.schema) as Entity;
      if (kind.idField === 'id') {
        const taken = new Set(entitiesOf(program, kind).map((entity) => entity.id));
        let n = entitiesOf(program, kind).length + 1;
        while (taken.has(`${kind.noun.replace(/ /g, '-')}-${n}`)) n++;
        fresh.id = `${kind.noun.replace(/ /g, '-')}-${n}`;
      }
      return fresh;
    }
    const index = this.index;
    return index === undefined ? undefined : structuredClone(entitiesOf(program, kind)[index]);
  }

  protected override updated(): void {
    // The list's grid is made when its box appears (again for another part), and fed whenever the program changes.
    const box = this.listElement;
    if (box == null || this.program === undefined) return;
    const { kind } = this;
    const rows = entitiesOf(this.program, kind).map((entity) => ({
      key: String(entity[kind.idField]),
      ...Object.fromEntries(kind.columns.map((column, i) => [`c${i}`, column.describe(entity)])),
    }));
    if (this.listOf === box && this.listKind === kind) {
      void this.list?.setData(rows);
      return;
    }
    this.list?.destroy();
    this.listOf = box;
    this.listKind = kind;
    this.list = grid(
      box,
      [
        // A link, not a row click: it works with the keyboard, and opens in a new tab when asked.
        { title: 'Name', field: 'c0', minWidth: 200, formatter: (cell) => this.linkTo(cell.getRow().getData() as { key: string; c0: string }) },
        ...kind.columns.slice(1).map((column, i) => ({ title: column.title, field: `c${i + 1}`, minWidth: 120 })),
      ],
      rows,
      `No ${kind.label.toLowerCase()} yet`,
    );
  }

  private linkTo({ key, c0 }: { key: string; c0: string }): HTMLAnchorElement {
    const link = document.createElement('a');
    link.href = `/console/program/${this.kind.slug}/${encodeURIComponent(key)}`;
    link.textContent = c0 === '' ? key : c0;
    return link;
  }

  private readonly setField = (pointer: string, value: unknown) => {
    if (this.draft === undefined) return;
    this.draft = setAt(this.draft, pointer, value);
    if (this.errors.has(pointer)) {
      const errors = new Map(this.errors);
      errors.delete(pointer);
      this.errors = errors;
    }
  };

  private readonly onJson = (event: Event) => {
    const text = (event as CustomEvent<string>).detail;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`The ${this.kind.noun} must be a JSON object`);
      this.draft = parsed as Entity;
      this.jsonError = undefined;
    } catch (error) {
      this.jsonError = (error as Error).message;
    }
  };

  /** The whole program as saving the open entity (or deleting it) would make it. */
  private proposed(deleting: boolean): ProgramDocument {
    const document = structuredClone(this.program as ProgramDocument);
    const { kind, draft } = this;
    if (kind.key === undefined) {
      if (deleting || draft === undefined) delete document.awardSettings;
      else document.awardSettings = draft as ProgramDocument['awardSettings'];
      return document;
    }
    // (A list added later, such as streaks and boosts, may be absent: the first entity creates it.)
    const entities = ((document as unknown as Record<string, Entity[] | undefined>)[kind.key] ??= []);
    const index = this.index;
    if (index === undefined) entities.push(draft as Entity);
    else if (deleting) entities.splice(index, 1);
    else entities[index] = draft as Entity;
    return document;
  }

  private readonly review = async (deleting = false) => {
    if (this.jsonError !== undefined) {
      this.error = `The JSON is not valid: ${this.jsonError}`;
      return;
    }
    const document = this.proposed(deleting);
    this.busy = true;
    try {
      const preview = await api<ProgramPreview>('POST', '/admin/program/preview', document);
      this.errors = new Map();
      this.unplaced = [];
      this.error = undefined;
      this.pending = { preview, document, deleting };
    } catch (error) {
      await this.refused(error, document);
    } finally {
      this.busy = false;
    }
  };

  private readonly save = async () => {
    const pending = this.pending;
    if (pending === undefined) return;
    this.busy = true;
    const { kind, draft } = this;
    try {
      await this.write(pending);
      this.pending = undefined;
      const name = draft === undefined ? kind.noun : titleOf(draft, kind) || kind.noun;
      toast(pending.deleting ? `${humanize(kind.noun)} “${name}” deleted.` : `${humanize(kind.noun)} “${name}” saved.`);
      this.program = await api<ProgramDocument>('GET', '/admin/program');
      if (kind.key !== undefined) {
        navigate(
          pending.deleting ? `/console/program/${kind.slug}` : `/console/program/${kind.slug}/${encodeURIComponent(String(draft?.[kind.idField] ?? ''))}`,
        );
      }
    } catch (error) {
      this.pending = undefined;
      await this.refused(error, pending.document, !this.wholeProgram(pending));
    } finally {
      this.busy = false;
    }
  };

  /** Renaming an entity's id is a removal and an addition, which only the whole program's PUT makes at once. */
  private wholeProgram(pending: Pending): boolean {
    const { kind, draft, entityId } = this;
    return !pending.deleting && kind.key !== undefined && this.index !== undefined && !sameId(kind, draft?.[kind.idField], entityId ?? '');
  }

  /**
   * Saves the reviewed change through the entity's own route, which changes the program under its
   * lock: what others saved meanwhile (another mission, say) stays. Paths of its errors are then
   * relative to the entity.
   */
  private async write(pending: Pending): Promise<void> {
    const { kind, draft, entityId } = this;
    if (this.wholeProgram(pending)) {
      await api('PUT', '/admin/program', pending.document);
      return;
    }
    const one = kind.key === undefined ? `/admin/${kind.api}` : `/admin/${kind.api}/${encodeURIComponent(entityId ?? '')}`;
    if (pending.deleting) await api('DELETE', one);
    else if (kind.key !== undefined && this.index === undefined) await api('POST', `/admin/${kind.api}`, draft);
    else await api('PUT', one, draft);
  }

  /**
   * A refused change: its field errors on their fields (the first one in view), the others above
   * the form. Paths are the whole program's (`missions.3.rules.0.goal`), or the entity's
   * (`rules.0.goal`) when its own route refused it, except those in other entities.
   */
  private async refused(error: unknown, document: ProgramDocument, relative = false): Promise<void> {
    if (!(error instanceof ApiProblem) || error.errors.length === 0) {
      this.error = (error as Error).message;
      return;
    }
    const { kind, draft } = this;
    const index = kind.key === undefined ? undefined : (this.index ?? entitiesOf(document, kind).length - 1);
    const prefix = kind.key === undefined ? 'awardSettings' : `${kind.key}.${String(index)}`;
    const errors = new Map<string, string>();
    const unplaced: Array<{ where: string; message: string }> = [];
    for (const { path, message } of error.errors) {
      const own = relative && kind.schema.properties?.[path.split('.')[0] ?? ''] !== undefined;
      const inside = own || path.startsWith(`${prefix}.`);
      const control = inside && draft !== undefined ? controlFor(kind.schema, draft, pointerOf(own ? path : path.slice(prefix.length + 1))) : '';
      if (control === '') unplaced.push({ where: pathInWords(path, document), message });
      else errors.set(control, errors.has(control) ? `${errors.get(control) ?? ''}; ${message}` : message);
    }
    this.errors = errors;
    this.unplaced = unplaced;
    this.error = undefined;
    await this.updateComplete;
    if (errors.size > 0) {
      (this.querySelector('sl-tab-group') as (HTMLElement & { show(panel: string): void }) | null)?.show('form');
      // Closed sections with an error open as they render; the first failing field comes into view.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const first = this.querySelector<HTMLElement>('.entity-form [aria-invalid="true"]');
      first?.scrollIntoView({ block: 'center' });
      first?.focus();
    }
  }

  protected override render(): TemplateResult {
    const { kind } = this;
    return html`
      <section class="page program">
        <header class="page-head">
          <h1>Program</h1>
          ${this.program === undefined ? nothing : html`<span class="muted">${this.program.site.name}</span>`}
        </header>
        <nav class="parts" aria-label="Parts of the program">
          ${KINDS.map((other) => html`<a href="/console/program/${other.slug}" aria-current=${other === kind ? 'page' : 'false'}>${other.label}</a>`)}
        </nav>
        ${
          this.error === undefined
            ? nothing
            : html`<sl-alert variant="danger" open closable @sl-after-hide=${() => (this.error = undefined)}
              ><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>${this.error}</sl-alert
            >`
        }
        ${this.program === undefined ? html`<sl-spinner aria-label="Loading"></sl-spinner>` : this.editing ? this.editor() : this.listView()}
        ${this.reviewDialog()}
      </section>
    `;
  }

  private listView(): TemplateResult {
    const { kind } = this;
    return html`
      <div class="part-head">
        <h2>${kind.label}</h2>
        <sl-button variant="primary" @click=${() => navigate(`/console/program/${kind.slug}/${NEW}`)}>New ${kind.noun}</sl-button>
      </div>
      <p class="muted">Select one to change it. Changes are saved only after you review what they do.</p>
      <div class="entities grid-box" role="region" aria-label=${kind.label}></div>
    `;
  }

  private editor(): TemplateResult {
    const { kind, draft, program } = this;
    if (draft === undefined || program === undefined) {
      return html`<p class="crumbs"><a href="/console/program/${kind.slug}">${kind.label}</a></p>
        <h2>Not found</h2>
        <p>The program has no ${kind.noun} “${this.entityId ?? ''}”.</p>`;
    }
    const isNew = kind.key !== undefined && this.index === undefined;
    const heading = kind.key === undefined ? kind.label : isNew ? `New ${kind.noun}` : titleOf(draft, kind) || `(${kind.noun} without a name)`;
    const context = { hints: kind.hints, references: referencesOf(program), errors: this.errors, set: this.setField };
    return html`
      ${kind.key === undefined ? nothing : html`<p class="crumbs"><a href="/console/program/${kind.slug}">${kind.label}</a> ›</p>`}
      <div class="part-head">
        <h2 class="entity-title">${heading}</h2>
        <div class="actions">
          ${
            isNew || (kind.key === undefined && program.awardSettings === undefined)
              ? nothing
              : html`<sl-button class="delete" variant="danger" outline @click=${() => void this.review(true)}>Delete…</sl-button>`
          }
          <sl-button variant="primary" ?loading=${this.busy} @click=${() => void this.review(false)}>Review changes…</sl-button>
        </div>
      </div>
      ${
        this.unplaced.length === 0
          ? nothing
          : html`<sl-alert class="unplaced" variant="danger" open>
            <sl-icon slot="icon" name="exclamation-triangle"></sl-icon>
            <strong>The program cannot be saved like this:</strong>
            <ul>
              ${this.unplaced.map((problem) => html`<li>${problem.where}: ${problem.message}</li>`)}
            </ul>
          </sl-alert>`
      }
      ${this.errors.size === 0 ? nothing : html`<p class="error-note" role="alert">Please correct the ${this.errors.size === 1 ? 'field' : 'fields'} marked in red.</p>`}
      <sl-tab-group>
        <sl-tab slot="nav" panel="form">Form</sl-tab>
        <sl-tab slot="nav" panel="json">JSON</sl-tab>
        <sl-tab-panel name="form">
          <div class="entity-form">${entityForm(kind.schema, draft, context)}</div>
        </sl-tab-panel>
        <sl-tab-panel name="json">
          <p class="muted small">
            The same ${kind.noun} as the API reads and writes it. Edit either view: the other follows as long as the JSON is valid.
          </p>
          <ql-json-editor label="JSON of the ${kind.noun}" .value=${JSON.stringify(draft, null, 2)} @ql-json-input=${this.onJson}></ql-json-editor>
          ${this.jsonError === undefined ? nothing : html`<p class="help error" role="status">Not valid JSON yet: ${this.jsonError}</p>`}
        </sl-tab-panel>
      </sl-tab-group>
      ${kind.key === 'groups' && !isNew ? html`<ql-group-members .groupId=${String(draft.id)}></ql-group-members>` : nothing}
    `;
  }

  private reviewDialog(): TemplateResult {
    const pending = this.pending;
    const label = pending?.deleting === true ? `Delete this ${this.kind.noun}?` : 'Review changes';
    return html`<sl-dialog class="review" style="--width: 40rem" label=${label} ?open=${pending !== undefined} @sl-after-hide=${(event: Event) => {
      if (event.target === event.currentTarget) this.pending = undefined;
    }}>
      ${pending === undefined || this.program === undefined ? nothing : reviewOf(pending.preview, this.program, pending.document)}
      <sl-button slot="footer" @click=${() => (this.pending = undefined)}>Keep editing</sl-button>
      <sl-button slot="footer" variant=${pending?.deleting === true ? 'danger' : 'primary'} ?loading=${this.busy} @click=${this.save}>${pending?.deleting === true ? 'Delete' : 'Save'}</sl-button>
    </sl-dialog>`;
  }
}
