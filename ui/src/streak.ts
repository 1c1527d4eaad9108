// <ql-streak>: the user's streaks (or the one `streak-id` names): the current run (highlighted while alive), the
// longest, freezes left, whether this period is done or how long is left to keep it, and the next
// milestone. Calls GET /users/{u}/streaks.
import { css, html, nothing } from 'lit';
import type { UserStreak } from '../../src/modules/streaks/service.js';
import { formatNumber, QuestlineElement, sharedStyles } from './base.js';
import { progressBar } from './missions.js';

/** "3 hours", "2 days": what is left of the current period. */
function timeLeft(until: string, now: number): string {
  const hours = Math.max(0, Math.ceil((Date.parse(until) - now) / 3_600_000));
  return hours >= 48 ? `${Math.floor(hours / 24)} days` : hours === 1 ? '1 hour' : `${hours} hours`;
}

export class QlStreak extends QuestlineElement {
  static override properties = {
    ...QuestlineElement.properties,
    streakId: { type: String, attribute: 'streak-id' },
    streaks: { state: true },
  };
  static override styles = css`
    ${sharedStyles}
    ul {
      display: grid;
      gap: 12px;
    }
    li {
      min-width: 0;
    }
    p {
      margin: 0 0 6px;
      overflow-wrap: anywhere;
    }
    .run {
      display: flex;
      align-items: baseline;
      gap: 8px;
      flex-wrap: wrap;
    }
    .count {
      font-size: 1.8em;
      font-weight: 700;
      line-height: 1;
    }
    .alive .count {
      color: var(--ql-color-streak, #e8590c);
    }
    .done {
      color: var(--ql-color-success, #2b8a3e);
      font-weight: 600;
    }
    .due {
      color: var(--ql-color-warning, #c92a2a);
      font-weight: 600;
    }
  `;
  protected static override reloadOn = ['streakId'];

  declare streakId: string | undefined;
  declare streaks: UserStreak[] | null;

  constructor() {
    super();
    this.streaks = null;
    this.streakId = undefined;
  }

  protected async load(): Promise<void> {
    const streaks = await this.api<UserStreak[]>(`${this.user}/streaks`);
    this.streaks = this.streakId === undefined || this.streakId === '' ? streaks : streaks.filter((s) => s.id === this.streakId);
  }

  protected override render() {
    const streaks = this.streaks;
    return html`
      <section part="container" aria-labelledby="title">
        <h2 id="title" part="title">${streaks?.length === 1 ? (streaks[0] as UserStreak).name : 'Streaks'}</h2>
        ${this.status()}
        ${
          streaks === null
            ? nothing
            : streaks.length === 0
              ? html`<p class="muted" part="empty">No streaks yet.</p>`
              : html`<ul part="list">
                ${streaks.map((streak) => this.renderStreak(streak, streaks.length > 1))}
              </ul>`
        }
      </section>
    `;
  }

  private renderStreak(streak: UserStreak, named: boolean) {
    const unit = streak.period === 'day' ? 'day' : 'week';
    const next = streak.nextMilestone;
    return html`
      <li part="streak" data-streak=${streak.id} class=${streak.current > 0 ? 'alive' : ''}>
        ${named ? html`<p part="name"><strong>${streak.name}</strong></p>` : nothing}
        <p class="run">
          <span class="count" part="current" aria-label="${streak.current} ${unit}${streak.current === 1 ? '' : 's'} in a row">${formatNumber(streak.current)}</span>
          <span>${unit}${streak.current === 1 ? '' : 's'} in a row</span>
        </p>
        <p part="status">
          ${
            streak.doneThisPeriod
              ? html`<span class="done" part="done">Done ${unit === 'day' ? 'today' : 'this week'}</span>`
              : html`<span class=${streak.current > 0 ? 'due' : ''} part="due">${timeLeft(streak.periodEnds, Date.now())} left this ${unit}</span>`
          }
        </p>
        <p class="muted" part="details">
          Longest: ${formatNumber(streak.longest)}${streak.freezesMax > 0 ? html` · <span part="freezes">❄ ${streak.freezesLeft} of ${streak.freezesMax} freezes</span>` : nothing}
        </p>
        ${
          next === null
            ? nothing
            : html`
              <p part="next-milestone">Next milestone: ${next.length} ${unit}s${
                next.rewards.points.length > 0 ? html` (${next.rewards.points.map((p) => `${formatNumber(p.amount)} ${p.category}`).join(', ')})` : nothing
              }</p>
              ${progressBar(Math.floor((streak.current / next.length) * 100), `Progress to ${next.length} ${unit}s`)}
            `
        }
      </li>
    `;
  }
}
