/**
 * What every history of the queue fuzzer shares: the real local server, with the fault proxy in front of it,
 * and a client straight to the server for reading back what it holds.
 */
import { RecordTableClient } from '../../../core/api';
import type { TableClient } from '../../../core/api';
import { startServer } from '../../../server/index';
import type { RunningServer } from '../../../server/index';
import { startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';

export const TABLE = 'Tasks';

export interface World {
  server: RunningServer;
  proxy: FaultProxy;
  baseId: string;
  /** Straight to the server, unthrottled: what the service holds. */
  reader: TableClient;
  close(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  const server = await startServer({ memory: true, demo: { largeTableRecords: 5 }, rateLimit: 'off' });
  const proxy = await startFaultProxy(server.url);
  const baseId = server.bases[0]!.id;
  const client = new RecordTableClient({
    baseUrl: server.url,
    apiKey: server.apiKey,
    requestsPerSecond: 1000,
  });
  return {
    server,
    proxy,
    baseId,
    reader: client.table(baseId, TABLE),
    async close() {
      await proxy.close();
      await server.close();
    },
  };
}
