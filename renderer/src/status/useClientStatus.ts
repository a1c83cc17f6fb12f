/**
 * The latest `client.status` event of one connection: its request queue, a rate-limit pause, the last error.
 * A table's status bar follows its own connection; an offline copy's bar and the picker's offline panel follow
 * the hosted connection their pull or sync goes through, which no status bar shows while they run.
 */
import { useEffect, useState } from 'react';
import type { EventPayload } from '../../../core/contract';
import { useApi } from '../api/ApiProvider';

export type ClientStatus = EventPayload<'client.status'>;

export function useClientStatus(connectionId: string): ClientStatus | undefined {
  const api = useApi();
  const [status, setStatus] = useState<ClientStatus>();
  useEffect(
    () =>
      api.on('client.status', (s) => {
        if (s.connectionId === connectionId) setStatus(s);
      }),
    [api, connectionId],
  );
  // A status kept from the connection before a change is not this one's.
  return status?.connectionId === connectionId ? status : undefined;
}
