// Sign-in: an admin client's id and secret (made with `questline site create` or
// `questline client create`). On success it fires `ql-signed-in` with the session. As a page, it
// is what a person without a session sees; `again` is the form alone, which the shell shows in a
// dialog over the page when a session ends while the page is in use, so nothing on it is lost.
import { html, LitElement, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { signIn } from '../session.js';

@customElement('ql-sign-in')
export class QlSignIn extends LitElement {
  /** The form alone, for signing in again in the shell's dialog. */
  @property({ type: Boolean }) again = false;
  @state() private error: string | undefined;
  @state() private busy = false;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override render(): TemplateResult {
    if (this.again) return this.form(html`<p>Your session has ended. Sign in again to go on where you were: nothing on the page is lost.</p>`);
    return html`<main class="sign-in">
      ${this.form(html`<h1>Questline Console</h1>
        <p>Sign in with an admin client of your site.</p>`)}
    </main>`;
  }

  private form(heading: TemplateResult): TemplateResult {
    return html`
        <form @submit=${this.submit} novalidate>
          ${heading}
          <sl-input name="clientId" label="Client id" autocomplete="username" required autofocus></sl-input>
          <sl-input name="secret" type="password" label="Client secret" autocomplete="current-password" password-toggle required></sl-input>
          ${
            this.error === undefined
              ? ''
              : html`<sl-alert variant="danger" open><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>${this.error}</sl-alert>`
          }
          <sl-button type="submit" variant="primary" ?loading=${this.busy}>Sign in</sl-button>
        </form>
    `;
  }

  private readonly submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const value = (name: string) => (form.querySelector(`[name="${name}"]`) as HTMLInputElement).value.trim();
    const [clientId, secret] = [value('clientId'), value('secret')];
    if (clientId === '' || secret === '') {
      this.error = 'Enter the client id and its secret.';
      return;
    }
    this.busy = true;
    this.error = undefined;
    try {
      const session = await signIn(clientId, secret);
      this.dispatchEvent(new CustomEvent('ql-signed-in', { detail: session, bubbles: true }));
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      this.busy = false;
    }
  };
}
