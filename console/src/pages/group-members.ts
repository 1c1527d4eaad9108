// A group's members on its editor page: who is in it, adding a user by id and removing one. These
// apply at once (memberships are user data, not part of the program), through
// /admin/groups/{groupId}/members.
import type { Tabulator } from 'tabulator-tables';
import { html, LitElement, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { MemberView } from '../../../src/modules/groups/routes.js';
import { api, apiPage } from '../api.js';
import { grid } from '../grid.js';
import { PAGE, pager } from '../pager.js';
import { toast } from '../toast.js';

@customElement('ql-group-members')
export class QlGroupMembers extends LitElement {
  @property() groupId = '';
  @state() private offset = 0;
  @state() private total = 0;
  @state() private error: string | undefined;
  @query('.members') private readonly table!: HTMLElement;
  @query('sl-input.new-member') private readonly newMember!: HTMLInputElement;
  private grid: Tabulator | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override firstUpdated(): void {
    this.grid = grid<MemberView>(
      this.table,
      [
        { title: 'User', field: 'userId', minWidth: 200 },
        { title: 'Member since', field: 'joinedAt', formatter: (cell) => new Date(cell.getValue() as string).toLocaleString(), minWidth: 180 },
        { title: '', field: 'userId', headerSort: false, width: 120, formatter: (cell) => this.removeButton(cell.getValue() as string) },
      ],
      [],
      'No member yet',
    );
    this.grid.on('tableBuilt', () => void this.load());
  }

  override disconnectedCallback(): void {
    this.grid?.destroy();
    super.disconnectedCallback();
  }

  private removeButton(userId: string): HTMLElement {
    // A plain button: it fits the grid's row, where a Shoelace one, drawn later, overflows it.
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'link';
    button.textContent = 'Remove';
    button.setAttribute('aria-label', `Remove ${userId}`);
    button.addEventListener('click', () => void this.change('DELETE', userId));
    return button;
  }

  private async load(): Promise<void> {
    try {
      const page = await apiPage<MemberView>(`/admin/groups/${encodeURIComponent(this.groupId)}/members?limit=${PAGE}&offset=${this.offset}`);
      await this.grid?.setData(page.items);
      this.total = page.total ?? page.items.length;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private async change(method: 'PUT' | 'DELETE', userId: string): Promise<void> {
    try {
      await api(method, `/admin/groups/${encodeURIComponent(this.groupId)}/members/${encodeURIComponent(userId)}`);
      toast(method === 'PUT' ? `${userId} is in the group now.` : `${userId} left the group.`);
      this.error = undefined;
      await this.load();
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private readonly add = (event: Event) => {
    event.preventDefault();
    const userId = this.newMember.value.trim();
    if (userId === '') return;
    this.newMember.value = '';
    void this.change('PUT', userId);
  };

  protected override render(): TemplateResult {
    return html`
      <section class="form-section">
        <h3>Members</h3>
        <p class="muted small">Adding and removing members applies at once; it is not part of the program’s review and save.</p>
        ${this.error === undefined ? '' : html`<sl-alert variant="danger" open><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>${this.error}</sl-alert>`}
        <form class="filters" @submit=${this.add}>
          <sl-input class="new-member" label="User id" placeholder="e.g. sam"></sl-input>
          <sl-button type="submit">Add to the group</sl-button>
        </form>
        <div class="members grid-box" role="region" aria-label="Members"></div>
        ${pager({ offset: this.offset, total: this.total }, (offset) => {
          this.offset = offset;
          void this.load();
        })}
      </section>
    `;
  }
}
