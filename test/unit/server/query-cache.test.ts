import { describe, expect, it } from 'vitest';
import { QueryCache } from '../../../server/store/query-cache';

/** A cache over a version and a clock the test moves. */
function setUp(ttlMs = 1000) {
  const state = { version: 0, now: 0, made: 0 };
  const cache = new QueryCache(
    () => state.version,
    ttlMs,
    () => state.now,
  );
  const make = (value: number[]) => async () => {
    state.made++;
    await new Promise((r) => setTimeout(r, 1));
    return value;
  };
  const get = (key: string, value: number[] = [1, 2, 3]) => cache.get(key, make(value), (v) => v.length);
  return { state, cache, get };
}

describe('what filtered queries found, kept', () => {
  it('is made once for requests that ask at the same time, and served while nothing changes', async () => {
    const { state, cache, get } = setUp();
    const [a, b] = await Promise.all([get('q'), get('q')]);
    expect(a).toBe(b);
    expect(await get('q')).toBe(a);
    expect(cache.peek('q')).toBe(a);
    expect(state.made).toBe(1);
  });

  it('is made again after a write or past its lifetime, and peek never makes it', async () => {
    const { state, cache, get } = setUp(1000);
    await get('q');
    state.version++;
    expect(cache.peek('q')).toBeUndefined();
    await get('q');
    state.now += 1001;
    expect(cache.peek('q')).toBeUndefined();
    await get('q');
    expect(state.made).toBe(3);
  });

  it('serves the waiting requests but does not keep what was made while a write landed', async () => {
    const { state, cache, get } = setUp();
    const pending = get('q', [7]);
    state.version++;
    expect(await pending).toEqual([7]);
    expect(cache.peek('q')).toBeUndefined();
  });

  it('keeps nothing of a failure', async () => {
    const { cache } = setUp();
    await expect(
      cache.get(
        'q',
        () => Promise.reject(new Error('spent')),
        () => 0,
      ),
    ).rejects.toThrow('spent');
    expect(cache.peek('q')).toBeUndefined();
  });

  it('lets the least recently used go past its bound on values', async () => {
    const { cache, get } = setUp();
    const big = Array.from({ length: 800_000 }, (_, i) => i);
    await get('a', big);
    await get('b', big);
    cache.peek('a');
    await get('c', big);
    expect(cache.peek('a')).toBe(big);
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('c')).toBe(big);
  });
});
