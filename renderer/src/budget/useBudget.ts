/**
 * The request budget as the renderer follows it: one base's status (asked once, then kept by `budget.changed`
 * events of any base in the same scope, since they share the month's figure) and the open questions.
 */
import { useEffect, useState } from 'react';
import type { BudgetAsk, BudgetStatus } from '../../../core/contract';
import { useApi } from '../api/ApiProvider';

export function useBudgetStatus(connectionId: string, baseId: string): BudgetStatus | undefined {
  const api = useApi();
  const [status, setStatus] = useState<BudgetStatus>();
  useEffect(() => {
    let live = true;
    const off = api.on('budget.changed', ({ statuses }) => {
      setStatus((current) => {
        const own = statuses.find((s) => s.connectionId === connectionId && s.baseId === baseId);
        if (own) return own;
        // Another base of the same workspace spent calls: the same figure, plan and refusal.
        const same = current && statuses.find((s) => s.metered && s.scope === current.scope);
        return same ? { ...same, connectionId, baseId } : current;
      });
    });
    api.call('budget.status', { connectionId, baseId }).then(
      (s) => {
        if (live) setStatus((current) => current ?? s);
      },
      () => undefined,
    );
    return () => {
      live = false;
      off();
    };
  }, [api, connectionId, baseId]);
  return status?.connectionId === connectionId && status.baseId === baseId ? status : undefined;
}

export function useBudgetAsks(): BudgetAsk[] {
  const api = useApi();
  const [asks, setAsks] = useState<BudgetAsk[]>([]);
  useEffect(() => {
    let heard = false;
    const off = api.on('budget.asks', (e) => {
      heard = true;
      setAsks(e.asks);
    });
    // The questions asked before this page listened (a reload while one waits).
    api.call('budget.asks', {}).then(
      (r) => {
        if (!heard) setAsks(r.asks);
      },
      () => undefined,
    );
    return off;
  }, [api]);
  return asks;
}
