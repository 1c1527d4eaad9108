// The line under a paged grid: which rows are shown of how many, and buttons to the pages either
// side. Labels are the page's own ("Previous"/"Next", "Newer"/"Older").
import { html, type TemplateResult } from 'lit';

export const PAGE = 25;

export function pager(
  { offset, total }: { offset: number; total: number },
  turn: (offset: number) => void,
  [back, forward]: [string, string] = ['Previous', 'Next'],
): TemplateResult {
  const last = Math.min(offset + PAGE, total);
  return html`<div class="pager">
    <span class="muted">${total === 0 ? 'None' : `${offset + 1}–${last} of ${total.toLocaleString()}`}</span>
    <sl-button size="small" ?disabled=${offset === 0} @click=${() => turn(Math.max(0, offset - PAGE))}>${back}</sl-button>
    <sl-button size="small" ?disabled=${last >= total} @click=${() => turn(offset + PAGE)}>${forward}</sl-button>
  </div>`;
}
