// Backups: the backups stored on the server (made now with a button, each downloadable as its XML
// file), and a restore from a file: the file is read in the browser and sent to POST
// /restore/preview, the dialog shows what restoring it would change against the program now, and
// only "Restore" applies it (POST /restore). A file the restore would refuse (malformed XML, an
// invalid program) is refused before anything is applied, with the server's words and location.
import type { Tabulator } from 'tabulator-tables';
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import type { BackupSummary } from '../../../src/modules/backup/service.js';
import type { ProgramDocument } from '../../../src/modules/program/model.js';
import type { ProgramPreview } from '../../../src/modules/program/service.js';
import { closableAlert } from '../alerts.js';
import { api, apiPage, apiText, ApiProblem } from '../api.js';
import { grid } from '../grid.js';
import { PAGE, pager } from '../pager.js';
import { previewView } from '../program-changes.js';
import { currentSession } from '../session.js';

const when = (iso: string) => new Date(iso).toLocaleString();

/** A name safe in a file name: lower case, words joined by dashes. */
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** `<site>-backup-<YYYY-MM-DD-HHmm>.xml`, in local time. */
export function backupFileName(siteName: string, createdAt: string): string {
  const at = new Date(createdAt);
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}-${two(at.getHours())}${two(at.getMinutes())}`;
  return `${slug(siteName) || 'questline'}-backup-${stamp}.xml`;
}

/** A refused file: what the server said, and where (its field errors by XML location, or line and column). */
interface Refusal {
  message: string;
  errors: ReadonlyArray<{ path: string; message: string }>;
}

/** A backup to restore (a file chosen, or a stored one) and what restoring it would do. */
interface Restoring {
  /** The file's name, or the stored backup's. */
  name: string;
  /** What POST /restore and its preview take: type 1 with the file's XML, type 0 with a stored backup's id. */
  source: { type: '0' | '1'; data: string };
  preview: ProgramPreview;
  current: ProgramDocument;
}

@customElement('ql-backups-page')
export class QlBackupsPage extends LitElement {
  @state() private offset = 0;
  @state() private total = 0;
  @state() private error: string | undefined;
  @state() private notice: string | undefined;
  @state() private refusal: Refusal | undefined;
  @state() private reading = false;
  @state() private restoring: Restoring | undefined;
  @query('.backups') private readonly table!: HTMLElement;
  @query('input[type="file"]') private readonly fileInput!: HTMLInputElement;
  private grid: Tabulator | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override firstUpdated(): void {
    this.grid = grid<BackupSummary>(
      this.table,
      [
        { title: 'Name', field: 'name', minWidth: 240 },
        { title: 'Made', field: 'createdAt', minWidth: 190, formatter: (cell) => when(cell.getValue() as string) },
        { title: 'Id', field: 'id', minWidth: 200, formatter: (cell) => code(cell.getValue() as string) },
        { title: '', field: 'id', width: 260, headerSort: false, formatter: (cell) => this.actions(cell.getRow().getData() as BackupSummary) },
      ],
      [],
      'No backup yet: “Make a backup now” stores one',
    );
    this.grid.on('tableBuilt', () => void this.load());
  }

  override disconnectedCallback(): void {
    this.grid?.destroy();
    super.disconnectedCallback();
  }

  /** A stored backup's buttons: download it, restore it. */
  private actions(backup: BackupSummary): HTMLElement {
    const cell = document.createElement('span');
    cell.className = 'row-actions';
    cell.append(
      smallButton('download', 'Download XML', () => void this.download(backup)),
      smallButton('arrow-counterclockwise', 'Restore…', () => void this.askRestore(backup.name, { type: '0', data: backup.id })),
    );
    return cell;
  }

  private async load(): Promise<void> {
    try {
      const page = await apiPage<BackupSummary>(`/backup?${new URLSearchParams({ limit: String(PAGE), offset: String(this.offset) })}`);
      await this.grid?.setData(page.items);
      this.total = page.total ?? page.items.length;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private readonly backUp = async () => {
    try {
      const field = this.querySelector('sl-input.backup-name') as HTMLInputElement;
      const name = field.value.trim();
      const backup = await api<BackupSummary>('POST', '/backup', name === '' ? {} : { name });
      field.value = '';
      this.offset = 0;
      await this.load();
      this.notice = `Backup “${backup.name}” was stored.`;
    } catch (error) {
      this.error = (error as Error).message;
    }
  };

  /** Fetched with the token (a plain link cannot carry it), then saved from a Blob under a readable name. */
  private async download(backup: BackupSummary): Promise<void> {
    try {
      const xml = await apiText(`/backup/${encodeURIComponent(backup.id)}`, 'application/xml');
      const url = URL.createObjectURL(new Blob([xml], { type: 'application/xml' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = backupFileName(currentSession()?.siteName ?? '', backup.createdAt);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  /** The file chosen: read it, and ask what restoring it would do. */
  private readonly fileChosen = async () => {
    const file = this.fileInput.files?.[0];
    if (file === undefined) return;
    this.reading = true;
    try {
      await this.askRestore(file.name, { type: '1', data: await file.text() });
    } catch (error) {
      this.refusal = refusalOf(file.name, error);
    } finally {
      this.reading = false;
      // The same file chosen again (after fixing it) is a change again.
      this.fileInput.value = '';
    }
  };

  /** Asks what restoring the backup would do, and opens the dialog that shows it; a refusal says why. */
  private async askRestore(name: string, source: Restoring['source']): Promise<void> {
    this.refusal = undefined;
    try {
      const [preview, current] = await Promise.all([api<ProgramPreview>('POST', '/restore/preview', source), api<ProgramDocument>('GET', '/admin/program')]);
      this.restoring = { name, source, preview, current };
    } catch (error) {
      this.refusal = refusalOf(name, error);
    }
  }

  private readonly restore = async () => {
    const chosen = this.restoring;
    if (chosen === undefined) return;
    try {
      const result = await api<{ version: number }>('POST', '/restore', chosen.source);
      this.notice = `${chosen.name} was restored: the program is now version ${result.version}.`;
    } catch (error) {
      this.refusal = refusalOf(chosen.name, error);
    } finally {
      this.restoring = undefined;
    }
  };

  protected override render(): TemplateResult {
    return html`
      <section class="page">
        <header class="page-head"><h1>Backups</h1></header>
        ${closableAlert('danger', this.error, () => (this.error = undefined))}
        ${closableAlert('success', this.notice, () => (this.notice = undefined))}
        <p class="muted">
          A backup is the whole program as an XML file: missions, points, levels, badges, leaderboards and site settings. It holds no user data and no
          secrets.
        </p>

        <h2 class="first">Stored backups</h2>
        <div class="filters">
          <sl-input class="backup-name" label="Name (optional)" placeholder="Before the spring campaign" maxlength="255"></sl-input>
          <sl-button variant="primary" @click=${this.backUp}><sl-icon slot="prefix" name="archive"></sl-icon>Make a backup now</sl-button>
        </div>
        <div class="backups grid-box" role="region" aria-label="Stored backups"></div>
        ${pager({ offset: this.offset, total: this.total }, (offset) => {
          this.offset = offset;
          void this.load();
        })}

        <h2>Restore from a file</h2>
        <p class="muted">
          Choose a backup file (.xml). Nothing is applied yet: you see what restoring it would change first. Mission progress on rules the file no longer
          has is archived; points and badges stay.
        </p>
        <div class="file-pick">
          <label for="backup-file">Backup file</label>
          <input id="backup-file" type="file" accept=".xml,application/xml,text/xml" @change=${this.fileChosen} />
          ${this.reading ? html`<sl-spinner aria-label="Reading the file"></sl-spinner>` : nothing}
        </div>
        ${this.refusal === undefined ? nothing : refusalView(this.refusal, () => (this.refusal = undefined))} ${this.restoreDialog()}
      </section>
    `;
  }

  private restoreDialog(): TemplateResult {
    const chosen = this.restoring;
    return html`<sl-dialog
      class="restore-backup"
      label=${chosen === undefined ? 'Restore a backup' : `Restore ${chosen.name}?`}
      ?open=${chosen !== undefined}
      @sl-after-hide=${(event: Event) => {
        if (event.target === event.currentTarget) this.restoring = undefined;
      }}
    >
      ${chosen === undefined ? nothing : html`<p>Restoring this backup replaces the program. This is what it would do:</p>${previewView(chosen.preview, chosen.current)}`}
      <sl-button slot="footer" @click=${() => (this.restoring = undefined)}>Cancel</sl-button>
      <sl-button slot="footer" variant="warning" @click=${this.restore}><sl-icon slot="prefix" name="upload"></sl-icon>Restore</sl-button>
    </sl-dialog>`;
  }
}

function smallButton(icon: string, label: string, click: () => void): HTMLElement {
  const button = document.createElement('sl-button');
  button.setAttribute('size', 'small');
  const prefix = document.createElement('sl-icon');
  prefix.setAttribute('slot', 'prefix');
  prefix.setAttribute('name', icon);
  button.append(prefix, label);
  button.addEventListener('click', click);
  return button;
}

function code(text: string): HTMLElement {
  const element = document.createElement('code');
  element.textContent = text;
  return element;
}

function refusalOf(fileName: string, error: unknown): Refusal {
  if (!(error instanceof ApiProblem)) return { message: `${fileName} could not be read: ${(error as Error).message}`, errors: [] };
  // A malformed document's one error repeats the message (its path is the line and column).
  const errors = error.code === 'malformed_xml' ? [] : error.errors;
  return { message: `${fileName} cannot be restored. ${error.message}`, errors };
}

function refusalView(refusal: Refusal, close: () => void): TemplateResult {
  return html`<sl-alert class="refusal" variant="danger" open closable @sl-after-hide=${close}>
    <sl-icon slot="icon" name="exclamation-triangle"></sl-icon>
    <strong>${refusal.message}</strong>
    ${
      refusal.errors.length === 0
        ? nothing
        : html`<ul class="problems">
          ${refusal.errors.map((problem) => html`<li><code>${problem.path}</code>: ${problem.message}</li>`)}
        </ul>`
    }
    <p class="small">Nothing was changed.</p>
  </sl-alert>`;
}
