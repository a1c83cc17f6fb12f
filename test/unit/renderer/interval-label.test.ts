import { describe, expect, it } from 'vitest';
import { intervalLabel } from '../../../renderer/src/live/interval-label';

describe('the live-changes menu', () => {
  it('says what each choice costs an hour', () => {
    expect(intervalLabel(0)).toBe('Never');
    expect(intervalLabel(1)).toBe('Every second while focused (3,600 calls/hour by webhook)');
    expect(intervalLabel(10)).toBe('Every 10 s (360 calls/hour a table)');
    expect(intervalLabel(60)).toBe('Every 1 min (60 calls/hour a table)');
    expect(intervalLabel(900)).toBe('Every 15 min (4 calls/hour a table)');
  });
});
