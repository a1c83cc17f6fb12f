/** Property: any table and field name survives the round trip through the URL, the query and the body. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 1 } });
});

afterAll(async () => {
  await s.close();
});

// Names as users type them: any text, trimmed by the service, so generated without outer spaces.
const name = fc
  .string({ unit: fc.constantFrom(...'ab /?#%+&=[]{}"\'\\é🎉.,:;@!*()~'), minLength: 1, maxLength: 24 })
  .map((x) => x.trim())
  .filter((x) => x.length > 0);

describe('names on the wire', () => {
  it('any table name (encoded once) and field name (in fields[] and sort) addresses the same thing', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(name, name, async (tableName, fieldName) => {
        const unique = `${tableName} ${n++}`;
        const created = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
          name: unique,
          fields: [{ name: fieldName, type: 'singleLineText' }],
        });
        expect(created.status).toBe(200);
        const path = `/v0/${s.baseId}/${encodeURIComponent(unique)}`;
        expect((await s.request('POST', path, { fields: { [fieldName]: unique } })).status).toBe(200);
        const f = encodeURIComponent(fieldName);
        const list = await s.request('GET', `${path}?fields%5B%5D=${f}&sort%5B0%5D%5Bfield%5D=${f}`);
        expect(list.status).toBe(200);
        expect(list.body.records.map((r: { fields: Record<string, string> }) => r.fields[fieldName])).toEqual(
          [unique],
        );
      }),
      { numRuns: 40 },
    );
  });
});
