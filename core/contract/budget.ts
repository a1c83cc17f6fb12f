/**
 * The request budget: the calls a hosted workspace spends each month, counted by the services per connection,
 * base and purpose; the plan the user says the workspace is on; and the questions background work that costs
 * more than a few calls asks before it starts ("counting this view costs about 500 calls").
 */
import { z } from 'zod';
import { PURPOSES } from '../api/options';
import { channel } from './define';
import { idSchema } from './schemas';

export const PLANS = ['free', 'team', 'unlimited', 'unknown'] as const;
export const planSchema = z.enum(PLANS);
export type Plan = z.infer<typeof planSchema>;
export const purposeSchema = z.enum(PURPOSES);

/** A workspace id (`wsp…`), or `base:app…` where the workspace of a base cannot be read. */
const scopeSchema = z.string().min(1).max(200);

const countsSchema = z.partialRecord(purposeSchema, z.number().int().min(0));

/** Where one open base stands this month. */
export const budgetStatusSchema = z.object({
  connectionId: idSchema,
  baseId: idSchema,
  /** False on a server without an allowance (the local one): nothing is counted, nothing asks. */
  metered: z.boolean(),
  scope: scopeSchema,
  /** Whether `scope` is the base's workspace (false: counted per base, the workspace could not be read). */
  workspace: z.boolean(),
  /** "2025-11": calendar months in UTC. */
  month: z.string(),
  calls: z.number().int().min(0),
  plan: planSchema,
  /** Calls a month on a limited plan. */
  limit: z.number().int().optional(),
  /** The service refused this scope's calls for the month (its allowance error). */
  refused: z.boolean(),
  /** Epoch ms when the month ends and calls are counted afresh. */
  resetsAt: z.number(),
});
export type BudgetStatus = z.infer<typeof budgetStatusSchema>;

/** A question: work that costs more than a few calls waits for a yes. */
export const budgetAskSchema = z.object({
  askId: idSchema,
  connectionId: idSchema,
  baseId: idSchema,
  purpose: purposeSchema,
  /** What is to be done, in words: "Count the records of Tasks". */
  subject: z.string().max(500),
  /** Calls it will take, where known (from the records counted before). */
  calls: z.number().int().optional(),
  /**
   * `calls` is reckoned from sizes counted before (which may have changed since), and only a floor where these
   * tables' sizes are not known yet (their names): each costs a call per 100 of its records more.
   */
  estimate: z.boolean().optional(),
  uncounted: z.array(z.string().max(255)).max(1000).optional(),
  /** `calls` are an hour's, for as long as the work goes on (looking for other people's changes). */
  hourly: z.boolean().optional(),
  /** Records per call of the walk (100): the cost where the size is not known. */
  recordsPerCall: z.number().int(),
  status: budgetStatusSchema,
});
export type BudgetAsk = z.infer<typeof budgetAskSchema>;

const scopeReportSchema = z.object({
  scope: scopeSchema,
  workspace: z.boolean(),
  plan: planSchema,
  limit: z.number().int().optional(),
  calls: z.number().int(),
  refused: z.boolean(),
  purposes: countsSchema,
  bases: z.array(
    z.object({
      connectionId: z.string(),
      baseId: z.string(),
      calls: z.number().int(),
      purposes: countsSchema,
    }),
  ),
  /** Last month's total, for comparison. */
  previous: z.number().int(),
});

export const budgetChannels = {
  'budget.status': channel(z.object({ connectionId: idSchema, baseId: idSchema }), budgetStatusSchema),
  /** What spent this month's calls: per workspace (or base), by purpose and by base. */
  'budget.report': channel(
    z.object({}).default({}),
    z.object({
      month: z.string(),
      resetsAt: z.number(),
      scopes: z.array(scopeReportSchema),
      /** Calls that belong to no base (the list of bases, whoami), per connection. */
      account: z.number().int(),
      /** Bases whose background work goes ahead without asking ("always for this base"). */
      always: z.array(z.object({ connectionId: z.string(), baseId: z.string() })),
    }),
  ),
  'budget.setPlan': channel(
    z.object({ scope: scopeSchema, plan: planSchema }),
    z.object({ ok: z.boolean() }),
  ),
  /** The answer to a question: go ahead, go ahead and never ask again for this base, or not now. */
  'budget.answer': channel(
    z.object({ askId: idSchema, choice: z.enum(['yes', 'always', 'no']) }),
    z.object({ ok: z.boolean() }),
  ),
  'budget.asks': channel(z.object({}).default({}), z.object({ asks: z.array(budgetAskSchema) })),
  /** Background work of this base asks again before it starts. */
  'budget.askAgain': channel(
    z.object({ connectionId: idSchema, baseId: idSchema }),
    z.object({ ok: z.boolean() }),
  ),
} as const;

export const budgetEvents = {
  /** The statuses of the bases that spent calls since the last event (at most every 500 ms). */
  'budget.changed': z.object({ statuses: z.array(budgetStatusSchema) }),
  /** The open questions, whole, whenever one is asked or answered. */
  'budget.asks': z.object({ asks: z.array(budgetAskSchema) }),
} as const;
