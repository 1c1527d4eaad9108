// Start-up failures caused by the environment, not by the code: a port already taken, a database or
// Redis that cannot be reached. Each becomes one line that names the setting, its value (never a
// password) and what to do; the entry points (src/server.ts, the questline CLI) print it without a
// stack trace and exit 1, as they do for an invalid setting (ConfigError).
import type { DatabaseConfig } from './config.js';

export class StartupError extends Error {
  override name = 'StartupError';
}

/** How long a first connection may take before start-up gives up on it. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** `url` as it may be printed: its password, and any parameter whose name says password, as ***. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@');
  }
  if (parsed.password !== '') parsed.password = '***';
  for (const name of [...parsed.searchParams.keys()]) if (/pass/i.test(name)) parsed.searchParams.set(name, '***');
  return parsed.toString();
}

interface NetworkError {
  code?: unknown;
  message?: unknown;
  hostname?: unknown;
  address?: unknown;
  port?: unknown;
}

/** Why a connection failed, in words: Node's network error codes, else the error's own message (with `secret` masked). */
function connectionFailure(error: unknown, secret: string): string {
  const { code, message, hostname, address, port } = (error ?? {}) as NetworkError;
  const where = address !== undefined ? `${String(address)}${port !== undefined ? `:${String(port)}` : ''}` : 'that address';
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name ${hostname !== undefined ? `"${String(hostname)}" ` : ''}does not resolve`;
    case 'ECONNREFUSED':
      return `nothing accepts connections at ${where}`;
    case 'ETIMEDOUT':
    case 'CONNECT_TIMEOUT':
      return `no answer within ${CONNECT_TIMEOUT_MS / 1000} s`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `the host cannot be reached from here (${code})`;
    case 'ECONNRESET':
      return 'the server closed the connection';
  }
  const text = typeof message === 'string' && message !== '' ? message : String(error);
  return secret === '' ? text : text.replaceAll(secret, '***');
}

const passwordOf = (url: string) => {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
};

/** The database of DATABASE_URL could not be reached or opened. */
export function databaseUnreachable(database: DatabaseConfig, error: unknown): StartupError {
  if (database.kind === 'sqlite') {
    return new StartupError(
      `DATABASE_URL=sqlite:${database.filename}: cannot open the SQLite file: ${connectionFailure(error, '')}. ` +
        'Check that its directory can be created and written, or set DATABASE_URL to another file',
    );
  }
  return new StartupError(
    `DATABASE_URL=${redactUrl(database.url)}: cannot connect to PostgreSQL: ${connectionFailure(error, passwordOf(database.url))}. ` +
      "Start PostgreSQL there, or correct DATABASE_URL's host, port, user, password or database name",
  );
}

/** The Redis of REDIS_URL could not be reached. */
export function redisUnreachable(url: string, error: unknown): StartupError {
  return new StartupError(
    `REDIS_URL=${redactUrl(url)}: cannot connect to Redis: ${connectionFailure(error, passwordOf(url))}. ` +
      'Start Redis there, correct REDIS_URL, or unset it to run a single node without Redis',
  );
}

/** The server could not listen on HOST:PORT. */
export function listenFailed(host: string, port: number, error: unknown): StartupError {
  const { code } = (error ?? {}) as NetworkError;
  switch (code) {
    case 'EADDRINUSE':
      return new StartupError(`PORT=${port}: ${host}:${port} is already in use by another process (another Questline?). Stop it, or set PORT to a free port`);
    case 'EACCES':
      return new StartupError(`PORT=${port}: this user may not listen on ${host}:${port} (ports below 1024 need privileges). Set PORT to 1024 or above`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(`HOST=${host}: this machine has no such address. Set HOST to 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)`);
  }
  return new StartupError(`HOST=${host} PORT=${port}: cannot listen there: ${connectionFailure(error, '')}`);
}

/** `attempt`, or a CONNECT_TIMEOUT error once CONNECT_TIMEOUT_MS have passed without it settling. */
export function withConnectTimeout<T>(attempt: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('connect timeout'), { code: 'CONNECT_TIMEOUT' })), CONNECT_TIMEOUT_MS);
    timer.unref();
  });
  return Promise.race([attempt, timeout]).finally(() => clearTimeout(timer));
}
