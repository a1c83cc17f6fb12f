/**
 * The mirror downloads attachments only from the service's file hosts: a link the remote names to another host
 * (a link-local metadata address, another name of this machine), to another port of the service's own host (a
 * local daemon, the user's own local server) or a redirect to one is never fetched, and the attachment stays
 * a link; the service's own files still arrive.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordData } from '../../../core/records/types';
import { FileHosts } from '../../../services/mirror/file-hosts';
import { allRecords, png, photoFieldId, putHostedPhoto, startMirrorHarness, uploadPhoto } from './harness';
import type { AttachmentItem, MirrorHarness } from './harness';
import type { MirrorSummary } from '../../../services/mirror/index';

let h: MirrorHarness;
let ids: string[];
let photo: string;
let summary: MirrorSummary;
/** Another program on the service's host (127.0.0.1), at a port of its own. */
let neighbour: Server;
/** Requests the neighbour was sent: none may come from the mirror. */
const asked: string[] = [];

const item = (n: number, url: string) => ({
  id: `attHostile${n}000000`,
  filename: `f${n}.png`,
  type: 'image/png',
  size: 10,
  url,
});

beforeAll(async () => {
  h = await startMirrorHarness({ records: 5 });
  ids = (await allRecords(h.hostedClient, h.baseId, 'People')).map((r) => r.id);
  photo = await photoFieldId(h.hostedClient, h.baseId);
  await uploadPhoto(h, ids[0]!, await png(40), 'own.png');
  await uploadPhoto(h, ids[4]!, await png(41), 'hop.png');
  neighbour = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png' }).end('secret');
  });
  const port = await new Promise<number>((resolve) =>
    neighbour.listen(0, '127.0.0.1', () => resolve((neighbour.address() as AddressInfo).port)),
  );
  await putHostedPhoto(h, ids[1]!, [item(1, 'http://169.254.169.254/latest/meta-data/')]);
  await putHostedPhoto(h, ids[2]!, [item(2, `http://127.0.0.1:${port}/secret`)]);
  await putHostedPhoto(h, ids[3]!, [item(3, `http://localhost:${port}/secret`)]);
  // The service's own file, answered with a redirect to the neighbour.
  h.proxy.inject(
    {
      type: 'rewrite',
      rewrite: (a) => ({
        ...a,
        status: 302,
        headers: { location: `http://127.0.0.1:${port}/hop` },
        body: Buffer.alloc(0),
      }),
    },
    { match: (r) => r.path.startsWith('/files/') && r.path.includes('/hop.png'), times: Infinity },
  );
  summary = await h.mirrors().makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
}, 120_000);

afterAll(async () => {
  neighbour.close();
  await h.close();
});

describe('attachment downloads', () => {
  it('fetch nothing from another host or port, nor through a redirect to one; the service’s own files arrive', async () => {
    expect(summary.state).toBe('ready');
    expect(summary.filesMissing).toBe(4);
    expect(asked).toEqual([]);
    // The redirect was asked for (it is the service's own file); where it pointed never was.
    expect(h.proxy.log.filter((r) => r.path.includes('/hop.png')).length).toBeGreaterThan(0);
    const copy = h.localClient.table(h.baseId, 'People');
    const cell = (r: RecordData) => (r.fields[photo] ?? []) as AttachmentItem[];
    const own = cell(await copy.get(ids[0]!, { returnFieldsByFieldId: true }))[0]!;
    expect(own.url.startsWith(h.local.url)).toBe(true);
    const kept = cell(await copy.get(ids[2]!, { returnFieldsByFieldId: true }))[0]!;
    expect(kept.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/secret$/);
  });
});

describe('file hosts', () => {
  it('of the hosted service are its content hosts over https, never an address of this machine', async () => {
    const hosted = new FileHosts('https://api.airtable.com');
    for (const url of [
      'http://dl.airtable.com/x',
      'https://169.254.169.254/x',
      'https://127.0.0.1/x',
      'https://api.airtable.com.evil.example/x',
      'https://evil.example/x',
      'file:///etc/passwd',
    ])
      expect(await hosted.refusal(new URL(url)), url).toBeDefined();
  });

  it('of any other service are its own origin, at a public address unless the service is local', async () => {
    const service = new FileHosts('https://93.184.216.34');
    expect(await service.refusal(new URL('https://93.184.216.34/files/a.png'))).toBeUndefined();
    expect(await service.refusal(new URL('https://93.184.216.34:443/files/a.png'))).toBeUndefined();
    for (const url of [
      'https://93.184.216.34:8443/files/a.png',
      'http://93.184.216.34/files/a.png',
      'https://user:pw@93.184.216.34/a',
      'https://10.0.0.1/a',
    ])
      expect(await service.refusal(new URL(url)), url).toBeDefined();
    // A service on this machine (the local server) may serve its files from it, at its own origin only.
    const local = new FileHosts('http://localhost:4000');
    expect(await local.refusal(new URL('http://localhost:4000/a'))).toBeUndefined();
    expect(await local.refusal(new URL('http://localhost:4001/a'))).toMatch(
      /http:\/\/localhost:4001 is not the service's own origin \(http:\/\/localhost:4000\)/,
    );
    expect(await local.refusal(new URL('http://127.0.0.1:4000/a'))).toBeDefined();
  });
});
