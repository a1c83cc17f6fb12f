import { describe, expect, it } from 'vitest';
import { BaseScheduler, TokenGate, queuePriority } from '../../../core/api/scheduler';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const gaps = (xs: number[]) => xs.slice(1).map((x, i) => x - (xs[i] ?? 0));

describe('TokenGate: the starts of every base of one token, spaced', () => {
  it('spaces starts however many ask at once', async () => {
    const gate = new TokenGate(40);
    const starts: number[] = [];
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 8 }, () => gate.take(0).then(() => void starts.push(Date.now()))));
    // A start's time is read a little after it was taken (in a later microtask; on a busy machine a GC
    // pause can fall in between), so gaps between the reads are noisy. The eighth start cannot come sooner than
    // seven spacings after the first was asked for.
    expect(starts).toHaveLength(8);
    expect((starts[7] ?? 0) - t0).toBeGreaterThanOrEqual(7 * 40 - 1);
  });

  it('admits interactive waiters before background ones, in arrival order within each', async () => {
    const gate = new TokenGate(30);
    const order: string[] = [];
    const take = (name: string, p: number) => gate.take(p).then(() => void order.push(name));
    await Promise.all([take('first', 0), take('bg1', 0), take('bg2', 0), take('fg1', 10), take('fg2', 10)]);
    expect(order).toEqual(['first', 'fg1', 'fg2', 'bg1', 'bg2']);
  });

  it('drops a waiter whose signal aborts, and gives its turn to the next', async () => {
    const gate = new TokenGate(60);
    await gate.take(0);
    const c = new AbortController();
    const order: string[] = [];
    const dropped = gate.take(0, c.signal).then(
      () => void order.push('dropped'),
      (e: unknown) => e,
    );
    const next = gate.take(0).then(() => void order.push('next'));
    c.abort(new Error('gone'));
    expect(await dropped).toEqual(new Error('gone'));
    await next;
    expect(order).toEqual(['next']);
  });
});

describe('BaseScheduler behind a token gate', () => {
  it('keeps a base at its spacing from the real starts when the gate held one back', async () => {
    const gate = new TokenGate(80);
    const s = new BaseScheduler(200);
    // A first start, so the next ones are not cold (a cold start holds the next one back on its own).
    await s.run(async () => undefined, 0, undefined, gate);
    await sleep(350);
    // Another base takes the gate's start: the next is due 80 ms later.
    await gate.take(0);
    const starts: number[] = [];
    const task = async () => void starts.push(Date.now());
    await Promise.all(
      Array.from({ length: 2 }, () => s.run(task, queuePriority('interactive', false), undefined, gate)),
    );
    // The first waited 80 ms at the gate after p-queue let it go; the next keeps the base's 200 ms from
    // that real start (p-queue alone would let it go 200 ms after it left the queue, 120 ms after it started).
    // (With a margin for a late read of the first start: without the hold the gap is 120 ms.)
    expect(Math.min(...gaps(starts))).toBeGreaterThanOrEqual(170);
  });
});
