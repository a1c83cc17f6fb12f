/**
 * What every run of the remote-service fuzzer shares: the real local server playing the remote service (each
 * run makes a base of its own there: two linked tables, enough records for two pages, attachments on a few,
 * so a run's damage never reaches the next and a failure replays alone), the fault proxy in
 * front of it (the mirror's only way there), and a sentinel server that no download may ever reach (the
 * attachment URLs the proxy forges point at it through a host name that is not the service's).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { RecordTableClient, SchedulerRegistry } from '../../../core/api';
import { behindProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

export interface RemoteWorld {
  hosted: LocalServer;
  proxy: FaultProxy;
  /** The other user, straight to the service (never through the proxy). */
  service: RecordTableClient;
  schedulers: SchedulerRegistry;
  /** A new base on the service, as described above; its id. */
  makeBase(): Promise<string>;
  /** Requests that reached the sentinel (each one is a download from a host the mirror must refuse). */
  sentinel: { url: string; hits: string[] };
  close(): Promise<void>;
}

/** Records of the first table: over a page of 100 when walked as one chain. */
const THINGS = 130;

export async function startRemoteWorld(): Promise<RemoteWorld> {
  const { server: hosted, proxy } = await behindProxy((publicOrigin) =>
    startLocalServer({ demo: false, publicOrigin }),
  );
  const hits: string[] = [];
  const sentinelServer = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('sentinel');
  });
  await new Promise<void>((r) => sentinelServer.listen(0, '127.0.0.1', r));
  const schedulers = new SchedulerRegistry();
  const service = new RecordTableClient({
    baseUrl: hosted.url,
    apiKey: hosted.apiKey,
    schedulers,
    requestsPerSecond: 1000,
    minSpacingMs: 1,
  });
  const { port } = sentinelServer.address() as AddressInfo;
  return {
    hosted,
    proxy,
    service,
    schedulers,
    makeBase: () => makeBase(service),
    sentinel: { url: `http://localhost:${port}`, hits },
    async close() {
      sentinelServer.closeAllConnections();
      await new Promise((r) => sentinelServer.close(r));
      await proxy.close();
      await hosted.close();
    },
  };
}

async function makeBase(service: RecordTableClient): Promise<string> {
  const base = await service.meta.createBase({
    name: 'Remote',
    tables: [
      {
        name: 'Things',
        fields: [
          { name: 'Name', type: 'singleLineText' },
          { name: 'N', type: 'number', options: { precision: 0 } },
          { name: 'Done', type: 'checkbox', options: { icon: 'check', color: 'greenBright' } },
          { name: 'Photo', type: 'multipleAttachments' },
        ],
      },
      { name: 'Groups', fields: [{ name: 'Name', type: 'singleLineText' }] },
    ],
  });
  const things = base.tables.find((t) => t.name === 'Things')!;
  const groups = base.tables.find((t) => t.name === 'Groups')!;
  await service.meta.createField(base.id, things.id, {
    name: 'Group',
    type: 'multipleRecordLinks',
    options: { linkedTableId: groups.id },
  });
  const made = await service
    .table(base.id, 'Groups')
    .createMany([1, 2, 3].map((i) => ({ Name: `Group ${i}` })));
  const rows = await service.table(base.id, 'Things').createMany(
    Array.from({ length: THINGS }, (_, i) => ({
      Name: `Thing ${i}`,
      N: i,
      Done: i % 2 === 0,
      Group: [made[i % 3]!.id],
    })),
  );
  for (const [i, row] of rows.slice(0, 3).entries()) {
    const bytes = await sharp({
      create: { width: 8, height: 6, channels: 3, background: { r: i * 80, g: 9, b: 9 } },
    })
      .png()
      .toBuffer();
    await service.uploadAttachment(base.id, row.id, 'Photo', {
      bytes,
      filename: `p${i}.png`,
      contentType: 'image/png',
    });
  }
  return base.id;
}
