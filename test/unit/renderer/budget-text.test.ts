import { describe, expect, it } from 'vitest';
import type { BudgetAsk, BudgetStatus } from '../../../core/contract';
import {
  askText,
  budgetLevel,
  costText,
  figureText,
  warningText,
  wholeViewDeleteCalls,
} from '../../../renderer/src/budget/budget-text';

const status = (over: Partial<BudgetStatus> = {}): BudgetStatus => ({
  connectionId: 'c',
  baseId: 'appX',
  metered: true,
  scope: 'wspA',
  workspace: true,
  month: '2025-11',
  calls: 0,
  plan: 'team',
  limit: 100_000,
  refused: false,
  resetsAt: Date.UTC(2025, 11, 1),
  ...over,
});

describe('the budget in words', () => {
  it('warns at 80 % and 95 % of a known limit, and past it', () => {
    expect(budgetLevel(status({ calls: 79_999 }))).toBe('ok');
    expect(budgetLevel(status({ calls: 80_000 }))).toBe('near');
    expect(budgetLevel(status({ calls: 95_000 }))).toBe('nearer');
    expect(budgetLevel(status({ calls: 100_000 }))).toBe('over');
    expect(budgetLevel(status({ calls: 5, refused: true }))).toBe('over');
    expect(budgetLevel(status({ calls: 1e9, limit: undefined, plan: 'unknown' }))).toBe('ok');
    expect(warningText(status({ calls: 80_000 }))).toMatch(
      /^80% of this month’s calls are used \(they reset on December 1\)/,
    );
    expect(warningText(status({ calls: 96_000 }))).toMatch(/^95%/);
    expect(warningText(status({ refused: true, workspace: false }))).toBe(
      'The service refused this base’s calls for the month: background work stopped until December 1.',
    );
    expect(warningText(status({ calls: 10 }))).toBeUndefined();
  });

  it('says the figure with the limit where the plan has one', () => {
    expect(figureText(status({ calls: 1234 }))).toBe('1,234 of 100,000 API calls this month');
    expect(figureText(status({ calls: 7, limit: undefined }))).toBe('7 API calls this month');
  });

  it('asks with the cost where it is known, else per 100 records', () => {
    const ask: BudgetAsk = {
      askId: 'a',
      connectionId: 'c',
      baseId: 'appX',
      purpose: 'count',
      subject: 'Count the records of Tasks',
      recordsPerCall: 100,
      status: status({ calls: 250 }),
    };
    expect(askText(ask)).toBe(
      'Count the records of Tasks: 1 API call per 100 records (the size is not known yet) of this workspace’s 100,000 this month (250 used).',
    );
    expect(askText({ ...ask, calls: 500 })).toBe(
      'Count the records of Tasks: about 500 API calls of this workspace’s 100,000 this month (250 used).',
    );
    // Looking for other people's changes costs as long as the base is open: its cost is an hour's.
    expect(
      askText({ ...ask, subject: 'Show other people’s changes in Tasks', calls: 60, hourly: true }),
    ).toBe(
      'Show other people’s changes in Tasks: about 60 API calls an hour of this workspace’s 100,000 this month (250 used).',
    );
  });

  it('says a copy’s cost as a total where the sizes are known, a floor naming the tables where not', () => {
    const ask: BudgetAsk = {
      askId: 'a',
      connectionId: 'c',
      baseId: 'appX',
      purpose: 'offline',
      subject: 'Make a base available offline',
      recordsPerCall: 100,
      calls: 512,
      estimate: true,
      status: status({ calls: 250 }),
    };
    expect(askText(ask)).toBe(
      'Make a base available offline: about 512 API calls (an estimate from the tables’ sizes when last counted) of this workspace’s 100,000 this month (250 used).',
    );
    expect(askText({ ...ask, calls: 11, uncounted: ['Tasks'] })).toBe(
      'Make a base available offline: at least 11 API calls (an estimate: Tasks is not counted yet, each 1 API call more per 100 of its records) of this workspace’s 100,000 this month (250 used).',
    );
    expect(askText({ ...ask, calls: 11, uncounted: ['Tasks', 'People', 'Teams'] })).toContain(
      'at least 11 API calls (an estimate: Tasks, People and Teams are not counted yet,',
    );
    expect(askText({ ...ask, calls: 11, uncounted: ['A', 'B', 'C', 'D', 'E'] })).toContain(
      '(an estimate: A, B and 3 more are not counted yet,',
    );
  });

  it('says a base’s figure is its own where the workspace cannot be read, not the workspace’s', () => {
    const perBase = status({ workspace: false, scope: 'base:appX', calls: 850, plan: 'free', limit: 1000 });
    expect(figureText(perBase)).toBe('850 of 1,000 API calls this month by this base alone');
    expect(figureText({ ...perBase, limit: undefined })).toBe('850 API calls this month by this base alone');
    expect(warningText(perBase)).toBe(
      'This base alone used 80% of this month’s calls; the workspace’s other bases spend them too (they reset on December 1).',
    );
    expect(costText({ calls: 20, recordsPerCall: 100 }, perBase)).toBe(
      'about 20 API calls of this base’s 1,000 this month (850 used)',
    );
  });

  it('counts a whole view’s delete as its reads past the loaded rows and its deletes, 10 a call', () => {
    expect(wholeViewDeleteCalls(50_000, 100)).toBe(499 + 5000);
    expect(wholeViewDeleteCalls(2000, 2000)).toBe(200);
    expect(wholeViewDeleteCalls(5, 100)).toBe(1);
    // A view that hides fields reads every record again by id, 100 a call, for undo.
    expect(wholeViewDeleteCalls(50_000, 100, true)).toBe(499 + 500 + 5000);
    expect(wholeViewDeleteCalls(5, 100, true)).toBe(2);
    expect(
      costText({ calls: 5499, recordsPerCall: 100 }, status({ calls: 12, plan: 'free', limit: 1000 })),
    ).toBe('about 5,499 API calls of this workspace’s 1,000 this month (12 used)');
  });
});
