/** What holds a pull or sync, in the status bar's words (renderer/src/status/client-wait.ts). */
import { describe, expect, it } from 'vitest';
import { pauseText, serviceWaitText } from '../../../renderer/src/status/client-wait';

describe('what holds a pull or sync', () => {
  const now = Date.parse('2026-11-26T09:00:00Z');
  const until = now + 5000;
  const clock = new Date(until).toLocaleTimeString();

  it('names the rate limit’s pause while it lasts, before any failure being retried', () => {
    const status = { pausedUntil: until, lastError: 'GET /v0/app/Tasks failed (429); retrying.' };
    expect(serviceWaitText(status, now)).toBe(
      `The service asked to slow down (rate limit): waiting until ${clock}, then going on.`,
    );
    expect(pauseText(status, now)).toBe(`paused by the rate limit until ${clock}`);
  });

  it('gives the failure being retried once no pause holds, and nothing when all is well', () => {
    const lastError = 'GET /v0/app/Tasks failed (503); retrying.';
    expect(serviceWaitText({ pausedUntil: now - 1, lastError }, now)).toBe(lastError);
    expect(pauseText({ pausedUntil: now - 1 }, now)).toBeUndefined();
    expect(serviceWaitText({}, now)).toBeUndefined();
    expect(serviceWaitText(undefined, now)).toBeUndefined();
  });
});
