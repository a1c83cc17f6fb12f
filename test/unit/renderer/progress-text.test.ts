/** The words of a mirror's pull or sync in progress (renderer/src/offline/progress-text.ts). */
import { describe, expect, it } from 'vitest';
import { progressText } from '../../../renderer/src/offline/progress-text';

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
