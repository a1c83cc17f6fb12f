/**
 * Downloads of attachment files against a hostile file host (a small HTTP server of the test's own): every
 * spelling of an address of this machine or its network is refused, also when a name resolves to one only
 * at the moment of connecting (DNS rebinding: the address connected to is the one checked); redirects of
 * every kind are followed only within the service and never without end; a compressed body is cut at the
 * size limit as it is decoded.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedBody } from '../../../core/api/bounded-body';
import { FileHosts } from '../../../services/mirror/file-hosts';
import type { Resolve } from '../../../services/mirror/file-hosts';
import { fetchFile } from '../../../services/mirror/file-fetch';

let host: Server;
let port: number;
/** Paths the file host was asked for. */
const asked: string[] = [];
/** Whether the compression bomb's connection was closed. */
let bombClosed = false;

beforeAll(async () => {
  host = createServer((req, res) => {
    const path = req.url ?? '/';
    asked.push(path);
    const hop = /^\/hop\/(\d+)\/(\d+)$/.exec(path);
    if (hop) {
      // /hop/STATUS/N: N more hops of this status within the host, then the file.
      const [, status, left] = hop;
      const next = Number(left) === 0 ? '/file' : `/hop/${status}/${Number(left) - 1}`;
      return void res.writeHead(Number(status), { location: next }).end();
    }
    if (path === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (path === '/away') return void res.writeHead(307, { location: `http://localhost:${port}/file` }).end();
    if (path === '/metadata')
      return void res.writeHead(308, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (path === '/bomb') {
      // Zeros without end, gzipped (about a thousandth of their size), in a chunked body that never ends.
      const zeros = new Readable({ read: () => void zeros.push(Buffer.alloc(64 * 1024)) });
      res.on('close', () => (bombClosed = true));
      res.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'gzip' });
      return void pipeline(zeros, createGzip(), res, () => undefined);
    }
    res.writeHead(200, { 'content-type': 'image/png' }).end('file');
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  port = (host.address() as AddressInfo).port;
});
afterAll(() => {
  host.closeAllConnections();
  host.close();
});

const signal = () => AbortSignal.timeout(5_000);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'downloaded',
    (e: unknown) => String(e),
  );

/** A resolver that gives a public address `honest` times and `then` ever after (the rebinding attack). */
function rebinding(then: string, honest: number): Resolve {
  let calls = 0;
  return async () => [
    calls++ < honest
      ? { address: '93.184.216.34', family: 4 }
      : { address: then, family: then.includes(':') ? 6 : 4 },
  ];
}

describe('addresses of this machine or its network', () => {
  it('are refused in every spelling a public service could name', async () => {
    const service = new FileHosts('https://93.184.216.34');
    for (const url of [
      'http://127.1/',
      'http://0x7f000001/',
      'http://2130706433/',
      'http://0.0.0.0/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://169.254.169.254/',
      'http://[fe80::1]/',
      'http://[fc00::1]/',
      'http://100.64.0.1/',
      'http://localhost./',
      'http://good@93.184.216.34/',
      'file:///etc/passwd',
      'data:image/png;base64,AAAA',
      'ftp://93.184.216.34/f.png',
    ])
      expect(await service.refusal(new URL(url)), url).toBeDefined();
  });

  it('are refused when the service’s own name resolves to one', async () => {
    for (const address of [
      '127.0.0.1',
      '0.0.0.0',
      '10.1.2.3',
      '100.64.0.1',
      '169.254.169.254',
      '::1',
      '::ffff:7f00:1',
      '::7f00:1',
      'fe80::1',
      'fc00::1',
    ]) {
      const service = new FileHosts('https://files.example', rebinding(address, 1));
      expect(await service.refusal(new URL('https://files.example/f.png')), address).toMatch(
        /address of this machine or its network/,
      );
    }
  });

  it('are refused at the moment of connecting: the address connected to is the one checked', async () => {
    // The name is public when the service and the URL are checked, and this machine (the file host above)
    // when connecting.
    const hosts = new FileHosts(`http://files.example:${port}`, rebinding('127.0.0.1', 2));
    const before = asked.length;
    expect(await failure(fetchFile(hosts, `http://files.example:${port}/file`, signal()))).toMatch(
      /files\.example is an address of this machine or its network/,
    );
    expect(asked.length).toBe(before);
  });
});

describe('redirects', () => {
  const local = () => new FileHosts(`http://127.0.0.1:${port}`);

  it('of every kind are followed within the service', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const res = await fetchFile(local(), `http://127.0.0.1:${port}/hop/${status}/2`, signal());
      expect(await res.text(), String(status)).toBe('file');
    }
  });

  it('never to another host, nor without end', async () => {
    const before = asked.length;
    expect(await failure(fetchFile(local(), `http://127.0.0.1:${port}/away`, signal()))).toMatch(
      /http:\/\/localhost:\d+ is not the service's own origin/,
    );
    expect(await failure(fetchFile(local(), `http://127.0.0.1:${port}/metadata`, signal()))).toMatch(
      /http:\/\/169\.254\.169\.254 is not the service's own origin/,
    );
    expect(await failure(fetchFile(local(), `http://127.0.0.1:${port}/loop`, signal()))).toMatch(
      /redirects too many times/,
    );
    expect(await failure(fetchFile(local(), `http://127.0.0.1:${port}/hop/302/9`, signal()))).toMatch(
      /redirects too many times/,
    );
    expect(asked.slice(before).filter((p) => p === '/file')).toEqual([]);
  });
});

describe('another port of the service’s host', () => {
  it('is another program: neither named nor redirected to, it is sent no request', async () => {
    // The service at one port of 127.0.0.1; the file host above (the neighbour) at another.
    const service = createServer((req, res) => {
      if (req.url === '/away') res.writeHead(302, { location: `http://127.0.0.1:${port}/file` }).end();
      else res.writeHead(200, { 'content-type': 'image/png' }).end('own');
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const own = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    try {
      const hosts = new FileHosts(own);
      const before = asked.length;
      expect(await (await fetchFile(hosts, `${own}/file`, signal())).text()).toBe('own');
      const otherPort = new RegExp(`http://127\\.0\\.0\\.1:${port} is not the service's own origin`);
      expect(await failure(fetchFile(hosts, `http://127.0.0.1:${port}/file`, signal()))).toMatch(otherPort);
      expect(await failure(fetchFile(hosts, `${own}/away`, signal()))).toMatch(otherPort);
      expect(asked.length - before).toBe(0);
    } finally {
      service.close();
    }
  });
});

describe('a compressed body without end', () => {
  it('is cut at the size limit as it is decoded, its connection closed', async () => {
    const limit = 1024 * 1024;
    const res = await fetchFile(
      new FileHosts(`http://127.0.0.1:${port}`),
      `http://127.0.0.1:${port}/bomb`,
      signal(),
    );
    const e = await boundedBody(res, limit, () => new Error('too large')).catch((x: unknown) => x);
    expect(String(e)).toMatch(/too large/);
    await expect.poll(() => bombClosed).toBe(true);
  });
});
