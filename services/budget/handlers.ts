/** The `budget.*` channels (core/contract/budget.ts) bound to the request budget. */
import type { Handlers } from '../dispatch';
import type { Budget } from './budget';

type BudgetHandlers = Pick<
  Handlers,
  'budget.status' | 'budget.report' | 'budget.setPlan' | 'budget.answer' | 'budget.asks' | 'budget.askAgain'
>;

export function budgetHandlers(budget: Budget): BudgetHandlers {
  return {
    'budget.status': (r) => budget.status(r.connectionId, r.baseId),
    'budget.report': () => budget.report(),
    'budget.setPlan': async (r) => {
      await budget.setPlan(r.scope, r.plan);
      return { ok: true };
    },
    'budget.answer': async (r) => ({ ok: budget.answer(r.askId, r.choice) }),
    'budget.asks': async () => ({ asks: budget.asks() }),
    'budget.askAgain': async (r) => {
      await budget.askAgain(r.connectionId, r.baseId);
      return { ok: true };
    },
  };
}
