// <ql-award-balance>: the user's award account: points available to spend and pending, their value
// in the marketplace's currency, a notice when the user may only browse, and the last five
// statement entries. Calls GET /users/{u}/award-balance, /award-access and /award-statement?limit=5.
import { css, html, nothing } from 'lit';
import type { AwardEntryKind as Kind } from '../../src/db/schema.js';
import type { AwardAccess } from '../../src/engine/elements/awards.js';
import type { AwardBalance, StatementEntry as Entry } from '../../src/modules/awards/service.js';
import { formatNumber, QuestlineElement, sharedStyles } from './base.js';

const KINDS: Record<Kind, string> = {
  mission: 'Mission',
  adjustment: 'Adjustment',
  recognition: 'Recognition',
  prize: 'Leaderboard prize',
  reversal: 'Reversal',
  expiry: 'Points expired',
  ots: 'Code redeemed',
  purchase: 'Purchase',
  gift: 'Gift',
  refund: 'Refund',
};
const signed = (value: number) => new Intl.NumberFormat(undefined, { signDisplay: 'exceptZero' }).format(value).replace('-', '−');
const day = (value: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(value));

export class QlAwardBalance extends QuestlineElement {
  static override properties = {
    ...QuestlineElement.properties,
    balance: { state: true },
    access: { state: true },
    entries: { state: true },
  };
  static override styles = css`
    ${sharedStyles}
    p { margin: 0 0 8px; overflow-wrap: anywhere; }
    .figures { display: flex; flex-wrap: wrap; gap: 8px 24px; margin: 0 0 8px; }
    .figure { display: flex; flex-direction: column; min-width: 0; }
    .figure strong { font-size: 1.5em; line-height: 1.2; overflow-wrap: anywhere; }
    .figure .value { color: var(--ql-color-accent, #3b5bdb); }
    h3 { margin: 12px 0 6px; font-size: 1em; }
    li { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 2px 12px; padding: 6px 0; border-top: 1px solid var(--ql-color-border, #d9dde7); }
    li > span { min-width: 0; overflow-wrap: anywhere; }
    .credit { color: var(--ql-color-success, #2b8a3e); font-weight: 600; }
    .debit { color: var(--ql-color-error, #c92a2a); font-weight: 600; }
  `;

  declare balance: AwardBalance | null;
  declare access: AwardAccess | null;
  declare entries: Entry[] | null;

  constructor() {
    super();
    this.balance = null;
    this.access = null;
    this.entries = null;
  }

  protected async load(): Promise<void> {
    const [balance, access, entries] = await Promise.all([
      this.api<AwardBalance>(`${this.user}/award-balance`),
      this.api<AwardAccess>(`${this.user}/award-access`),
      this.api<Entry[]>(`${this.user}/award-statement?limit=5`),
    ]);
    this.balance = balance;
    this.access = access;
    this.entries = entries;
  }

  private renderEntry(entry: Entry) {
    const pending = Date.parse(entry.availableAt) > Date.now();
    return html`<li part="entry" data-kind=${entry.kind}>
      <span>
        <span part="entry-kind">${KINDS[entry.kind] ?? entry.kind}</span>${entry.description === null ? nothing : html`<span part="entry-description" class="muted">: ${entry.description}</span>`}
        <br /><time part="entry-date" class="muted" datetime=${entry.postedAt}>${day(entry.postedAt)}</time>${
          pending ? html`<span part="entry-pending" class="muted"> · pending until ${day(entry.availableAt)}</span>` : nothing
        }
      </span>
      <span part="entry-amount" class=${entry.amount < 0 ? 'debit' : 'credit'}>${signed(entry.amount)} pts</span>
    </li>`;
  }

  private renderAccount(balance: AwardBalance) {
    const currency = balance.currency;
    if (currency === null)
      return html`<p part="no-account" class="notice">
        No award account: this site has no awards to redeem points for.${
          balance.available + balance.pending === 0 ? '' : ` It still holds ${formatNumber(balance.available + balance.pending)} points from before.`
        }
      </p>`;
    const value = balance.availableValue ?? balance.available * (balance.conversionRate ?? 0);
    return html`<div class="figures">
        <p class="figure" part="available"><span class="muted">Available</span><strong>${formatNumber(balance.available)} pts</strong></p>
        <p class="figure" part="value"><span class="muted">Worth</span><strong class="value">${new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value)}</strong></p>
        ${balance.pending === 0 ? nothing : html`<p class="figure" part="pending"><span class="muted">Pending</span><strong>${formatNumber(balance.pending)} pts</strong></p>`}
      </div>
      ${
        this.access?.browseOnly === true
          ? html`<p part="browse-only" class="notice" role="note">
            Browse only: you can look around the marketplace but not redeem yet${this.access.verified ? '' : ' (your account is not verified)'}.
          </p>`
          : nothing
      }`;
  }

  protected override render() {
    const balance = this.balance;
    return html`
      <section part="container" aria-labelledby="title">
        <h2 id="title" part="title">Award account</h2>
        ${this.status()}
        ${balance === null ? nothing : this.renderAccount(balance)}
        ${
          this.entries === null || (balance?.currency === null && this.entries.length === 0)
            ? nothing
            : html`<h3 id="recent" part="statement-title">Recent activity</h3>
              ${
                this.entries.length === 0
                  ? html`<p part="statement-empty" class="muted">Nothing yet.</p>`
                  : html`<ul part="statement" aria-labelledby="recent">${this.entries.map((entry) => this.renderEntry(entry))}</ul>`
              }`
        }
      </section>
    `;
  }
}
