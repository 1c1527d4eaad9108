// What every Questline block shares (SPEC §14): the service, the user and their user-level token as
// attributes (`base-url`, `user-id`, `token`; the same as properties), a typed call to the API that
// turns problem+json into a readable message, loading and error states, a public refresh(), and
// the shared look, themable through CSS custom properties. A block never sees a client secret.
import { css, html, LitElement, nothing, type CSSResultGroup, type PropertyValues, type TemplateResult } from 'lit';

/** An API failure: the problem's stable code and its message. */
export class QuestlineError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const sharedStyles = css`
  :host {
    display: block;
    box-sizing: border-box;
    max-width: 100%;
    font-family: var(--ql-font-family, system-ui, -apple-system, 'Segoe UI', sans-serif);
    font-size: var(--ql-font-size, 15px);
    line-height: 1.4;
    color: var(--ql-color-text, #1d2230);
    background: var(--ql-color-surface, #ffffff);
    border: 1px solid var(--ql-color-border, #d9dde7);
    border-radius: var(--ql-radius, 10px);
    padding: var(--ql-spacing, 16px);
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  h2 {
    margin: 0 0 calc(var(--ql-spacing, 16px) / 2);
    font-size: 1.1em;
    color: var(--ql-color-heading, inherit);
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  button,
  input,
  select,
  textarea {
    font: inherit;
    max-width: 100%;
  }
  button {
    cursor: pointer;
    color: var(--ql-color-on-accent, #ffffff);
    background: var(--ql-color-accent, #3b5bdb);
    border: 1px solid transparent;
    border-radius: calc(var(--ql-radius, 10px) / 2);
    padding: 6px 12px;
  }
  button[aria-pressed='false'],
  button.secondary {
    color: var(--ql-color-accent, #3b5bdb);
    background: transparent;
    border-color: var(--ql-color-accent, #3b5bdb);
  }
  button:disabled {
    opacity: 0.55;
    cursor: not-allowed;
  }
  :focus-visible {
    outline: 3px solid var(--ql-color-focus, #f59f00);
    outline-offset: 2px;
  }
  .muted {
    color: var(--ql-color-muted, #5c6477);
  }
  .notice {
    margin: 8px 0 0;
    padding: 6px 10px;
    border-radius: calc(var(--ql-radius, 10px) / 2);
    background: var(--ql-color-notice, #fff4e6);
    color: var(--ql-color-notice-text, #7a3e00);
  }
  .error {
    color: var(--ql-color-error, #c92a2a);
  }
  .bar {
    height: 8px;
    border-radius: 4px;
    background: var(--ql-color-track, #e9ecf3);
    overflow: hidden;
  }
  .bar > span {
    display: block;
    height: 100%;
    background: var(--ql-color-accent, #3b5bdb);
  }
  .icon {
    width: var(--ql-icon-size, 40px);
    height: var(--ql-icon-size, 40px);
    flex: none;
    object-fit: cover;
    overflow: hidden;
    border-radius: var(--ql-icon-radius, 50%);
    background: var(--ql-color-track, #e9ecf3);
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;

const RATE_LIMIT_RETRIES = 4;

/** A page's words for a block's texts, by key. */
export type Texts = Readonly<Record<string, unknown>>;

/**
 * The `texts` attribute: a JSON object of key → words. Anything else is ignored (with a console
 * warning for the page's developer) so that a typo never breaks the block.
 */
function parseTexts(value: string | null): Texts {
  if (value === null || value.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Texts;
  } catch {
    // reported below
  }
  console.warn('questline: the texts attribute is not a JSON object; the block keeps its own words');
  return {};
}

export abstract class QuestlineElement extends LitElement {
  static override properties = {
    baseUrl: { type: String, attribute: 'base-url' },
    userId: { type: String, attribute: 'user-id' },
    token: { type: String },
    texts: { attribute: 'texts', converter: { fromAttribute: parseTexts } },
    loading: { state: true },
    error: { state: true },
  };
  static override styles: CSSResultGroup = sharedStyles;

  declare baseUrl: string;
  declare userId: string;
  declare token: string;
  /** A page's own words for the block's texts, by key (attribute `texts`, JSON; docs/ui.md "Texts"). */
  declare texts: Texts;
  declare loading: boolean;
  declare error: string | null;

  /** The properties that, when they change, mean the block loads again (besides base-url, user-id and token). */
  protected static reloadOn: readonly string[] = [];

  constructor() {
    super();
    this.baseUrl = '';
    this.userId = '';
    this.token = '';
    this.texts = {};
    this.loading = false;
    this.error = null;
  }

  /** Loads the block's data again (after a write elsewhere on the page, for instance). */
  async refresh(): Promise<void> {
    if (this.userId === '' || this.token === '') return;
    this.loading = true;
    this.error = null;
    try {
      await this.load();
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      this.loading = false;
    }
  }

  /** Reads what the block shows; errors become its error state. */
  protected abstract load(): Promise<void>;

  protected override updated(changed: PropertyValues): void {
    const reloadOn = (this.constructor as typeof QuestlineElement).reloadOn;
    if (['baseUrl', 'userId', 'token', ...reloadOn].some((name) => changed.has(name))) void this.refresh();
  }

  /**
   * An image URL from the API. A root-relative one (`/demo/icons/…`) is a file of the service, so it
   * is taken from base-url as the API calls are; on another origin's page it would otherwise load
   * from that origin.
   */
  protected assetUrl(url: string): string {
    return url.startsWith('/') && !url.startsWith('//') ? `${this.baseUrl.replace(/\/$/, '')}${url}` : url;
  }

  /** A call to the API as the user; the `response` of the envelope, or a QuestlineError. */
  protected async api<T>(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
    let response = await this.request(path, init);
    // Over the user's request rate (a page of blocks refreshing at once): the request waits as the
    // service says, plus up to a second at random so that throttled blocks do not all come back at
    // the same instant, and tries again, a few times. A 429 is answered before anything runs, so a
    // write is safe to send again.
    for (let retry = 0; response.status === 429 && retry < RATE_LIMIT_RETRIES; retry++) {
      const wait = Math.min(5, Math.max(1, Number(response.headers.get('retry-after')) || 1)) * 1000 + Math.random() * 1000;
      await new Promise((resolve) => setTimeout(resolve, wait));
      response = await this.request(path, init);
    }
    const text = await response.text();
    const parsed =
      text === ''
        ? undefined
        : (JSON.parse(text) as { response?: T; code?: string; detail?: string; title?: string; errors?: Array<{ path: string; message: string }> });
    if (!response.ok) {
      const fields = (parsed?.errors ?? []).map((e) => `${e.path}: ${e.message}`).join('; ');
      const message = parsed?.detail ?? parsed?.title ?? `HTTP ${response.status}`;
      throw new QuestlineError(response.status, parsed?.code ?? 'http_error', fields === '' ? message : `${message} (${fields})`);
    }
    return parsed?.response as T;
  }

  private async request(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response> {
    try {
      return await this.fetchApi(path, init);
    } catch (error) {
      // The browser hides why (offline, or a CORS refusal); say what the likely causes are.
      throw new QuestlineError(
        0,
        'network_error',
        `Questline could not be reached (${error instanceof Error ? error.message : String(error)}): the service may be down, or this page's origin is not in the site's allowedOrigins`,
      );
    }
  }

  private fetchApi(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response> {
    return fetch(`${this.baseUrl.replace(/\/$/, '')}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  }

  /** The page's text for `key` when it gave one, else the block's own words. */
  protected text(key: string, fallback: string): string {
    const texts = this.texts ?? {};
    const own = Object.hasOwn(texts, key) ? texts[key] : undefined;
    return typeof own === 'string' && own !== '' ? own : fallback;
  }

  /** The path of the user's own resources. */
  protected get user(): string {
    return `/users/${encodeURIComponent(this.userId)}`;
  }

  /** Sends a DOM event that crosses the shadow boundary. */
  protected emit<T>(type: string, detail: T): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  /** Loading and error states, for the top of a block. */
  protected status(): TemplateResult | typeof nothing {
    if (this.error !== null) return html`<p class="error" part="error" role="alert">${this.error}</p>`;
    if (this.loading) return html`<p class="muted" part="loading" role="status">Loading…</p>`;
    return nothing;
  }
}

export const formatNumber = (value: number): string => new Intl.NumberFormat().format(value);
/** An instant (ISO) as the reader's date and time, in their time zone. */
export const formatDateTime = (iso: string): string => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
