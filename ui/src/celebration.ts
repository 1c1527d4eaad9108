// <ql-badge-celebration>: a small card that celebrates the badges an action earned ("Badge earned:
// Reader", with the badge's icon), announced to screen readers (a polite live region, present
// before anything is said in it), dismissible, and gone after a few seconds unless the reader is
// pointing at it or has focus in it. With prefers-reduced-motion it appears and goes without
// animation. The blocks that log actions (<ql-quiz>, <ql-recognize>) render one and call
// celebrate() with the answer's badgesEarned; /demo has one for its action button; a page may use it
// too. Words through `texts` (badgeEarned, groupBadgeEarned, dismiss), looks through custom
// properties and parts (celebration, badge, badge-icon, badge-label, badge-name, dismiss).
import { css, html, nothing, type PropertyValues } from 'lit';
import type { BadgeEarned } from '../../src/modules/actions/outcome.js';
import { QuestlineElement } from './base.js';

export type { BadgeEarned };

/** How long a celebration stays by default (ms): long enough to read two badges, short enough not to linger. */
const SHOWN_FOR = 8000;
/** The fade out (ms; none with reduced motion). */
const FADE = 400;

/** A badge once per owner, with how many times this action earned it. */
interface Shown {
  badge: BadgeEarned;
  times: number;
}

export class QlBadgeCelebration extends QuestlineElement {
  static override properties = {
    ...QuestlineElement.properties,
    duration: { type: Number },
    shown: { state: true },
    leaving: { state: true },
  };
  static override styles = css`
    :host {
      display: block;
      font-family: var(--ql-font-family, system-ui, -apple-system, 'Segoe UI', sans-serif);
      font-size: var(--ql-font-size, 15px);
      line-height: 1.4;
      color: var(--ql-color-text, #1d2230);
    }
    :host([hidden]) {
      display: none;
    }
    .card {
      position: relative;
      display: flex;
      flex-direction: column;
      gap: 8px;
      margin: 0 0 12px;
      padding: 12px 40px 12px 12px;
      border-radius: var(--ql-radius, 10px);
      border: 1px solid var(--ql-color-celebration-border, #f2c94c);
      background: var(--ql-color-celebration, linear-gradient(135deg, #fff9db 0%, #fff3bf 100%));
      color: var(--ql-color-celebration-text, #5c3c00);
      box-shadow: 0 4px 14px rgba(92, 60, 0, 0.12);
      animation: ql-pop 420ms cubic-bezier(0.2, 0.9, 0.3, 1.3) both;
    }
    .frame {
      position: relative;
      transition:
        opacity ${FADE}ms ease,
        transform ${FADE}ms ease;
    }
    .frame.leaving {
      opacity: 0;
      transform: translateY(-4px);
    }
    .badges {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 8px;
    }
    .badge {
      display: flex;
      gap: 12px;
      align-items: center;
      min-width: 0;
    }
    .icon {
      width: var(--ql-celebration-icon-size, 48px);
      height: var(--ql-celebration-icon-size, 48px);
      flex: none;
      border-radius: 50%;
      object-fit: cover;
      background: #ffffff;
      box-shadow: 0 0 0 3px var(--ql-color-celebration-border, #f2c94c);
      animation: ql-shine 900ms ease-out 200ms both;
    }
    .label {
      display: block;
      font-size: 0.85em;
      font-weight: 600;
      text-transform: uppercase;
      letter-spacing: 0.04em;
      opacity: 0.85;
    }
    .name {
      display: block;
      font-size: 1.1em;
      font-weight: 700;
      overflow-wrap: anywhere;
    }
    .dismiss {
      position: absolute;
      top: 6px;
      right: 6px;
      width: 28px;
      height: 28px;
      padding: 0;
      font: inherit;
      font-size: 18px;
      line-height: 1;
      cursor: pointer;
      color: inherit;
      background: transparent;
      border: 0;
      border-radius: 50%;
    }
    .dismiss:hover {
      background: rgba(92, 60, 0, 0.1);
    }
    :focus-visible {
      outline: 3px solid var(--ql-color-focus, #f59f00);
      outline-offset: 2px;
    }
    @keyframes ql-pop {
      from {
        opacity: 0;
        transform: scale(0.92) translateY(6px);
      }
      to {
        opacity: 1;
        transform: none;
      }
    }
    @keyframes ql-shine {
      from {
        transform: rotate(-18deg) scale(0.6);
      }
      to {
        transform: none;
      }
    }
    @media (prefers-reduced-motion: reduce) {
      .card,
      .icon,
      .frame {
        animation: none;
        transition: none;
      }
    }
  `;

  /** How long (ms) a celebration stays; 0: until dismissed. */
  declare duration: number;
  declare shown: Shown[];
  declare leaving: boolean;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #held = false;

  constructor() {
    super();
    this.duration = SHOWN_FOR;
    this.shown = [];
    this.leaving = false;
  }

  /** Nothing to load: it shows what it is given. */
  protected async load(): Promise<void> {}

  /** Shows the badges (replacing any shown), for `duration`; none: nothing. */
  celebrate(badges: readonly BadgeEarned[]): void {
    if (badges.length === 0) return;
    const shown: Shown[] = [];
    for (const badge of badges) {
      const known = shown.find((s) => s.badge.id === badge.id && s.badge.userId === badge.userId && s.badge.groupId === badge.groupId);
      if (known !== undefined) known.times += 1;
      else shown.push({ badge, times: 1 });
    }
    this.leaving = false;
    this.shown = shown;
    this.#schedule();
  }

  /**
   * Hides the celebration now. Its dismiss button goes with it: a keyboard user's focus moves to
   * the celebration itself (not to the top of the page), and nothing holds the next one.
   */
  dismiss(): void {
    clearTimeout(this.#timer);
    const focused = this.shadowRoot?.activeElement !== null && this.shadowRoot?.activeElement !== undefined;
    this.#held = false;
    this.shown = [];
    this.leaving = false;
    if (focused) {
      if (!this.hasAttribute('tabindex')) this.setAttribute('tabindex', '-1');
      this.focus();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#timer);
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (changed.has('duration') && this.shown.length > 0) this.#schedule();
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    if (this.duration <= 0 || this.#held) return;
    this.#timer = setTimeout(() => this.#leave(), this.duration);
  }

  #leave(): void {
    if (matchMedia('(prefers-reduced-motion: reduce)').matches) return this.dismiss();
    this.leaving = true;
    this.#timer = setTimeout(() => this.dismiss(), FADE);
  }

  /** Pointed at or focused: it stays (so that it can be read and dismissed); left: it goes after `duration`. */
  #hold(held: boolean): void {
    this.#held = held;
    if (held) {
      clearTimeout(this.#timer);
      this.leaving = false;
    } else if (this.shown.length > 0) this.#schedule();
  }

  private renderBadge({ badge, times }: Shown) {
    const label = badge.groupId !== undefined ? this.text('groupBadgeEarned', 'Team badge earned') : this.text('badgeEarned', 'Badge earned');
    return html`<li class="badge" part="badge" data-badge=${badge.id}>
      ${badge.iconUrl === undefined ? MEDAL : html`<img class="icon" part="badge-icon" src=${this.assetUrl(badge.iconUrl)} alt="" />`}
      <span>
        <span class="label" part="badge-label">${label}:</span>
        <span class="name" part="badge-name">${badge.name}${times > 1 ? ` ×${times}` : ''}</span>
      </span>
    </li>`;
  }

  protected override render() {
    const shown = this.shown.length > 0;
    // The live region is always there, so that what appears in it is announced; the button is
    // outside it, so that only the badges are read out.
    return html`<div class="frame ${this.leaving ? 'leaving' : ''}"
      @mouseenter=${() => this.#hold(true)} @mouseleave=${() => this.#hold(false)}
      @focusin=${() => this.#hold(true)} @focusout=${() => this.#hold(false)}>
      <div part="celebration-region" role="status" aria-live="polite" aria-atomic="true">
        ${shown ? html`<div class="card" part="celebration"><ul class="badges">${this.shown.map((s) => this.renderBadge(s))}</ul></div>` : nothing}
      </div>
      ${
        shown
          ? html`<button type="button" class="dismiss" part="dismiss" aria-label=${this.text('dismiss', 'Dismiss')} @click=${() => this.dismiss()}>×</button>`
          : nothing
      }
    </div>`;
  }
}

/** A badge without an icon of its own: a medal. */
const MEDAL = html`<svg class="icon" part="badge-icon" viewBox="0 0 48 48" aria-hidden="true">
  <circle cx="24" cy="24" r="24" fill="#ffffff" />
  <path d="M17 6h6l3 9h-6zM31 6h-6l-3 9h6z" fill="var(--ql-color-accent, #3b5bdb)" />
  <circle cx="24" cy="28" r="11" fill="#f2c94c" stroke="#c99a06" stroke-width="2" />
  <path d="M24 21.5l2 4.1 4.5.6-3.3 3.1.8 4.5-4-2.2-4 2.2.8-4.5-3.3-3.1 4.5-.6z" fill="#fff9db" />
</svg>`;

/**
 * What a block does with the badges an action it logged earned: tells the page (`ql-badge-earned`,
 * bubbling and composed, `detail: { badges }`), and celebrates them in its own
 * <ql-badge-celebration> unless a listener called preventDefault() (to celebrate its own way).
 */
export function announceBadges(block: HTMLElement, badges: readonly BadgeEarned[] | undefined): void {
  if (badges === undefined || badges.length === 0) return;
  const event = new CustomEvent('ql-badge-earned', { detail: { badges }, bubbles: true, composed: true, cancelable: true });
  if (!block.dispatchEvent(event)) return;
  block.shadowRoot?.querySelector<QlBadgeCelebration>('ql-badge-celebration')?.celebrate(badges);
}

/** The parts of a block's celebration, exported so that a page styles them on the block itself. */
export const CELEBRATION_PARTS = 'celebration, badge, badge-icon, badge-label, badge-name, dismiss';
