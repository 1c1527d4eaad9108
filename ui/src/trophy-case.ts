// <ql-trophy-case>: the badges the user earned, most recently earned first: icon, name,
// description, how many times and when first earned. Calls GET /users/{u}/badges (up to 100).
import { css, html, nothing } from 'lit';
import type { Trophy } from '../../src/modules/profile/routes.js';
import { formatNumber, QuestlineElement, sharedStyles } from './base.js';
import { formatDate } from './missions.js';

export type { Trophy };

export class QlTrophyCase extends QuestlineElement {
  static override properties = { ...QuestlineElement.properties, badges: { state: true } };
  static override styles = css`
    ${sharedStyles}
    ul {
      display: grid;
      grid-template-columns: repeat(auto-fill, minmax(min(100%, 220px), 1fr));
      gap: calc(var(--ql-spacing, 16px) / 2);
    }
    li {
      display: flex;
      gap: 10px;
      align-items: flex-start;
      padding: 8px;
      border: 1px solid var(--ql-color-border, #d9dde7);
      border-radius: calc(var(--ql-radius, 10px) / 2);
      min-width: 0;
    }
    li > div {
      min-width: 0;
      flex: 1;
    }
    .placeholder {
      display: grid;
      place-items: center;
      font-weight: 700;
      color: var(--ql-color-on-accent, #ffffff);
      background: var(--ql-color-accent, #3b5bdb);
    }
    h3 {
      margin: 0;
      font-size: 1em;
    }
    p {
      margin: 2px 0 0;
      overflow-wrap: anywhere;
    }
    .count {
      font-size: 0.9em;
    }
  `;

  declare badges: Trophy[] | null;

  constructor() {
    super();
    this.badges = null;
  }

  protected async load(): Promise<void> {
    this.badges = await this.api<Trophy[]>(`${this.user}/badges?limit=100`);
  }

  protected override render() {
    return html`
      <section part="container" aria-labelledby="title">
        <h2 id="title" part="title">Trophy case</h2>
        ${this.status()}
        ${
          this.badges === null
            ? nothing
            : this.badges.length === 0
              ? html`<p class="muted" part="empty">No badges yet.</p>`
              : html`<ul part="list">
                ${this.badges.map(
                  (badge) => html`<li part="item badge" data-badge=${badge.id}>
                    ${
                      badge.iconUrl !== undefined
                        ? html`<img class="icon" part="icon" src=${this.assetUrl(badge.iconUrl)} alt="${badge.name} badge" />`
                        : html`<span class="icon placeholder" part="icon" aria-hidden="true">${badge.name.charAt(0).toUpperCase()}</span>`
                    }
                    <div>
                      <h3 part="name">${badge.name}</h3>
                      ${badge.description !== undefined ? html`<p class="muted" part="description">${badge.description}</p>` : nothing}
                      <p class="count" part="earned-count">${badge.earnedCount === 1 ? 'Earned once' : `Earned ${formatNumber(badge.earnedCount)} times`}</p>
                      <p class="muted count" part="first-earned">
                        First earned <time datetime=${badge.firstEarnedAt}>${formatDate(badge.firstEarnedAt)}</time>
                      </p>
                    </div>
                  </li>`,
                )}
              </ul>`
        }
      </section>
    `;
  }
}
