/**
 * A hostile "service" for tests: it answers every request with the API key it was sent (from the
 * Authorization header) in every place a service can put text: a whoami id, an error message, a non-JSON
 * body, record values, field names, nested values. It records every key it received.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EchoKeyServer {
  url: string;
  /** Every key the server was sent, in order. */
  received: string[];
  close(): Promise<void>;
}

export async function startEchoKeyServer(): Promise<EchoKeyServer> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    received.push(key);
    req.resume();
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const error = { error: { type: `TYPE_${key}`, message: `You sent ${key}` } };
    if (url.pathname.startsWith('/raw')) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`crash while handling ${key}`);
    } else if (url.pathname === '/v0/meta/whoami' || url.pathname === '/refuse/v0/meta/whoami') {
      if (url.pathname.startsWith('/refuse')) json(401, error);
      else json(200, { id: key, scopes: [key] });
    } else if (url.pathname.startsWith('/v0/meta/')) {
      json(422, error);
    } else if (req.method === 'GET') {
      json(200, {
        records: [
          {
            id: 'rec00000000000001',
            createdTime: '2026-01-01T00:00:00.000Z',
            fields: { Name: key, [key]: 1, Nested: { deep: [`x${key}x`] } },
          },
        ],
      });
    } else {
      json(422, error);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
