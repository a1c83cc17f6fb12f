/**
 * The app behind its browser door for the editing specs: the embedded local server (the service's rate limit,
 * a small Tasks table) with every request it answers logged, and a fault-injecting proxy in front of it reached
 * through a second connection ("Through proxy"), so a spec can count requests or inject failures.
 */
import type { ListOptions } from '../../core/api';
import type { AppServicesOptions } from '../../services/app';
import type { RecordData } from '../../core/records/types';
import type { FaultProxy } from '../support/fault-proxy';
import { launchProxiedDoor } from './door';
import type { TestDoor } from './door';

export const PROXY_CONNECTION = 'Through proxy';

export interface ServerRequest {
  method: string;
  url: string;
  status: number;
  at: number;
}

export interface EditDoor extends TestDoor {
  /** Every request the server answered, oldest first. */
  requests: ServerRequest[];
  proxy: FaultProxy;
  /** All records of a table as the server holds them now, read with the spec's own client (`cellFormat`…). */
  records(table: string, options?: ListOptions): Promise<RecordData[]>;
  /** Creates records straight on the server with the spec's own client (set-up a test needs for itself). */
  create(table: string, fieldsList: Record<string, unknown>[]): Promise<RecordData[]>;
}

/** `editQueue`: the queue's batching timing, for a spec that holds its window open to count batches. */
export async function openEditDoor(options: Pick<AppServicesOptions, 'editQueue'> = {}): Promise<EditDoor> {
  const requests: ServerRequest[] = [];
  // The app's two connections (direct, through the proxy) and the specs' own reads (door.client) call one
  // base: they share its throttle (keyed by base id), so together they keep under the server's 5 requests/s.
  const door = await launchProxiedDoor(
    {
      embedded: {
        rateLimit: 5,
        memory: true,
        largeTableRecords: 300,
        onRequest: (e) => requests.push({ method: e.method, url: e.url, status: e.status, at: e.at }),
      },
      ...(options.editQueue === undefined ? {} : { editQueue: options.editQueue }),
    },
    PROXY_CONNECTION,
  );
  return {
    ...door,
    requests,
    records: (table, options) => door.client.table(door.server.baseId, table).all(options),
    create: (table, fieldsList) => door.client.table(door.server.baseId, table).createMany(fieldsList),
  };
}
