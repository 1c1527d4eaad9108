// One person: point balances per category with today's limit, level and the way to the next,
// trophy case, missions in progress and completed, the actions recorded for them (each one can be
// reversed, after a confirmation that shows what the reversal takes back: ./reverse-dialog.ts), and
// their point history (mission rewards, reversals, adjustments with their reason). "Adjust
// points…" credits or debits with a reason (./adjust-dialog.ts); after either, everything reloads.
import type { Tabulator } from 'tabulator-tables';
import { html, LitElement, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { MissionSummary } from '../../../src/modules/missions/routes.js';
import type { PointEntry } from '../../../src/modules/points/service.js';
import type { Trophy } from '../../../src/modules/profile/routes.js';
import type { CategoryBalance, ProfileService } from '../../../src/modules/profile/service.js';
import { closableAlert } from '../alerts.js';
import { api, apiPage } from '../api.js';
import { grid } from '../grid.js';
import { fullName } from '../names.js';
import { PAGE, pager } from '../pager.js';
import './adjust-dialog.js';
import './reverse-dialog.js';
import type { RecordedAction } from './reverse-dialog.js';

const when = (iso: string) => new Date(iso).toLocaleString();

/** What GET /users/{u}/levels answers. */
type LevelProgress = Awaited<ReturnType<ProfileService['levels']>>;

interface Profile {
  preferences: { firstName: string | null; lastName: string | null };
  balance: { categories: CategoryBalance[] };
  level: LevelProgress;
  trophies: Trophy[];
}

/** A mission as the person's page lists it: its progress now, and how often and when it was completed. */
interface MissionRow {
  id: string;
  name: string;
  percentComplete: number;
  completionCount: number;
  lastCompletedAt: string | undefined;
}

@customElement('ql-person-page')
export class QlPersonPage extends LitElement {
  @property() userId = '';
  @state() private profile: Profile | undefined;
  @state() private error: string | undefined;
  @state() private notice: string | undefined;
  @state() private historyOffset = 0;
  @state() private historyTotal = 0;
  @state() private reversing: RecordedAction | undefined;
  @state() private adjusting = false;
  @query('.actions') private readonly actionsElement!: HTMLElement;
  @query('.missions') private readonly missionsElement!: HTMLElement;
  @query('.history') private readonly historyElement!: HTMLElement;
  private actions: Tabulator | undefined;
  private missions: Tabulator | undefined;
  private history: Tabulator | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override firstUpdated(): void {
    this.missions = grid<MissionRow>(
      this.missionsElement,
      [
        { title: 'Mission', field: 'name', minWidth: 200 },
        { title: 'Progress', field: 'percentComplete', formatter: (cell) => progressBar(cell.getRow().getData() as MissionRow), minWidth: 200 },
        { title: 'Completed', field: 'completionCount', hozAlign: 'right', width: 130, formatter: (cell) => times(cell.getValue() as number) },
        {
          title: 'Last completed',
          field: 'lastCompletedAt',
          minWidth: 170,
          formatter: (cell) => (cell.getValue() === undefined ? '' : when(cell.getValue() as string)),
        },
      ],
      [],
      'No mission in progress or completed',
    );
    this.actions = grid<RecordedAction>(
      this.actionsElement,
      [
        { title: 'When', field: 'timestamp', formatter: (cell) => when(cell.getValue() as string), minWidth: 180 },
        { title: 'Action', field: 'action', minWidth: 160 },
        { title: 'Value', field: 'value', hozAlign: 'right', width: 100 },
        {
          title: 'Reversed',
          field: 'reversedAt',
          formatter: (cell) => this.reversal(cell.getRow().getData() as RecordedAction),
          minWidth: 160,
        },
      ],
      [],
      'No action recorded',
    );
    this.history = grid<PointEntry>(
      this.historyElement,
      [
        { title: 'When', field: 'recordedAt', formatter: (cell) => when(cell.getValue() as string), width: 200 },
        { title: 'Category', field: 'category', width: 130 },
        { title: 'Points', field: 'amount', hozAlign: 'right', width: 100, formatter: (cell) => signed(cell.getValue() as number) },
        { title: 'What', field: 'cause', minWidth: 300, cssClass: 'wrap', formatter: (cell) => describe(cell.getRow().getData() as PointEntry) },
      ],
      [],
      'No points yet',
    );
    // Loaded once every grid is built: setData before then is lost.
    void Promise.all([this.actions, this.missions, this.history].map((table) => new Promise((built) => table.on('tableBuilt', () => built(undefined))))).then(
      () => this.load(),
    );
  }

  override disconnectedCallback(): void {
    for (const table of [this.actions, this.missions, this.history]) table?.destroy();
    super.disconnectedCallback();
  }

  /** Everything about the person, again (after a reversal or an adjustment too). */
  private async load(): Promise<void> {
    const user = `/users/${encodeURIComponent(this.userId)}`;
    try {
      const [preferences, balance, level, trophies, recorded, eligible, completed] = await Promise.all([
        api<Profile['preferences']>('GET', `${user}/preferences`),
        api<Profile['balance']>('GET', `${user}/point-balance`),
        api<LevelProgress>('GET', `${user}/levels`),
        api<Trophy[]>('GET', `${user}/badges`),
        api<RecordedAction[]>('GET', `${user}/actions?limit=50`),
        api<MissionSummary[]>('GET', `${user}/challenges?limit=500`),
        api<MissionSummary[]>('GET', `${user}/challenges?type=completed&limit=500`),
        this.loadHistory(),
      ]);
      this.profile = { preferences, balance, level, trophies };
      await this.actions?.setData(recorded);
      await this.missions?.setData(missionRows(eligible, completed));
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private async loadHistory(): Promise<void> {
    const page = await apiPage<PointEntry>(`/admin/users/${encodeURIComponent(this.userId)}/point-history?limit=${PAGE}&offset=${this.historyOffset}`);
    await this.history?.setData(page.items);
    this.historyTotal = page.total ?? page.items.length;
  }

  /** The Reversed cell: when it was, or the button to reverse it. */
  private reversal(action: RecordedAction): HTMLElement | string {
    if (action.reversedAt !== undefined) return when(action.reversedAt);
    const button = document.createElement('sl-button');
    button.setAttribute('size', 'small');
    button.className = 'reverse';
    button.textContent = 'Reverse…';
    button.setAttribute('aria-label', `Reverse ${action.action} of ${when(action.timestamp)}`);
    button.addEventListener('click', () => {
      this.reversing = action;
    });
    return button;
  }

  private readonly changed = async (event: CustomEvent<string>) => {
    this.reversing = undefined;
    this.adjusting = false;
    this.notice = event.detail;
    this.historyOffset = 0;
    await this.load();
  };

  protected override render(): TemplateResult {
    const profile = this.profile;
    const name = profile === undefined ? '' : fullName(profile.preferences);
    return html`
      <section class="page">
        <p class="crumbs"><a href="/console/people">People</a> ›</p>
        <header class="page-head">
          <h1>${name || this.userId}</h1>
          ${name === '' ? '' : html`<code class="muted">${this.userId}</code>`}
          <sl-button class="adjust" size="small" ?disabled=${profile === undefined} @click=${() => (this.adjusting = true)}
            ><sl-icon slot="prefix" name="plus-slash-minus"></sl-icon>Adjust points…</sl-button
          >
        </header>
        ${closableAlert('danger', this.error, () => (this.error = undefined))}
        ${closableAlert('success', this.notice, () => (this.notice = undefined), 'notice')}
        ${profile === undefined && this.error === undefined ? html`<sl-spinner aria-label="Loading"></sl-spinner>` : ''}
        ${profile === undefined ? '' : this.summary(profile)}
        <h2>Missions</h2>
        <div class="missions grid-box" role="region" aria-label="Missions"></div>
        <h2>Recorded actions</h2>
        <p class="muted small">The last 50, newest first. Reversing one takes back what it did: progress, completions, points, badges and level.</p>
        <div class="actions grid-box" role="region" aria-label="Recorded actions"></div>
        <h2>Point history</h2>
        <p class="muted small">Every credit and debit of the person’s points, newest first: mission rewards, reversals, and adjustments with their reason.</p>
        <div class="history grid-box" role="region" aria-label="Point history"></div>
        ${pager(
          { offset: this.historyOffset, total: this.historyTotal },
          (offset) => {
            this.historyOffset = offset;
            void this.loadHistory();
          },
          ['Newer', 'Older'],
        )}
        <ql-reverse-dialog
          .userId=${this.userId}
          .action=${this.reversing}
          @ql-changed=${this.changed}
          @ql-closed=${() => (this.reversing = undefined)}
        ></ql-reverse-dialog>
        <ql-adjust-dialog
          .userId=${this.userId}
          .categories=${profile?.balance.categories ?? []}
          .open=${this.adjusting}
          @ql-changed=${this.changed}
          @ql-closed=${() => (this.adjusting = false)}
        ></ql-adjust-dialog>
      </section>
    `;
  }

  private summary(profile: Profile): TemplateResult {
    const { level } = profile;
    return html`
      <div class="cards">
        <div class="card points">
          <h2>Points</h2>
          <dl class="details">
            ${profile.balance.categories.map(
              (category) =>
                html`<dt>${category.name}${category.isDefault ? ' (default)' : ''}</dt>
                  <dd>
                    <strong>${category.balance.toLocaleString()}</strong>
                    <span class="muted small"
                      >lifetime ${category.lifetimeBalance.toLocaleString()} · today
                      ${category.dailyLimit === null ? category.earnedToday.toLocaleString() : `${category.earnedToday} of ${category.dailyLimit}`}</span
                    >
                  </dd>`,
            )}
          </dl>
        </div>
        <div class="card level">
          <h2>Level</h2>
          <p><strong>${level.current?.name ?? 'No level yet'}</strong></p>
          ${
            level.next === null
              ? html`<p class="muted">The highest level.</p>`
              : html`<p class="muted">${level.pointsToNext?.toLocaleString()} points to ${level.next.name}</p>
                <sl-progress-bar value=${level.percentToNext ?? 0} label="Progress to ${level.next.name}"></sl-progress-bar>`
          }
        </div>
        <div class="card trophies">
          <h2>Trophy case</h2>
          ${
            profile.trophies.length === 0
              ? html`<p class="muted">No badge yet.</p>`
              : html`<ul>
                ${profile.trophies.map(
                  (trophy) =>
                    html`<li><strong>${trophy.name}</strong>${trophy.earnedCount > 1 ? ` ×${trophy.earnedCount}` : ''} <span class="muted">${when(trophy.lastEarnedAt)}</span></li>`,
                )}
              </ul>`
          }
        </div>
      </div>
    `;
  }
}

/** The eligible missions with progress, and the completed ones, once each: in progress first (furthest along), then completed (latest first). */
function missionRows(eligible: MissionSummary[], completed: MissionSummary[]): MissionRow[] {
  const rows = new Map<string, MissionRow>();
  for (const mission of eligible) {
    if (mission.percentComplete === 0) continue;
    rows.set(mission.id, { id: mission.id, name: mission.name, percentComplete: mission.percentComplete, completionCount: 0, lastCompletedAt: undefined });
  }
  for (const mission of completed) {
    const known = rows.get(mission.id);
    const done = { completionCount: mission.completionCount ?? 1, lastCompletedAt: mission.lastCompletedAt };
    rows.set(mission.id, known !== undefined ? { ...known, ...done } : { id: mission.id, name: mission.name, percentComplete: 100, ...done });
  }
  return [...rows.values()].sort(
    (a, b) =>
      Number(a.completionCount > 0 && a.percentComplete === 100) - Number(b.completionCount > 0 && b.percentComplete === 100) ||
      b.percentComplete - a.percentComplete ||
      (b.lastCompletedAt ?? '').localeCompare(a.lastCompletedAt ?? ''),
  );
}

function progressBar(row: MissionRow): HTMLElement {
  const bar = document.createElement('sl-progress-bar');
  bar.setAttribute('value', String(row.percentComplete));
  bar.setAttribute('label', `Progress in ${row.name}`);
  bar.textContent = `${row.percentComplete}%`;
  return bar;
}

const times = (count: number) => (count === 0 ? '' : count === 1 ? 'once' : `${count.toLocaleString()} times`);

function signed(amount: number): HTMLElement {
  const span = document.createElement('span');
  span.className = amount < 0 ? 'debit' : 'credit';
  span.textContent = `${amount > 0 ? '+' : amount < 0 ? '−' : ''}${Math.abs(amount).toLocaleString()}`;
  return span;
}

/** What a ledger entry came from, as a sentence. */
export function describe(entry: PointEntry): string {
  const action = entry.action === null ? '' : ` (${entry.action})`;
  const mission = entry.mission === null ? '' : `“${entry.mission.name}”`;
  const capped = entry.amount !== entry.requested ? `, capped (the reward was ${entry.requested.toLocaleString()})` : '';
  switch (entry.cause) {
    case 'mission':
      return `Reward of ${mission}${action}${capped}`;
    case 'reversal':
      return `Reversal of ${mission}${action}`;
    case 'adjustment':
      return `Adjustment by an admin: ${entry.reason ?? ''}`;
    case 'recognition':
      return `Recognition${entry.reason === null ? '' : `: ${entry.reason}`}`;
    case 'expiry':
      return `Expired: points earned before ${new Date(entry.causeId).toLocaleString()}`;
    case 'streak': {
      // causeId: streakId:runStart:length
      const length = entry.causeId.split(':').at(-1) ?? '';
      return `Streak milestone: ${length} in a row (${entry.causeId.split(':').slice(0, -2).join(':')})${action}`;
    }
    case 'prize':
      return `Leaderboard prize${entry.reason === null ? '' : `: ${entry.reason}`}`;
  }
}
