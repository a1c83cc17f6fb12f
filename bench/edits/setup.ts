/**
 * What the edit benchmarks share: a local server in memory with its rate limit on (5 requests/s per base)
 * whose answers are recorded, a client for it, and the edit services on a data folder of their own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordTableClient } from '../../core/api/index';
import { startServer } from '../../server/index';
import type { RunningServer } from '../../server/index';
import { createEditServices } from '../../services/edits';
import type { EditServices } from '../../services/edits';

export interface EditBench {
  /** Every request the server answered. */
  seen: { method: string; status: number; url: string }[];
  server: RunningServer;
  dir: string;
  baseId: string;
  client: RecordTableClient;
  services: EditServices;
  close(): Promise<void>;
}

/** `records`: the size of the demo's large Tasks table. */
export async function startEditBench(name: string, records: number): Promise<EditBench> {
  const seen: EditBench['seen'] = [];
  const server = await startServer({
    memory: true,
    demo: { largeTableRecords: records },
    onRequest: (e) => seen.push({ method: e.method, status: e.status, url: e.url }),
  });
  const dir = await mkdtemp(join(tmpdir(), `tabledesk-bench-${name}-`));
  const client = new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey });
  const services = createEditServices({
    userDataDir: dir,
    tableFor: (t) => client.table(t.baseId, t.table),
    emit: () => undefined,
  });
  return {
    seen,
    server,
    dir,
    baseId: server.bases[0]?.id ?? '',
    client,
    services,
    async close() {
      await services.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
