/**
 * The request budget's question, above everything: background work that costs more than a few calls on a
 * limited plan (a count, a whole-view summary, a walk for Find, an offline copy) waits here for a yes. Not
 * modal: the app stays usable, and the work simply waits. One question at a time, the oldest first.
 */
import { useState } from 'react';
import { useApi } from '../api/ApiProvider';
import { errorMessage } from '../api/call-errors';
import { askText } from './budget-text';
import { useBudgetAsks } from './useBudget';
import './budget.css';

export function ConsentBar() {
  const api = useApi();
  const asks = useBudgetAsks();
  const [error, setError] = useState<string>();
  const ask = asks[0];
  if (ask === undefined) return null;
  const answer = (choice: 'yes' | 'always' | 'no') =>
    void api.call('budget.answer', { askId: ask.askId, choice }).then(
      () => setError(undefined),
      (e: unknown) => setError(errorMessage(e)),
    );
  return (
    <section className="td-consent" role="region" aria-label="API calls question" data-testid="budget-ask">
      <p>
        {askText(ask)}
        {asks.length > 1 && <span className="td-muted"> ({asks.length - 1} more waiting)</span>}
      </p>
      <div className="td-consent-actions">
        <button type="button" onClick={() => answer('yes')}>
          Go ahead
        </button>
        <button type="button" onClick={() => answer('always')}>
          Always for this base
        </button>
        <button type="button" onClick={() => answer('no')}>
          Not now
        </button>
      </div>
      {error !== undefined && (
        <p className="td-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
