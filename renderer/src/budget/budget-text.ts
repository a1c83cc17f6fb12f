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

/**
 * The status bar's figure: "1,234 of 100,000 API calls this month". Where the key may not read the base's
 * workspace (no enterprise scope) the calls are this base's alone, while the allowance is the workspace's,
 * which its other bases spend too: the figure says so rather than pass for the workspace's.
 */
export function figureText(status: BudgetStatus): string {
  const calls = number.format(status.calls);
  const of = status.limit === undefined ? '' : ` of ${number.format(status.limit)}`;
  return `${calls}${of} API calls this month${status.workspace ? '' : ' by this base alone'}`;
}

/** The warning beside the figure, if any. */
export function warningText(status: BudgetStatus): string | undefined {
  const level = budgetLevel(status);
  const resets = resetDate(status.resetsAt);
  if (status.refused)
    return `The service refused this ${status.workspace ? 'workspace' : 'base'}’s calls for the month: background work stopped until ${resets}.`;
  if (level === 'over') return `This month’s calls are spent; the service will refuse more until ${resets}.`;
  // Counted per base, the figure is a floor: the workspace's other bases spend from the same allowance.
  const used = (share: number) =>
    status.workspace
      ? `${share}% of this month’s calls are used`
      : `This base alone used ${share}% of this month’s calls; the workspace’s other bases spend them too`;
  if (level === 'nearer') return `${used(95)} (they reset on ${resets}).`;
  if (level === 'near') return `${used(80)} (they reset on ${resets}).`;
  return undefined;
}

/**
 * What work costs, of what: "about 5,500 API calls of this workspace’s 1,000 this month (12 used)". Every
 * question about calls says it in these words, the budget's bar and a confirmation alike.
 */
export function costText(
  cost: Pick<BudgetAsk, 'calls' | 'hourly' | 'recordsPerCall' | 'estimate' | 'uncounted'>,
  status: Pick<BudgetStatus, 'limit' | 'workspace' | 'calls'>,
): string {
  const floor = (cost.uncounted?.length ?? 0) > 0;
  const calls =
    cost.calls === undefined
      ? `1 API call per ${cost.recordsPerCall} records (the size is not known yet)`
      : `${floor ? 'at least' : 'about'} ${number.format(cost.calls)} API call${cost.calls === 1 ? '' : 's'}${cost.hourly === true ? ' an hour' : ''}${estimateText(cost)}`;
  const of =
    status.limit === undefined
      ? ''
      : ` of this ${status.workspace ? 'workspace' : 'base'}’s ${number.format(status.limit)} this month (${number.format(status.calls)} used)`;
  return `${calls}${of}`;
}

/** Names, at most three and how many more: "Tasks, People and 4 more". */
function namesText(names: readonly string[]): string {
  const shown = names.slice(0, names.length > 3 ? 2 : 3);
  const rest = names.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)!}`;
}

/** How a reckoned cost was reckoned: from sizes counted before, and which sizes are not known. */
function estimateText(cost: Pick<BudgetAsk, 'estimate' | 'uncounted' | 'recordsPerCall'>): string {
  const uncounted = cost.uncounted ?? [];
  if (uncounted.length > 0)
    return ` (an estimate: ${namesText(uncounted)} ${uncounted.length === 1 ? 'is' : 'are'} not counted yet, each 1 API call more per ${cost.recordsPerCall} of its records)`;
  return cost.estimate === true ? ' (an estimate from the tables’ sizes when last counted)' : '';
}

/** The question: what it costs, of what. */
export function askText(ask: BudgetAsk): string {
  return `${ask.subject}: ${costText(ask, ask.status)}.`;
}

/** Records a read of the service returns per call (its largest page), and records a write carries. */
export const RECORDS_PER_READ = 100;
export const RECORDS_PER_WRITE = 10;

/**
 * Deleting a whole view: its records not loaded yet are read (a call per 100), then all of them are deleted
 * (a call per 10): 50,000 records cost about 5,500 calls. Where the view hides fields (`byId`), every record
 * is read again by id first, whole, so that undo brings back what the view did not show (a call per 100 ids).
 */
export const wholeViewDeleteCalls = (count: number, loaded: number, byId = false): number =>
  Math.ceil(Math.max(0, count - loaded) / RECORDS_PER_READ) +
  (byId ? Math.ceil(count / RECORDS_PER_READ) : 0) +
  Math.ceil(count / RECORDS_PER_WRITE);
