// Bearer tokens: a client-level token, and user-level ones (xoauth_end_user_id) per user, each kept
// until shortly before it expires. Concurrent calls that need a token share one token request
// (single flight), so a burst of calls at start-up or at renewal costs one request, not one each.

/** A token and when it stops being usable (ms since the epoch). */
export interface IssuedToken {
  token: string;
  expiresAt: number;
}

/** Asks the token endpoint (or the application's own backend) for a token; `userId` for a user-level one. */
export type TokenRequest = (userId: string | undefined) => Promise<IssuedToken>;

/** Users whose tokens are kept at most; the least recently used one goes first. */
const MAX_CACHED_TOKENS = 1000;

export class TokenCache {
  readonly #request: TokenRequest;
  readonly #now: () => number;
  readonly #marginMs: number;
  readonly #tokens = new Map<string, IssuedToken & { issuedAt: number }>();
  readonly #pending = new Map<string, Promise<string>>();

  constructor(request: TokenRequest, options: { now: () => number; renewalMarginMs: number }) {
    this.#request = request;
    this.#now = options.now;
    this.#marginMs = options.renewalMarginMs;
  }

  /** A usable token for the user (or the client when undefined): the kept one, or a new one. */
  get(userId: string | undefined): Promise<string> {
    const key = userId ?? '';
    const kept = this.#tokens.get(key);
    if (kept !== undefined && !this.#due(kept)) {
      // Most recently used last, so that the first key is the one to evict.
      this.#tokens.delete(key);
      this.#tokens.set(key, kept);
      return Promise.resolve(kept.token);
    }
    const pending = this.#pending.get(key);
    if (pending !== undefined) return pending;
    const request = this.#issue(key, userId).finally(() => this.#pending.delete(key));
    this.#pending.set(key, request);
    return request;
  }

  /** Forgets `token` (refused by the server as expired or invalid), unless a newer one replaced it already. */
  invalidate(userId: string | undefined, token: string): void {
    const key = userId ?? '';
    if (this.#tokens.get(key)?.token === token) this.#tokens.delete(key);
  }

  /** Renewal is due when less than the margin is left, or less than half the lifetime for short-lived tokens. */
  #due(kept: IssuedToken & { issuedAt: number }): boolean {
    const margin = Math.min(this.#marginMs, (kept.expiresAt - kept.issuedAt) / 2);
    return this.#now() >= kept.expiresAt - margin;
  }

  async #issue(key: string, userId: string | undefined): Promise<string> {
    const issuedAt = this.#now();
    const issued = await this.#request(userId);
    this.#tokens.delete(key);
    this.#tokens.set(key, { ...issued, issuedAt });
    if (this.#tokens.size > MAX_CACHED_TOKENS) {
      const oldest = this.#tokens.keys().next().value;
      if (oldest !== undefined) this.#tokens.delete(oldest);
    }
    return issued.token;
  }
}
