// Outbound webhook requests, made safe (SPEC §12): http and https only; the target's addresses are
// checked after DNS resolution, on the addresses the socket then connects to (so a name that
// resolves to a private address, or changes to one between check and connect, is refused);
// redirects are not followed; 10 s for the whole exchange; at most a small part of the reply read.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface TransportOptions {
  /** Allow loopback, private and link-local targets (tests and local development). */
  allowPrivateNetworks: boolean;
  timeoutMs?: number;
  /** Bytes of a reply read (the start of an error reply is kept for admins); the rest is discarded. */
  maxReplyBytes?: number;
}

export interface TransportReply {
  status: number;
  /** The start of the reply body, for an admin looking at a failed delivery. */
  excerpt: string;
}

export interface WebhookTransport {
  /** POSTs `body`; resolves with the reply's status, rejects when no reply came (refused, timed out, network error). */
  post(url: string, headers: Record<string, string>, body: string): Promise<TransportReply>;
}

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

export class HttpTransport implements WebhookTransport {
  readonly #timeoutMs: number;
  readonly #maxReplyBytes: number;
  readonly #lookup: LookupFunction | undefined;

  constructor(private readonly options: TransportOptions) {
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxReplyBytes = options.maxReplyBytes ?? 1024;
    this.#lookup = options.allowPrivateNetworks ? undefined : checkedLookup;
  }

  post(url: string, headers: Record<string, string>, body: string): Promise<TransportReply> {
    let target: URL;
    try {
      target = checkedTarget(url, this.options.allowPrivateNetworks);
    } catch (error) {
      return Promise.reject(error as RefusedTarget);
    }
    const client = target.protocol === 'https:' ? https : http;
    return new Promise<TransportReply>((resolve, reject) => {
      let replying = false;
      const request = client.request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: false,
          signal: AbortSignal.timeout(this.#timeoutMs),
          ...(this.#lookup !== undefined ? { lookup: this.#lookup } : {}),
        },
        (response) => {
          replying = true;
          const chunks: Buffer[] = [];
          let read = 0;
          const finish = () => {
            response.destroy();
            resolve({ status: response.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8').slice(0, 256) });
          };
          response.on('data', (chunk: Buffer) => {
            if (read < this.#maxReplyBytes) chunks.push(chunk.subarray(0, this.#maxReplyBytes - read));
            read += chunk.length;
            if (read >= this.#maxReplyBytes) finish();
          });
          response.on('end', finish);
          response.on('error', (error) => reject(timedOut(error, true, this.#timeoutMs)));
        },
      );
      request.on('error', (error: Error) => reject(timedOut(error, replying, this.#timeoutMs)));
      request.end(body);
    });
  }
}

/** The timeout's abort as a message an admin understands (a reply still coming when it ends is a failure too); other errors as they are. */
function timedOut(error: Error, replying: boolean, timeoutMs: number): Error {
  if (error.name !== 'AbortError' && error.name !== 'TimeoutError') return error;
  return new Error(`${replying ? 'reply not finished' : 'no reply'} within ${timeoutMs / 1000} s`);
}

/** dns.lookup, failing when any address the name resolves to is not public. */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const reason = addresses.map((a) => forbiddenAddress(a.address)).find((r) => r !== undefined);
    if (reason !== undefined)
      return callback(
        new RefusedTarget(`refused: ${hostname} resolves to ${reason.replace(/^.*? is /, '')} (${addresses.map((a) => a.address).join(', ')})`),
        '',
        0,
      );
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const [first] = addresses as [LookupAddress];
    callback(null, first.address, first.family);
  });
};
