/** The offline mirror's words: progress, last sync, conflicting values shown and typed back. */
import { describe, expect, it } from 'vitest';
import { editedValue, valueText } from '../../../renderer/src/offline/conflict-values';
import { syncedText } from '../../../renderer/src/offline/mirrors';
import { progressText } from '../../../renderer/src/offline/progress-text';
import { pauseText, serviceWaitText } from '../../../renderer/src/status/client-wait';

describe('progress of a pull', () => {
  it('names tables, records, files, requests and the time left', () => {
    const p = {
      mirrorId: 'm',
      phase: 'records',
      tables: 3,
      tablesDone: 1,
      records: 1200,
      files: 4,
      filesMissing: 0,
      requests: 17,
    };
    expect(progressText({ ...p, phase: 'records', etaMs: 38_000 })).toBe(
      'Copying records: 1 of 3 tables · 1,200 records · 4 files · 17 requests · about 38 s left',
    );
    expect(progressText({ ...p, phase: 'push', requests: 1, files: 1 })).toBe(
      'Sending local changes: 1 of 3 tables · 1,200 records · 1 file · 1 request · time left not known yet',
    );
    expect(progressText({ ...p, phase: 'files', filesMissing: 2 })).toBe(
      'Downloading files: 1 of 3 tables · 1,200 records · 4 files · 2 not downloaded · 17 requests · time left not known yet',
    );
  });
});

describe('last sync', () => {
  const now = Date.UTC(2026, 0, 2, 12);
  it('says how long ago, or never', () => {
    expect(syncedText(undefined, now)).toBe('never synced');
    expect(syncedText(now - 20_000, now)).toBe('synced just now');
    expect(syncedText(now - 12 * 60_000, now)).toBe('synced 12 min ago');
    expect(syncedText(now - 3 * 3_600_000, now)).toBe('synced 3 h ago');
  });
});

describe('conflicting values', () => {
  it('shows each value as text, and no value as empty', () => {
    expect(valueText('Done')).toBe('Done');
    expect(valueText(3.5)).toBe('3.5');
    expect(valueText(true)).toBe('true');
    expect(valueText(['Bug', 'Docs'])).toBe('["Bug","Docs"]');
    expect(valueText(undefined)).toBe('(empty)');
    expect(valueText(null, '')).toBe('');
  });

  it('reads typed text in the shape of the values it stands between', () => {
    expect(editedValue('Both', { mine: 'Mine', theirs: 'Theirs' })).toBe('Both');
    expect(editedValue('42', { mine: 1, theirs: 2 })).toBe(42);
    expect(editedValue('42', { mine: 'a', theirs: 2 })).toBe('42');
    expect(editedValue('x', { mine: 1, theirs: undefined })).toBe('x');
    expect(editedValue('true', { mine: false, theirs: false })).toBe(true);
    expect(editedValue('["Bug"]', { mine: ['Docs'], theirs: [] })).toEqual(['Bug']);
    expect(editedValue('[oops', { mine: ['Docs'], theirs: [] })).toBe('[oops');
    expect(editedValue('  ', { mine: 'a', theirs: 'b' })).toBeNull();
  });
});

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
