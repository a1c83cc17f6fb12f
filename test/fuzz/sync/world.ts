/**
 * What every history of the sync fuzzer shares: the real local server playing the hosted service, the fault
 * proxy in front of it (the mirror's way there), and a second real local server that holds the copies, as the
 * app's embedded server does. Each history makes a base of its own on the service and a mirror folder of its own.
 */
import { RecordTableClient, SchedulerRegistry } from '../../../core/api';
import { behindProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

export interface World {
  hosted: LocalServer;
  proxy: FaultProxy;
  local: LocalServer;
  /** The other user, straight to the service. */
  service: RecordTableClient;
  /** The copy, through the local server's Web API (as the app edits it). */
  copy: RecordTableClient;
  /** What the mirror uses: through the proxy. */
  remote: RecordTableClient;
  close(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  const pace = { requestsPerSecond: 1000, minSpacingMs: 1 };
  const { server: hosted, proxy } = await behindProxy((publicOrigin) =>
    startLocalServer({ demo: false, publicOrigin }),
  );
  const local = await startLocalServer({ demo: false });
  const schedulers = new SchedulerRegistry();
  return {
    hosted,
    proxy,
    local,
    service: new RecordTableClient({ baseUrl: hosted.url, apiKey: hosted.apiKey, schedulers, ...pace }),
    copy: new RecordTableClient({ baseUrl: local.url, apiKey: local.apiKey, ...pace }),
    remote: new RecordTableClient({
      baseUrl: proxy.url,
      apiKey: hosted.apiKey,
      schedulers,
      backoffBaseMs: 20,
      backoffMaxMs: 100,
      rateLimitPauseMs: 200,
      ...pace,
    }),
    async close() {
      await proxy.close();
      await local.close();
      await hosted.close();
    },
  };
}
