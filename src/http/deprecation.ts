// Deprecated endpoints and parameters keep working and say so (SPEC §2, §8): `Deprecation` (RFC
// 9745, the date it was deprecated), `Sunset` (RFC 8594) where a removal date was announced, and a
// `Link` to the successor.
import type { FastifyReply } from 'fastify';

export interface Deprecated {
  /** When it was deprecated (ms since the epoch). */
  since: number;
  /** The announced removal date, if any (ms since the epoch). */
  sunset?: number;
  /** The successor's path (or paths). */
  successor: string | readonly string[];
  /** What to do instead, for the Link's title. */
  title: string;
}

export function deprecate(reply: FastifyReply, deprecated: Deprecated): void {
  reply.header('deprecation', `@${Math.floor(deprecated.since / 1000)}`);
  if (deprecated.sunset !== undefined) reply.header('sunset', new Date(deprecated.sunset).toUTCString());
  const title = deprecated.title.replaceAll('"', "'");
  const successors = typeof deprecated.successor === 'string' ? [deprecated.successor] : deprecated.successor;
  reply.header('link', successors.map((path) => `<${path}>; rel="successor-version"; title="${title}"`).join(', '));
}
