// Outbound webhook requests, made safe (SPEC §12): http and https only (src/http/targets.ts); the
// target's addresses are checked after DNS resolution, on the addresses the socket then connects to
// (so a name that resolves to a private address, or changes to one between check and connect, is
// refused); redirects are not followed; 10 s for the whole exchange; at most a small part of the
// reply read.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkedTarget, forbiddenAddress, RefusedTarget } from '../../http/targets.js';

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
