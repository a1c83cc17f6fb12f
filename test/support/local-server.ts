/**
 * The real local Record Table Service for tests: in this process, on 127.0.0.1 and a free port, in memory,
 * with a small demo base (500 Tasks) and no rate limit unless a test asks for them.
 */
import { startServer } from '../../server/index';
import type { RunningServer, ServerOptions } from '../../server/index';

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  /** The raw text of the body. */
  text: string;
}

/** An answer of arbitrary wire JSON, as `request` gives it by default. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyReply = Reply<any>;

export interface LocalServer extends RunningServer {
  /** The demo base's id (first base), when the demo was seeded. */
  baseId: string;
  /** An HTTP request to the server with its key; a JSON body is sent as JSON, a string as is. */
  // Tests read arbitrary wire JSON; `any` by default keeps them readable, a type can be given instead.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply<T>>;
}

export async function startLocalServer(opts: ServerOptions = {}): Promise<LocalServer> {
  const server = await startServer({
    memory: true,
    demo: { largeTableRecords: 500 },
    rateLimit: 'off',
    ...opts,
  });
  const request = async <T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${server.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Non-JSON bodies are returned as text; tests assert on them.
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
  return Object.assign(server, {
    baseId: server.bases[0]?.id ?? '',
    request,
  }) as LocalServer;
}
