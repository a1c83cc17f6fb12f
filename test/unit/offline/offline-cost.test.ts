/** What a copy costs, reckoned from the tables and the sizes the app counted before (issue 26). */
import { describe, expect, it } from 'vitest';
import { offlineCost } from '../../../services/offline/offline-cost';

describe('offlineCost', () => {
  it('is a total where every size is known: a call per 100 records, the chains’ ends and the schema', () => {
    expect(
      offlineCost([
        { name: 'Teams', size: 6 },
        { name: 'People', size: 200 },
        { name: 'Tasks', size: 50_000 },
      ]),
    ).toEqual({ calls: 2 + (3 + 1) + (3 + 2) + (3 + 500), uncounted: [] });
    expect(offlineCost([{ name: 'Empty', size: 0 }])).toEqual({ calls: 5, uncounted: [] });
  });

  it('is a floor naming the tables whose size is not known', () => {
    expect(offlineCost([{ name: 'Teams', size: 101 }, { name: 'Tasks' }])).toEqual({
      calls: 2 + (3 + 2) + 3,
      uncounted: ['Tasks'],
    });
  });
});
