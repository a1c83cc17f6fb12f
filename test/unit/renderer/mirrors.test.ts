/** A mirror's last sync, as the offline panel says it (renderer/src/offline/mirrors.ts). */
import { describe, expect, it } from 'vitest';
import { syncedText } from '../../../renderer/src/offline/mirrors';

describe('last sync', () => {
  const now = Date.UTC(2026, 0, 2, 12);
  it('says how long ago, or never', () => {
    expect(syncedText(undefined, now)).toBe('never synced');
    expect(syncedText(now - 20_000, now)).toBe('synced just now');
    expect(syncedText(now - 12 * 60_000, now)).toBe('synced 12 min ago');
    expect(syncedText(now - 3 * 3_600_000, now)).toBe('synced 3 h ago');
  });
});
