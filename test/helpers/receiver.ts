// A webhook receiver on 127.0.0.1 for tests: records every request and answers with the statuses
// it is told (one per request in turn, then the last one again), like a consumer's endpoint would.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** Statuses to answer with, in turn; the last one repeats. */
  answer(...statuses: number[]): void;
  /** Stops listening (the port then refuses connections, as a receiver that is down). */
  close(): Promise<void>;
}

export async function startReceiver(
  port = 0,
  options: { reply?: (request: ReceivedRequest, res: import('node:http').ServerResponse) => boolean } = {},
): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  let statuses = [200];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      if (options.reply?.(request, res)) return;
      const status = statuses.length > 1 ? (statuses.shift() as number) : (statuses[0] as number);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? `failure ${status}` : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    port: bound,
    received,
    answer(...next) {
      statuses = next.length > 0 ? next : [200];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
