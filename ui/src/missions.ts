// <ql-missions>: the user's missions in two tabs, each loaded when chosen. Eligible
// (GET /users/{u}/challenges?type=eligible): name, description, icon, rewards, progress; featured
// missions first with a "Featured" badge; locked ones (prerequisite missions not done) with their
// reason. Completed (GET /users/{u}/challenges?type=completed): how often and when last.
import { css, html, nothing } from 'lit';
import type { MissionSummary } from '../../src/modules/missions/routes.js';
import { formatNumber, QuestlineElement, sharedStyles } from './base.js';

export type { MissionSummary };
export type MissionRewards = MissionSummary['rewards'];

export type MissionTab = 'eligible' | 'completed';
const TABS: Array<[MissionTab, string]> = [
  ['eligible', 'Eligible'],
  ['completed', 'Completed'],
];

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
/** A date-time as a medium date in the viewer's locale. */
export const formatDate = (iso: string): string => dateFormat.format(new Date(iso));

/** A labelled progress bar (0–100), for the blocks that show one. */
export const progressBar = (percent: number, label: string) => {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return html`<div class="bar" part="bar" role="progressbar" aria-label=${label} aria-valuemin="0" aria-valuemax="100" aria-valuenow=${value}>
    <span part="bar-fill" style="width: ${value}%"></span>
  </div>`;
};

/** "+10 Points", "+2 Coins per unit" (with a multiplier), "Badge". */
export const rewardLabels = (rewards: MissionRewards): string[] => [
  ...(rewards.points ?? []).map((p) =>
    rewards.multiplier === undefined ? `+${formatNumber(p.amount)} ${p.category}` : `+${formatNumber(p.amount * rewards.multiplier)} ${p.category} per unit`,
  ),
  ...(rewards.badge !== undefined ? ['Badge'] : []),
];

export const missionStyles = css`
  [role='tablist'] {
    display: flex;
    flex-wrap: wrap;
    gap: 4px;
    border-bottom: 1px solid var(--ql-color-border, #d9dde7);
    margin-bottom: calc(var(--ql-spacing, 16px) / 2);
  }
  [role='tab'] {
    color: var(--ql-color-muted, #5c6477);
    background: transparent;
    border: 0;
    border-bottom: 3px solid transparent;
    border-radius: 0;
  }
  [role='tab'][aria-selected='true'] {
    color: var(--ql-color-accent, #3b5bdb);
    border-bottom-color: var(--ql-color-accent, #3b5bdb);
    font-weight: 600;
  }
  li.mission {
    display: grid;
    gap: 6px;
    padding: calc(var(--ql-spacing, 16px) / 2) 0;
    border-top: 1px solid var(--ql-color-border, #d9dde7);
    min-width: 0;
  }
  li.mission:first-child {
    border-top: 0;
  }
  .head {
    display: flex;
    gap: 10px;
    align-items: flex-start;
    min-width: 0;
  }
  .head > div {
    min-width: 0;
    flex: 1;
  }
  .icon {
    --ql-icon-radius: calc(var(--ql-radius, 10px) / 2);
  }
  h3 {
    display: inline;
    margin: 0 6px 0 0;
    font-size: 1em;
  }
  p {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .tag {
    display: inline-block;
    font-size: 0.8em;
    padding: 0 8px;
    border-radius: 999px;
    color: var(--ql-color-on-accent, #ffffff);
    background: var(--ql-color-featured, var(--ql-color-accent, #3b5bdb));
  }
  .rewards {
    display: flex;
    flex-wrap: wrap;
    gap: 4px 8px;
    font-size: 0.9em;
  }
  .rewards li {
    padding: 0 6px;
    border: 1px solid var(--ql-color-border, #d9dde7);
    border-radius: 999px;
  }
  .notice {
    margin: 0;
  }
`;

export class QlMissions extends QuestlineElement {
  static override properties = { ...QuestlineElement.properties, tab: { type: String, reflect: true }, missions: { state: true } };
  static override styles = css`
    ${sharedStyles}
    ${missionStyles}
  `;
  protected static override reloadOn = ['tab'];

  declare tab: MissionTab;
  declare missions: MissionSummary[] | null;

  constructor() {
    super();
    this.tab = 'eligible';
    this.missions = null;
  }

  protected async load(): Promise<void> {
    const tab = this.tab === 'completed' ? 'completed' : 'eligible';
    const missions = await this.api<MissionSummary[]>(`${this.user}/challenges?type=${tab}`);
    if (tab !== this.tab) return; // another tab was chosen meanwhile; its own load shows it
    // Featured first, otherwise in the API's order (Array.prototype.sort is stable).
    this.missions = [...missions].sort((a, b) => Number(b.featured) - Number(a.featured));
  }

  private select(tab: MissionTab): void {
    if (tab === this.tab) return;
    this.missions = null;
    this.tab = tab;
  }

  /** Left/Right/Home/End move between the tabs (WAI-ARIA tabs pattern, automatic activation). */
  private onKeydown(event: KeyboardEvent): void {
    const index = TABS.findIndex(([id]) => id === this.tab);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const [id] = TABS[(next + TABS.length) % TABS.length]!;
    this.select(id);
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#tab-${id}`)?.focus());
  }

  protected override render() {
    return html`
      <section part="container" aria-labelledby="title">
        <h2 id="title" part="title">Missions</h2>
        <div role="tablist" part="tabs" aria-label="Missions" @keydown=${this.onKeydown}>
          ${TABS.map(([id, label]) => {
            const selected = id === this.tab;
            return html`<button type="button" role="tab" id="tab-${id}" part=${selected ? 'tab tab-selected' : 'tab'} aria-selected=${selected ? 'true' : 'false'}
              aria-controls="panel" tabindex=${selected ? 0 : -1} @click=${() => this.select(id)}>${label}</button>`;
          })}
        </div>
        <div role="tabpanel" id="panel" part="panel" aria-labelledby="tab-${this.tab}">
          ${this.status()}
          ${
            this.missions === null
              ? nothing
              : this.missions.length === 0
                ? html`<p class="muted" part="empty">${this.tab === 'completed' ? 'No completed missions yet.' : 'No missions yet.'}</p>`
                : html`<ul part="list">${this.missions.map((mission) => this.item(mission))}</ul>`
          }
        </div>
      </section>
    `;
  }

  private item(mission: MissionSummary) {
    const rewards = rewardLabels(mission.rewards);
    const parts = ['item', mission.featured ? 'featured' : '', mission.locked === true ? 'locked' : ''].filter(Boolean).join(' ');
    return html`<li class="mission" part=${parts} data-mission=${mission.id}>
      <div class="head">
        ${mission.iconUrl !== undefined ? html`<img class="icon" part="icon" src=${this.assetUrl(mission.iconUrl)} alt="${mission.name} icon" />` : nothing}
        <div>
          <h3 part="name">${mission.name}</h3>
          ${mission.featured ? html`<span class="tag" part="featured-badge">Featured</span>` : nothing}
          ${mission.description !== undefined ? html`<p class="muted" part="description">${mission.description}</p>` : nothing}
        </div>
      </div>
      ${
        rewards.length > 0
          ? html`<ul class="rewards" part="rewards" aria-label="Rewards">${rewards.map((label) => html`<li part="reward">${label}</li>`)}</ul>`
          : nothing
      }
      ${
        this.tab === 'completed'
          ? this.completion(mission)
          : mission.locked === true
            ? html`<p class="notice" part="locked-reason"><strong>Locked.</strong> ${mission.lockedReason ?? ''}</p>`
            : html`${progressBar(mission.percentComplete, `${mission.name} progress`)}
              <p class="muted" part="percent">${mission.percentComplete}% complete</p>`
      }
    </li>`;
  }

  private completion(mission: MissionSummary) {
    const count = mission.completionCount ?? 1;
    return html`<p class="muted" part="completion">
      ${count === 1 ? 'Completed' : `Completed ${formatNumber(count)} times`}${
        mission.lastCompletedAt !== undefined
          ? html`${count === 1 ? ' on' : ', last on'} <time datetime=${mission.lastCompletedAt}>${formatDate(mission.lastCompletedAt)}</time>`
          : nothing
      }
    </p>`;
  }
}
