// <ql-leaderboard leaderboard-id size>: a leaderboard's current window, either its top `size` rows
// (GET /leaderboards/{id}/leaders?limit=) or the rows around the viewer with their rank and score
// (GET /leaderboards/{id}/leaders/{u}). The viewer's row is highlighted (part "entry viewer",
// aria-current). On the top view, a viewer ranked below the rows shown finds their own row pinned
// under them, after a gap (part "pinned"): read with ?around=0 only when the list is full and they
// are not in it, so a viewer in the list, or on a board that lists everyone, costs no extra call. The board's name and size come from its definition (GET /leaderboards/{id}, read
// once per board). Below, the winners of the board's last closed window and their prizes
// (GET /leaderboards/{id}/results?limit=1), when a window has closed.
import { css, html, nothing } from 'lit';
import type { ClosedWindow } from '../../src/modules/leaderboard-results/service.js';
import type { LeaderEntry } from '../../src/modules/leaderboards/service.js';
import { formatNumber, QuestlineElement, sharedStyles } from './base.js';
import { prizeText, windowDays } from './closed-window.js';

interface Standing {
  rank: number | null;
  score: number | null;
  entries: LeaderEntry[];
}

export type LeaderboardView = 'top' | 'around';

const displayName = (entry: Pick<LeaderEntry, 'firstName' | 'lastName' | 'userId' | 'groupId'>): string =>
  [entry.firstName, entry.lastName].filter((part) => part !== null && part !== '').join(' ') || (entry.userId ?? entry.groupId ?? '');

export class QlLeaderboard extends QuestlineElement {
  static override properties = {
    ...QuestlineElement.properties,
    leaderboardId: { type: String, attribute: 'leaderboard-id' },
    size: { type: Number },
    view: { type: String },
    entries: { state: true },
    standing: { state: true },
    pinned: { state: true },
    boardName: { state: true },
    lastClosed: { state: true },
  };
  static override styles = css`
    ${sharedStyles}
    .views {
      display: flex;
      flex-wrap: wrap;
      gap: 6px;
      margin-bottom: 8px;
    }
    ol {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    li {
      display: flex;
      align-items: center;
      gap: 8px;
      padding: 6px 8px;
      border-radius: calc(var(--ql-radius, 10px) / 2);
      min-width: 0;
    }
    li[aria-current='true'] {
      background: var(--ql-color-highlight, #edf2ff);
      font-weight: 600;
    }
    .rank {
      flex: none;
      min-width: 2.5em;
      color: var(--ql-color-muted, #5c6477);
    }
    .name {
      flex: 1;
      min-width: 0;
      overflow-wrap: anywhere;
    }
    .you {
      font-size: 0.8em;
      padding: 0 6px;
      border-radius: 999px;
      color: var(--ql-color-on-accent, #ffffff);
      background: var(--ql-color-accent, #3b5bdb);
    }
    .score {
      flex: none;
      font-variant-numeric: tabular-nums;
    }
    .gap {
      display: flex;
      align-items: center;
      gap: 8px;
      padding: 2px 8px;
      line-height: 1;
      color: var(--ql-color-muted, #5c6477);
    }
    .gap::before,
    .gap::after {
      content: '';
      flex: 1;
      border-top: 1px dashed var(--ql-color-border, #d9dde7);
    }
    p {
      margin: 8px 0 0;
      overflow-wrap: anywhere;
    }
    .results {
      margin-top: 12px;
      padding-top: 8px;
      border-top: 1px solid var(--ql-color-border, #dde1ea);
    }
    h3 {
      margin: 0;
      font-size: 1em;
    }
    .results li {
      flex-wrap: wrap;
    }
    .prize {
      flex-basis: 100%;
      padding-left: calc(2.5em + 8px);
      font-size: 0.9em;
      color: var(--ql-color-accent, #3b5bdb);
    }
  `;
  protected static override reloadOn = ['leaderboardId', 'size', 'view'];

  declare leaderboardId: string;
  declare size: number;
  declare view: LeaderboardView;
  declare entries: LeaderEntry[] | null;
  declare standing: Standing | null;
  /** On the top view: the viewer's own row when they are ranked below it; null when they are in it, or unranked. */
  declare pinned: LeaderEntry | null;
  /** On the top view: whether the viewer is known to have no score in the window (shown under a non-empty list). */
  private unranked: boolean;
  declare boardName: string | null;
  /** The last closed window, with its winners (null: none closed, or not read yet). */
  declare lastClosed: ClosedWindow | null;
  /** The board whose definition is read, and its size (a page may not ask for more rows). */
  private defined: { board: string; size: number; party: 'user' | 'group' } | null;

  constructor() {
    super();
    this.leaderboardId = '';
    this.size = 10;
    this.view = 'top';
    this.entries = null;
    this.standing = null;
    this.pinned = null;
    this.unranked = false;
    this.boardName = null;
    this.lastClosed = null;
    this.defined = null;
  }

  protected async load(): Promise<void> {
    if (this.leaderboardId === '') return;
    const board = this.leaderboardId;
    const view = this.view;
    const id = encodeURIComponent(board);
    await this.define(board);
    const [standing, top, closed] = await Promise.all([
      view === 'around' ? this.api<Standing>(`/leaderboards/${id}/leaders/${encodeURIComponent(this.userId)}`) : null,
      view === 'top' ? this.api<LeaderEntry[]>(`/leaderboards/${id}/leaders?limit=${this.rows()}`) : null,
      this.api<ClosedWindow[]>(`/leaderboards/${id}/results?limit=1`),
    ]);
    const pinned = top === null ? null : await this.viewerBelow(id, top);
    if (board !== this.leaderboardId || view !== this.view) return; // changed meanwhile; the newer load shows it
    this.lastClosed = closed[0] ?? null;
    this.standing = standing;
    this.unranked = pinned === 'unranked';
    this.pinned = pinned === 'unranked' ? null : pinned;
    this.entries = top ?? standing?.entries ?? [];
  }

  /**
   * Where the viewer stands when the top rows do not show them: their own entry (rank and score as
   * the board answers them, ties and places beyond the board's size included), 'unranked', or null
   * when they are in the rows (or the board ranks groups). The standing is read only when the rows
   * are a full page: a shorter page lists every score of the window, so a viewer not in it has none.
   */
  private async viewerBelow(board: string, top: LeaderEntry[]): Promise<LeaderEntry | 'unranked' | null> {
    if (this.defined?.party !== 'user' || top.length === 0 || top.some((entry) => entry.userId === this.userId)) return null;
    if (top.length < this.rows()) return 'unranked';
    const standing = await this.api<Standing>(`/leaderboards/${board}/leaders/${encodeURIComponent(this.userId)}?around=0`);
    if (standing.rank === null) return 'unranked';
    const own = standing.entries.find((entry) => entry.userId === this.userId);
    return own ?? { rank: standing.rank, userId: this.userId, score: standing.score ?? 0, firstName: null, lastName: null, iconUrl: null };
  }

  /** `size` rows, at most the board's own size. */
  private rows(): number {
    const size = Number.isInteger(this.size) && this.size > 0 ? this.size : 10;
    return Math.min(size, this.defined?.size ?? size);
  }

  private async define(board: string): Promise<void> {
    if (this.defined?.board === board) return;
    const definition = await this.api<{ name: string; size: number; party: 'user' | 'group' }>(`/leaderboards/${encodeURIComponent(board)}`);
    this.defined = { board, size: definition.size, party: definition.party };
    this.boardName = definition.name;
  }

  private choose(view: LeaderboardView): void {
    if (view === this.view) return;
    this.entries = null;
    this.standing = null;
    this.pinned = null;
    this.unranked = false;
    this.view = view;
  }

  protected override render() {
    const standing = this.standing;
    return html`
      <section part="container" aria-labelledby="title">
        <h2 id="title" part="title">${this.boardName ?? 'Leaderboard'}</h2>
        <div class="views" part="views" role="group" aria-label="Leaderboard view">
          <button type="button" part="view-button" aria-pressed=${this.view === 'top' ? 'true' : 'false'} @click=${() => this.choose('top')}>Top</button>
          <button type="button" part="view-button" aria-pressed=${this.view === 'around' ? 'true' : 'false'} @click=${() => this.choose('around')}>Around me</button>
        </div>
        ${this.status()}
        ${
          this.entries === null
            ? nothing
            : this.entries.length === 0
              ? this.view === 'top'
                ? html`<p class="muted" part="empty">No scores yet.</p>`
                : nothing
              : html`<ol part="list" aria-label=${this.view === 'top' ? 'Top entries' : 'Entries around you'}>
                ${this.entries.map((entry) => this.row(entry))}
              </ol>`
        }
        ${this.renderPinned()}
        ${
          standing === null
            ? nothing
            : html`<p class="muted" part="standing">
              ${standing.rank === null ? this.notRanked() : `Your rank: #${standing.rank}, score ${formatNumber(standing.score ?? 0)}`}
            </p>`
        }
        ${this.renderResults()}
      </section>
    `;
  }

  private row(entry: LeaderEntry, pinned = false) {
    const viewer = entry.userId !== undefined && entry.userId === this.userId;
    const part = `entry${viewer ? ' viewer' : ''}${pinned ? ' pinned' : ''}`;
    return html`<li part=${part} aria-current=${viewer ? 'true' : nothing} data-user=${entry.userId ?? entry.groupId ?? ''}>
      <span class="rank" part="rank"><span class="visually-hidden">Rank </span>#${formatNumber(entry.rank)}</span>
      <span class="name" part="name">${displayName(entry)} ${viewer ? html`<span class="you" part="viewer-tag">${this.text('you', 'You')}</span>` : nothing}</span>
      <span class="score" part="score"><span class="visually-hidden">Score </span>${formatNumber(entry.score)}</span>
    </li>`;
  }

  /** The viewer's own row under the top rows, after a gap; or a line saying they are not on the board. */
  private renderPinned() {
    if (this.view !== 'top' || this.entries === null || this.entries.length === 0) return nothing;
    if (this.unranked) return html`<p class="muted" part="not-ranked">${this.notRanked()}</p>`;
    if (this.pinned === null) return nothing;
    return html`<div class="gap" part="gap" aria-hidden="true">⋯</div>
      <ol part="pinned" aria-label=${this.text('yourPosition', 'Your position')}>
        ${this.row(this.pinned, true)}
      </ol>`;
  }

  private notRanked(): string {
    return this.text('notRanked', 'You are not on this leaderboard yet.');
  }

  /** The last closed window's winners and their prizes. */
  private renderResults() {
    const closed = this.lastClosed;
    if (closed === null || closed.winners.length === 0) return nothing;
    return html`<section class="results" part="results" aria-labelledby="results-title">
      <h3 id="results-title" part="results-title">Last winners</h3>
      <p class="muted" part="results-window">${windowDays(closed)}</p>
      <ol part="winners" aria-label="Last winners">
        ${closed.winners.map((winner) => {
          const viewer = winner.userId !== undefined && winner.userId === this.userId;
          return html`<li part=${viewer ? 'winner viewer' : 'winner'} aria-current=${viewer ? 'true' : nothing} data-user=${winner.userId ?? winner.groupId ?? ''}>
            <span class="rank" part="rank"><span class="visually-hidden">Rank </span>#${winner.rank}</span>
            <span class="name" part="name">${displayName(winner)} ${viewer ? html`<span class="you" part="viewer-tag">${this.text('you', 'You')}</span>` : nothing}</span>
            <span class="score" part="score"><span class="visually-hidden">Score </span>${formatNumber(winner.score)}</span>
            ${winner.prize === null ? nothing : html`<span class="prize" part="prize">${prizeText(winner.prize)}</span>`}
          </li>`;
        })}
      </ol>
    </section>`;
  }
}
