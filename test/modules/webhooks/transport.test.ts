// The outbound webhook transport (SPEC §12): real servers on 127.0.0.1 only (there is no network);
// addresses other than loopback appear only as targets refused before any connection is made.
import http from 'node:http';
import https from 'node:https';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forbiddenAddress, RefusedTarget } from '../../../src/http/targets.js';
import { HttpTransport } from '../../../src/modules/webhooks/transport.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';

const open: Receiver[] = [];

async function receiver(options: Parameters<typeof startReceiver>[1] = {}): Promise<Receiver> {
  const started = await startReceiver(0, options);
  open.push(started);
  return started;
}

/** Spies on both clients' request(): a call means a connection was attempted. */
function requests(): () => number {
  const spies = [vi.spyOn(http, 'request'), vi.spyOn(https, 'request')];
  return () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
}

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected the promise to reject');
}

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(open.splice(0).map((r) => r.close()));
});

const local = new HttpTransport({ allowPrivateNetworks: true });
const strict = new HttpTransport({ allowPrivateNetworks: false });

describe('HttpTransport with private networks allowed', () => {
  it('posts the exact body and headers, with a content-length in bytes, and resolves with the status and reply', async () => {
    const r = await receiver();
    const body = '{"name":"Zoë ✓"}';
    const reply = await local.post(r.url, { 'content-type': 'application/json', 'webhook-id': 'msg_1', 'X-Custom': 'Value' }, body);
    expect(reply).toEqual({ status: 200, excerpt: 'ok' });
    expect(r.received).toHaveLength(1);
    const [request] = r.received;
    expect(request?.path).toBe('/hooks');
    expect(request?.body).toBe(body);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['webhook-id']).toBe('msg_1');
    expect(request?.headers['x-custom']).toBe('Value');
    expect(request?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(Buffer.byteLength(body)).toBeGreaterThan(body.length);
  });

  it('resolves with an error status and the start of the error reply', async () => {
    const r = await receiver();
    r.answer(500);
    expect(await local.post(r.url, {}, '{}')).toEqual({ status: 500, excerpt: 'failure 500' });
  });

  it('does not follow a redirect: resolves with 302 and the redirect target receives nothing', async () => {
    const second = await receiver();
    const first = await receiver({ reply: (_request, res) => (res.writeHead(302, { location: second.url }).end('moved'), true) });
    const reply = await local.post(first.url, {}, '{"a":1}');
    expect(reply.status).toBe(302);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(first.received).toHaveLength(1);
    expect(second.received).toHaveLength(0);
  });

  it('resolves promptly on a 5 MB reply, keeping at most 256 characters of it', async () => {
    const r = await receiver({ reply: (_request, res) => (res.writeHead(200).end('x'.repeat(5 * 1024 * 1024)), true) });
    const started = Date.now();
    const reply = await local.post(r.url, {}, '{}');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(reply.status).toBe(200);
    expect(reply.excerpt).toBe('x'.repeat(256));
  });

  it('stops reading a reply that never ends, and closes the connection', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const chunk = 'y'.repeat(64 * 1024);
    const r = await receiver({
      reply: (_request, res) => {
        res.on('close', closed);
        res.writeHead(201);
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return true;
      },
    });
    const started = Date.now();
    const reply = await local.post(r.url, {}, '{}');
    expect(reply.status).toBe(201);
    expect(reply.excerpt).toBe('y'.repeat(256));
    await connectionClosed;
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('keeps only the first maxReplyBytes bytes of a reply', async () => {
    const r = await receiver({ reply: (_request, res) => (res.writeHead(400).end('0123456789abcdef'), true) });
    const reply = await new HttpTransport({ allowPrivateNetworks: true, maxReplyBytes: 10 }).post(r.url, {}, '{}');
    expect(reply).toEqual({ status: 400, excerpt: '0123456789' });
  });

  it('rejects after timeoutMs when the receiver never answers', async () => {
    const r = await receiver({ reply: () => true });
    const started = Date.now();
    const error = await failure(new HttpTransport({ allowPrivateNetworks: true, timeoutMs: 200 }).post(r.url, {}, '{}'));
    const elapsed = Date.now() - started;
    expect(error.message).toMatch(/no reply within 0\.2 s/);
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(2000);
    expect(r.received).toHaveLength(1);
  });

  it('settles within timeoutMs when a reply body trickles in forever', async () => {
    const r = await receiver({
      reply: (_request, res) => {
        res.writeHead(200).write('a');
        const timer = setInterval(() => res.write('a'), 20);
        res.on('close', () => clearInterval(timer));
        return true;
      },
    });
    const started = Date.now();
    const [outcome] = await Promise.allSettled([new HttpTransport({ allowPrivateNetworks: true, timeoutMs: 300 }).post(r.url, {}, '{}')]);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2000);
    // The timeout covers the whole exchange: a reply still coming when it ends is a failure (retried).
    expect(outcome?.status).toBe('rejected');
    if (outcome?.status === 'rejected') expect(String(outcome.reason)).toMatch(/reply not finished within 0\.3 s/);
  });

  it('rejects with ECONNREFUSED when nothing listens on the port', async () => {
    const r = await startReceiver();
    await r.close();
    const error = await failure(local.post(r.url, {}, '{}'));
    expect(error).not.toBeInstanceOf(RefusedTarget);
    expect(error.code).toBe('ECONNREFUSED');
  });
});

describe('HttpTransport with private networks refused', () => {
  it.each([
    ['an IPv4 loopback address', (port: number) => `http://127.0.0.1:${port}/hooks`],
    ['the IPv6 loopback address', (port: number) => `http://[::1]:${port}/hooks`],
    ['a name resolving to loopback', (port: number) => `http://localhost:${port}/hooks`],
  ])('refuses %s, and the receiver listening there gets nothing', async (_name, url) => {
    const r = await receiver();
    const error = await failure(strict.post(url(r.port), {}, '{}'));
    expect(error).toBeInstanceOf(RefusedTarget);
    expect(error.message).toMatch(/loopback/);
    expect(r.received).toHaveLength(0);
  });

  it('checks a name on its resolved address: the same localhost URL is called when private networks are allowed', async () => {
    const r = await receiver();
    const attempts = requests();
    await expect(strict.post(`http://localhost:${r.port}/hooks`, {}, '{}')).rejects.toThrow(/localhost resolves to a loopback address/);
    expect(await local.post(`http://localhost:${r.port}/hooks`, {}, '{}')).toEqual({ status: 200, excerpt: 'ok' });
    expect(r.received).toHaveLength(1);
    expect(attempts()).toBe(2);
  });

  it.each([
    ['http://10.0.0.1/', /private/],
    ['http://169.254.169.254/latest/meta-data', /linkLocal/],
    ['http://[::ffff:127.0.0.1]/', /loopback/],
    ['https://192.168.0.10:8443/', /private/],
    ['http://0.0.0.0/', /unspecified/],
  ])('refuses %s without attempting a connection', async (url, reason) => {
    const attempts = requests();
    const error = await failure(strict.post(url, {}, '{}'));
    expect(error).toBeInstanceOf(RefusedTarget);
    expect(error.message).toMatch(reason);
    expect(attempts()).toBe(0);
  });
});

describe('HttpTransport URL rules', () => {
  it.each([
    ['ftp://example.com/', /ftp: URLs are not called/],
    ['file:///etc/passwd', /file: URLs are not called/],
    ['not a url', /is not a URL/],
    ['http://user:pass@127.0.0.1/', /credentials/],
    ['http://user@127.0.0.1/', /credentials/],
  ])('refuses %s even when private networks are allowed', async (url, reason) => {
    const attempts = requests();
    const error = await failure(local.post(url, {}, '{}'));
    expect(error).toBeInstanceOf(RefusedTarget);
    expect(error.name).toBe('RefusedTarget');
    expect(error.message).toMatch(reason);
    expect(attempts()).toBe(0);
  });
});

describe('forbiddenAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '93.184.215.14'])('allows the public unicast address %s', (address) => {
    expect(forbiddenAddress(address)).toBeUndefined();
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['::ffff:10.0.0.1', 'private'],
    ['::', 'unspecified'],
  ])('forbids %s as %s', (address, range) => {
    expect(forbiddenAddress(address)).toBe(`${address} is a ${range} address`);
  });

  it('gives a reason for a string that is not an IP address', () => {
    expect(forbiddenAddress('example.com')).toMatch(/not an IP address/);
    expect(forbiddenAddress('')).toMatch(/not an IP address/);
  });
});
