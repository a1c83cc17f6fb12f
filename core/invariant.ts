/**
 * A condition the code itself guarantees, never one a user, the disk or the network can cause: its failure
 * is a bug. The one file that makes a plain Error on purpose (build/lint/plain-errors.js refuses one made in
 * any other way elsewhere in core/, server/, services/, host/ and electron/), so every invariant is named as one
 * where it is checked, and the services' error mapping logs it as the bug it is (services/errors.ts).
 */
export function invariant(condition: unknown, why: string): asserts condition {
  if (!condition) throw new Error(`Invariant failed: ${why}`);
}

/**
 * What was caught, as an error to throw again or hand on (a callback's error argument): an error as it is,
 * anything else (a thrown string, an `undefined`) as the bug it is.
 */
export function asError(caught: unknown): Error {
  return caught instanceof Error ? caught : new Error(`Not an error was thrown: ${String(caught)}`);
}
