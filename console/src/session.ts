// Sign-in: an admin client's id and secret exchanged for a bearer token (client credentials). The
// token is kept in sessionStorage (it lives and dies with the tab; never localStorage), forgotten
// at sign-out, at its expiry and when the API refuses it. Only an admin client may use the console:
// sign-in reads the site settings, which only an admin token may.
import { ApiProblem, read } from './api.js';

const KEY = 'questline.console.session';

export interface Session {
  token: string;
  /** Epoch ms; the token is dropped a little before, so no call goes out with a dying token. */
  expiresAt: number;
  clientId: string;
  siteName: string;
  timezone: string;
}

export function currentSession(): Session | undefined {
  const stored = sessionStorage.getItem(KEY);
  if (stored === null) return undefined;
  const session = JSON.parse(stored) as Session;
  if (session.expiresAt - 30_000 > Date.now()) return session;
  endSession();
  return undefined;
}

export function endSession(): void {
  sessionStorage.removeItem(KEY);
}

export async function signIn(clientId: string, secret: string): Promise<Session> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
  // credentials: 'omit': a wrong secret's 401 carries `WWW-Authenticate: Basic` (RFC 6749), on which a
  // browser would otherwise open its own password dialog. The console sends no cookie anyway.
  const response = await fetch('/oauth/token', {
    method: 'POST',
    credentials: 'omit',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const { access_token: token, expires_in: expiresIn } = await read<{ access_token: string; expires_in: number }>(response);
  const site = await fetch('/admin/site', { credentials: 'omit', headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  if (site.status === 403) throw new ApiProblem(403, 'forbidden', 'This client is not an admin client of its site: the console needs one.');
  const { name, timezone } = await read<{ name: string; timezone: string }>(site);
  const session: Session = { token, expiresAt: Date.now() + expiresIn * 1000, clientId, siteName: name, timezone };
  sessionStorage.setItem(KEY, JSON.stringify(session));
  return session;
}
