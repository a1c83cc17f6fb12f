/**
 * The formula engine's throughput: a compiled three-clause filter over 100,000 in-memory records, against
 * parsing and compiling the same formula for every record (what an interpreter without a compile step pays),
 * that one over the first 10,000 records (it is forty times slower); every path gets the same rounds.
 * Goal: at least 1,000,000 records/s on the compiled path.
 */
import { faker } from '@faker-js/faker';
import {
  compileFormula,
  type CompiledFormula,
  type FormulaField,
  type FormulaRecord,
} from '../../core/formula';
import type { BenchResult } from '../result';
import { median } from '../stats';

const FILTER = 'AND(FIND("a", LOWER({Name})), {Qty} > 5, NOT({Done}))';
const FIELDS: FormulaField[] = [
  { name: 'Name', type: 'singleLineText' },
  { name: 'Qty', type: 'number' },
  { name: 'Done', type: 'checkbox' },
  { name: 'When', type: 'dateTime' },
];
/** The date filter pyairtable emits: reads an ISO date from every record. */
const DATE_FILTER = "{When} >= DATETIME_PARSE('2024-07-01')";
const RECORDS = 100_000;
const GOAL = 1_000_000;

function records(): FormulaRecord[] {
  faker.seed(42);
  return Array.from({ length: RECORDS }, (_, i) => {
    const fields: Record<string, unknown> = {
      Name: faker.person.fullName(),
      Qty: faker.number.int({ min: 0, max: 10 }),
      When: faker.date.between({ from: '2024-01-01T00:00:00Z', to: '2025-01-01T00:00:00Z' }).toISOString(),
    };
    if (faker.datatype.boolean()) fields.Done = true;
    return { id: `rec${String(i).padStart(14, '0')}`, createdTime: '2024-01-01T00:00:00.000Z', fields };
  });
}

/** Passes over the records per run, the same for every path: the run's figure is their median. */
const ROUNDS = 3;

/** Records per second, the median of ROUNDS passes; `kept` guards against the work being optimised away. */
function throughput(count: number, pass: () => number): { perSecond: number; kept: number } {
  const times: number[] = [];
  let kept = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    kept = pass();
    times.push(performance.now() - t0);
  }
  return { perSecond: (count / median(times)) * 1000, kept };
}

function compiledFilter(text: string) {
  const compiled = compileFormula(text, FIELDS);
  if (!compiled.ok) throw new Error(`${text} does not compile: ${compiled.diagnostics[0]?.message}`);
  return compiled.formula;
}

function filterAll(data: readonly FormulaRecord[], formula: CompiledFormula): number {
  let kept = 0;
  for (const r of data) if (formula.matches(r)) kept++;
  return kept;
}

export default async function formulaBench(): Promise<BenchResult[]> {
  const data = records();
  const formula = compiledFilter(FILTER);
  const fast = throughput(data.length, () => filterAll(data, formula));
  const dateFormula = compiledFilter(DATE_FILTER);
  const dates = throughput(data.length, () => filterAll(data, dateFormula));
  const sample = data.slice(0, 10_000);
  const slow = throughput(sample.length, () => {
    let kept = 0;
    for (const r of sample) {
      const c = compileFormula(FILTER, FIELDS);
      if (c.ok && c.formula.matches(r)) kept++;
    }
    return kept;
  });
  const expectedKept = sample.filter((r) => formula.matches(r)).length;
  if (slow.kept !== expectedKept) throw new Error('The two paths disagree on which records match');
  return [
    {
      name: `compiled filter over ${RECORDS} records (records/s; ratio to the 1M/s goal)`,
      value: Math.round(fast.perSecond),
      unit: 'records/s',
      ratio: fast.perSecond / GOAL,
    },
    { name: 'parse + compile per record (records/s)', value: Math.round(slow.perSecond), unit: 'records/s' },
    {
      name: 'compiled vs parse per record (speed-up)',
      value: fast.perSecond / slow.perSecond,
      unit: 'x',
      ratio: fast.perSecond / slow.perSecond,
    },
    { name: `records kept by the filter (of ${RECORDS})`, value: fast.kept, unit: 'records' },
    {
      name: `compiled date filter ${DATE_FILTER} (records/s)`,
      value: Math.round(dates.perSecond),
      unit: 'records/s',
      ratio: dates.perSecond / GOAL,
    },
    { name: `records kept by the date filter (of ${RECORDS})`, value: dates.kept, unit: 'records' },
  ];
}
