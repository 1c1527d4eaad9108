// <ql-at-a-glance>: a summary of the user: name and picture, points, level (and the way to the
// next), badges (count and the latest), missions completed and in progress, rank on the primary
// leaderboard, the default category's next points to expire (as <ql-points> says it), and the
// most recent actions, in words (action-label.ts) with the points each earned. Calls
// GET /users/{u}/at-a-glance.
import { css, html, nothing } from 'lit';
import type { AtAGlance } from '../../src/modules/profile/at-a-glance.js';
import { actionLabel } from './action-label.js';
import { formatNumber, QuestlineElement, sharedStyles } from './base.js';
import { expiryNotice } from './expiry-notice.js';

export type { AtAGlance };
import { formatDate, progressBar } from './missions.js';

export class QlAtAGlance extends QuestlineElement {
  static override properties = { ...QuestlineElement.properties, summary: { state: true } };
  static override styles = css`
    ${sharedStyles}
    .who {
      display: flex;
      gap: 12px;
      align-items: center;
      min-width: 0;
      margin-bottom: 12px;
    }
    .avatar {
      width: var(--ql-avatar-size, 48px);
      height: var(--ql-avatar-size, 48px);
      flex: none;
      border-radius: 50%;
      object-fit: cover;
      overflow: hidden;
      display: grid;
      place-items: center;
      font-weight: 700;
      color: var(--ql-color-on-accent, #ffffff);
      background: var(--ql-color-accent, #3b5bdb);
    }
    .name {
      margin: 0;
      font-size: 1.15em;
      font-weight: 700;
      min-width: 0;
      overflow-wrap: anywhere;
    }
    dl {
      display: grid;
      grid-template-columns: repeat(auto-fill, minmax(min(100%, 130px), 1fr));
      gap: 8px;
      margin: 0;
    }
    dl > div {
      padding: 8px;
      border-radius: calc(var(--ql-radius, 10px) / 2);
      background: var(--ql-color-track, #e9ecf3);
      min-width: 0;
    }
    dt {
      font-size: 0.85em;
      color: var(--ql-color-muted, #5c6477);
    }
    dd {
      margin: 0;
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    dd small {
      display: block;
      font-weight: 400;
    }
    dd .bar {
      margin-top: 4px;
      background: var(--ql-color-surface, #ffffff);
    }
    h3 {
      margin: 12px 0 4px;
      font-size: 1em;
    }
    li {
      display: flex;
      flex-wrap: wrap;
      justify-content: space-between;
      gap: 0 12px;
      padding: 2px 0;
      overflow-wrap: anywhere;
      min-width: 0;
    }
    .earned {
      font-size: 0.9em;
      white-space: nowrap;
      color: var(--ql-color-accent, #3b5bdb);
    }
    p {
      margin: 0;
    }
  `;

  declare summary: AtAGlance | null;

  constructor() {
    super();
    this.summary = null;
  }

  protected async load(): Promise<void> {
    this.summary = await this.api<AtAGlance>(`${this.user}/at-a-glance`);
  }

  protected override render() {
    const s = this.summary;
    return html`
      <section part="container" aria-labelledby="title">
        <h2 id="title" part="title">At a glance</h2>
        ${this.status()}
        ${s === null ? nothing : this.body(s)}
      </section>
    `;
  }

  private body(s: AtAGlance) {
    const name = [s.firstName, s.lastName].filter((part) => part !== null && part !== '').join(' ') || s.userId;
    const latest = s.badges.latest[0];
    return html`
      <div class="who" part="user">
        ${
          s.iconUrl !== null
            ? html`<img class="avatar" part="avatar" src=${this.assetUrl(s.iconUrl)} alt=${name} />`
            : html`<span class="avatar" part="avatar" aria-hidden="true">${name.charAt(0).toUpperCase()}</span>`
        }
        <p class="name" part="name">${name}</p>
      </div>
      <dl part="stats">
        <div part="stat points">
          <dt>Points</dt>
          <dd part="stat-value">${formatNumber(s.points.balance)}${s.points.category !== null && s.points.category.toLowerCase() !== 'points' ? html`<small class="muted">${s.points.category}</small>` : nothing}</dd>
        </div>
        <div part="stat level">
          <dt>Level</dt>
          <dd part="stat-value">
            ${s.level.current?.name ?? '—'}
            ${
              s.level.next === null
                ? s.level.current !== null
                  ? html`<small class="muted">Top level</small>`
                  : nothing
                : html`<small class="muted">${s.level.pointsToNext !== null ? `${formatNumber(s.level.pointsToNext)} to ${s.level.next.name}` : `Next: ${s.level.next.name}`}</small>
                  ${s.level.percentToNext !== null ? progressBar(s.level.percentToNext, `Progress to ${s.level.next.name}`) : nothing}`
            }
          </dd>
        </div>
        <div part="stat badges">
          <dt>Badges</dt>
          <dd part="stat-value">${formatNumber(s.badges.count)}${latest !== undefined ? html`<small class="muted">Latest: ${latest.name}</small>` : nothing}</dd>
        </div>
        <div part="stat missions">
          <dt>Missions</dt>
          <dd part="stat-value">
            ${formatNumber(s.missions.completed)} completed<small class="muted">${formatNumber(s.missions.inProgress)} in progress</small>
          </dd>
        </div>
        <div part="stat rank">
          <dt>Rank</dt>
          <dd part="stat-value">${s.rank === null ? html`—<small class="muted">Not ranked yet</small>` : `#${formatNumber(s.rank)}`}</dd>
        </div>
      </dl>
      ${expiryNotice(s.points.expiringSoon, s.points.category ?? 'points')}
      <h3 part="subtitle">Recent actions</h3>
      ${
        s.recentActions.length === 0
          ? html`<p class="muted" part="empty">No actions yet.</p>`
          : html`<ul part="actions" aria-label="Recent actions">
            ${s.recentActions.map(
              (action) => html`<li part="action" data-event=${action.eventId} data-action=${action.action}>
                <span part="action-name"
                  >${actionLabel(action, (key, fallback) => this.text(key, fallback))}${action.pointsEarned.map(
                    (earned) => html` <span class="earned" part="action-points">+${formatNumber(earned.amount)} ${earned.category}</span>`,
                  )}</span
                >
                <time class="muted" part="action-date" datetime=${action.timestamp}>${formatDate(action.timestamp)}</time>
              </li>`,
            )}
          </ul>`
      }
    `;
  }
}
