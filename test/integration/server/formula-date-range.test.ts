/** A formula whose date leaves the range a Date holds is a blank cell or a 4xx, never a 500 (fuzz seed -1478011813). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 300 } });
});
afterAll(async () => {
  await s.close();
});

it('adds, lists and filters by a formula field whose date is out of range', async () => {
  const tables = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
  const tasks = (tables.body.tables as { id: string; name: string }[]).find((t) => t.name === 'Tasks');
  const formula = '{Due} + 100000000000';
  const made = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${tasks?.id}/fields`, {
    name: 'Far',
    type: 'formula',
    options: { formula },
  });
  expect(made.status).toBe(200);
  const listed = await s.request(
    'GET',
    `/v0/${s.baseId}/Tasks?pageSize=5&filterByFormula=${encodeURIComponent('AND({Due}, OR({Far}, TRUE()))')}`,
  );
  expect(listed.status).toBe(200);
  expect(listed.body.records).toHaveLength(5);
  for (const r of listed.body.records as { fields: Record<string, unknown> }[])
    expect(r.fields.Far).toBeUndefined();
});
