/**
 * Costly formulas over the demo's Tasks, drawn by fast-check: each shape makes one charge of the cost model
 * (core/formula/budget.ts) the only thing between it and seconds of work, so a charge set to zero shows as
 * a stall of the probe. A shape is stacked (the same call several times in one formula), so what one call
 * costs is multiplied before the per-record clock check (every 250,000 units spent) can see it.
 */
import fc from 'fast-check';

/** An attack's size: anywhere in its range, or (`full`) at its top. */
export const size = (max: number, full: boolean) => (full ? fc.constant(max) : fc.integer({ min: 1, max }));

/** A text grown from a record's cells: by REPT, or by concatenating copies of a REPT. */
const grownText = (full: boolean) =>
  fc.oneof(
    size(300, full).map((n) => `REPT({Name}, ${n})`),
    size(100, full).map((n) => `REPT({Name} & {Notes}, ${n})`),
    fc
      .tuple(size(60, full), size(8, full))
      .map(([n, copies]) => Array.from({ length: copies }, () => `REPT({Name}, ${n})`).join(' & ')),
  );

/** Regexes of large programs: nested and stacked quantifiers (a text's length times the program is the work). */
const largeProgram = (full: boolean) =>
  fc.oneof(
    size(1000, full).map((k) => `(?:a?){${k}}a{${k}}[0-9]`),
    fc.tuple(size(40, full), size(50, full)).map(([k, j]) => `(?:(?:a?){${k}}){${j}}b`),
    size(1000, full).map((k) => `[a-z]{1,${k}}[0-9]{1,${k}}`),
  );

/** The shapes of costly calls, one arbitrary each. */
const shapes = (full: boolean): fc.Arbitrary<string>[] => [
  fc
    .tuple(fc.constantFrom('REGEX_MATCH', 'REGEX_EXTRACT'), grownText(full), largeProgram(full))
    .map(([fn, t, p]) => `${fn}(${t}, "${p}")`),
  // Many matches, each expanded by `$` references: charged per restart and per match.
  fc
    .tuple(grownText(full), fc.constantFrom('[a-z]', '(a|e|o)', '.', 'a?'), fc.constantFrom('$0$0', '$1-$1'))
    .map(([t, p, r]) => `REGEX_REPLACE(${t}, "${p}", "${r}")`),
  fc
    .tuple(grownText(full), fc.constantFrom('a', 'e', ' '), fc.constantFrom('', 'bb'))
    .map(([t, from, to]) => `SUBSTITUTE(${t}, "${from}", "${to}")`),
  // The typecast flood leaves a task linked to 20,000 people: a big lookup of names.
  fc.constantFrom(
    'ARRAYJOIN({Assignee})',
    'ARRAYJOIN(ARRAYUNIQUE({Assignee}))',
    'ARRAYJOIN(ARRAYCOMPACT({Assignee}), {Name})',
  ),
  size(2700, full).map((years) => `WORKDAY_DIFF({Due}, DATEADD({Due}, ${years}, 'years'))`),
  size(80_000, full).map((days) => `WORKDAY({Due}, 10, REPT("2024-01-02,", ${days}))`),
];

/** Costly formulas, one of every shape: each shape's call stacked up to 40 times, true where it computes. */
export const costlyFormulas = (full: boolean): fc.Arbitrary<string>[] =>
  shapes(full).map((shape) =>
    fc
      .tuple(shape, size(40, full))
      .map(([call, times]) => `LEN(${Array.from({ length: times }, () => `(${call})`).join(' & ')}) >= 0`),
  );
