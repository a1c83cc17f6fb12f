/**
 * How much formula work one request may do (see core/formula/budget.ts for the units: roughly one character
 * of plain text work, a few nanoseconds; costly steps are charged by their bound before they run). A record's
 * formulas may spend PER_RECORD: one record is computed without a break, so this bounds how long any other
 * request can wait behind it. A read spends at most PER_READ in all, between records it lets other requests in
 * (see http/list.ts), and it also stops after FILTER_BUSY_MS of its own computing. A write computes its
 * records in one transaction without a break, so all it causes (formula fields, lookups and rollups of the
 * records it writes, creates and computes again) shares PER_WRITE, a few records' worth whatever its number
 * of records: a write of ten records each just within PER_RECORD held every request ten records' time.
 * Past any of them the request is answered 422.
 */
import { FormulaCostError } from '../core/formula/index';
import type { EvalBudget } from '../core/formula/index';
import { ServiceError, invalidRequest } from './errors';

export const PER_RECORD = 10_000_000;
export const PER_READ = 2_000_000_000;
export const PER_WRITE = 3 * PER_RECORD;
export const FILTER_BUSY_MS = 10_000;

/** Naming one linked record in a filter (links read as their records' names): one read of SQLite. */
export const LINK_NAME_UNITS = 1_000;

/**
 * What one record may take on the clock, whatever its units say: a safety net under the unit counts (a step
 * whose cost they misjudge on a slow machine still stops), checked every CHECK_EVERY units.
 */
export const RECORD_MS = 400;
const CHECK_EVERY = 250_000;

/** One request's formula work: `nextRecord()` before each record starts that record's own count. */
export class RequestWork implements EvalBudget {
  private record = 0;
  private total = 0;
  private checkAt = CHECK_EVERY;
  private recordStarted = performance.now();

  constructor(private readonly perRequest = PER_WRITE) {}

  nextRecord(): void {
    this.record = 0;
    this.checkAt = CHECK_EVERY;
    this.recordStarted = performance.now();
  }

  /** True when the request (not only the current record) has spent its budget. */
  get spent(): boolean {
    return this.total > this.perRequest;
  }

  spend(units: number): void {
    this.record += units;
    this.total += units;
    if (this.record > PER_RECORD) throw new FormulaCostError('it needs more work than one record may take');
    if (this.total > this.perRequest)
      throw new FormulaCostError('it needs more work than one request may take');
    if (this.record >= this.checkAt) {
      this.checkAt = this.record + CHECK_EVERY;
      this.check();
    }
  }

  check(): void {
    if (performance.now() - this.recordStarted > RECORD_MS)
      throw new FormulaCostError('one record took too long to compute');
  }
}

/** The answer to a filter past its budget, in the shape of Airtable's other filter errors. */
export const filterTooExpensive = (detail: string) =>
  new ServiceError(
    422,
    'INVALID_FILTER_BY_FORMULA',
    `The formula for filtering records is too expensive: ${detail}. Simplify the formula or filter fewer records.`,
  );

/** The answer to a write whose formula field cannot be computed within its budget. */
export const formulaTooExpensive = (fieldName: string) =>
  invalidRequest(`The formula of field ${JSON.stringify(fieldName)} is too expensive to compute`);
