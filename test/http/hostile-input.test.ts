// Requests an attacker or a careless client sends (issue 23, items 3, 4, 5 and 9), through the real
// HTTP stack and, where the request is not valid HTTP, a real socket: every answer is problem+json
// with a stable code and a request id, no 5xx, nothing stored, and every request logged with its id.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../../src/app.js';
import { MAX_JSON_DEPTH } from '../../src/http/json.js';
import { buildTestApp, configurations, type TestApp, type TestSite } from '../helpers/app.js';
import { exampleProgram } from '../helpers/fixtures.js';

interface Problem {
  status: number;
  code: string;
  detail: string;
  requestId: string;
  errors?: Array<{ path: string; message: string }>;
}

const expectProblem = (response: LightMyRequestResponse, status: number, code: string): Problem => {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = response.json<Problem>();
  expect(problem).toMatchObject({ status, code, requestId: response.headers['x-request-id'] });
  return problem;
};

/** Sends raw bytes on a new connection and reads the whole answer until the server closes it. */
async function rawRequest(port: number, bytes: string): Promise<{ status: number; headers: string; body: string }> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(bytes);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await Promise.race([once(socket, 'close'), new Promise((resolve) => setTimeout(resolve, 5000))]);
  socket.destroy();
  const text = Buffer.concat(chunks).toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body };
}

describe.each(configurations)('hostile and careless requests (%s)', (configuration) => {
  let t: TestApp;
  let site: TestSite;
  let admin: string;
  let client: string;
  let port: number;
  const lines: string[] = [];
  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(
          ...chunk
            .toString()
            .split('\n')
            .filter((line) => line !== ''),
        );
        callback();
      },
    });
    t = await buildTestApp(configuration, { logStream, config: { logLevel: 'info' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    site = await t.createSite();
    admin = await t.token(site.admin);
    client = await t.token(site.app);
    const put = await t.app.inject({ method: 'PUT', url: '/admin/program', headers: { authorization: `Bearer ${admin}` }, payload: exampleProgram() });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => t.close());

  describe('paths over the router limit (item 3)', () => {
    it.each([
      ['without a token', {}],
      ['with a token', { authorization: 'Bearer x' }],
    ])('answers a path id of over 1,024 characters with 414 uri_too_long, %s, and logs the request with its id', async (_name, headers) => {
      lines.length = 0;
      const response = await t.app.inject({ method: 'GET', url: `/users/${'a'.repeat(1100)}/actions`, headers });
      const problem = expectProblem(response, 414, 'uri_too_long');
      expect(problem.detail).toMatch(/1,024/);
      expect(logged()).toContainEqual(expect.objectContaining({ requestId: problem.requestId, status: 414 }));
    });

    it.each([
      ['a Range past the end of a file', { range: 'bytes=999999999-' }, 416, 'range_not_satisfiable'],
      ['an If-Match that does not match', { 'if-match': '"nope"' }, 412, 'precondition_failed'],
      ['an If-Unmodified-Since long past', { 'if-unmodified-since': 'Mon, 01 Jan 1990 00:00:00 GMT' }, 412, 'precondition_failed'],
    ])('answers %s on a file of the API reference with its status as problem+json, never a 500', async (_name, headers, status, code) => {
      expectProblem(await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css', headers }), status, code);
    });

    it('answers a path that is not valid percent-encoding with 400 validation_failed', async () => {
      expectProblem(await t.app.inject({ method: 'GET', url: '/users/%E0%A4%A/actions' }), 400, 'validation_failed');
    });
  });

  describe('deeply nested JSON (item 4)', () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

    it.each([
      ['a program of 2,000 nested objects', '/admin/program', 'PUT', () => `{"site":${nested(2000)}}`],
      ['a program of 100,000 nested arrays', '/admin/program', 'PUT', () => `{"missions":${arrays(100_000)}}`],
      ['one entity of 5,000 nested objects', '/admin/challenges', 'POST', () => `{"id":"m","rules":[${nested(5000)}]}`],
      ['an action whose metadata nests', '/users/ann/actions', 'POST', () => `{"action":"read_article","metadata":${nested(MAX_JSON_DEPTH + 1)}}`],
    ] as const)('refuses %s with 400 malformed_body and changes nothing', async (_name, url, method, body) => {
      const before = await t.app.inject({ method: 'GET', url: '/admin/program', headers: { authorization: `Bearer ${admin}` } });
      const response = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${url.startsWith('/users') ? client : admin}`, 'content-type': 'application/json' },
        payload: body(),
      });
      expect(expectProblem(response, 400, 'malformed_body').detail).toMatch(/more than 64 levels/);
      const after = await t.app.inject({ method: 'GET', url: '/admin/program', headers: { authorization: `Bearer ${admin}` } });
      expect(after.body).toBe(before.body);
    });

    it('takes nesting up to the bound, and braces inside strings do not count', async () => {
      const metadataInString = { action: 'read_article', metadata: { note: '{'.repeat(500) } };
      const response = await t.app.inject({
        method: 'POST',
        url: '/users/deep-ok/actions',
        headers: { authorization: `Bearer ${client}` },
        payload: metadataInString,
      });
      expect(response.statusCode, response.body).toBe(201);
      const atBound = `{"action":"read_article","x":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`;
      const bounded = await t.app.inject({
        method: 'POST',
        url: '/users/deep-ok/actions',
        headers: { authorization: `Bearer ${client}`, 'content-type': 'application/json' },
        payload: atBound,
      });
      // Past the parser: the action's own validation speaks (an unknown field is ignored, as before).
      expect(bounded.statusCode, bounded.body).not.toBe(500);
      expect(bounded.json<Problem>().code).not.toBe('malformed_body');
    });

    it('refuses an import line that nests too deeply, and imports the others', async () => {
      const body = [`{"userId":"imp","action":"read_article","metadata":${nested(200)}}`, '{"userId":"imp","action":"read_article","eventId":"deep-ok"}'].join(
        '\n',
      );
      const response = await t.app.inject({
        method: 'POST',
        url: '/admin/import',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/x-ndjson' },
        payload: body,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ response: { recorded: 1, rejected: 1, rejections: [{ line: 1, code: 'malformed_body' }] } });
    });
  });

  describe('lone surrogates (item 5)', () => {
    const preferences = (user: string, token: string, payload: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/users/${user}/preferences`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload,
      });

    it.each([
      ['a name', 'PUT', '/users/sur/preferences', '{"firstName":"\\ud800Alice"}', 'body.firstName'],
      ['a low surrogate alone', 'PUT', '/users/sur/preferences', '{"lastName":"B\\udc00"}', 'body.lastName'],
      ['action metadata', 'POST', '/users/sur/actions', '{"action":"read_article","metadata":{"topic":"\\udbff"}}', 'body.metadata.topic'],
      ['an action name', 'POST', '/users/sur/actions', '{"action":"read\\ud800"}', 'body.action'],
      ['a key', 'POST', '/users/sur/actions', '{"action":"read_article","metadata":{"\\ud800":"x"}}', 'body.metadata'],
    ] as const)('refuses %s with 400 validation_failed naming the field, and stores nothing', async (_name, method, url, payload, path) => {
      const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${client}`, 'content-type': 'application/json' }, payload });
      expect(expectProblem(response, 400, 'validation_failed').errors).toEqual([{ path, message: expect.stringMatching(/well-formed Unicode/) }]);
      const history = await t.app.inject({ method: 'GET', url: '/users/sur/actions', headers: { authorization: `Bearer ${client}` } });
      expect(history.json()).toEqual({ response: [] });
      const stored = await t.app.inject({ method: 'GET', url: '/users/sur/preferences', headers: { authorization: `Bearer ${client}` } });
      expect(stored.body).not.toMatch(/Alice|"B/);
    });

    it('takes well-formed escapes, a surrogate pair included, and echoes them as sent', async () => {
      const response = await preferences('pair', client, '{"firstName":"\\ud83d\\ude00 \\u00e9"}');
      expect(response.statusCode, response.body).toBeLessThan(300);
      const read = await t.app.inject({ method: 'GET', url: '/users/pair/preferences', headers: { authorization: `Bearer ${client}` } });
      expect(read.body).toContain('😀 é');
    });

    it('refuses a surrogate written as an XML character reference in a restore', async () => {
      const backup = (await t.app.inject({ method: 'POST', url: '/backup', headers: { authorization: `Bearer ${admin}` }, payload: { name: 'now' } })).json<{
        response: { id: string };
      }>().response;
      const xml = (await t.app.inject({ method: 'GET', url: `/backup/${backup.id}`, headers: { authorization: `Bearer ${admin}` } })).body;
      for (const reference of ['&#xD800;', '&#55296;', '&#xDFFF;']) {
        const hostile = xml.replace(/(<SiteConfiguration [^>]*?name=")/, `$1${reference}`);
        expect(hostile).not.toBe(xml);
        const response = await t.app.inject({
          method: 'POST',
          url: '/restore',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ type: '1', data: hostile }).toString(),
        });
        expect(expectProblem(response, 400, 'malformed_xml').detail).toContain(reference);
      }
    });

    it('refuses a lone surrogate in an import line', async () => {
      const body = '{"userId":"imp-s","action":"read_article","metadata":{"topic":"\\ud800"}}';
      const response = await t.app.inject({
        method: 'POST',
        url: '/admin/import',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/x-ndjson' },
        payload: body,
      });
      expect(response.json()).toMatchObject({
        response: { recorded: 0, rejected: 1, rejections: [{ line: 1, code: 'validation_failed', errors: [{ path: 'metadata.topic' }] }] },
      });
    });

    it('leaves undecodable percent-encoding in forms and query strings as replacement characters or as sent, never a lone surrogate', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/users/sur-form/actions',
        headers: { authorization: `Bearer ${client}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'action=read_article&metadata=topic:%ED%A0%80x',
      });
      expect(response.statusCode).toBeLessThan(500);
      const history = await t.app.inject({ method: 'GET', url: '/users/sur-form/actions', headers: { authorization: `Bearer ${client}` } });
      expect(history.body.isWellFormed()).toBe(true);
      expect(() => JSON.parse(history.body) as unknown).not.toThrow();
    });
  });

  describe('requests that are not valid HTTP, and bodies over the limit (item 9)', () => {
    it.each([
      ['a Content-Length that is not a number', 'POST /oauth/token/ HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400, 'malformed_request'],
      ['a header block over 16 KB', `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
    ])('answers %s with problem+json and a request id', async (_name, bytes, status, code) => {
      const answer = await rawRequest(port, bytes);
      expect(answer.status, answer.headers).toBe(status);
      expect(answer.headers).toMatch(/content-type: application\/problem\+json/i);
      const problem = JSON.parse(answer.body) as Problem;
      expect(problem).toMatchObject({ status, code });
      expect(answer.headers).toContain(`X-Request-Id: ${problem.requestId}`);
    });

    it('answers a request whose body runs past its Content-Length with its own answer, records it once, and closes the connection', async () => {
      const body = JSON.stringify({ action: 'read_article', eventId: 'lying-length' });
      const answer = await rawRequest(
        port,
        `POST /users/liar/actions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${client}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}junk that is not HTTP\r\n\r\n`,
      );
      expect(answer.status, answer.headers).toBe(201);
      expect(answer.headers).toMatch(/connection: close/i);
      expect(JSON.parse(answer.body)).toMatchObject({ response: { eventId: 'lying-length', recorded: true } });
      const history = await t.app.inject({ method: 'GET', url: '/users/liar/actions', headers: { authorization: `Bearer ${client}` } });
      expect(history.json<{ response: unknown[] }>().response).toHaveLength(1);
    });

    it.each([
      ['PUT', '/admin/program', 'application/json', `${BODY_LIMIT / 1024 / 1024} MB`],
      ['POST', '/admin/import', 'application/x-ndjson', '10 MB'],
    ])(
      'reads and drops the rest of a body over the limit of %s %s, answers 413 naming it, and keeps the connection for the next request',
      async (method, url, contentType, limit) => {
        const total = 11 * 1024 * 1024;
        const socket = net.connect(port, '127.0.0.1');
        await once(socket, 'connect');
        let received = '';
        socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
        socket.write(
          `${method} ${url} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\nContent-Type: ${contentType}\r\nContent-Length: ${total}\r\n\r\n`,
        );
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        for (let sent = 0; sent < total; sent += chunk.length) if (!socket.write(chunk)) await once(socket, 'drain');
        socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
        for (let i = 0; i < 100 && !received.includes('{"status":"ok"}'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
        socket.destroy();
        expect(received.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 413', 'HTTP/1.1 200']);
        expect(received).toContain(limit);
      },
    );

    it('answers a body over the limit with a 413 that names the limit and that a client still sending can read', async () => {
      // Node's client writes the whole body before it reads: an answer sent on a connection closed at
      // once reaches it as EPIPE or ECONNRESET instead.
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(
          { host: '127.0.0.1', port, method: 'PUT', path: '/admin/program', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' } },
          (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        request.on('error', reject);
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const write = () => {
          while (sent < 8 * 1024 * 1024) {
            sent += chunk.length;
            if (!request.write(chunk)) return void request.once('drain', write);
          }
          request.end();
        };
        write();
      });
      expect(answer.status).toBe(413);
      const problem = JSON.parse(answer.body) as Problem;
      expect(problem.code).toBe('payload_too_large');
      expect(problem.detail).toContain(`${BODY_LIMIT / 1024 / 1024} MB`);
    });
  });
});
