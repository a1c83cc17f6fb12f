/**
 * The GET of an attachment file: each URL, the first and every one redirected to, must be a file host of the
 * service (see file-hosts.ts), or nothing is fetched from it. Over node:http(s) rather than fetch, so that the
 * address connected to is the address checked: the host name is resolved in the connection's own lookup
 * (`FileHosts.lookup`), which refuses an address of this machine or its network there. A name that resolved
 * to a public address when the URL was checked and to loopback a moment later (DNS rebinding) so reaches
 * nothing. A body is decoded as fetch decodes it (gzip, deflate, br) and handed on as a stream, so the
 * caller's size limit counts decoded bytes as they arrive and a compression bomb is cut at the limit.
 */
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { pipeline, Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Transform } from 'node:stream';
import { Refused } from './file-hosts';
import type { FileHosts } from './file-hosts';
import { ServiceError } from '../errors';

/** Redirects followed by one download, each to a URL that passes the same checks. */
const MAX_REDIRECTS = 5;

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** Statuses whose answer has no body (a Response refuses one). */
const BODILESS = new Set([204, 205, 304]);

/** The body as sent, or decoded; a decoded stream ended or cancelled early tears down the connection too. */
function decoded(res: IncomingMessage): Readable {
  const decoder = DECODERS[(res.headers['content-encoding'] ?? '').trim().toLowerCase()];
  return decoder ? pipeline(res, decoder(), () => undefined) : res;
}

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers))
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      try {
        headers.append(name, v);
      } catch {
        // A value fetch's Headers refuses is one no caller reads.
      }
    }
  return headers;
}

function getOnce(url: URL, opts: { signal: AbortSignal; lookup: LookupFunction }): Promise<Response> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'GET', signal: opts.signal, lookup: opts.lookup }, (res) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status > 599) {
        res.destroy();
        return reject(new ServiceError('network', `The file host answered status ${status}`));
      }
      const headers = headersOf(res);
      if (BODILESS.has(status)) {
        res.resume();
        return resolve(new Response(null, { status, headers }));
      }
      const body = decoded(res);
      // A decoded body is longer than the length announced for the encoded one.
      if (body !== res) headers.delete('content-length');
      resolve(new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status, headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The answer at `url`, following redirects by hand within the service's file hosts; `Refused` outside them. */
export async function fetchFile(hosts: FileHosts, url: string, signal: AbortSignal): Promise<Response> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new Refused('The attachment URL is not a URL');
  }
  for (let hop = 0; ; hop++) {
    const why = await hosts.refusal(target);
    const refused = (reason: string) =>
      new Refused(`The attachment was not downloaded from ${target.origin}: ${reason}`);
    if (why) throw refused(why);
    const res = await getOnce(target, { signal, lookup: hosts.lookup }).catch((e: unknown) => {
      throw e instanceof Refused ? refused(e.message) : e;
    });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || location === null) return res;
    await res.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new Refused('The attachment URL redirects too many times');
    try {
      target = new URL(location, target);
    } catch {
      throw new Refused('The attachment URL redirects to no URL');
    }
  }
}
