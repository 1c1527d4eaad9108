// A page's automatic refresh, as a Lit reactive controller: every `ms` while the page is connected,
// its tab visible and the console signed in. While the sign-in-again dialog is up there is no
// session, and a refresh would only be refused and raise the dialog again, so none is made.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { currentSession } from './session.js';

export class Refresher implements ReactiveController {
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    host: ReactiveControllerHost,
    private readonly ms: number,
    private readonly refresh: () => void,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#timer = setInterval(() => {
      if (document.visibilityState === 'visible' && currentSession() !== undefined) this.refresh();
    }, this.ms);
  }

  hostDisconnected(): void {
    clearInterval(this.#timer);
  }
}
