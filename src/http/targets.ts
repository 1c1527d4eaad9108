// Which URLs Questline calls (SPEC §12): webhook endpoints and the site's callback URLs pass the
// same rule: http or https, no credentials, and (unless private networks are allowed) no loopback,
// private or link-local address. The webhook transport checks the addresses a name resolves to as
// well (src/modules/webhooks/transport.ts).
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A target the rules forbid: never retried into success by waiting, but still retried (the URL may be corrected). */
export class RefusedTarget extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedTarget';
  }
}

/** Why an address may not be called, or undefined when it may (only public unicast addresses may). */
export function forbiddenAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : `${address} is a ${range} address`;
}

/**
 * The URL, if webhooks may be sent to it as far as can be told without DNS: http or https, no
 * credentials, and (unless private networks are allowed) not a literal non-public address, which
 * never goes through the lookup. Throws RefusedTarget saying why not. Admins' endpoint URLs are
 * checked with it too.
 */
export function checkedTarget(url: string, allowPrivateNetworks: boolean): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new RefusedTarget(`"${url}" is not a URL`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new RefusedTarget(`${target.protocol} URLs are not called; only http or https`);
  if (target.username !== '' || target.password !== '') throw new RefusedTarget('URLs with credentials are not called');
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const reason = !allowPrivateNetworks && isIP(host) !== 0 ? forbiddenAddress(host) : undefined;
  if (reason !== undefined) throw new RefusedTarget(`refused: ${reason}; webhooks are not sent to loopback, private or link-local addresses`);
  return target;
}
