// The Questline Console: the shell every page sits in (a header with the site and sign-out, the
// navigation, the page the URL names) and sign-in when there is no session. A session the API
// refuses while a page is in use (it expired, or the client was revoked) asks for sign-in in a
// dialog over the page, which stays as it was: a half-edited form is still there afterwards. Pages are Lit
// elements rendered in the light DOM, so that the console's stylesheet and the data grid's apply;
// forms, buttons, dialogs and alerts are Shoelace's components.
import '@shoelace-style/shoelace/dist/themes/light.css';
import 'tabulator-tables/dist/css/tabulator_simple.min.css';
import 'jsondiffpatch/formatters/styles/html.css';
import './console.css';
import '@shoelace-style/shoelace/dist/components/alert/alert.js';
import '@shoelace-style/shoelace/dist/components/badge/badge.js';
import '@shoelace-style/shoelace/dist/components/button/button.js';
import '@shoelace-style/shoelace/dist/components/details/details.js';
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js';
import '@shoelace-style/shoelace/dist/components/icon/icon.js';
import '@shoelace-style/shoelace/dist/components/icon-button/icon-button.js';
import '@shoelace-style/shoelace/dist/components/input/input.js';
import '@shoelace-style/shoelace/dist/components/option/option.js';
import '@shoelace-style/shoelace/dist/components/progress-bar/progress-bar.js';
import '@shoelace-style/shoelace/dist/components/radio-button/radio-button.js';
import '@shoelace-style/shoelace/dist/components/radio-group/radio-group.js';
import '@shoelace-style/shoelace/dist/components/select/select.js';
import '@shoelace-style/shoelace/dist/components/spinner/spinner.js';
import '@shoelace-style/shoelace/dist/components/switch/switch.js';
import '@shoelace-style/shoelace/dist/components/tab/tab.js';
import '@shoelace-style/shoelace/dist/components/tab-group/tab-group.js';
import '@shoelace-style/shoelace/dist/components/tab-panel/tab-panel.js';
import '@shoelace-style/shoelace/dist/components/textarea/textarea.js';
import { setBasePath } from '@shoelace-style/shoelace/dist/utilities/base-path.js';
import 'urlpattern-polyfill';
import { Router } from '@lit-labs/router';
import { html, LitElement, type TemplateResult } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { SESSION_ENDED } from './api.js';
import './json-editor.js';
import { currentSession, endSession, type Session } from './session.js';
import './pages/sign-in.js';
import './pages/leaderboards.js';
import './pages/overview.js';
import './pages/people.js';
import './pages/person.js';
import './pages/try-it.js';
import './pages/program.js';
import './pages/webhooks.js';
import './pages/history.js';
import './pages/backups.js';

// <sl-icon name="x"> loads /console/assets/icons/x.svg (console/build.ts copies them there).
setBasePath('/console');

/** The pages, in the order of the navigation. */
const PAGES: Array<{ path: string; label: string; icon: string; render: () => TemplateResult }> = [
  { path: 'overview', label: 'Overview', icon: 'graph-up', render: () => html`<ql-overview-page></ql-overview-page>` },
  { path: 'program', label: 'Program', icon: 'sliders', render: () => html`<ql-program-page kindSlug="missions"></ql-program-page>` },
  { path: 'try', label: 'Try it', icon: 'lightning', render: () => html`<ql-try-it-page></ql-try-it-page>` },
  { path: 'people', label: 'People', icon: 'people', render: () => html`<ql-people-page></ql-people-page>` },
  { path: 'leaderboards', label: 'Leaderboards', icon: 'trophy', render: () => html`<ql-leaderboards-page></ql-leaderboards-page>` },
  { path: 'webhooks', label: 'Webhooks', icon: 'broadcast', render: () => html`<ql-webhooks-page></ql-webhooks-page>` },
  { path: 'history', label: 'History', icon: 'clock-history', render: () => html`<ql-history-page></ql-history-page>` },
  { path: 'backups', label: 'Backups', icon: 'archive', render: () => html`<ql-backups-page></ql-backups-page>` },
];

const decode = (segment: string | undefined) => decodeURIComponent(segment ?? '');

@customElement('ql-console')
export class QlConsole extends LitElement {
  @state() private session: Session | undefined = currentSession();
  /** The API refused the session while a page was in use: sign-in is asked for over the page. */
  @state() private ended = false;

  private readonly router = new Router(this, [
    { path: '/console', render: () => this.home() },
    { path: '/console/', render: () => this.home() },
    ...PAGES.map((page) => ({ path: `/console/${page.path}`, render: page.render })),
    // A part of the program, and one entity of it (an address a link or a reload keeps).
    { path: '/console/program/:kind', render: ({ kind }) => html`<ql-program-page .kindSlug=${decode(kind)} .entityId=${undefined}></ql-program-page>` },
    {
      path: '/console/program/:kind/:id',
      render: ({ kind, id }) => html`<ql-program-page .kindSlug=${decode(kind)} .entityId=${decode(id)}></ql-program-page>`,
    },
    { path: '/console/people/:userId', render: ({ userId }) => html`<ql-person-page .userId=${userId ?? ''}></ql-person-page>` },
    { path: '/console/*', render: () => html`<section class="page"><h1>Not found</h1><p>The console has no page at this address.</p></section>` },
  ]);

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener(SESSION_ENDED, this.onSessionEnded);
  }

  override disconnectedCallback(): void {
    window.removeEventListener(SESSION_ENDED, this.onSessionEnded);
    super.disconnectedCallback();
  }

  /** The API refused the token (expired, or revoked): sign in again over the page. */
  private readonly onSessionEnded = () => {
    this.ended = this.session !== undefined;
  };

  /**
   * Signed in again over the page. Another client may belong to another site, whose data the page
   * must not go on showing mixed with this one's: the console starts afresh at the same address.
   */
  private readonly onSignedInAgain = (event: CustomEvent<Session>) => {
    if (event.detail.clientId !== this.session?.clientId) window.location.reload();
    this.session = event.detail;
    this.ended = false;
  };

  /** /console shows the first page, under its own address. */
  private home(): TemplateResult {
    const [first] = PAGES as [(typeof PAGES)[number]];
    window.history.replaceState(null, '', `/console/${first.path}`);
    return first.render();
  }

  protected override render(): TemplateResult {
    if (this.session === undefined) {
      return html`<ql-sign-in
        @ql-signed-in=${(event: CustomEvent<Session>) => {
          this.session = event.detail;
        }}
      ></ql-sign-in>`;
    }
    const here = window.location.pathname;
    return html`
      <header class="bar">
        <a class="brand" href="/console/">Questline Console</a>
        <span class="site">${this.session.siteName}</span>
        <span class="client">Signed in as <code>${this.session.clientId}</code></span>
        <sl-button size="small" variant="default" @click=${this.signOut}>
          <sl-icon slot="prefix" name="box-arrow-right"></sl-icon>
          Sign out
        </sl-button>
      </header>
      <div class="frame">
        <nav aria-label="Console">
          <ul>
            ${PAGES.map(
              (page) =>
                html`<li>
                  <a href="/console/${page.path}" aria-current=${here === `/console/${page.path}` || here.startsWith(`/console/${page.path}/`) ? 'page' : 'false'}
                    ><sl-icon name=${page.icon} aria-hidden="true"></sl-icon>${page.label}</a
                  >
                </li>`,
            )}
          </ul>
        </nav>
        <main>${this.router.outlet()}</main>
      </div>
      <sl-dialog class="session-ended" label="Sign in again" ?open=${this.ended} @sl-request-close=${(event: Event) => event.preventDefault()}>
        ${this.ended ? html`<ql-sign-in again @ql-signed-in=${this.onSignedInAgain}></ql-sign-in>` : ''}
      </sl-dialog>
    `;
  }

  private readonly signOut = () => {
    endSession();
    this.session = undefined;
    this.ended = false;
  };
}
