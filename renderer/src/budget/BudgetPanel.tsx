/**
 * The request budget in the status bar (this month's calls of the open base's workspace, with a warning near
 * and past the allowance) and its panel: per workspace (or base) the plan the user says it is on, what spent
 * the month's calls by purpose and by base, and the bases whose background work no longer asks.
 */
import { useEffect, useState } from 'react';
import type { Plan, Response } from '../../../core/contract';
import { PLANS } from '../../../core/contract';
import type { Purpose } from '../../../core/api/options';
import { useApi } from '../api/ApiProvider';
import { errorMessage } from '../api/call-errors';
import {
  budgetLevel,
  figureText,
  PLAN_LABEL,
  PURPOSE_LABEL,
  resetDate,
  scopeLabel,
  warningText,
} from './budget-text';
import { useBudgetStatus } from './useBudget';
import './budget.css';
import { isCommand } from '../commands/match';
import { MAC } from '../commands/shown';
import { useFocusReturn } from '../ui/useFocusReturn';

type Report = Response<'budget.report'>;
const number = new Intl.NumberFormat('en-US');

function ScopeReport({
  scope,
  current,
  onPlan,
}: {
  scope: Report['scopes'][number];
  current: { connectionId: string; baseId: string };
  onPlan: (plan: Plan) => void;
}) {
  const purposes = Object.entries(scope.purposes).sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0));
  return (
    <section className="td-budget-scope" aria-label={scopeLabel(scope.scope)}>
      <h3>
        {scopeLabel(scope.scope)}
        {!scope.workspace && <span className="td-muted"> (its workspace cannot be read with this key)</span>}
      </h3>
      {!scope.workspace && (
        <p className="td-muted" data-testid="budget-per-base">
          Counted for this base alone: the plan’s allowance is its workspace’s, and the workspace’s other
          bases spend from it too. A key with enterprise scopes lets the app count the whole workspace.
        </p>
      )}
      <label>
        Plan{' '}
        <select value={scope.plan} onChange={(e) => onPlan(e.target.value as Plan)}>
          {PLANS.map((p) => (
            <option key={p} value={p}>
              {PLAN_LABEL[p]}
            </option>
          ))}
        </select>
      </label>
      <p data-testid="budget-scope-calls">
        {number.format(scope.calls)}
        {scope.limit === undefined ? '' : ` of ${number.format(scope.limit)}`} calls this month
        {scope.previous > 0 && (
          <span className="td-muted"> · last month {number.format(scope.previous)}</span>
        )}
        {scope.refused && <strong className="td-error"> · refused by the service</strong>}
      </p>
      <table className="td-budget-table">
        <caption>What spent them</caption>
        <tbody>
          {purposes.map(([p, n]) => (
            <tr key={p}>
              <th scope="row">{PURPOSE_LABEL[p as Purpose]}</th>
              <td>{number.format(n ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {scope.bases.length > 1 && (
        <table className="td-budget-table">
          <caption>By base</caption>
          <tbody>
            {scope.bases.map((b) => (
              <tr key={`${b.connectionId} ${b.baseId}`}>
                <th scope="row">
                  {b.baseId}
                  {b.connectionId === current.connectionId && b.baseId === current.baseId
                    ? ' (this base)'
                    : ''}
                </th>
                <td>{number.format(b.calls)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Panel({
  current,
  onClose,
}: {
  current: { connectionId: string; baseId: string };
  onClose: () => void;
}) {
  const api = useApi();
  useFocusReturn();
  const [report, setReport] = useState<Report>();
  const [error, setError] = useState<string>();
  const load = () =>
    void api.call('budget.report', {}).then(setReport, (e: unknown) => setError(errorMessage(e)));
  useEffect(load, [api]);
  const act = (p: Promise<unknown>) => void p.then(load, (e: unknown) => setError(errorMessage(e)));
  return (
    <div
      className="td-status-panel td-budget-panel"
      role="dialog"
      aria-label="API calls this month"
      onKeyDown={(e) => {
        if (isCommand('dialog.close', e, MAC)) onClose();
      }}
    >
      <header>
        <h2>API calls this month</h2>
        <button type="button" onClick={onClose} aria-label="Close API calls">
          ×
        </button>
      </header>
      {report !== undefined && (
        <p className="td-muted">
          The hosted service allows each workspace a number of calls a month by its plan. Counted here: this
          app’s calls ({report.month}, UTC), afresh on {resetDate(report.resetsAt)}. Other apps using the same
          workspace spend from it too.
        </p>
      )}
      {error !== undefined && (
        <p className="td-error" role="alert">
          {error}
        </p>
      )}
      {report?.scopes.map((s) => (
        <ScopeReport
          key={s.scope}
          scope={s}
          current={current}
          onPlan={(plan) => act(api.call('budget.setPlan', { scope: s.scope, plan }))}
        />
      ))}
      {report !== undefined && report.account > 0 && (
        <p className="td-muted">
          {number.format(report.account)} calls belong to no base (the list of bases).
        </p>
      )}
      {report !== undefined && report.always.length > 0 && (
        <section aria-label="Bases that do not ask">
          <h3>Background work goes ahead without asking for</h3>
          <ul>
            {report.always.map((a) => (
              <li key={`${a.connectionId} ${a.baseId}`}>
                {a.baseId}{' '}
                <button type="button" onClick={() => act(api.call('budget.askAgain', a))}>
                  Ask again
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** The status bar's part, on a base with an allowance: the month's figure and its warning; opens the panel. */
export function BudgetFigure({ connectionId, baseId }: { connectionId: string; baseId: string }) {
  const status = useBudgetStatus(connectionId, baseId);
  const [open, setOpen] = useState(false);
  if (status === undefined || !status.metered) return null;
  const warning = warningText(status);
  return (
    <>
      <button
        type="button"
        className={`td-status-budget td-budget-${budgetLevel(status)}`}
        data-testid="budget-figure"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        title="What spent this month's API calls"
      >
        {figureText(status)}
        {status.plan === 'unknown' && ' · plan?'}
      </button>
      {warning !== undefined && (
        <span className="td-status-budget-warning" role="alert" data-testid="budget-warning">
          {warning}
        </span>
      )}
      {open && <Panel current={{ connectionId, baseId }} onClose={() => setOpen(false)} />}
    </>
  );
}
