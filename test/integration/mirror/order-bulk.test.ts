/**
 * A copy's order where more than 100 records share their creation time (a bulk import within one of
 * Airtable's whole seconds): the walk's four chains interleave them, a read of 100 ids orders only those, and
 * the copy must still list all of them in the service's order (issue 22, item 3). The records are put on the
 * service through its private path, which keeps the creation time it is given.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

const BULK = 250;
let h: MirrorHarness;

beforeAll(async () => {
  h = await startMirrorHarness({ fast: true, records: 10 });
}, 60_000);
afterAll(() => h.close());

const recordId = () =>
  `rec${randomBytes(32)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 14)}`;

it('lists a group of 250 records made in one second in the service’s order', async () => {
  const meta = await h.hostedClient.meta.baseSchema(h.baseId);
  const people = meta.find((t) => t.name === 'People')!;
  // After the harness's records, as the service's order (creation order) has them.
  const createdTime = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000).toISOString();
  const records = Array.from({ length: BULK }, (_, i) => ({
    id: recordId(),
    createdTime,
    fields: { [people.primaryFieldId]: `Bulk ${String(i).padStart(3, '0')}` },
  }));
  const put = await fetch(`${h.hosted.url}/_tabledesk/mirror/bases/${h.baseId}/tables/${people.id}/records`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.hosted.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ records }),
  });
  expect(put.status, await put.clone().text()).toBe(200);

  const theirs = (await h.hostedClient.table(h.baseId, 'People').all()).map((r) => r.fields.Name);
  expect(theirs.filter((n) => String(n).startsWith('Bulk'))).toHaveLength(BULK);
  const mirrors = h.mirrors({ partitions: 4 });
  const summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
  expect(summary.state).toBe('ready');
  const mine = (await h.localClient.table(h.baseId, 'People').all()).map((r) => r.fields.Name);
  expect(mine).toEqual(theirs);
});
