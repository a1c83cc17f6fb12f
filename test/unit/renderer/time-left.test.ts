import { describe, expect, it } from 'vitest';
import { msLeft, timeLeftText } from '../../../renderer/src/ui/time-left';

describe('time left of a walk of pages', () => {
  it('uses the pace of the walk once it has one, else the connection rate, else says it is estimating', () => {
    // 10 pages in 2 s: 5 pages/s, so 50 pages take 10 s, whatever the connection's rate says.
    expect(msLeft(50, { pages: 10, ms: 2000 }, 1)).toBe(10_000);
    // One page is no pace yet: the connection's 5 requests/s decide.
    expect(msLeft(50, { pages: 1, ms: 5000 }, 5)).toBe(10_000);
    expect(msLeft(50, { pages: 0, ms: 0 }, undefined)).toBeUndefined();
    expect(msLeft(0, { pages: 0, ms: 0 }, undefined)).toBe(0);
  });

  it('reads as people say it', () => {
    expect(timeLeftText(undefined)).toBe('estimating the time left…');
    expect(timeLeftText(800)).toBe('a moment left');
    expect(timeLeftText(52_400)).toBe('about 52 s left');
    expect(timeLeftText(596_000)).toBe('about 10 min left');
  });
});
