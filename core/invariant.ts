/**
 * A condition the code itself guarantees, never one a user, the disk or the network can cause: its failure
 * is a bug. The one place a plain Error is thrown on purpose (eslint.config.js refuses `throw new Error`
 * elsewhere in core/, server/, services/, host/ and electron/), so every invariant is named as one where it
 * is checked, and the services' error mapping logs it as the bug it is (services/errors.ts).
 */
export function invariant(condition: unknown, why: string): asserts condition {
  if (!condition) throw new Error(`Invariant failed: ${why}`);
}
