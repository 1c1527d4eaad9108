// <ql-points>: the user's balance in every point category, a visible notice in each category
// whose daily limit today's earnings have reached (SPEC §14: blocks show when a limit was reached),
// and, in a category with an expiry rule, how many points expire next and when (docs/points.md).
import { html } from 'lit';
import type { CategoryBalance } from '../../src/modules/profile/service.js';
import { formatNumber, QuestlineElement } from './base.js';
import { expiryNotice } from './expiry-notice.js';

export class QlPoints extends QuestlineElement {
  static override properties = { ...QuestlineElement.properties, categories: { state: true } };
  declare categories: CategoryBalance[] | null;

  constructor() {
    super();
    this.categories = null;
  }

  protected async load(): Promise<void> {
    const balance = await this.api<{ categories: CategoryBalance[] }>(`${this.user}/point-balance`);
    this.categories = balance.categories;
  }

  protected override render() {
    return html`
      <section part="container" aria-labelledby="title">
        <h2 id="title" part="title">Points</h2>
        ${this.status()}
        ${
          this.categories === null
            ? null
            : html`<ul part="list">
              ${this.categories.map(
                (category) => html`<li part="category" data-category=${category.id}>
                  <span part="category-name">${category.name}</span>
                  <strong part="balance">${formatNumber(category.balance)}</strong>
                  ${
                    category.dailyLimit !== null && category.remainingToday === 0
                      ? html`<p class="notice" part="limit-notice" role="status">Daily limit of ${formatNumber(category.dailyLimit)} ${category.name} reached; more can be earned tomorrow.</p>`
                      : null
                  }
                  ${expiryNotice(category.expiringSoon, category.name)}
                </li>`,
              )}
            </ul>`
        }
      </section>
    `;
  }
}
