// <ql-recognize exchange-id>: recognize colleagues in one exchange. Shows the exchange, the giver's
// budget, a recipient search (debounced) with removable chips, a category, the points per recipient
// and a comment with a live 255-character counter (Unicode code points, as the server counts).
// Calls GET /users/{u}/exchanges/{x}, …/exchanges/{x}/points, …/exchanges/{x}/recipients?q= and
// POST /users/{u}/interactions-collection; emits `ql-recognized` with the created recognition, and
// celebrates the badges the giver earned by it (`ql-badge-earned`, ./celebration.ts).
import { css, html, nothing } from 'lit';
import type { Budget, GivenRecognition, PresentedExchange as Exchange } from '../../src/modules/recognitions/service.js';
import type { Person } from '../../src/modules/users/directory.js';
import { formatNumber, QuestlineElement, sharedStyles } from './base.js';
import { announceBadges, CELEBRATION_PARTS } from './celebration.js';

export type { GivenRecognition };

const MAX_COMMENT = 255;

const nameOf = (p: Person) => `${p.firstName ?? ''} ${p.lastName ?? ''}`.trim() || p.userId;
const listOf = (names: string[]) => new Intl.ListFormat(undefined, { type: 'conjunction' }).format(names);

export class QlRecognize extends QuestlineElement {
  static override properties = {
    ...QuestlineElement.properties,
    exchangeId: { type: String, attribute: 'exchange-id' },
    ...Object.fromEntries(
      ['exchange', 'budget', 'query', 'results', 'chosen', 'categoryId', 'points', 'comment', 'sending', 'sent', 'problem'].map((name) => [
        name,
        { state: true },
      ]),
    ),
  };
  static override styles = css`
    ${sharedStyles}
    form { display: grid; gap: var(--ql-spacing, 16px); margin-top: var(--ql-spacing, 16px); }
    fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
    legend, label { display: block; font-weight: 600; margin-bottom: 4px; padding: 0; }
    label.muted { font-weight: normal; }
    input, select, textarea { width: 100%; min-width: 0; padding: 6px 8px; border: 1px solid var(--ql-color-border, #d9dde7);
      border-radius: calc(var(--ql-radius, 10px) / 2); background: var(--ql-color-surface, #ffffff); color: inherit; }
    textarea { min-height: 4.5em; resize: vertical; }
    .chips, .results { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
    .chip { display: inline-flex; align-items: center; gap: 4px; max-width: 100%; padding: 2px 4px 2px 10px; border-radius: 999px;
      background: var(--ql-color-chip, var(--ql-color-track, #e9ecf3)); overflow-wrap: anywhere; }
    .chip button { padding: 0 8px; border-radius: 999px; line-height: 1.6; }
    .results button { overflow-wrap: anywhere; text-align: start; }
    .row { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 4px 12px; }
    .counter.error { font-weight: 600; }
    .success { margin: 8px 0 0; color: var(--ql-color-success, #2b8a3e); }
    .success:empty { margin: 0; }
    p { margin: 0; overflow-wrap: anywhere; }
  `;

  declare exchangeId: string;
  declare exchange: Exchange | null;
  declare budget: Budget | null;
  declare query: string;
  declare results: Person[] | null;
  declare chosen: Person[];
  declare categoryId: string;
  declare points: string;
  declare comment: string;
  declare sending: boolean;
  declare sent: string;
  declare problem: string | null;
  protected static override reloadOn = ['exchangeId'];
  private searchTimer: number | undefined;
  private searchSeq: number;

  constructor() {
    super();
    this.exchangeId = this.query = this.categoryId = this.points = this.comment = this.sent = '';
    this.exchange = this.budget = this.results = this.problem = null;
    this.chosen = [];
    this.sending = false;
    this.searchSeq = 0;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.clearTimeout(this.searchTimer);
  }

  private get base(): string {
    return `${this.user}/exchanges/${encodeURIComponent(this.exchangeId)}`;
  }

  /** The comment's length as the server counts it: Unicode code points. */
  private get commentLength(): number {
    return [...this.comment].length;
  }

  protected async load(): Promise<void> {
    if (this.exchangeId === '') return;
    const exchange = await this.api<Exchange>(this.base);
    this.budget = exchange.canGive ? await this.api<Budget>(`${this.base}/points`) : null;
    this.exchange = exchange;
    if (!exchange.categories.some((c) => c.id === this.categoryId)) this.categoryId = exchange.categories[0]?.id ?? '';
  }

  private onSearch(event: Event): void {
    this.query = (event.target as HTMLInputElement).value;
    window.clearTimeout(this.searchTimer);
    const q = this.query.trim();
    if (q === '') {
      this.searchSeq += 1;
      this.results = null;
      return;
    }
    this.searchTimer = window.setTimeout(() => void this.search(q), 250);
  }

  private async search(q: string): Promise<void> {
    const seq = ++this.searchSeq;
    try {
      const found = await this.api<Person[]>(`${this.base}/recipients?limit=10&q=${encodeURIComponent(q)}`);
      if (seq === this.searchSeq) this.results = found;
    } catch (error) {
      if (seq === this.searchSeq) this.problem = (error as Error).message;
    }
  }

  private focusSearch(): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('#search')?.focus());
  }

  private add(person: Person): void {
    if (this.chosen.some((p) => p.userId === person.userId) || this.chosen.length >= (this.exchange?.maxRecipients ?? 10)) return;
    this.chosen = [...this.chosen, person];
    this.sent = '';
    this.query = '';
    this.results = null;
    this.searchSeq += 1;
    this.focusSearch();
  }

  private removeRecipient(person: Person): void {
    this.chosen = this.chosen.filter((p) => p.userId !== person.userId);
    this.focusSearch();
  }

  /** Why the form cannot be sent yet (`wrong`: something entered is wrong, not just missing), or null when it can. */
  private get invalid(): { why: string; wrong: boolean } | null {
    const exchange = this.exchange;
    const points = Number(this.points);
    const max = exchange?.maxPoints;
    if (exchange === null) return { why: 'Loading…', wrong: false };
    if (this.commentLength > MAX_COMMENT) return { why: `The comment is over ${MAX_COMMENT} characters.`, wrong: true };
    if (this.points !== '' && (!Number.isInteger(points) || points < exchange.minPoints || (max !== undefined && points > max)))
      return {
        why: `Points must be a whole number ${max === undefined ? `of at least ${exchange.minPoints}` : `from ${exchange.minPoints} to ${max}`}.`,
        wrong: true,
      };
    if (this.budget !== null && points * this.chosen.length > this.budget.remaining)
      return { why: `That is more than the ${formatNumber(this.budget.remaining)} points left in your budget.`, wrong: true };
    if (this.chosen.length === 0) return { why: 'Choose at least one recipient.', wrong: false };
    if (this.categoryId === '') return { why: 'Choose a category.', wrong: false };
    if (this.points === '') return { why: 'Enter the points per recipient.', wrong: false };
    return null;
  }

  private async send(event: Event): Promise<void> {
    event.preventDefault();
    if (this.invalid !== null || this.sending || this.exchange === null) return;
    this.sending = true;
    this.problem = null;
    this.sent = '';
    const names = this.chosen.map(nameOf);
    try {
      const recognition = await this.api<GivenRecognition>(`${this.user}/interactions-collection`, {
        method: 'POST',
        body: {
          exchangeId: this.exchange.id,
          categoryId: this.categoryId,
          recipients: this.chosen.map((p) => p.userId),
          points: Number(this.points),
          comment: this.comment,
        },
      });
      this.sent = `Recognition sent to ${listOf(names)}.`;
      this.chosen = [];
      this.categoryId = this.exchange.categories[0]?.id ?? '';
      this.points = '';
      this.comment = '';
      this.budget = recognition.budget;
      this.focusSearch();
      this.emit('ql-recognized', recognition);
      announceBadges(this, recognition.badgesEarned);
      // Reload the budget, unless a listener of the event already refreshed this block.
      if (!this.loading) this.budget = await this.api<Budget>(`${this.base}/points`).catch(() => recognition.budget);
    } catch (error) {
      this.problem = (error as Error).message;
    } finally {
      this.sending = false;
    }
  }

  private date(value: string): string {
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: this.exchange?.timezone }).format(new Date(value));
  }

  private renderBudget() {
    const budget = this.budget;
    if (budget === null) return nothing;
    const period = budget.period === 'none' ? '' : ` this ${budget.period}`;
    return html`<p part="budget" class="muted">
      <strong part="budget-remaining">${formatNumber(budget.remaining)}</strong> of ${formatNumber(budget.amount)} points left to give${period}${
        budget.resetsAt === null ? nothing : html`<span part="budget-resets"> · resets ${this.date(budget.resetsAt)}</span>`
      }
    </p>`;
  }

  private renderUnavailable(exchange: Exchange) {
    if (!exchange.active) {
      const day = (local: string) =>
        new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${local.slice(0, 10)}T00:00:00Z`));
      const now = new Date().toISOString();
      const { startDate: start, endDate: end } = exchange;
      const dates = end !== undefined && end < now ? ` It ended on ${day(end)}.` : start !== undefined && start > now ? ` It opens on ${day(start)}.` : '';
      return html`<p class="notice" part="unavailable">${exchange.name} is closed, so recognitions cannot be given now.${dates}</p>`;
    }
    return html`<p class="notice" part="unavailable">You are not among the givers of ${exchange.name}, so you cannot give recognitions in it.</p>`;
  }

  private renderRecipients(exchange: Exchange) {
    const full = this.chosen.length >= exchange.maxRecipients;
    const results = (this.results ?? []).filter((p) => !this.chosen.some((c) => c.userId === p.userId));
    return html`<fieldset part="recipients">
      <legend part="label">Recipients</legend>
      ${
        this.chosen.length === 0
          ? nothing
          : html`<ul class="chips" part="chosen" aria-label="Chosen recipients">
            ${this.chosen.map(
              (p) => html`<li class="chip" part="chip" data-user=${p.userId}>
                <span part="chip-name">${nameOf(p)}</span>
                <button type="button" class="secondary" part="remove" aria-label=${`Remove ${nameOf(p)}`} @click=${() => this.removeRecipient(p)}>×</button>
              </li>`,
            )}
          </ul>`
      }
      <label for="search" part="search-label" class="muted">Search colleagues</label>
      <input id="search" part="search" type="search" autocomplete="off" placeholder="Name or user id" aria-describedby="recipients-hint"
        .value=${this.query} @input=${this.onSearch} ?disabled=${full} />
      <p id="recipients-hint" part="recipients-hint" class=${full ? 'notice' : 'muted'}>
        ${full ? `That is the most: ${exchange.maxRecipients} recipients at once.` : `${this.chosen.length} of at most ${exchange.maxRecipients} chosen.`}
      </p>
      ${
        this.results === null
          ? nothing
          : results.length === 0
            ? html`<p part="no-results" class="muted" role="status">No colleague matches “${this.query}”.</p>`
            : html`<ul class="results" part="results" aria-label="Matching colleagues">
              ${results.map(
                (p) => html`<li><button type="button" class="secondary" part="result" data-user=${p.userId} ?disabled=${full} @click=${() => this.add(p)}>
                  <span class="visually-hidden">Add </span>${nameOf(p)}
                </button></li>`,
              )}
            </ul>`
      }
    </fieldset>`;
  }

  private renderForm(exchange: Exchange) {
    const length = this.commentLength;
    const over = length > MAX_COMMENT;
    const invalid = this.invalid;
    const total = Number(this.points) * this.chosen.length;
    return html`<form part="form" @submit=${this.send} novalidate>
      ${this.renderRecipients(exchange)}
      <div>
        <label for="category" part="label">Category</label>
        <select id="category" part="category" .value=${this.categoryId} @change=${(e: Event) => (this.categoryId = (e.target as HTMLSelectElement).value)}>
          ${exchange.categories.map((c) => html`<option value=${c.id} ?selected=${c.id === this.categoryId}>${c.name}</option>`)}
        </select>
      </div>
      <div>
        <label for="points" part="label">Points per recipient</label>
        <input id="points" part="points" type="number" inputmode="numeric" step="1" min=${exchange.minPoints} max=${exchange.maxPoints ?? nothing}
          aria-describedby="points-hint" aria-invalid=${invalid?.why.startsWith('Points') === true ? 'true' : 'false'} .value=${this.points} @input=${(e: Event) => (this.points = (e.target as HTMLInputElement).value)} />
        <p id="points-hint" part="points-hint" class="muted">
          ${exchange.maxPoints === undefined ? `At least ${exchange.minPoints}` : `${exchange.minPoints} to ${exchange.maxPoints}`} each${
            total > 0 && this.chosen.length > 1 ? html`; <span part="total">${formatNumber(total)} in all</span>` : nothing
          }
        </p>
      </div>
      <div>
        <div class="row">
          <label for="comment" part="label">Comment (optional)</label>
          <span id="counter" part="counter" class=${over ? 'counter error' : 'counter muted'} aria-live="polite">${length} / ${MAX_COMMENT}</span>
        </div>
        <textarea id="comment" part="comment" rows="3" aria-describedby="counter" aria-invalid=${over ? 'true' : 'false'} .value=${this.comment}
          @input=${(e: Event) => (this.comment = (e.target as HTMLTextAreaElement).value)}></textarea>
      </div>
      <div class="row">
        <p part="hint" class=${invalid?.wrong === true ? 'error' : 'muted'}>${invalid?.why ?? ''}</p>
        <button type="submit" part="send" ?disabled=${invalid !== null || this.sending}>${this.sending ? 'Sending…' : 'Send'}</button>
      </div>
    </form>`;
  }

  protected override render() {
    const exchange = this.exchange;
    return html`
      <section part="container" aria-labelledby="title">
        <h2 id="title" part="title">${exchange === null ? 'Recognize a colleague' : `Recognize a colleague: ${exchange.name}`}</h2>
        ${exchange?.description === undefined ? nothing : html`<p part="description" class="muted">${exchange.description}</p>`}
        ${this.status()} ${exchange === null ? nothing : exchange.canGive ? this.renderBudget() : this.renderUnavailable(exchange)}
        <p part="success" class="success" role="status">${this.sent}</p>
        <ql-badge-celebration base-url=${this.baseUrl} .texts=${this.texts} exportparts=${CELEBRATION_PARTS}></ql-badge-celebration>
        ${this.problem === null ? nothing : html`<p part="problem" class="error" role="alert">${this.problem}</p>`}
        ${exchange !== null && exchange.canGive ? this.renderForm(exchange) : nothing}
      </section>
    `;
  }
}
