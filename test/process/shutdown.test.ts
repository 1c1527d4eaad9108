// SPEC §15: on close a node stops accepting connections, lets in-flight requests finish, answers
// requests that still arrive on open connections with 503 + Retry-After, and then closes.
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

describe('graceful shutdown', () => {
  it('finishes in-flight requests, answers late ones with 503 shutting_down, refuses new connections', async () => {
    const t = await buildTestApp('embedded');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
    t.app.get('/test/slow', { config: { access: 'public' } }, async () => {
      arrived();
      await released;
      return { finished: true };
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;

    // Two keep-alive connections: one busy with the slow request, one that stays open.
    const busy = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const open = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const slow = get(port, '/test/slow', busy);
    await slowArrived;

    const closing = t.app.close();
    // A request on the busy connection after close started: it is queued behind the slow one and
    // must be answered 503 rather than served.
    const late = get(port, '/health/live', busy);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();

    const finished = await slow;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body)).toEqual({ finished: true });

    const lateResponse = await late;
    expect(lateResponse.status).toBe(503);
    expect(lateResponse.headers['retry-after']).toBe('5');
    expect(lateResponse.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(lateResponse.body).code).toBe('shutting_down');

    await closing;
    await expect(get(port, '/health/live', open)).rejects.toThrow();
    busy.destroy();
    open.destroy();
    await t.close().catch(() => undefined);
  });
});
