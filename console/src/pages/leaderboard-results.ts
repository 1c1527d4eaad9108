// A leaderboard's closed windows, under its standings on the Leaderboards page (docs/leaderboards.md,
// "Closed windows and prizes"): newest first, each with its days in the site's calendar, when it
// closed, and its winners in final order with their scores and the prizes they were paid; paged.
// From GET /leaderboards/{id}/results, which any token of the site reads.
import type { Tabulator } from 'tabulator-tables';
import { html, LitElement, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { ClosedWindow, Winner } from '../../../src/modules/leaderboard-results/service.js';
import type { LeaderboardDocument } from '../../../src/modules/program/model.js';
import { prizeText, windowDays } from '../../../ui/src/closed-window.js';
import { closableAlert } from '../alerts.js';
import { apiPage } from '../api.js';
import { grid } from '../grid.js';
import { fullName } from '../names.js';
import { PAGE, pager } from '../pager.js';

/** What the page needs of the board: which it is and when its windows close. */
export type ClosingBoard = Pick<LeaderboardDocument, 'id' | 'end' | 'prizes'> & { period: string };

/** When a window was closed, in the reader's zone: "Nov 18, 2026, 5:00 PM". */
const closedAt = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** Why the board has no closed window (yet): the grid's empty state. */
function nothingClosed(board: ClosingBoard): string {
  if (board.period === 'allTime' && board.end === undefined) return 'This all-time board never closes (it has no end), so it has no winners.';
  if (board.period === 'allTime') return `No window has closed yet: this board closes at its end, ${board.end?.replace('T', ' ')} (site time).`;
  return 'No window has closed yet: once the current window ends, its winners and the prizes paid to them show here.';
}

/** One winner as a line of the Winners cell: rank, name and id, score, and the prize paid (if any). */
function winnerLine(winner: Winner): HTMLElement {
  const line = document.createElement('li');
  const id = winner.userId ?? winner.groupId ?? '';
  const rank = document.createElement('span');
  rank.className = 'rank';
  rank.textContent = `#${winner.rank}`;
  const name = document.createElement('strong');
  name.textContent = fullName(winner) || id;
  const detail = document.createElement('span');
  detail.className = 'muted';
  detail.textContent = `${fullName(winner) === '' ? '' : `${id} · `}score ${winner.score.toLocaleString()}`;
  const prize = document.createElement('span');
  prize.className = winner.prize === null ? 'prize muted' : 'prize';
  prize.textContent = winner.prize === null ? 'no prize' : prizeText(winner.prize);
  line.append(rank, name, detail, prize);
  return line;
}

function winnersCell(window: ClosedWindow): HTMLElement {
  if (window.winners.length === 0) {
    const none = document.createElement('span');
    none.className = 'muted';
    none.textContent = 'Nobody scored in this window.';
    return none;
  }
  const list = document.createElement('ol');
  list.className = 'winners';
  list.append(...window.winners.map(winnerLine));
  return list;
}

@customElement('ql-leaderboard-results')
export class QlLeaderboardResults extends LitElement {
  @property({ attribute: false }) board: ClosingBoard | undefined;
  @state() private offset = 0;
  @state() private total = 0;
  @state() private error: string | undefined;
  @query('.closed-windows') private readonly table!: HTMLElement;
  private grid: Tabulator | undefined;
  private built = false;
  /** The grid's empty state, which says why this board has no closed window. */
  private readonly empty = Object.assign(document.createElement('div'), { className: 'tabulator-placeholder-contents' });

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override firstUpdated(): void {
    this.grid = grid<ClosedWindow>(
      this.table,
      [
        // Not sortable: the windows come newest first, a page at a time, and a sort would order one page only.
        { title: 'Window', field: 'lastDay', width: 250, headerSort: false, formatter: (cell) => windowDays(cell.getRow().getData() as ClosedWindow) },
        { title: 'Closed', field: 'closedAt', width: 200, headerSort: false, formatter: (cell) => closedAt(cell.getValue() as string) },
        {
          title: 'Winners and prizes paid',
          field: 'winners',
          minWidth: 320,
          headerSort: false,
          cssClass: 'wrap',
          formatter: (cell) => winnersCell(cell.getRow().getData() as ClosedWindow),
        },
      ],
      [],
      this.empty,
    );
    this.grid.on('tableBuilt', () => {
      this.built = true;
      void this.load();
    });
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('board') && changed.get('board') !== undefined && this.built) {
      this.offset = 0;
      void this.load();
    }
  }

  override disconnectedCallback(): void {
    this.grid?.destroy();
    this.grid = undefined;
    super.disconnectedCallback();
  }

  private async load(): Promise<void> {
    const board = this.board;
    if (board === undefined || this.grid === undefined) return;
    try {
      const query = new URLSearchParams({ limit: String(PAGE), offset: String(this.offset) });
      const page = await apiPage<ClosedWindow>(`/leaderboards/${encodeURIComponent(board.id)}/results?${query}`);
      if (board !== this.board) return; // another board was chosen meanwhile; its load shows it
      this.empty.textContent = nothingClosed(board);
      await this.grid.setData(page.items);
      this.total = page.total ?? page.items.length;
      this.error = undefined;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  protected override render(): TemplateResult {
    return html`
      <h2>Closed windows</h2>
      <p class="muted">Each window of this board that has ended, newest first: its winners in final order, and the prizes they were paid when it closed.</p>
      ${closableAlert('danger', this.error, () => (this.error = undefined))}
      <div class="closed-windows grid-box" role="region" aria-label="Closed windows"></div>
      ${pager(
        { offset: this.offset, total: this.total },
        (offset) => {
          this.offset = offset;
          void this.load();
        },
        ['Newer', 'Older'],
      )}
    `;
  }
}
