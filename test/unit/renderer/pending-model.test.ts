import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../core/contract';
import { countsText, importItem, PendingModel } from '../../../renderer/src/pending/pending-model';

const target = { connectionId: 'local', baseId: 'appTest', table: 'People' };
type ImportState = EventPayload<'import.progress'>;
const state = (over: Partial<ImportState>): ImportState => ({
  importId: 'imp1',
  target,
  mode: 'create',
  mergeOn: [],
  total: 100,
  done: 30,
  created: 28,
  updated: 0,
  refusedCount: 2,
  refused: [],
  uncertain: [],
  state: 'running',
  ...over,
});

describe('pending imports', () => {
  it('lists a running import as being sent, with Cancel', () => {
    expect(importItem(state({}))).toMatchObject({
      kind: 'import',
      state: 'sending',
      title: 'import of 100 rows: 30 answered, 2 refused',
      actions: ['cancel'],
    });
  });

  it('lists a cancelled import with rows left as waiting, with Resume and Dismiss', () => {
    expect(importItem(state({ state: 'cancelled', refusedCount: 0 }))).toMatchObject({
      state: 'waiting',
      title: 'import of 100 rows: 30 answered, 70 left unsent (cancelled)',
      actions: ['resume', 'forget'],
    });
  });

  it('lists a failed import as refused with the error, and batches in doubt as uncertain', () => {
    const error = { kind: 'network' as const, message: 'Connection lost' };
    expect(importItem(state({ state: 'failed', error }))).toMatchObject({
      state: 'refused',
      error: 'Connection lost',
      actions: ['resume', 'forget'],
    });
    const doubt = importItem(state({ state: 'done', done: 100, uncertain: [{ lines: [2, 3], error }] }));
    expect(doubt).toMatchObject({ state: 'uncertain', actions: ['forget'], error: 'Connection lost' });
    expect(doubt?.title).toContain('2 rows may or may not have been created');
  });

  it('leaves out a finished import and counts the others in the status bar', () => {
    expect(importItem(state({ state: 'done', done: 100 }))).toBeUndefined();
    const model = new PendingModel();
    const items = [state({}), state({ importId: 'imp2', state: 'cancelled' })].flatMap(
      (s) => importItem(s) ?? [],
    );
    model.setSource('imports', items, async () => undefined);
    expect(countsText(model.counts())).toBe('2 waiting');
  });
});
