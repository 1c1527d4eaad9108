// People: find a user of the site (by the start of the id or any part of the name), and see one
// user: point balances per category with today's limit, level and the way to the next, trophy
// case, and the actions recorded for them, newest first.
import type { Tabulator } from 'tabulator-tables';
import { html, LitElement, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { Person } from '../../../src/modules/users/directory.js';
import type { Trophy } from '../../../src/modules/profile/routes.js';
import type { CategoryBalance, ProfileService } from '../../../src/modules/profile/service.js';
import { api, apiPage } from '../api.js';
import { grid } from '../grid.js';
import { fullName } from '../names.js';
import { PAGE, pager } from '../pager.js';

const SEARCH_DELAY_MS = 250;
const when = (iso: string) => new Date(iso).toLocaleString();

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

/** What GET /users/{u}/levels answers. */
type LevelProgress = Awaited<ReturnType<ProfileService['levels']>>;

interface RecordedAction {
  eventId: string;
  action: string;
  value: number;
  timestamp: string;
  reversedAt?: string;
}

interface Profile {
  preferences: { firstName: string | null; lastName: string | null };
  balance: { categories: CategoryBalance[] };
  level: LevelProgress;
  trophies: Trophy[];
}

@customElement('ql-person-page')
export class QlPersonPage extends LitElement {
  @property() userId = '';
  @state() private profile: Profile | undefined;
  @state() private error: string | undefined;
  @query('.actions') private readonly actionsTable!: HTMLElement;
  private actions: Tabulator | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  override disconnectedCallback(): void {
    this.actions?.destroy();
    super.disconnectedCallback();
  }

  private async load(): Promise<void> {
    const user = `/users/${encodeURIComponent(this.userId)}`;
    try {
      const [preferences, balance, level, trophies, recorded] = await Promise.all([
        api<Profile['preferences']>('GET', `${user}/preferences`),
        api<Profile['balance']>('GET', `${user}/point-balance`),
        api<LevelProgress>('GET', `${user}/levels`),
        api<Trophy[]>('GET', `${user}/badges`),
        api<RecordedAction[]>('GET', `${user}/actions?limit=50`),
      ]);
      this.profile = { preferences, balance, level, trophies };
      await this.updateComplete;
      this.actions = grid<RecordedAction>(
        this.actionsTable,
        [
          { title: 'When', field: 'timestamp', formatter: (cell) => when(cell.getValue() as string), minWidth: 180 },
          { title: 'Action', field: 'action', minWidth: 160 },
          { title: 'Value', field: 'value', hozAlign: 'right', width: 100 },
          {
            title: 'Reversed',
            field: 'reversedAt',
            formatter: (cell) => (cell.getValue() === undefined ? '' : when(cell.getValue() as string)),
            minWidth: 160,
          },
        ],
        recorded,
        'No action recorded',
      );
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  protected override render(): TemplateResult {
    const profile = this.profile;
    const name = profile === undefined ? '' : fullName(profile.preferences);
    return html`
      <section class="page">
        <p class="crumbs"><a href="/console/people">People</a> ›</p>
        <header class="page-head">
          <h1>${name || this.userId}</h1>
          ${name === '' ? '' : html`<code class="muted">${this.userId}</code>`}
        </header>
        ${this.error === undefined ? '' : html`<sl-alert variant="danger" open><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>${this.error}</sl-alert>`}
        ${profile === undefined && this.error === undefined ? html`<sl-spinner aria-label="Loading"></sl-spinner>` : ''}
        ${profile === undefined ? '' : this.summary(profile)}
        <h2>Recorded actions</h2>
        <div class="actions grid-box" role="region" aria-label="Recorded actions"></div>
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
