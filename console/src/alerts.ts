// The alerts a page shows above its content: what went wrong (danger) and what was just done
// (success), each closable; closed, the page forgets it.
import { html, type TemplateResult } from 'lit';

const ICON = { danger: 'exclamation-triangle', success: 'check2-circle' } as const;

/** The alert for `message`, or nothing when there is none; `forget` runs once it is closed. */
export function closableAlert(variant: keyof typeof ICON, message: string | undefined, forget: () => void, className = ''): TemplateResult | string {
  if (message === undefined) return '';
  return html`<sl-alert variant=${variant} class=${className} open closable @sl-after-hide=${forget}
    ><sl-icon slot="icon" name=${ICON[variant]}></sl-icon>${message}</sl-alert
  >`;
}
