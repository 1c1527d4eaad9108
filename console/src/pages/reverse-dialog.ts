// The confirmation before reversing a recorded action: it asks the API what the reversal would
// take back (DELETE …/actions/{eventId}?dryRun=true, which changes nothing) and shows it (missions
// whose completion goes, points per category with the balance after, badges, level, boards);
// "Reverse" then makes it. Fires `ql-changed` (a sentence saying what was done) and `ql-closed`.
import { html, LitElement, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { Reversal } from '../../../src/modules/actions/reversal.js';
import { api } from '../api.js';

/** An action as GET /users/{u}/actions lists it. */
export interface RecordedAction {
  eventId: string;
  action: string;
  value: number;
  timestamp: string;
  reversedAt?: string;
}

const when = (iso: string) => new Date(iso).toLocaleString();

@customElement('ql-reverse-dialog')
export class QlReverseDialog extends LitElement {
  @property() userId = '';
  /** The action to reverse; the dialog is open while there is one. */
  @property({ attribute: false }) action: RecordedAction | undefined;
  @state() private preview: Reversal | undefined;
  @state() private error: string | undefined;
  @state() private busy = false;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('action') && this.action !== undefined) {
      this.preview = undefined;
      this.error = undefined;
      void this.loadPreview(this.action);
    }
  }

  private url(action: RecordedAction): string {
    return `/users/${encodeURIComponent(this.userId)}/actions/${encodeURIComponent(action.eventId)}`;
  }

  private async loadPreview(action: RecordedAction): Promise<void> {
    try {
      const preview = await api<Reversal>('DELETE', `${this.url(action)}?dryRun=true`);
      if (this.action === action) this.preview = preview;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private readonly reverse = async () => {
    const action = this.action;
    if (action === undefined) return;
    this.busy = true;
    try {
      const done = await api<Reversal>('DELETE', this.url(action));
      const taken = done.pointsDebited.filter((debit) => debit.amount !== 0).map((debit) => `${debit.amount.toLocaleString()} ${debit.category}`);
      const sentence = `Reversed ${action.action} of ${when(action.timestamp)}${taken.length === 0 ? '.' : `: ${taken.join(', ')} taken back.`}`;
      this.dispatchEvent(new CustomEvent('ql-changed', { detail: sentence, bubbles: true }));
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.busy = false;
    }
  };

  protected override render(): TemplateResult {
    const action = this.action;
    return html`<sl-dialog
      class="reverse-dialog"
      label="Reverse this action?"
      ?open=${action !== undefined}
      @sl-after-hide=${(event: Event) => {
        if (event.target === event.currentTarget) this.dispatchEvent(new CustomEvent('ql-closed'));
      }}
    >
      ${action === undefined ? '' : html`<p><strong>${action.action}</strong> (value ${action.value}) of ${when(action.timestamp)}.</p>`}
      ${this.error === undefined ? '' : html`<sl-alert variant="danger" open><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>${this.error}</sl-alert>`}
      ${this.preview === undefined ? (this.error === undefined ? html`<sl-spinner aria-label="Working out what it would take back"></sl-spinner>` : '') : clawback(this.preview)}
      <sl-button slot="footer" @click=${() => this.dispatchEvent(new CustomEvent('ql-closed'))}>Cancel</sl-button>
      <sl-button slot="footer" variant="danger" ?loading=${this.busy} ?disabled=${this.preview === undefined || this.preview.alreadyReversed} @click=${this.reverse}
        ><sl-icon slot="prefix" name="arrow-counterclockwise"></sl-icon>Reverse</sl-button
      >
    </sl-dialog>`;
  }
}

/** What the reversal would take back, as sentences and a small table. */
function clawback(preview: Reversal): TemplateResult {
  if (preview.alreadyReversed) return html`<p>It was reversed already: nothing would change.</p>`;
  const removed = preview.completionsRemoved;
  const badges = preview.badgesTakenBack ?? [];
  const boards = preview.boardScores ?? [];
  const debits = preview.pointsDebited.filter((debit) => debit.amount !== 0);
  return html`<div class="clawback">
    <h3>Reversing it would take back</h3>
    ${
      removed.length === 0
        ? html`<p class="muted">No completion: only its progress toward missions is taken back.</p>`
        : html`<ul class="removed">
          ${removed.map(
            (completion) =>
              html`<li>
                The completion of <strong>${completion.name}</strong>${completion.groupId === undefined ? '' : html` by group ${completion.groupId}`}${
                  completion.points.every((p) => p.amount === 0)
                    ? ''
                    : html`, with its ${completion.points
                        .filter((p) => p.amount !== 0)
                        .map((p) => `${p.amount.toLocaleString()} ${p.category}`)
                        .join(' and ')}`
                }
              </li>`,
          )}
        </ul>`
    }
    ${
      debits.length === 0
        ? ''
        : html`<table class="points-table">
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col" class="number">Taken back</th>
              <th scope="col" class="number">Balance after</th>
            </tr>
          </thead>
          <tbody>
            ${debits.map((debit) => {
              const after = preview.balances.find((b) => b.category === debit.category)?.balance ?? 0;
              return html`<tr>
                <td>${debit.category}</td>
                <td class="number debit">−${debit.amount.toLocaleString()}</td>
                <td class="number ${after < 0 ? 'debit' : ''}">${after.toLocaleString()}</td>
              </tr>`;
            })}
          </tbody>
        </table>`
    }
    ${
      preview.negativeBalances.length === 0
        ? ''
        : html`<sl-alert variant="warning" open
          ><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>The ${preview.negativeBalances.join(' and ')} balance would go below zero: the points were
          spent since.</sl-alert
        >`
    }
    ${
      preview.levelChanged === undefined
        ? ''
        : html`<p>Level: ${preview.levelChanged.from?.name ?? 'no level'} → <strong>${preview.levelChanged.to?.name ?? 'no level'}</strong>.</p>`
    }
    ${
      badges.length === 0
        ? ''
        : html`<p>
          Badges:
          ${badges.map((badge) => (badge.left === 0 ? `${badge.name} leaves the trophy case` : `${badge.name} earned ${badge.left} ${badge.left === 1 ? 'time' : 'times'} instead`)).join('; ')}.
        </p>`
    }
    ${
      boards.length === 0
        ? ''
        : html`<p>
          Leaderboards: ${boards.map((board) => `${board.name} ${board.change.toLocaleString()} (to ${board.score.toLocaleString()})`).join('; ')}.
        </p>`
    }
  </div>`;
}
