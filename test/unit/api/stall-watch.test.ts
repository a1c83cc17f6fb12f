/**
 * A transfer is bounded by its progress, not its total time: it goes on past any number of windows while each
 * brings its floor, and ends at the first window with no answer, nothing, or a trickle.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StallWatch } from '../../../core/api/stall-watch';

const LIMITS = { windowMs: 1000, minBytes: 100 };
const stalled = () => new Error('stalled');

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Past one window and the check that follows it. */
const window = () => vi.advanceTimersByTime(LIMITS.windowMs + 5);

describe('StallWatch', () => {
  it('ends a transfer with no answer within the first window', () => {
    const watch = new StallWatch(LIMITS, stalled);
    vi.advanceTimersByTime(LIMITS.windowMs - 10);
    expect(watch.signal.aborted).toBe(false);
    window();
    expect(watch.signal.aborted).toBe(true);
    expect(watch.hasStalled).toBe(true);
    expect(watch.error(new Error('AbortError'))).toEqual(new Error('stalled'));
  });

  it('lets a slow transfer go on for many windows while each brings its floor', () => {
    const watch = new StallWatch(LIMITS, stalled);
    watch.answered();
    for (let i = 0; i < 50; i++) {
      vi.advanceTimersByTime(500);
      watch.moved(60);
    }
    // 25 windows: a total timeout of one window would have ended it at the first.
    expect(watch.signal.aborted).toBe(false);
    watch.stop();
    window();
    expect(watch.signal.aborted).toBe(false);
  });

  it('ends a trickle: a window bringing less than its floor', () => {
    const watch = new StallWatch(LIMITS, stalled);
    watch.answered();
    window();
    expect(watch.signal.aborted).toBe(false);
    for (let i = 0; i < 9; i++) {
      vi.advanceTimersByTime(100);
      watch.moved(10);
    }
    window();
    expect(watch.hasStalled).toBe(true);
  });

  it('ends a body that stops after its headers, and passes on the parent’s abort as it is', () => {
    const watch = new StallWatch(LIMITS, stalled);
    watch.answered();
    window();
    expect(watch.signal.aborted).toBe(false);
    window();
    expect(watch.hasStalled).toBe(true);

    const parent = new AbortController();
    const child = new StallWatch(LIMITS, stalled, parent.signal);
    parent.abort(new Error('cancelled'));
    expect(child.signal.reason).toEqual(new Error('cancelled'));
    expect(child.hasStalled).toBe(false);
    expect(child.error(new Error('x'))).toEqual(new Error('x'));
    child.stop();
  });

  it('is aborted from the start under a parent already aborted, with its reason', () => {
    const parent = new AbortController();
    parent.abort(new Error('cancelled before'));
    const watch = new StallWatch(LIMITS, stalled, parent.signal);
    expect(watch.signal.aborted).toBe(true);
    expect(watch.signal.reason).toEqual(new Error('cancelled before'));
    watch.stop();
  });
});
