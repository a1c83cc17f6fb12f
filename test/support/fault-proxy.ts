/**
 * A fault-injecting HTTP proxy for tests: it sits in front of the real local server and, per request,
 * answers with an error of its own (or the test's own handler), drops the connection before or after
 * forwarding, replaces or rewrites the server's answer, sends it in slow drips (or cut short), or adds
 * latency. Rules are matched in the order they were added.
 */
import { createServer, request as httpRequest, Agent } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  /** Answered by the proxy; the server never sees the request. */
  | { type: 'status'; status: number; retryAfter?: string | number; body?: string }
  /** The connection is destroyed after the request was read; the server never sees it. */
  | { type: 'drop-before' }
  /** The request reaches the server and is processed; its answer is thrown away and the connection destroyed. */
  | { type: 'drop-after' }
  /** The request reaches the server and is processed; the client gets this non-JSON body instead of its answer. */
  | { type: 'replace-body'; status?: number; body: string }
  /** Forwarded after `ms`, or answered after `ms` with `after: 'response'`. */
  | { type: 'delay'; ms: number; after?: 'request' | 'response' }
  /** The request reaches the server; the client gets what `rewrite` makes of its answer. */
  | { type: 'rewrite'; rewrite: (answer: ProxiedAnswer, req: ProxiedRequest) => ProxiedAnswer }
  /**
   * The request reaches the server; its answer goes back in `chunks` pieces `everyMs` apart; with `cut`, the
   * last piece never goes and the connection is destroyed (a body cut short of its Content-Length).
   */
  | { type: 'drip'; chunks: number; everyMs: number; cut?: boolean }
  /**
   * Answered by the test's own handler at the proxy's origin (a body without end, one in drips, a stream of
   * its own making); the server never sees the request.
   */
  | { type: 'answer'; answer: (res: ServerResponse) => void };

/** An answer as the proxy passes it on. */
export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxiedRequest {
  method: string;
  /** Path with the query string, as the client sent it. */
  path: string;
  body: string;
}

export interface FaultRule {
  fault: Fault;
  /** Which requests the rule applies to; every request when absent. */
  match?: (req: ProxiedRequest) => boolean;
  /** How many matching requests it applies to (default 1; Infinity for all). */
  times?: number;
}

export interface ProxyLogEntry extends ProxiedRequest {
  at: number;
  /** The fault applied, if any. */
  fault?: Fault['type'];
  /** Whether the request reached the server. */
  forwarded: boolean;
  /** Status sent to the client; undefined when the connection was dropped. */
  status?: number;
}

export interface FaultProxy {
  url: string;
  /**
   * Latency added to every answer (settable). It is added on the way back so that the proxy's own timers,
   * late under load, cannot bunch requests together on their way to the server.
   */
  latencyMs: number;
  /**
   * When set, each answer's added latency is drawn from it instead of `latencyMs` (a jittered profile such as
   * the hosted service's, bench/hosted-latency.ts); undefined again goes back to `latencyMs`.
   */
  drawLatency?: () => number;
  /**
   * When set, request bodies are read at `bytesPerSecond` (a slow uplink), and with `stallAfter` no more is
   * read once that many bytes came (a line that stops): the client's own connection holds the rest.
   */
  requestPace?: { bytesPerSecond: number; stallAfter?: number };
  /** Requests whose headers arrived, counted before their bodies are read (a stalled one never is logged). */
  arrived: number;
  inject(fault: Fault, opts?: Omit<FaultRule, 'fault'>): void;
  log: ProxyLogEntry[];
  /** Forgets the rules and the log. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * The proxy answers every TableDesk extension path (count, seek, aggregate and their discovery) 404 from now
 * on, as the hosted service (Airtable) has none: the app counts, reads far rows and groups by walks.
 */
export function asHostedService(proxy: FaultProxy): void {
  proxy.inject(
    { type: 'status', status: 404, body: '{"error":"NOT_FOUND"}' },
    { match: (r) => r.path.startsWith('/_tabledesk/'), times: Infinity },
  );
}

const DEFAULT_BODIES: Record<number, string> = {
  // Airtable's answer to a token without the scope or access a route needs (e.g. the metadata API).
  403: JSON.stringify({
    error: {
      type: 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND',
      message:
        'Invalid permissions, or the requested model was not found. Check that both your user and your token have the required permissions, and that the model names and/or ids are correct.',
    },
  }),
  429: JSON.stringify({
    error: { type: 'RATE_LIMIT_REACHED', message: 'Rate limit exceeded. Please try again later' },
  }),
  503: JSON.stringify({
    error: {
      type: 'RETRIABLE_ERROR',
      message:
        'Server encountered an error while processing your request, and it is safe to retry the request',
    },
  }),
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A request's body read at a pace (see FaultProxy.requestPace); a stalled one ends only with its connection. */
function readPaced(
  req: IncomingMessage,
  pace: { bytesPerSecond: number; stallAfter?: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let got = 0;
    let ended = false;
    req.on('data', (c: Buffer) => {
      chunks.push(c);
      got += c.length;
      req.pause();
      if (pace.stallAfter !== undefined && got >= pace.stallAfter) return;
      setTimeout(() => req.resume(), (1000 * c.length) / pace.bytesPerSecond);
    });
    req.on('end', () => {
      ended = true;
      resolve(Buffer.concat(chunks));
    });
    req.on('close', () => {
      if (!ended) reject(new Error('the client closed the request'));
    });
    req.on('error', reject);
  });
}

/** Writes `body` in drips; a cut leaves the client with fewer bytes than the Content-Length it was told. */
async function drip(
  res: ServerResponse,
  body: Buffer,
  { chunks, everyMs, cut }: { chunks: number; everyMs: number; cut?: boolean },
): Promise<void> {
  const size = Math.max(1, Math.ceil(body.length / chunks));
  const sent = cut ? Math.min(body.length - 1, size * (chunks - 1)) : body.length;
  for (let at = 0; at < sent && !res.destroyed; at += size) {
    res.write(body.subarray(at, Math.min(sent, at + size)));
    await sleep(everyMs);
  }
  if (cut) res.socket?.destroy();
  else res.end();
}

interface Upstream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** `target` may come later than the proxy (see `behindProxy`): requests wait for it. */
export async function startFaultProxy(
  target: string | Promise<string>,
  opts: { port?: number } = {},
): Promise<FaultProxy> {
  const targetUrl = Promise.resolve(target).then((t) => new URL(t));
  const agent = new Agent({ keepAlive: true });
  const ruleList: (FaultRule & { left: number })[] = [];
  const log: ProxyLogEntry[] = [];

  const forward = async (req: IncomingMessage, body: Buffer): Promise<Upstream> => {
    const to = await targetUrl;
    return new Promise((resolve, reject) => {
      const upstream = httpRequest(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: to.host },
          agent,
        },
        (res) => {
          readBody(res).then(
            (b) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: b }),
            reject,
          );
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });
  };

  const takeFault = (r: ProxiedRequest): Fault | undefined => {
    const rule = ruleList.find((x) => x.left > 0 && (x.match?.(r) ?? true));
    if (!rule) return undefined;
    rule.left--;
    return rule.fault;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    proxy.arrived++;
    const body = proxy.requestPace ? await readPaced(req, proxy.requestPace) : await readBody(req);
    const r: ProxiedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      body: body.toString('utf8'),
    };
    const entry: ProxyLogEntry = { ...r, at: Date.now(), forwarded: false };
    log.push(entry);
    const fault = takeFault(r);
    entry.fault = fault?.type;

    if (fault?.type === 'status') {
      const text =
        fault.body ?? DEFAULT_BODIES[fault.status] ?? `<html><body>${fault.status} Bad Gateway</body></html>`;
      const json = text.startsWith('{');
      res.writeHead(fault.status, {
        'content-type': json ? 'application/json; charset=utf-8' : 'text/html',
        ...(fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) }),
      });
      entry.status = fault.status;
      res.end(text);
      return;
    }
    if (fault?.type === 'answer') {
      fault.answer(res);
      return;
    }
    if (fault?.type === 'drop-before') {
      req.socket.destroy();
      return;
    }
    if (fault?.type === 'delay' && fault.after !== 'response') await sleep(fault.ms);
    entry.forwarded = true;
    let upstream: Upstream;
    try {
      upstream = await forward(req, body);
    } catch (e) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      entry.status = 502;
      res.end(`fault proxy: upstream failed: ${(e as Error).message}`);
      return;
    }
    if (fault?.type === 'drop-after') {
      req.socket.destroy();
      return;
    }
    const latency =
      (proxy.drawLatency?.() ?? proxy.latencyMs) +
      (fault?.type === 'delay' && fault.after === 'response' ? fault.ms : 0);
    if (latency > 0) await sleep(latency);
    if (fault?.type === 'replace-body') {
      const status = fault.status ?? upstream.status;
      res.writeHead(status, { 'content-type': 'text/html' });
      entry.status = status;
      res.end(fault.body);
      return;
    }
    if (fault?.type === 'rewrite' || fault?.type === 'drip') {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(upstream.headers))
        if (v !== undefined && !['transfer-encoding', 'connection', 'keep-alive'].includes(k))
          headers[k] = Array.isArray(v) ? v.join(', ') : v;
      let answer: ProxiedAnswer = { status: upstream.status, headers, body: upstream.body };
      if (fault.type === 'rewrite') answer = fault.rewrite(answer, r);
      answer.headers['content-length'] = String(answer.body.length);
      res.writeHead(answer.status, answer.headers);
      entry.status = answer.status;
      if (fault.type === 'drip') await drip(res, answer.body, fault);
      else res.end(answer.body);
      return;
    }
    const headers = { ...upstream.headers };
    delete headers['transfer-encoding'];
    delete headers.connection;
    delete headers['keep-alive'];
    headers['content-length'] = String(upstream.body.length);
    res.writeHead(upstream.status, headers);
    entry.status = upstream.status;
    res.end(upstream.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fault proxy failed: ${String(e)}`);
    });
  });
  // Idle connections are kept as long as the server behind keeps them (Fastify's 72 s), not Node's 5 s: with
  // 5 s, a loaded machine's late timers let fetch reuse a socket the proxy was closing, and a create sent on
  // it never arrived, yet could only be reported as "may or may not" (seen in CI at load 25).
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const proxy: FaultProxy = {
    url: `http://127.0.0.1:${port}`,
    latencyMs: 0,
    arrived: 0,
    log,
    inject(fault, ruleOpts = {}) {
      ruleList.push({ fault, match: ruleOpts.match, left: ruleOpts.times ?? 1 });
    },
    reset() {
      ruleList.length = 0;
      log.length = 0;
      proxy.requestPace = undefined;
    },
    close() {
      agent.destroy();
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
  return proxy;
}

/**
 * A server started behind a fault proxy that names the proxy's origin in its file URLs (`publicOrigin`), as
 * a service names the origin its clients reach: a mirror downloads files only from the service's origin.
 */
export async function behindProxy<S extends { url: string }>(
  start: (publicOrigin: string) => Promise<S>,
): Promise<{ server: S; proxy: FaultProxy }> {
  let started: (url: string) => void = () => undefined;
  const proxy = await startFaultProxy(new Promise<string>((resolve) => (started = resolve)));
  try {
    const server = await start(proxy.url);
    started(server.url);
    return { server, proxy };
  } catch (e) {
    await proxy.close();
    throw e;
  }
}
