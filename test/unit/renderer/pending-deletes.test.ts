import { describe, expect, it } from 'vitest';
import { countsOf, countsText, deleteItem } from '../../../renderer/src/pending/pending-model';

const target = { connectionId: 'local', baseId: 'appTest', table: 'Tasks' };

describe('deletes in the pending changes panel', () => {
  it('shows a delete under way as being sent, with nothing to act on', () => {
    const item = deleteItem({ id: 'd1', target, state: 'sending', records: 25, at: 1 });
    expect(item).toMatchObject({
      kind: 'delete',
      state: 'sending',
      title: 'delete of 25 records',
      actions: [],
    });
    expect(countsText(countsOf([item]))).toBe('1 waiting');
  });

  it('shows the rows a failed delete left as refused, with the error, Retry and Dismiss', () => {
    const error = { kind: 'invalid-request' as const, message: 'Refused by the service' };
    const item = deleteItem({ id: 'd2', target, state: 'failed', records: 1, at: 2, error });
    expect(item).toMatchObject({
      key: 'd2',
      state: 'refused',
      title: 'delete of 1 record: still on the service',
      error: 'Refused by the service',
      actions: ['retry', 'forget'],
    });
    expect(countsText(countsOf([item]))).toBe('1 refused');
  });
});
