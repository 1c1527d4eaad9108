// SPEC §15: on close a node stops accepting connections, lets in-flight requests finish, answers
// requests that still arrive on open connections with 503 + Retry-After, and then closes. Every
// answer sent while draining closes its connection. (shutdown-load.test.ts does this under load
// on a real process.)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';

function get(port: number, path: string, agent: http.Agent): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
  });
}

function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

describe('graceful shutdown', () => {
  it('refuses new connections at once, finishes in-flight requests, answers late ones 503 shutting_down, closing every connection it answers', async () => {
    const t = await buildTestApp('embedded');
    const slowArrived = signal();
    const slowReleased = signal();
    t.app.get('/test/slow', { config: { access: 'public' } }, async () => {
      slowArrived.fire();
      await slowReleased.promise;
      return { finished: true };
    });
    // Work the node flushes before it closes (as the webhook dispatcher's deliveries in flight):
    // the node drains meanwhile.
    const flushing = signal();
    const flushed = signal();
    t.app.addHook('preClose', async () => {
      flushing.fire();
      await flushed.promise;
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;

    // Two keep-alive connections: one busy with the slow request, one open and idle.
    const busy = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const open = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const fresh = new http.Agent({ keepAlive: false });
    const before = await get(port, '/health/live', open);
    expect(before.status).toBe(200);
    expect(before.headers.connection).toBe('keep-alive');
    const slow = get(port, '/test/slow', busy);
    await slowArrived.promise;

    const closing = t.app.close();
    await flushing.promise;
    // A new connection is refused at once.
    await expect(get(port, '/health/live', fresh)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    // A request on the open connection is answered 503, and its connection closed.
    const late = await get(port, '/health/live', open);
    expect(late.status).toBe(503);
    expect(late.headers['retry-after']).toBe('5');
    expect(late.headers.connection).toBe('close');
    expect(late.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(late.body).code).toBe('shutting_down');

    // The request in flight finishes, and its answer closes its connection too.
    slowReleased.fire();
    const finished = await slow;
    expect(finished.status).toBe(200);
    expect(finished.headers.connection).toBe('close');
    expect(JSON.parse(finished.body)).toEqual({ finished: true });

    flushed.fire();
    await closing;
    await expect(get(port, '/health/live', open)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    for (const agent of [busy, open, fresh]) agent.destroy();
    await t.close().catch(() => undefined);
  });
});
