/**
 * Records by id (`recordsByIds`) against the real server through the fault proxy: a page of ids a request, in
 * the caller's order, within a filter; fewer ids a request after the service refuses a set as too much work,
 * learnt for the table; a formula wrong at any size refused after a request per halving; POST when long.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RecordTableError, MAX_URL_LENGTH } from '../../../core/api/index';
import type { RecordTableClient, TableClient } from '../../../core/api/index';
import type { ProxiedRequest } from '../../support/fault-proxy';
import { startHarness } from './setup';
import type { Harness } from './setup';

let h: Harness;
let client: RecordTableClient;
let tasks: TableClient;
let all: { id: string; name: string }[];

beforeAll(async () => {
  h = await startHarness({ demo: { largeTableRecords: 400 }, rateLimit: 'off' });
  client = h.client({ requestsPerSecond: 100 });
  tasks = client.table(h.baseId, 'Tasks');
  all = (await tasks.all({ fields: ['Name'] })).map((r) => ({ id: r.id, name: String(r.fields.Name) }));
  h.proxy.reset();
});
afterEach(() => h.proxy.reset());
afterAll(() => h.close());

const idsIn = (r: ProxiedRequest): number => {
  const text = r.method === 'GET' ? decodeURIComponent(r.path.replace(/\+/g, ' ')) : r.body;
  return text.split('RECORD_ID()').length - 1;
};
const listRequests = () => h.proxy.log.filter((r) => r.path.includes('/Tasks'));
const tooMuchWork = JSON.stringify({
  error: {
    type: 'INVALID_FILTER_BY_FORMULA',
    message:
      'The formula for filtering records is too expensive: it needs more work than one request may take.',
  },
});

describe('records by id', () => {
  it('reads 250 ids in three requests, in the order asked, leaving out ids the table does not have', async () => {
    const wanted = all
      .slice(0, 250)
      .map((r) => r.id)
      .reverse();
    const missing = 'recAAAAAAAAAAAAAA';
    const records = await tasks.recordsByIds(
      [...wanted.slice(0, 10), missing, ...wanted.slice(10), wanted[0]!],
      {
        fields: ['Name'],
      },
    );
    expect(records.map((r) => r.id)).toEqual(wanted);
    expect(records[0]!.fields).toEqual({ Name: all[249]!.name });
    expect(listRequests().map(idsIn)).toEqual([100, 100, 51]);
    expect(listRequests().every((r) => r.method === 'GET')).toBe(true);
  });

  it('keeps to a filter given with the ids', async () => {
    const wanted = all.slice(0, 20);
    const kept = wanted.filter((r) => r.name.includes('1'));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(wanted.length);
    const records = await tasks.recordsByIds(
      wanted.map((r) => r.id),
      { fields: ['Name'], formula: "FIND('1', {Name}) > 0" },
    );
    expect(records.map((r) => r.id)).toEqual(kept.map((r) => r.id));
  });

  it('asks for half as many ids after a refusal as too much work, and keeps that size for the table', async () => {
    const other = h.client({ requestsPerSecond: 100 }).table(h.baseId, 'Tasks');
    // The service refuses more than 30 ids a request (as the local server once did past 60 on 50,000 records).
    h.proxy.inject(
      { type: 'status', status: 422, body: tooMuchWork },
      { match: (r) => idsIn(r) > 30, times: Infinity },
    );
    const wanted = all.slice(0, 200).map((r) => r.id);
    const records = await other.recordsByIds(wanted, { fields: ['Name'] });
    expect(records.map((r) => r.id)).toEqual(wanted);
    // Two refused at 100, a probe refused at 50, a probe at 25 that passes, then the other 175 at 25.
    const sizes = listRequests().map(idsIn);
    expect(sizes.slice(0, 4)).toEqual([100, 100, 50, 25]);
    expect(sizes.slice(4)).toEqual([25, 25, 25, 25, 25, 25, 25]);

    h.proxy.log.length = 0;
    await other.recordsByIds(wanted.slice(0, 60), { fields: ['Name'] });
    expect(listRequests().map(idsIn)).toEqual([25, 25, 10]);
  });

  it('gives up on a formula refused at any size after a request per halving, saying what it read', async () => {
    const wanted = all.slice(0, 300).map((r) => r.id);
    const error = await tasks
      .recordsByIds(wanted, { fields: ['Name'], formula: '{No such field} = 1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordTableError);
    expect((error as RecordTableError).status).toBe(422);
    // Three at 100, then one probe each at 50, 25, 12, 6, 3, 1.
    expect(listRequests().length).toBe(9);
    expect((error as RecordTableError).completed).toEqual(wanted.map(() => undefined));
    expect((error as RecordTableError).message).toContain('0 of 300 ids read');
  });

  it('sends a long request as POST listRecords, its ids within the formula limit', async () => {
    const wanted = all.slice(0, 100);
    const kept = wanted.filter((_, i) => i % 2 === 0);
    // A view filter long enough alone to take the URL past the limit: every other name, and names nobody has.
    const names = [...kept.map((r) => r.name), ...Array.from({ length: 300 }, (_, i) => `nobody ${i}`)];
    const longFilter = `OR(${names.map((n) => `{Name} = ${JSON.stringify(n)}`).join(', ')})`;
    expect(encodeURIComponent(longFilter).length).toBeGreaterThan(MAX_URL_LENGTH);
    const records = await tasks.recordsByIds(
      wanted.map((r) => r.id),
      { fields: ['Name'], formula: longFilter },
    );
    const named = new Set(kept.map((r) => r.name));
    expect(records.map((r) => r.id)).toEqual(wanted.filter((r) => named.has(r.name)).map((r) => r.id));
    const sent = listRequests();
    expect(sent.length).toBe(1);
    expect(sent[0]!.method).toBe('POST');
    expect(sent[0]!.path).toContain('/listRecords');
    expect(idsIn(sent[0]!)).toBe(100);
  });
});
