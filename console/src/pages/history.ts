// Program history: every version of the program, newest first (who made it, when, what changed in
// words); a version selected shows its changes against the version before it, entity by entity;
// "Restore this version…" previews what restoring it would do (POST /admin/program/preview of its
// document) and restores it (a new version, through the validated path every change takes).
import type { Tabulator } from 'tabulator-tables';
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import type { ProgramDocument } from '../../../src/modules/program/model.js';
import type { KeptVersion, KeptVersionDetail } from '../../../src/modules/program/program-history.js';
import type { ProgramPreview } from '../../../src/modules/program/service.js';
import { closableAlert } from '../alerts.js';
import { api, apiPage } from '../api.js';
import { grid } from '../grid.js';
import { PAGE, pager } from '../pager.js';
import { changesView, previewView, summaryInWords } from '../program-changes.js';
import { currentSession } from '../session.js';

const when = (iso: string) => new Date(iso).toLocaleString();

/** Who made a version: an admin client's id (this console's own marked so), the questline command, or Questline itself. */
function editorOf(changedBy: string | null): string {
  if (changedBy === null) return 'Questline';
  if (changedBy === 'cli') return 'questline command';
  return changedBy === currentSession()?.clientId ? `${changedBy} (you)` : changedBy;
}

function whatChanged(version: KeptVersion): string {
  const summary = summaryInWords(version.summary);
  return version.restoredFrom === null ? summary : `Restored version ${version.restoredFrom}: ${summary.charAt(0).toLowerCase()}${summary.slice(1)}`;
}

/** A version selected, with the program its changes apply to (the version before it). */
interface Selected {
  detail: KeptVersionDetail;
  previous: ProgramDocument | undefined;
}

/** The restore dialog: the version, and what restoring it would do against the program now. */
interface Restoring {
  version: number;
  preview?: ProgramPreview;
  current?: ProgramDocument;
}

@customElement('ql-history-page')
export class QlHistoryPage extends LitElement {
  @state() private offset = 0;
  @state() private total = 0;
  @state() private latest: number | undefined;
  @state() private selected: Selected | undefined;
  @state() private restoring: Restoring | undefined;
  @state() private error: string | undefined;
  @state() private notice: string | undefined;
  @query('.versions') private readonly table!: HTMLElement;
  private grid: Tabulator | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override firstUpdated(): void {
    this.grid = grid<KeptVersion>(
      this.table,
      [
        // A button, not only a row click: it works with the keyboard.
        { title: 'Version', field: 'version', width: 110, formatter: (cell) => this.versionButton(cell.getValue() as number) },
        { title: 'When', field: 'changedAt', width: 200, formatter: (cell) => when(cell.getValue() as string) },
        { title: 'Who', field: 'changedBy', width: 300, formatter: (cell) => editorOf(cell.getValue() as string | null) },
        {
          title: 'What changed',
          field: 'summary',
          minWidth: 280,
          headerSort: false,
          variableHeight: true,
          cssClass: 'wrap',
          formatter: (cell) => whatChanged(cell.getRow().getData() as KeptVersion),
        },
      ],
      [],
      'No version yet',
    );
    this.grid.on('rowClick', (_event, row) => void this.select((row.getData() as KeptVersion).version));
    this.grid.on('tableBuilt', () => void this.load());
  }

  override disconnectedCallback(): void {
    this.grid?.destroy();
    super.disconnectedCallback();
  }

  private versionButton(version: number): HTMLElement {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'link';
    button.textContent = `Version ${version}`;
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      void this.select(version);
    });
    return button;
  }

  private async load(): Promise<void> {
    try {
      const page = await apiPage<KeptVersion>(`/admin/program/versions?${new URLSearchParams({ limit: String(PAGE), offset: String(this.offset) })}`);
      await this.grid?.setData(page.items);
      this.total = page.total ?? page.items.length;
      if (this.offset === 0) this.latest = page.items[0]?.version;
      this.markSelected();
      if (this.selected === undefined && page.items[0] !== undefined) await this.select(page.items[0].version);
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private async select(version: number): Promise<void> {
    try {
      const detail = await api<KeptVersionDetail>('GET', `/admin/program/versions/${version}`);
      const previous = detail.previousVersion === null ? undefined : await api<KeptVersionDetail>('GET', `/admin/program/versions/${detail.previousVersion}`);
      this.selected = { detail, previous: previous?.document };
      this.markSelected();
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  /** The selected version's row stands out in the list. */
  private markSelected(): void {
    const version = this.selected?.detail.version;
    for (const row of this.grid?.getRows() ?? []) row.getElement().classList.toggle('selected', (row.getData() as KeptVersion).version === version);
  }

  /** Opens the restore dialog, then asks what restoring the version would do. */
  private readonly askRestore = async (version: KeptVersionDetail) => {
    this.restoring = { version: version.version };
    try {
      const [preview, current] = await Promise.all([
        api<ProgramPreview>('POST', '/admin/program/preview', version.document),
        api<ProgramDocument>('GET', '/admin/program'),
      ]);
      this.restoring = { version: version.version, preview, current };
    } catch (error) {
      this.restoring = undefined;
      this.error = (error as Error).message;
    }
  };

  private readonly restore = async () => {
    const version = this.restoring?.version;
    if (version === undefined) return;
    try {
      await api('POST', `/admin/program/versions/${version}/restore`, {});
      this.restoring = undefined;
      this.offset = 0;
      this.selected = undefined;
      await this.load();
      this.notice = `Version ${version} was restored: the program is now version ${this.latest ?? ''}.`;
    } catch (error) {
      this.restoring = undefined;
      this.error = (error as Error).message;
    }
  };

  protected override render(): TemplateResult {
    return html`
      <section class="page">
        <header class="page-head"><h1>Program history</h1></header>
        ${closableAlert('danger', this.error, () => (this.error = undefined))}
        ${closableAlert('success', this.notice, () => (this.notice = undefined))}
        <p class="muted">Every change to the program is kept as a version: who made it, when, and what it changed. Select a version to see its changes, or to restore it.</p>
        <div class="versions grid-box" role="region" aria-label="Program versions"></div>
        ${pager(
          { offset: this.offset, total: this.total },
          (offset) => {
            this.offset = offset;
            void this.load();
          },
          ['Newer', 'Older'],
        )}
        ${this.selected === undefined ? nothing : this.versionView(this.selected)}
        ${this.restoreDialog()}
      </section>
    `;
  }

  private versionView({ detail, previous }: Selected): TemplateResult {
    const isCurrent = detail.version === this.latest;
    return html`<section class="version" aria-label="Version ${detail.version}">
      <header class="version-head">
        <div>
          <h2>Version ${detail.version}${isCurrent ? html` <sl-badge variant="success" pill>current</sl-badge>` : nothing}</h2>
          <p class="muted">
            ${when(detail.changedAt)} by ${editorOf(detail.changedBy)}${detail.restoredFrom === null ? '' : ` · restored version ${detail.restoredFrom}`}
            ${detail.previousVersion === null ? '' : ` · changes against version ${detail.previousVersion}`}
          </p>
        </div>
        ${
          isCurrent
            ? nothing
            : html`<sl-button variant="warning" outline @click=${() => void this.askRestore(detail)}
              ><sl-icon slot="prefix" name="arrow-counterclockwise"></sl-icon>Restore this version…</sl-button
            >`
        }
      </header>
      ${
        detail.changes === null || previous === undefined
          ? html`<p class="muted">The first version: there is nothing before it to compare with.</p>`
          : changesView(detail.changes, previous)
      }
    </section>`;
  }

  private restoreDialog(): TemplateResult {
    const restoring = this.restoring;
    return html`<sl-dialog
      class="restore-version"
      label=${restoring === undefined ? 'Restore a version' : `Restore version ${restoring.version}?`}
      ?open=${restoring !== undefined}
      @sl-after-hide=${(event: Event) => {
        if (event.target === event.currentTarget) this.restoring = undefined;
      }}
    >
      ${
        restoring?.preview === undefined || restoring.current === undefined
          ? html`<sl-spinner aria-label="Working out what restoring would do"></sl-spinner>`
          : html`<p>Restoring makes version ${restoring.version}’s program the program again, as a new version. This is what it would do:</p>
            ${previewView(restoring.preview, restoring.current)}`
      }
      <sl-button slot="footer" @click=${() => (this.restoring = undefined)}>Cancel</sl-button>
      <sl-button slot="footer" variant="warning" ?disabled=${restoring?.preview === undefined} @click=${this.restore}
        ><sl-icon slot="prefix" name="arrow-counterclockwise"></sl-icon>Restore version ${restoring?.version ?? ''}</sl-button
      >
    </sl-dialog>`;
  }
}
