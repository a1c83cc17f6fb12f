/**
 * Closing the browser tab with edits not yet acknowledged asks first. (In Electron the main process asks
 * before the window closes; a beforeunload handler there would cancel the close without a word.)
 */
import { useEffect, useState } from 'react';
import { useApi } from '../api/ApiProvider';

export function useQuitGuard(door: 'electron' | 'browser' | undefined): void {
  const api = useApi();
  const [pending, setPending] = useState(0);
  useEffect(() => {
    const off = api.on('edits.summary', (s) => setPending(s.pending));
    // Edits replayed at start were announced before this window subscribed.
    api.call('edits.status', {}).then(
      (s) => setPending((known) => Math.max(known, s.pending)),
      () => undefined,
    );
    return off;
  }, [api]);
  useEffect(() => {
    if (door !== 'browser' || pending === 0) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [door, pending]);
}
