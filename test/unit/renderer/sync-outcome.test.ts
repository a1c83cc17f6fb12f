/** Which sync outcome the offline toolbar shows (renderer/src/offline/sync-outcome.ts, issue 22, item 6). */
import { describe, expect, it } from 'vitest';
import { syncOutcome } from '../../../renderer/src/offline/sync-outcome';

describe('the sync outcome shown', () => {
  const manualAt = Date.UTC(2026, 10, 29, 12);
  it('is the manual result until an automatic sync ends after it', () => {
    expect(syncOutcome({}, manualAt)).toBe('manual');
    expect(syncOutcome({ autoSyncAt: manualAt - 1 }, manualAt)).toBe('manual');
    // An automatic failure from before the manual sync is old news.
    expect(syncOutcome({ autoSyncAt: manualAt - 1, autoSyncError: 'Offline' }, manualAt)).toBe('manual');
  });
  it('is a later automatic failure, in place of the manual result', () => {
    expect(syncOutcome({ autoSyncAt: manualAt + 1, autoSyncError: 'Offline' }, manualAt)).toBe('auto-error');
  });
  it('is nothing once a later automatic sync succeeded: the manual counts are stale', () => {
    expect(syncOutcome({ autoSyncAt: manualAt + 1 }, manualAt)).toBe('none');
  });
  it('is the automatic failure when there is no manual result, and nothing when none failed', () => {
    expect(syncOutcome({ autoSyncAt: manualAt, autoSyncError: 'Offline' }, undefined)).toBe('auto-error');
    expect(syncOutcome({ autoSyncAt: manualAt }, undefined)).toBe('none');
    expect(syncOutcome({}, undefined)).toBe('none');
  });
});
