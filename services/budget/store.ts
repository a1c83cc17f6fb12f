/**
 * The request budget's file, `budget.json` in the user-data folder: calls by month, connection, base and
 * purpose; each base's workspace where the service told it; the plan of each workspace (or base); the bases
 * whose background work goes ahead without asking; the month a scope's calls were refused; and the sizes of
 * views last counted, to say what a walk will cost. Counting a call is in memory; the file is written at most
 * once a second and when the app closes, so a crash loses at most a second of counts.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { PURPOSES } from '../../core/api/index';
import type { Purpose } from '../../core/api/index';
import { planSchema } from '../../core/contract/budget';
import type { Plan } from '../../core/contract';
import { readJsonFile, serial, writeJsonFile } from '../storage/json-file';

/** Months kept: this one and last year's same month, for comparison. */
const MONTHS_KEPT = 13;
/** Views whose size is remembered for estimates. */
const SIZES_KEPT = 500;
const WRITE_EVERY_MS = 1000;

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const purposeCounts = z.partialRecord(z.enum(PURPOSES), count);
const key = z.string().max(500);

const fileSchema = z.object({
  version: z.literal(1),
  /** month → connection → base ('' for calls of no base) → purpose → calls. */
  calls: z.record(key, z.record(key, z.record(key, purposeCounts))),
  /** "connection base" → its workspace id, or null where the service would not say. */
  workspaces: z.record(key, z.string().max(100).nullable()),
  plans: z.record(key, planSchema),
  /** "connection base" of the bases answered "always for this base". */
  always: z.array(key).max(10_000),
  /** scope → the month its calls were refused. */
  refused: z.record(key, z.string().max(20)),
  /** A view's query key → its record count when last counted. */
  sizes: z.record(z.string().max(20_000), count),
});
export type BudgetFile = z.infer<typeof fileSchema>;

const empty = (): BudgetFile => ({
  version: 1,
  calls: {},
  workspaces: {},
  plans: {},
  always: [],
  refused: {},
  sizes: {},
});

export const baseKey = (connectionId: string, baseId: string): string => `${connectionId} ${baseId}`;

export class BudgetStore {
  private readonly path: string;
  private readonly queue = serial();
  private data: BudgetFile = empty();
  private timer: ReturnType<typeof setTimeout> | undefined;
  readonly loaded: Promise<void>;

  constructor(userDataDir: string) {
    this.path = join(userDataDir, 'budget.json');
    this.loaded = this.queue(async () => {
      this.data = await readJsonFile(this.path, fileSchema, empty());
    });
  }

  get file(): Readonly<BudgetFile> {
    return this.data;
  }

  addCall(month: string, connectionId: string, baseId: string, purpose: Purpose): void {
    const byConnection = (this.data.calls[month] ??= {});
    const byBase = (byConnection[connectionId] ??= {});
    const counts = (byBase[baseId] ??= {});
    counts[purpose] = (counts[purpose] ?? 0) + 1;
    this.changed();
  }

  /** Forgets a connection's counts (it turned out to be a server without an allowance). */
  dropConnection(connectionId: string): void {
    for (const month of Object.values(this.data.calls)) delete month[connectionId];
    this.changed();
  }

  setWorkspace(connectionId: string, baseId: string, workspaceId: string | null): void {
    this.data.workspaces[baseKey(connectionId, baseId)] = workspaceId;
    this.changed();
  }

  setPlan(scope: string, plan: Plan): void {
    if (plan === 'unknown') delete this.data.plans[scope];
    else this.data.plans[scope] = plan;
    this.changed();
  }

  setAlways(connectionId: string, baseId: string, always: boolean): void {
    const k = baseKey(connectionId, baseId);
    this.data.always = this.data.always.filter((a) => a !== k);
    if (always) this.data.always.push(k);
    this.changed();
  }

  setRefused(scope: string, month: string | undefined): void {
    if (month === undefined) delete this.data.refused[scope];
    else this.data.refused[scope] = month;
    this.changed();
  }

  setSize(viewKey: string, records: number): void {
    delete this.data.sizes[viewKey];
    this.data.sizes[viewKey] = records;
    const keys = Object.keys(this.data.sizes);
    // The oldest first: object keys keep their insertion order.
    for (const old of keys.slice(0, Math.max(0, keys.length - SIZES_KEPT))) delete this.data.sizes[old];
    this.changed();
  }

  /** Writes what is pending now (the app is closing). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.write();
  }

  private changed(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.write().catch((e: unknown) =>
        console.error('TableDesk: budget.json could not be written', e),
      );
    }, WRITE_EVERY_MS);
    this.timer.unref?.();
  }

  private write(): Promise<void> {
    return this.queue(async () => {
      const months = Object.keys(this.data.calls).sort();
      for (const old of months.slice(0, Math.max(0, months.length - MONTHS_KEPT)))
        delete this.data.calls[old];
      await writeJsonFile(this.path, this.data);
    });
  }
}
