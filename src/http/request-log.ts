// One log line per request (Fastify's default is two, "incoming request" and "request
// completed"): method, route pattern, URL, status, duration and the request id, at info level;
// 4xx and 5xx at the same level, since a 5xx is logged with its error by the error handler. A
// credential sent by mistake in the query string (client_secret, access_token, …) never reaches
// the log.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

const SECRET_PARAMETER = /secret|token|password|passwd|api[-_]?key|authorization|assertion|code_verifier/i;

/** The URL with the value of every credential-like query parameter replaced by [redacted]. */
export function redactRequestUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const parameters = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // An undecodable name is judged as it is.
      }
      return SECRET_PARAMETER.test(decoded) && equals !== -1 ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, query)}?${parameters.join('&')}`;
}

/**
 * Fastify's log lines for a request, replaced: nothing when it arrives, and one line when its
 * answer is sent (error level, with the error, when sending failed).
 */
export class RequestLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    logRequest(request, reply, error);
  }
}

/** The request's one line; frameworkErrors writes it too, for answers Fastify sends before routing and does not log. */
export function logRequest(request: FastifyRequest, reply: FastifyReply, error?: Error | null): void {
  const line = {
    method: request.method,
    route: request.routeOptions.url ?? null,
    url: redactRequestUrl(request.url),
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
  };
  if (error) reply.log.error({ ...line, err: error }, 'request');
  else reply.log.info(line, 'request');
}
