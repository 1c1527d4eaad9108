// "Adjust points…": credit or debit a person's points in one category, with the reason the point
// history will show (POST /admin/users/{u}/points). Caps do not apply; a debit may take the
// balance below zero. The API's field errors are shown on their fields. Fires `ql-changed` (a
// sentence saying what was done) and `ql-closed`.
import { html, LitElement, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { Adjustment } from '../../../src/modules/points/service.js';
import type { CategoryBalance } from '../../../src/modules/profile/service.js';
import { api, fieldErrorsOf } from '../api.js';

@customElement('ql-adjust-dialog')
export class QlAdjustDialog extends LitElement {
  @property() userId = '';
  @property({ attribute: false }) categories: CategoryBalance[] = [];
  @property({ type: Boolean }) open = false;
  @state() private category = '';
  @state() private amount = '';
  @state() private reason = '';
  @state() private errors: Record<string, string> = {};
  @state() private error: string | undefined;
  @state() private busy = false;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('open') && this.open) {
      this.category = this.categories.find((c) => c.isDefault)?.name ?? this.categories[0]?.name ?? '';
      this.amount = '';
      this.reason = '';
      this.errors = {};
      this.error = undefined;
    }
  }

  private readonly submit = async (event: Event) => {
    event.preventDefault();
    const amount = Number(this.amount);
    const errors: Record<string, string> = {};
    if (this.amount.trim() === '' || !Number.isInteger(amount) || amount === 0)
      errors.amount = 'A whole number of points, not zero: positive credits, negative debits.';
    if (this.reason.trim() === '') errors.reason = 'Say why: the person’s point history shows it.';
    this.errors = errors;
    if (Object.keys(errors).length > 0) return;
    this.busy = true;
    try {
      const done = await api<Adjustment>('POST', `/admin/users/${encodeURIComponent(this.userId)}/points`, {
        category: this.category,
        amount,
        reason: this.reason.trim(),
      });
      const verb = done.amount > 0 ? 'Credited' : 'Debited';
      this.dispatchEvent(
        new CustomEvent('ql-changed', {
          detail: `${verb} ${Math.abs(done.amount).toLocaleString()} ${done.category} (${done.reason}): the balance is ${done.balance.toLocaleString()}.`,
          bubbles: true,
        }),
      );
    } catch (error) {
      this.error = (error as Error).message;
      this.errors = fieldErrorsOf(error);
    } finally {
      this.busy = false;
    }
  };

  protected override render(): TemplateResult {
    return html`<sl-dialog
      class="adjust-dialog"
      label="Adjust points"
      ?open=${this.open}
      @sl-after-hide=${(event: Event) => {
        if (event.target === event.currentTarget) this.dispatchEvent(new CustomEvent('ql-closed'));
      }}
    >
      <form id="adjust-form" class="adjust-form" @submit=${this.submit}>
        <p class="muted small">Credits and debits go through the ledger and show in the point history with their reason. Daily limits do not apply.</p>
        ${this.error === undefined ? '' : html`<sl-alert variant="danger" open><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>${this.error}</sl-alert>`}
        <sl-select name="category" label="Category" value=${this.category} @sl-change=${(event: Event) => (this.category = (event.target as HTMLSelectElement).value)}>
          ${this.categories.map((c) => html`<sl-option value=${c.name}>${c.name}</sl-option>`)}
        </sl-select>
        <sl-input
          name="amount"
          type="number"
          step="1"
          label="Points"
          required
          value=${this.amount}
          help-text=${this.errors.amount ?? 'Positive to credit, negative (−) to debit.'}
          class=${this.errors.amount === undefined ? '' : 'invalid'}
          @sl-input=${(event: Event) => (this.amount = (event.target as HTMLInputElement).value)}
        ></sl-input>
        <sl-input
          name="reason"
          label="Reason"
          required
          maxlength="255"
          value=${this.reason}
          help-text=${this.errors.reason ?? 'Shown in the point history, e.g. “Goodwill for the outage on 3 May”.'}
          class=${this.errors.reason === undefined ? '' : 'invalid'}
          @sl-input=${(event: Event) => (this.reason = (event.target as HTMLInputElement).value)}
        ></sl-input>
      </form>
      <sl-button slot="footer" @click=${() => this.dispatchEvent(new CustomEvent('ql-closed'))}>Cancel</sl-button>
      <sl-button slot="footer" variant="primary" ?loading=${this.busy} @click=${this.submit}>Adjust</sl-button>
    </sl-dialog>`;
  }
}
