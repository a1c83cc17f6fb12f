/** The filter builder's pure half: conditions ⇄ formula text (the formula bar stays the one source of truth). */
export * from './conditions';
export { readFilter, type ReadResult } from './read';
export { writeCondition, writeFilter, type BuilderField } from './write';
export { dayInZone, dayOf, todayOf, type Calendar } from './calendar';
