/**
 * Uploads at once cost the server's thread little: each body's base64 is checked, hashed and written off it or
 * natively, so no probe waits long behind twenty 3 MB uploads (they held it 1.9 s when the base64 was checked
 * by a regex, the body's depth counted a character at a time, the file hashed and written on the thread, and
 * all twenty bodies read and parsed together: a user's big uploads now take turns, two at a time).
 * The uploads are sent from a thread of their own, as a client on another machine would send them.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';
import { probing, stallAllowanceMs } from '../../support/probe';

const SENDER = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomBytes } = require('node:crypto');
const { url, apiKey, paths, bytes } = workerData;
const bodies = paths.map(() => JSON.stringify({
  contentType: 'application/octet-stream', file: randomBytes(bytes).toString('base64'), filename: 'big.bin',
}));
parentPort.once('message', async () => {
  const statuses = await Promise.all(paths.map(async (path, i) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { authorization: 'Bearer ' + apiKey, 'content-type': 'application/json' },
      body: bodies[i],
    });
    await res.text();
    return res.status;
  }));
  parentPort.postMessage(statuses);
});
parentPort.postMessage('ready');
`;

/** Sends one upload of `bytes` random bytes to each path at once, from a thread of its own; their statuses. */
async function uploadsAtOnce(
  s: LocalServer,
  paths: string[],
  bytes: number,
): Promise<() => Promise<number[]>> {
  const worker = new Worker(SENDER, {
    eval: true,
    workerData: { url: s.url, apiKey: s.apiKey, paths, bytes },
  });
  await new Promise((resolve) => worker.once('message', resolve));
  return async () => {
    const done = new Promise<number[]>((resolve) => worker.once('message', resolve));
    worker.postMessage('go');
    const statuses = await done;
    await worker.terminate();
    return statuses;
  };
}

let s: LocalServer;
let stallMs = 1000;
beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 10 } });
  stallMs = await stallAllowanceMs(s);
});
afterAll(() => s.close());

describe('twenty 3 MB uploads at once', () => {
  it('are stored, with no probe waiting long behind them', { timeout: 60_000 }, async () => {
    const people = (await s.request('GET', `/v0/${s.baseId}/People?pageSize=20`)).body.records as {
      id: string;
    }[];
    const go = await uploadsAtOnce(
      s,
      people.map((p) => `/v0/${s.baseId}/${p.id}/Photo/uploadAttachment`),
      3 * 1024 * 1024,
    );
    const { result, probe } = await probing(s, go);
    expect(result).toEqual(Array(20).fill(200));
    expect(probe.failures).toEqual([]);
    expect(probe.worstMs).toBeLessThan(stallMs);
  });
});
