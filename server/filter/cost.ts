/**
 * How much formula work one request may do (see core/formula/budget.ts for the units: roughly one per step
 * plus the characters each step reads or makes). A record's formula may spend PER_RECORD, a request
 * PER_REQUEST over all its records; a filtered list also stops after FILTER_BUSY_MS of its own computing.
 * Past any of them the request is answered 422, never left to stall the server.
 */
import { FormulaCostError } from '../../core/formula/index';
import type { EvalBudget } from '../../core/formula/index';
import { ServiceError, invalidRequest } from '../errors';

export const PER_RECORD = 10_000_000;
export const PER_REQUEST = 100_000_000;
export const FILTER_BUSY_MS = 10_000;

/** One request's formula work: `nextRecord()` before each record starts that record's own count. */
export class RequestWork implements EvalBudget {
  private record = 0;
  private total = 0;

  nextRecord(): void {
    this.record = 0;
  }

  /** True when the request (not only the current record) has spent its budget. */
  get spent(): boolean {
    return this.total > PER_REQUEST;
  }

  spend(units: number): void {
    this.record += units;
    this.total += units;
    if (this.record > PER_RECORD) throw new FormulaCostError('it needs more work than one record may take');
    if (this.total > PER_REQUEST) throw new FormulaCostError('it needs more work than one request may take');
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
