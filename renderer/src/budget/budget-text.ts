/**
 * What the request budget says in words: the status bar's figure and its warnings near and past the month's
 * allowance, the question asked before costly background work, and the panel's labels.
 */
import type { BudgetAsk, BudgetStatus, Plan } from '../../../core/contract';
import type { Purpose } from '../../../core/api/options';

const number = new Intl.NumberFormat('en-US');

export const PLAN_LABEL: Record<Plan, string> = {
  free: 'Free (1,000 calls a month)',
  team: 'Team (100,000 calls a month)',
  unlimited: 'Business or Enterprise (no limit)',
  unknown: 'Not set',
};

export const PURPOSE_LABEL: Record<Purpose, string> = {
  rows: 'Pages you asked for',
  count: 'Counting views',
  names: 'Names of linked records',
  summary: 'Whole-view summaries',
  find: 'Find',
  export: 'CSV exports',
  offline: 'Offline copies',
  edits: 'Edits',
  live: 'Other users’ changes',
  schema: 'Tables and fields',
};

/** Where a scope stands: under 80 % of a known limit, past 80 %, past 95 %, or refused by the service. */
export type BudgetLevel = 'ok' | 'near' | 'nearer' | 'over';

export function budgetLevel(status: Pick<BudgetStatus, 'calls' | 'limit' | 'refused'>): BudgetLevel {
  if (status.refused) return 'over';
  if (status.limit === undefined) return 'ok';
  const share = status.calls / status.limit;
  if (share >= 1) return 'over';
  if (share >= 0.95) return 'nearer';
  if (share >= 0.8) return 'near';
  return 'ok';
}

/** The day the month's calls are counted afresh, as the user reads dates. */
export const resetDate = (resetsAt: number): string =>
  new Date(resetsAt).toLocaleDateString(undefined, { month: 'long', day: 'numeric', timeZone: 'UTC' });

/** Whose calls: a workspace, or a base whose workspace the service would not tell. */
export const scopeLabel = (scope: string): string =>
  scope.startsWith('base:') ? `Base ${scope.slice(5)}` : `Workspace ${scope}`;

/** The status bar's figure: "1,234 of 100,000 API calls this month". */
export function figureText(status: BudgetStatus): string {
  const calls = number.format(status.calls);
  return status.limit === undefined
    ? `${calls} API calls this month`
    : `${calls} of ${number.format(status.limit)} API calls this month`;
}

/** The warning beside the figure, if any. */
export function warningText(status: BudgetStatus): string | undefined {
  const level = budgetLevel(status);
  const resets = resetDate(status.resetsAt);
  if (status.refused)
    return `The service refused this ${status.workspace ? 'workspace' : 'base'}’s calls for the month: background work stopped until ${resets}.`;
  if (level === 'over') return `This month’s calls are spent; the service will refuse more until ${resets}.`;
  if (level === 'nearer') return `95% of this month’s calls are used (they reset on ${resets}).`;
  if (level === 'near') return `80% of this month’s calls are used (they reset on ${resets}).`;
  return undefined;
}

/** The question: what it costs, of what. */
export function askText(ask: BudgetAsk): string {
  const cost =
    ask.calls === undefined
      ? `1 API call per ${ask.recordsPerCall} records (the size is not known yet)`
      : `about ${number.format(ask.calls)} API call${ask.calls === 1 ? '' : 's'}${ask.hourly === true ? ' an hour' : ''}`;
  const { status } = ask;
  const of =
    status.limit === undefined
      ? ''
      : ` of this ${status.workspace ? 'workspace' : 'base'}’s ${number.format(status.limit)} this month (${number.format(status.calls)} used)`;
  return `${ask.subject}: ${cost}${of}.`;
}
