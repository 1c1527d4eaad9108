// <ql-level>: the user's current level, the next one and the points still needed, with a progress
// bar to it; at the last level, a "top level reached" state. Calls GET /users/{u}/levels (with
// levelType custom there is no measure: the next level is named without a bar).
import { css, html, nothing } from 'lit';
import type { LevelView } from '../../src/modules/profile/service.js';
import { formatNumber, QuestlineElement, sharedStyles } from './base.js';
import { progressBar } from './missions.js';

export interface Levels {
  current: LevelView | null;
  next: LevelView | null;
  points: number;
  pointsToNext: number | null;
  percentToNext: number | null;
}

export class QlLevel extends QuestlineElement {
  static override properties = { ...QuestlineElement.properties, levels: { state: true } };
  static override styles = css`
    ${sharedStyles}
    .current {
      display: flex;
      gap: 10px;
      align-items: center;
      min-width: 0;
    }
    .current > div {
      min-width: 0;
    }
    p {
      margin: 0 0 6px;
      overflow-wrap: anywhere;
    }
    .name {
      font-size: 1.3em;
      font-weight: 700;
    }
    .notice {
      margin: 0;
    }
  `;

  declare levels: Levels | null;

  constructor() {
    super();
    this.levels = null;
  }

  protected async load(): Promise<void> {
    this.levels = await this.api<Levels>(`${this.user}/levels`);
  }

  protected override render() {
    const levels = this.levels;
    return html`
      <section part="container" aria-labelledby="title">
        <h2 id="title" part="title">Level</h2>
        ${this.status()}
        ${
          levels === null
            ? nothing
            : levels.current === null
              ? html`<p class="muted" part="empty">No level yet.</p>`
              : html`
                <div class="current" part="current">
                  ${levels.current.iconUrl !== undefined ? html`<img class="icon" part="icon" src=${this.assetUrl(levels.current.iconUrl)} alt="${levels.current.name} level" />` : nothing}
                  <div>
                    <p><span class="name" part="level-name">${levels.current.name}</span></p>
                    ${levels.current.description !== undefined ? html`<p class="muted" part="description">${levels.current.description}</p>` : nothing}
                  </div>
                </div>
                <p class="muted" part="points">${formatNumber(levels.points)} lifetime points</p>
                ${
                  levels.next === null
                    ? html`<p class="notice" part="top-level">Top level reached</p>`
                    : html`
                      <p part="next">
                        Next: <strong part="next-name">${levels.next.name}</strong>${
                          levels.pointsToNext !== null ? html`, <span part="points-to-next">${formatNumber(levels.pointsToNext)} points to go</span>` : nothing
                        }
                      </p>
                      ${levels.percentToNext !== null ? progressBar(levels.percentToNext, `Progress to ${levels.next.name}`) : nothing}
                    `
                }
              `
        }
      </section>
    `;
  }
}
