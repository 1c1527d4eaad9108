// The notice a block shows where a point category's next points expire (docs/points.md): "35
// Points expire on Dec 27, 2026, 8:00 AM.", in the reader's time zone. One rendering, shared by
// <ql-points> (every category) and <ql-at-a-glance> (the default category).
import { html, nothing, type TemplateResult } from 'lit';
import type { ExpiringSoon } from '../../src/engine/elements/expiry.js';
import { formatDateTime, formatNumber } from './base.js';

/** The notice (`part="expiry-notice"`), or nothing when no points of the category will expire. */
export function expiryNotice(expiringSoon: ExpiringSoon | null | undefined, category: string): TemplateResult | typeof nothing {
  if (expiringSoon === null || expiringSoon === undefined) return nothing;
  return html`<p class="notice" part="expiry-notice">${formatNumber(expiringSoon.amount)} ${category} expire on ${formatDateTime(expiringSoon.date)}.</p>`;
}
