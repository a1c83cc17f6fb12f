/**
 * The rule for reading link names (services/links/names.ts): up to NAMES_UNASKED names at once never ask; more
 * ask the request budget first, with the calls they take, and a no leaves them unnamed (shown by id).
 */
import { describe, expect, it } from 'vitest';
import { MAX_IDS_PER_REQUEST } from '../../../core/api/by-ids';
import type { ConsentRequest } from '../../../services/budget/budget';
import { LinkNames, NAMES_UNASKED } from '../../../services/links/names';
import type { LinkedTables } from '../../../services/links/tables';

const ref = { connectionId: 'c', baseId: 'appA', tableId: 'tblPeople' };
const ids = (n: number) => Array.from({ length: n }, (_, i) => `rec${String(i).padStart(14, '0')}`);

/** Names read from a table that knows every id (it stands in for the service's reader by ids). */
function names(answer: boolean) {
  const asked: ConsentRequest[] = [];
  const errors: string[] = [];
  const read: number[] = [];
  const linked = {
    table: async () => ({
      name: 'People',
      primary: 'Name',
      byIds: async (wanted: readonly string[]) => {
        read.push(wanted.length);
        return { read: new Map(wanted.map((id) => [id, `name of ${id}`])), unread: [] };
      },
      firstNames: async () => ({ read: new Map(), done: false }),
    }),
  } as unknown as LinkedTables;
  const cache = new LinkNames(
    linked,
    () => undefined,
    (_connection, message) => errors.push(message),
    async () => false,
    async (request) => {
      asked.push(request);
      return answer;
    },
  );
  return { cache, asked, errors, read };
}

describe('link names: how many are read without asking', () => {
  it(`reads ${NAMES_UNASKED} names at once without asking`, async () => {
    const { cache, asked, read } = names(false);
    const got = await cache.names(ref, ids(NAMES_UNASKED));
    expect(Object.keys(got)).toHaveLength(NAMES_UNASKED);
    expect(asked).toEqual([]);
    expect(read).toEqual([NAMES_UNASKED]);
  });

  it('asks first for one more, with the calls it takes, and reads them once agreed', async () => {
    const { cache, asked } = names(true);
    const got = await cache.names(ref, ids(NAMES_UNASKED + 1));
    expect(Object.keys(got)).toHaveLength(NAMES_UNASKED + 1);
    expect(asked).toEqual([
      expect.objectContaining({
        purpose: 'names',
        calls: Math.ceil((NAMES_UNASKED + 1) / MAX_IDS_PER_REQUEST),
        subject: 'Show the names of 1,001 linked records of People',
      }),
    ]);
    expect(asked[0]!.calls).toBe(11);
  });

  it('leaves them unnamed on a no, and says why', async () => {
    const { cache, errors, read } = names(false);
    expect(await cache.names(ref, ids(NAMES_UNASKED + 1))).toEqual({});
    expect(read).toEqual([]);
    expect(errors).toEqual([expect.stringContaining('their API calls were not agreed to')]);
  });
});
