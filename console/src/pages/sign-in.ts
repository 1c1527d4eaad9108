// Sign-in: an admin client's id and secret (made with `questline site create` or
// `questline client create`). On success it fires `ql-signed-in` with the session; the shell then
// shows the page the address names, the one the person was on when their session ended.
import { html, LitElement, type TemplateResult } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { signIn } from '../session.js';

@customElement('ql-sign-in')
export class QlSignIn extends LitElement {
  @state() private error: string | undefined;
  @state() private busy = false;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override render(): TemplateResult {
    return html`
      <main class="sign-in">
        <form @submit=${this.submit} novalidate>
          <h1>Questline Console</h1>
          <p>Sign in with an admin client of your site.</p>
          <sl-input name="clientId" label="Client id" autocomplete="username" required autofocus></sl-input>
          <sl-input name="secret" type="password" label="Client secret" autocomplete="current-password" password-toggle required></sl-input>
          ${
            this.error === undefined
              ? ''
              : html`<sl-alert variant="danger" open><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>${this.error}</sl-alert>`
          }
          <sl-button type="submit" variant="primary" ?loading=${this.busy}>Sign in</sl-button>
        </form>
      </main>
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
