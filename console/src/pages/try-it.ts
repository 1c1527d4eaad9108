// Try it: log an action for a test user as a dry run (POST /users/{u}/actions?dryRun=true) and see
// what it would do, as a person reads it: the missions it moves and completes, the points per
// category with what caps took off, the level change, the badges and the webhooks it would send.
// Then, after a confirmation, log it for real and see what it did, with the way to the user's page.
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import type { ActionOutcome } from '../../../src/modules/actions/outcome.js';
import type { ActionDocument, ProgramDocument } from '../../../src/modules/program/model.js';
import { closableAlert } from '../alerts.js';
import { api, fieldErrorsOf } from '../api.js';

/** The user the page suggests: actions logged for real are recorded for them. */
export const TEST_USER = 'console-test';
const REASONS = {
  repeat_suppressed: 'it repeats the user’s last action, and this action suppresses repeats',
  rate_limited: 'the user has reached this action’s rate limit',
} as const;

interface MetadataRow {
  name: string;
  value: string;
}

type Dialog = HTMLElement & { show(): void; hide(): void };

@customElement('ql-try-it-page')
export class QlTryItPage extends LitElement {
  @state() private actions: ActionDocument[] | undefined;
  @state() private program: ProgramDocument | undefined;
  @state() private action = '';
  @state() private userId = TEST_USER;
  @state() private value = '1';
  @state() private timestamp = '';
  @state() private metadata: MetadataRow[] = [];
  /** The last answer, and whether it was a dry run. */
  @state() private outcome: { answer: ActionOutcome; dryRun: boolean; userId: string } | undefined;
  @state() private busy = false;
  @state() private error: string | undefined;
  @state() private fieldErrors: Record<string, string> = {};

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const [actions, program] = await Promise.all([api<ActionDocument[]>('GET', '/actions?limit=500'), api<ProgramDocument>('GET', '/admin/program')]);
      this.actions = actions;
      this.program = program;
      this.action = actions[0]?.name ?? '';
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  /** The action as the API takes it: value, timestamp (no offset: the site's time zone) and metadata only when given. */
  private body(): Record<string, unknown> {
    const metadata = Object.fromEntries(this.metadata.filter((row) => row.name.trim() !== '').map((row) => [row.name.trim(), row.value]));
    return {
      action: this.action,
      ...(this.value.trim() !== '' ? { value: Number(this.value) } : {}),
      ...(this.timestamp !== '' ? { timestamp: this.timestamp } : {}),
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    };
  }

  private async log(dryRun: boolean): Promise<void> {
    this.busy = true;
    this.error = undefined;
    this.fieldErrors = {};
    const userId = this.userId.trim();
    try {
      const answer = await api<ActionOutcome>('POST', `/users/${encodeURIComponent(userId)}/actions${dryRun ? '?dryRun=true' : ''}`, this.body());
      this.outcome = { answer, dryRun, userId };
    } catch (error) {
      this.outcome = undefined;
      this.error = (error as Error).message;
      this.fieldErrors = fieldErrorsOf(error);
    } finally {
      this.busy = false;
    }
  }

  private readonly confirmReal = async () => {
    (this.querySelector('sl-dialog.log-real') as Dialog).hide();
    await this.log(false);
  };

  protected override render(): TemplateResult {
    return html`
      <section class="page try-it">
        <header class="page-head"><h1>Try it</h1></header>
        <p class="muted lead">
          Log an action as a <strong>dry run</strong>: see what it would do for a user (missions, points after the caps, level, badges, webhooks) without saving
          anything. When it does what you meant, log it for real.
        </p>
        ${closableAlert('danger', this.error, () => (this.error = undefined))}
        ${this.actions === undefined ? (this.error === undefined ? html`<sl-spinner aria-label="Loading"></sl-spinner>` : '') : this.form(this.actions)}
        ${this.outcome === undefined ? '' : this.result(this.outcome.answer, this.outcome.dryRun, this.outcome.userId)}
        <sl-dialog class="log-real" label="Log this action for real?">
          <p>
            <strong>${this.action}</strong> will be recorded for <code>${this.userId}</code>: their missions, points, level and badges change as shown, and
            webhooks are sent. An admin can reverse it later from the user’s page.
          </p>
          <sl-button slot="footer" @click=${() => (this.querySelector('sl-dialog.log-real') as Dialog).hide()}>Cancel</sl-button>
          <sl-button slot="footer" variant="primary" @click=${this.confirmReal}>Log it</sl-button>
        </sl-dialog>
      </section>
    `;
  }

  private form(actions: ActionDocument[]): TemplateResult {
    const description = actions.find((a) => a.name === this.action)?.description;
    return html`
      <form
        class="card try-form"
        @submit=${(event: Event) => {
          event.preventDefault();
          void this.log(true);
        }}
      >
        <div class="fields">
          <sl-select
            name="action"
            label="Action"
            value=${this.action}
            help-text=${description ?? ''}
            @sl-change=${(event: Event) => (this.action = (event.target as HTMLSelectElement).value)}
          >
            ${actions.map((a) => html`<sl-option value=${a.name}>${a.name}</sl-option>`)}
          </sl-select>
          <sl-input
            name="userId"
            label="User id"
            required
            value=${this.userId}
            help-text=${this.userId === TEST_USER ? 'A test user: what you log for real is recorded for them.' : 'Logged for real, the action counts for this user.'}
            @sl-input=${(event: Event) => (this.userId = (event.target as HTMLInputElement).value)}
          ></sl-input>
          <sl-input
            name="value"
            type="number"
            label="Value"
            value=${this.value}
            help-text=${this.fieldErrors.value ?? 'Counts toward sum rules and multiplies rewards with a multiplier.'}
            class=${this.fieldErrors.value === undefined ? '' : 'invalid'}
            @sl-input=${(event: Event) => (this.value = (event.target as HTMLInputElement).value)}
          ></sl-input>
          <sl-input
            name="timestamp"
            type="datetime-local"
            step="1"
            label="When (optional)"
            value=${this.timestamp}
            help-text=${this.fieldErrors.timestamp ?? 'Empty: now. An earlier time backdates the action (in the site’s time zone).'}
            class=${this.fieldErrors.timestamp === undefined ? '' : 'invalid'}
            @sl-input=${(event: Event) => (this.timestamp = (event.target as HTMLInputElement).value)}
          ></sl-input>
        </div>
        <fieldset class="metadata">
          <legend>Metadata</legend>
          ${this.metadata.length === 0 ? html`<p class="muted small">None. Rules can ask for a name and value, such as <code>genre</code> = <code>cooking</code>.</p>` : ''}
          ${this.metadata.map(
            (row, i) => html`<div class="metadata-row">
              <sl-input size="small" label="Name ${i + 1}" value=${row.name} @sl-input=${(event: Event) => this.setMetadata(i, { name: (event.target as HTMLInputElement).value })}></sl-input>
              <sl-input size="small" label="Value ${i + 1}" value=${row.value} @sl-input=${(event: Event) => this.setMetadata(i, { value: (event.target as HTMLInputElement).value })}></sl-input>
              <sl-icon-button name="trash" label="Remove metadata ${i + 1}" @click=${() => (this.metadata = this.metadata.filter((_, j) => j !== i))}></sl-icon-button>
            </div>`,
          )}
          <sl-button size="small" ?disabled=${this.metadata.length >= 10} @click=${() => (this.metadata = [...this.metadata, { name: '', value: '' }])}
            ><sl-icon slot="prefix" name="plus-lg"></sl-icon>Add metadata</sl-button
          >
        </fieldset>
        <div class="actions-row">
          <sl-button type="submit" variant="primary" ?loading=${this.busy} ?disabled=${this.action === '' || this.userId.trim() === ''}
            ><sl-icon slot="prefix" name="lightning"></sl-icon>Try</sl-button
          >
          ${
            this.outcome?.dryRun === true
              ? html`<sl-button variant="default" ?disabled=${this.busy} @click=${() => (this.querySelector('sl-dialog.log-real') as Dialog).show()}
                >Log it for real…</sl-button
              >`
              : ''
          }
        </div>
      </form>
    `;
  }

  private setMetadata(index: number, change: Partial<MetadataRow>): void {
    this.metadata = this.metadata.map((row, i) => (i === index ? { ...row, ...change } : row));
  }

  private result(outcome: ActionOutcome, dryRun: boolean, userId: string): TemplateResult {
    const program = this.program;
    const missionName = (id: string) => program?.missions.find((m) => m.id === id)?.name ?? id;
    const completed = new Set(outcome.missionsCompleted.map((m) => m.id));
    const link = html`<a href="/console/people/${encodeURIComponent(userId)}">${userId}’s page</a>`;
    return html`
      <section class="outcome" aria-label=${dryRun ? 'What would happen' : 'What happened'}>
        <h2>${dryRun ? 'What would happen' : 'What happened'}</h2>
        ${
          dryRun
            ? html`<sl-alert variant="primary" open class="dry-run-note"
              ><sl-icon slot="icon" name="lightning"></sl-icon>A dry run: nothing was saved. ${link} is as it was.</sl-alert
            >`
            : html`<sl-alert variant="success" open class="logged-note"
              ><sl-icon slot="icon" name="check2-circle"></sl-icon>${outcome.duplicate ? 'Already logged with this event id: this is what it did then.' : 'Logged.'} See
              it on ${link}.</sl-alert
            >`
        }
        ${
          outcome.recorded
            ? ''
            : html`<sl-alert variant="warning" open
              ><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>The action ${dryRun ? 'would not count' : 'did not count'}:
              ${outcome.reason === undefined ? '' : REASONS[outcome.reason]}.</sl-alert
            >`
        }
        <div class="cards outcome-cards">
          <div class="card missions">
            <h3>Missions</h3>
            ${
              outcome.progress.length === 0 && outcome.missionsCompleted.length === 0
                ? html`<p class="muted">No mission moves.</p>`
                : html`<ul class="progress-list">
                  ${outcome.progress.map(
                    (p) => html`<li>
                      <span class="mission-name">${missionName(p.challengeId)}</span>
                      ${completed.has(p.challengeId) ? html`<sl-badge variant="success">Completed</sl-badge>` : html`<span class="muted small">${p.percentComplete}%</span>`}
                      <sl-progress-bar value=${completed.has(p.challengeId) ? 100 : p.percentComplete} label="Progress in ${missionName(p.challengeId)}"></sl-progress-bar>
                    </li>`,
                  )}
                  ${outcome.missionsCompleted
                    .filter((m) => !outcome.progress.some((p) => p.challengeId === m.id))
                    .map(
                      (m) => html`<li>
                        <span class="mission-name">${m.name}</span><sl-badge variant="success">Completed</sl-badge>
                        <sl-progress-bar value="100" label="Progress in ${m.name}"></sl-progress-bar>
                      </li>`,
                    )}
                </ul>`
            }
          </div>
          <div class="card points">
            <h3>Points</h3>
            ${
              outcome.pointsAwarded.length === 0
                ? html`<p class="muted">No points.</p>`
                : html`<table class="points-table">
                  <thead>
                    <tr>
                      <th scope="col">Category</th>
                      <th scope="col" class="number">Reward</th>
                      <th scope="col" class="number">Credited</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${outcome.pointsAwarded.map(
                      (award) => html`<tr>
                        <td>${award.category}</td>
                        <td class="number">${award.requested.toLocaleString()}</td>
                        <td class="number"><strong>${award.credited.toLocaleString()}</strong></td>
                      </tr>
                      ${
                        award.boost === undefined
                          ? ''
                          : html`<tr class="boost-note">
                              <td colspan="3">
                                <sl-badge variant="primary">× ${award.boost.multiplier.toLocaleString()}</sl-badge>
                                Boosted by ${award.boost.name ?? award.boost.id} from ${award.boost.requestedBefore.toLocaleString()}.
                              </td>
                            </tr>`
                      }
                      ${award.credited === award.requested ? '' : html`<tr class="cap-note"><td colspan="3">${this.capNote(award.category)}</td></tr>`}`,
                    )}
                  </tbody>
                </table>`
            }
          </div>
          <div class="card level">
            <h3>Level</h3>
            ${
              outcome.levelChanged === undefined
                ? html`<p class="muted">No change.</p>`
                : html`<p class="level-change">
                  ${outcome.levelChanged.from?.name ?? 'No level'} <span role="img" aria-label="to">→</span>
                  <strong>${outcome.levelChanged.to?.name ?? 'No level'}</strong>
                  <sl-badge variant=${outcome.levelChanged.direction === 'up' ? 'success' : 'warning'}>${outcome.levelChanged.direction}</sl-badge>
                </p>`
            }
            <h3>Badges</h3>
            ${
              outcome.badgesEarned === undefined
                ? html`<p class="muted">See the trophy case on ${link}.</p>`
                : outcome.badgesEarned.length === 0
                  ? html`<p class="muted">No badge.</p>`
                  : html`<ul class="badges">
                    ${outcome.badgesEarned.map((badge) => html`<li><strong>${badge.name}</strong>${badge.groupId === undefined ? '' : html` <span class="muted">(group ${badge.groupId})</span>`}</li>`)}
                  </ul>`
            }
          </div>
        </div>
        ${dryRun ? this.webhooks(outcome) : nothing}
      </section>
    `;
  }

  /** Why a category credited less than the reward: its daily or yearly limit. */
  private capNote(category: string): string {
    const limits = this.program?.pointCategories.find((c) => c.name === category);
    if (limits?.dailyLimit !== undefined) return `Capped by the daily limit (${limits.dailyLimit.toLocaleString()} ${category} a day).`;
    if (limits?.yearlyLimit !== undefined) return `Capped by the yearly limit (${limits.yearlyLimit.toLocaleString()} ${category} a year).`;
    return 'Capped by the category’s limits.';
  }

  private webhooks(outcome: ActionOutcome): TemplateResult {
    const hooks = outcome.webhooks ?? [];
    return html`
      <h3 class="section">Webhooks it would send</h3>
      ${
        hooks.length === 0
          ? html`<p class="muted">None: no endpoint or site setting receives what this action does.</p>`
          : html`<div class="webhooks">
            ${hooks.map(
              (hook) => html`<sl-details>
                <span slot="summary" class="hook-summary"
                  ><code>${hook.eventType}</code><span class="muted">to ${hook.destinations.map((d) => d.url).join(', ') || 'nowhere now'}</span></span
                >
                <pre class="payload" tabindex="0" aria-label="The ${hook.eventType} event as it would be sent">${JSON.stringify(hook.payload, null, 2)}</pre>
              </sl-details>`,
            )}
          </div>`
      }
    `;
  }
}
