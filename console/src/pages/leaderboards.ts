// Leaderboards: the live standings of any board of the site in any window (the current one, the
// previous one, or the window holding a chosen day), refreshed every 10 seconds while shown; below,
// the board's closed windows with their winners and the prizes paid (leaderboard-results.ts).
import type { Tabulator } from 'tabulator-tables';
import { html, LitElement, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { api, apiPage } from '../api.js';
import { grid } from '../grid.js';
import { Refresher } from '../refresher.js';
import { fullName } from '../names.js';
import type { LeaderEntry as Leader } from '../../../src/modules/leaderboards/service.js';
import type { LeaderboardDocument } from '../../../src/modules/program/model.js';
import './leaderboard-results.js';

type Board = Pick<LeaderboardDocument, 'end' | 'prizes'> & {
  id: string;
  name: string;
  period: string;
  party: 'user' | 'group';
  size: number;
};

const REFRESH_MS = 10_000;
const PERIODS: Record<string, string> = { allTime: 'All-time', day: 'Daily', week: 'Weekly', month: 'Monthly', quarter: 'Quarterly', year: 'Yearly' };

@customElement('ql-leaderboards-page')
export class QlLeaderboardsPage extends LitElement {
  @state() private boards: Board[] | undefined;
  @state() private boardId: string | undefined;
  /** current, previous, or a day (YYYY-MM-DD) in the wanted window. */
  @state() private window = 'current';
  @state() private total: number | undefined;
  @state() private updatedAt: Date | undefined;
  @state() private error: string | undefined;
  @query('.standings') private readonly table!: HTMLElement;
  private grid: Tabulator | undefined;
  private readonly refresher = new Refresher(this, REFRESH_MS, () => void this.loadLeaders());

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.loadBoards();
  }

  override disconnectedCallback(): void {
    this.grid?.destroy();
    this.grid = undefined;
    super.disconnectedCallback();
  }

  private async loadBoards(): Promise<void> {
    try {
      this.boards = await api<Board[]>('GET', '/admin/leaderboards');
      this.boardId ??= this.boards[0]?.id;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private async loadLeaders(): Promise<void> {
    const board = this.boards?.find((b) => b.id === this.boardId);
    if (board === undefined || this.grid === undefined) return;
    try {
      const query = new URLSearchParams({ window: this.window, limit: String(Math.min(board.size, 1000)) });
      const page = await apiPage<Leader>(`/leaderboards/${encodeURIComponent(board.id)}/leaders?${query}`);
      await this.grid.setData(
        page.items.map((leader) => ({ ...leader, name: fullName(leader) || (leader.userId ?? leader.groupId), id: leader.userId ?? leader.groupId })),
      );
      this.total = page.total;
      this.updatedAt = new Date();
      this.error = undefined;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  protected override updated(changed: PropertyValues): void {
    if (this.grid === undefined && this.table !== null && this.boards !== undefined && this.boards.length > 0) {
      this.grid = grid(
        this.table,
        [
          { title: 'Rank', field: 'rank', width: 90, hozAlign: 'right', sorter: 'number' },
          { title: 'Name', field: 'name', minWidth: 160 },
          { title: 'Id', field: 'id', minWidth: 120 },
          { title: 'Score', field: 'score', width: 140, hozAlign: 'right', sorter: 'number', formatter: (cell) => Number(cell.getValue()).toLocaleString() },
        ],
        [],
        'Nobody has scored in this window yet',
      );
      this.grid.on('tableBuilt', () => void this.loadLeaders());
    } else if (changed.has('boardId') || changed.has('window')) {
      void this.loadLeaders();
    }
  }

  protected override render(): TemplateResult {
    const board = this.boards?.find((b) => b.id === this.boardId);
    return html`
      <section class="page">
        <header class="page-head">
          <h1>Leaderboards</h1>
          ${this.updatedAt === undefined ? '' : html`<span class="muted" aria-live="polite">Updated ${this.updatedAt.toLocaleTimeString()}</span>`}
        </header>
        ${this.error === undefined ? '' : html`<sl-alert variant="danger" open><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>${this.error}</sl-alert>`}
        ${
          this.boards === undefined
            ? html`<sl-spinner aria-label="Loading"></sl-spinner>`
            : this.boards.length === 0
              ? html`<p>The program has no leaderboard yet.</p>`
              : html`
                <div class="filters">
                  <sl-select
                    label="Leaderboard"
                    value=${this.boardId ?? ''}
                    @sl-change=${(event: Event) => {
                      this.boardId = (event.target as HTMLSelectElement).value;
                    }}
                  >
                    ${this.boards.map((b) => html`<sl-option value=${b.id}>${b.name}</sl-option>`)}
                  </sl-select>
                  <sl-select
                    label="Window"
                    value=${this.window === 'current' || this.window === 'previous' ? this.window : 'day'}
                    @sl-change=${(event: Event) => {
                      const value = (event.target as HTMLSelectElement).value;
                      this.window = value === 'day' ? new Date().toISOString().slice(0, 10) : value;
                    }}
                  >
                    <sl-option value="current">Current</sl-option>
                    <sl-option value="previous">Previous</sl-option>
                    <sl-option value="day">The window of a day…</sl-option>
                  </sl-select>
                  ${
                    this.window === 'current' || this.window === 'previous'
                      ? ''
                      : html`<sl-input
                        type="date"
                        label="Day"
                        value=${this.window}
                        @sl-change=${(event: Event) => {
                          const value = (event.target as HTMLInputElement).value;
                          if (value !== '') this.window = value;
                        }}
                      ></sl-input>`
                  }
                  <sl-button @click=${() => void this.loadLeaders()}><sl-icon slot="prefix" name="arrow-clockwise"></sl-icon>Refresh</sl-button>
                </div>
                ${
                  board === undefined
                    ? ''
                    : html`<p class="muted">
                      ${PERIODS[board.period] ?? board.period} board of ${board.party === 'group' ? 'groups' : 'users'}, top ${board.size.toLocaleString()}${
                        this.total === undefined ? '' : html`; ${this.total.toLocaleString()} on it in this window`
                      }.
                    </p>`
                }
                <div class="standings" role="region" aria-label="Standings"></div>
                ${board === undefined ? '' : html`<ql-leaderboard-results .board=${board}></ql-leaderboard-results>`}
              `
        }
      </section>
    `;
  }
}
