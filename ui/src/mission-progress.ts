// <ql-mission-progress challenge-id>: one mission's progress for the user: its name, the overall
// percentage as a bar, each rule's current value against its goal, and whether it is completed
// (how often, for a repeatable one, and when its current round ends). Calls
// GET /users/{u}/challenges/{c}/progress and GET /challenges (the definition: name, rules' details).
import { css, html, nothing } from 'lit';
import type { MissionProgress } from '../../src/modules/missions/routes.js';
import { formatNumber, QuestlineElement, QuestlineError, sharedStyles } from './base.js';
import { formatDate, progressBar } from './missions.js';

export type { MissionProgress };
type RuleProgress = MissionProgress['rules'][number];

interface MissionDefinition {
  id: string;
  name: string;
  description?: string;
  ruleMatch: 'all' | 'any';
  repeatableWindow?: unknown;
  rules: Array<{ id: string; action: string; metadata?: Array<{ name: string; value: string }> }>;
}

/** "watch_video" → "Watch video", with the rule's metadata conditions ("genre: cooking"). */
const ruleLabel = (rule: RuleProgress, definition: MissionDefinition | undefined): string => {
  const action = rule.action.replace(/_/g, ' ').toLowerCase();
  const pairs = (definition?.rules.find((r) => r.id === rule.ruleId)?.metadata ?? []).map((m) => `${m.name}: ${m.value}`);
  return `${action.charAt(0).toUpperCase()}${action.slice(1)}${pairs.length > 0 ? ` (${pairs.join(', ')})` : ''}`;
};

export class QlMissionProgress extends QuestlineElement {
  static override properties = {
    ...QuestlineElement.properties,
    challengeId: { type: String, attribute: 'challenge-id' },
    progress: { state: true },
    definition: { state: true },
    unavailable: { state: true },
  };
  static override styles = css`
    ${sharedStyles}
    p {
      margin: 0 0 6px;
      overflow-wrap: anywhere;
    }
    ul {
      display: grid;
      gap: 6px;
      margin-top: 8px;
    }
    li {
      display: flex;
      flex-wrap: wrap;
      justify-content: space-between;
      gap: 2px 12px;
      min-width: 0;
    }
    li > span {
      min-width: 0;
      overflow-wrap: anywhere;
    }
    li > span:last-child {
      margin-left: auto;
      white-space: nowrap;
    }
    .done {
      color: var(--ql-color-success, #2b8a3e);
      font-weight: 600;
    }
  `;
  protected static override reloadOn = ['challengeId'];

  declare challengeId: string;
  declare progress: MissionProgress | null;
  declare definition: MissionDefinition | undefined;
  declare unavailable: boolean;

  constructor() {
    super();
    this.challengeId = '';
    this.progress = null;
    this.definition = undefined;
    this.unavailable = false;
  }

  protected async load(): Promise<void> {
    this.unavailable = false;
    if (this.challengeId === '') return;
    const id = encodeURIComponent(this.challengeId);
    try {
      // The definition (name, rules' conditions) is read once per mission; progress on every load.
      const known = this.definition?.id === this.challengeId;
      const [progress, definitions] = await Promise.all([
        this.api<MissionProgress>(`${this.user}/challenges/${id}/progress`),
        known ? undefined : this.api<MissionDefinition[]>('/challenges?limit=500').catch(() => [] as MissionDefinition[]),
      ]);
      this.progress = progress;
      if (definitions !== undefined) this.definition = definitions.find((mission) => mission.id === this.challengeId);
    } catch (error) {
      // A mission hidden from the user (not unlocked yet) reads as not found: say so calmly.
      if (!(error instanceof QuestlineError) || error.status !== 404) throw error;
      this.progress = null;
      this.definition = undefined;
      this.unavailable = true;
    }
  }

  protected override render() {
    const progress = this.progress;
    const name = this.definition?.name ?? (progress === null ? 'Mission progress' : this.challengeId);
    const repeatable = this.definition?.repeatableWindow !== undefined || progress?.window != null;
    const completed = progress !== null && (progress.percentComplete >= 100 || (!repeatable && progress.completionCount > 0));
    return html`
      <section part="container" aria-labelledby="title">
        <h2 id="title" part="title">${name}</h2>
        ${this.status()}
        ${this.unavailable ? html`<p class="muted" part="empty">This mission is not available to you yet.</p>` : nothing}
        ${
          progress === null
            ? nothing
            : html`
              ${this.definition?.description !== undefined ? html`<p class="muted" part="description">${this.definition.description}</p>` : nothing}
              ${progressBar(progress.percentComplete, `${name} progress`)}
              <p part="percent">${progress.percentComplete}% complete</p>
              ${completed ? html`<p class="done" part="completed" role="status">Completed</p>` : nothing}
              ${
                repeatable && progress.completionCount > 0
                  ? html`<p class="muted" part="completion-count">Completed ${formatNumber(progress.completionCount)} ${progress.completionCount === 1 ? 'time' : 'times'}</p>`
                  : nothing
              }
              ${
                progress.window !== null
                  ? html`<p class="muted" part="window">This round ends <time datetime=${progress.window.end}>${formatDate(progress.window.end)}</time></p>`
                  : nothing
              }
              ${this.definition?.ruleMatch === 'any' && progress.rules.length > 1 ? html`<p class="muted" part="rule-match">Any one of:</p>` : nothing}
              <ul part="rules" aria-label="Goals">
                ${progress.rules.map(
                  (rule) => html`<li part=${rule.achieved ? 'rule achieved' : 'rule'} data-rule=${rule.ruleId}>
                    <span part="rule-name">${ruleLabel(rule, this.definition)}</span>
                    <span part="rule-progress"
                      >${formatNumber(rule.current)} / ${formatNumber(rule.goal)}${rule.achieved ? html` <span class="done" part="rule-done">✓<span class="visually-hidden"> done</span></span>` : nothing}</span
                    >
                  </li>`,
                )}
              </ul>
            `
        }
      </section>
    `;
  }
}
