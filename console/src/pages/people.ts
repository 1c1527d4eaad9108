// People: find a user of the site (by the start of the id or any part of the name); each name
// leads to the person's page (./person.ts).
import type { Tabulator } from 'tabulator-tables';
import { html, LitElement, type TemplateResult } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import type { Person } from '../../../src/modules/users/directory.js';
import { apiPage } from '../api.js';
import { grid } from '../grid.js';
import { fullName } from '../names.js';
import { PAGE, pager } from '../pager.js';

const SEARCH_DELAY_MS = 250;

@customElement('ql-people-page')
export class QlPeoplePage extends LitElement {
  @state() private q = '';
  @state() private offset = 0;
  @state() private total = 0;
  @state() private error: string | undefined;
  @query('.people') private readonly table!: HTMLElement;
  private grid: Tabulator | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override firstUpdated(): void {
    this.grid = grid<Person>(
      this.table,
      [
        // A link, not a row click: it works with the keyboard, and opens in a new tab when asked.
        { title: 'Name', field: 'firstName', formatter: (cell) => personLink(cell.getRow().getData() as Person), minWidth: 200 },
        { title: 'Id', field: 'userId', minWidth: 160 },
      ],
      [],
      'Nobody found',
    );
    this.grid.on('tableBuilt', () => void this.search());
  }

  override disconnectedCallback(): void {
    clearTimeout(this.timer);
    this.grid?.destroy();
    super.disconnectedCallback();
  }

  private async search(): Promise<void> {
    try {
      const query = new URLSearchParams({ limit: String(PAGE), offset: String(this.offset) });
      if (this.q !== '') query.set('q', this.q);
      const page = await apiPage<Person>(`/admin/users?${query}`);
      await this.grid?.setData(page.items);
      this.total = page.total ?? page.items.length;
      this.error = undefined;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  protected override render(): TemplateResult {
    return html`
      <section class="page">
        <header class="page-head"><h1>People</h1></header>
        ${this.error === undefined ? '' : html`<sl-alert variant="danger" open><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>${this.error}</sl-alert>`}
        <div class="filters">
          <sl-input
            class="search"
            type="search"
            label="Find a user"
            placeholder="Name or user id"
            clearable
            @sl-input=${(event: Event) => {
              this.q = (event.target as HTMLInputElement).value.trim();
              this.offset = 0;
              clearTimeout(this.timer);
              this.timer = setTimeout(() => void this.search(), SEARCH_DELAY_MS);
            }}
          >
            <sl-icon slot="prefix" name="search"></sl-icon>
          </sl-input>
        </div>
        <p class="muted">Everyone the site knows: who has logged an action, has a profile, or is in a group.</p>
        <div class="people grid-box" role="region" aria-label="People"></div>
        ${pager({ offset: this.offset, total: this.total }, (offset) => {
          this.offset = offset;
          void this.search();
        })}
      </section>
    `;
  }
}

function personLink(person: Person): HTMLAnchorElement {
  const link = document.createElement('a');
  link.href = `/console/people/${encodeURIComponent(person.userId)}`;
  link.textContent = fullName(person) || '(no name)';
  return link;
}
