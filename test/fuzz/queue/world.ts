/**
 * What every history of the queue fuzzer shares: the real local server, with the fault proxy in front of it,
 * and a client straight to the server for reading back what it holds.
 */
import { RecordTableClient } from '../../../core/api';
import type { TableClient } from '../../../core/api';
import { startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

export const TABLE = 'Tasks';

export interface World {
  server: LocalServer;
  proxy: FaultProxy;
  /** Straight to the server, unthrottled: what the service holds. */
  reader: TableClient;
  close(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  const server = await startLocalServer({ demo: { largeTableRecords: 5 } });
  const proxy = await startFaultProxy(server.url);
  const client = new RecordTableClient({
    baseUrl: server.url,
    apiKey: server.apiKey,
    requestsPerSecond: 1000,
  });
  return {
    server,
    proxy,
    reader: client.table(server.baseId, TABLE),
    async close() {
      await proxy.close();
      await server.close();
    },
  };
}
