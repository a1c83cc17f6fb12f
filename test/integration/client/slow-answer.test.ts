/**
 * An answer whose size is the user's data (a page of long texts runs to megabytes) is read for as long as it
 * moves, not within a total time: on a slow line the total timeout failed every such page (issue 24). One that
 * stops moving still ends within a window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api/index';
import { startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
let proxy: FaultProxy;
let base: string;
const RECORDS = 40;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 5 } });
  proxy = await startFaultProxy(s.url);
  const made = await s.request('POST', '/v0/meta/bases', {
    name: 'Long texts',
    tables: [
      {
        name: 'Notes',
        fields: [
          { name: 'Name', type: 'singleLineText' },
          { name: 'Text', type: 'multilineText' },
        ],
      },
    ],
  });
  base = made.body.id;
  for (let i = 0; i < RECORDS; i += 10)
    await s.request('POST', `/v0/${base}/Notes`, {
      records: Array.from({ length: 10 }, (_, k) => ({
        fields: { Name: `n${i + k}`, Text: 't'.repeat(50_000) },
      })),
    });
});
afterAll(async () => {
  await proxy.close();
  await s.close();
});

// A second's timeout, so a page of 2 MB sent over 3 s outlasts it; the backoff is short.
const client = () =>
  new RecordTableClient({ baseUrl: proxy.url, apiKey: s.apiKey, timeoutMs: 1000, maxRetries: 0 });

describe('a page of long texts on a slow line', () => {
  it('is read past the timeout while each window brings enough of it', async () => {
    proxy.inject({ type: 'drip', chunks: 40, everyMs: 75 }, { match: (r) => r.method === 'GET' });
    const page = await client().table(base, 'Notes').listPage({ pageSize: RECORDS });
    expect(page.records).toHaveLength(RECORDS);
    expect(page.records.every((r) => r.fields.Text === 't'.repeat(50_000))).toBe(true);
  });

  it('ends within a window once it stops moving, saying it stalled', async () => {
    proxy.inject({ type: 'drip', chunks: 4, everyMs: 5_000 }, { match: (r) => r.method === 'GET' });
    const err = await client()
      .table(base, 'Notes')
      .listPage({ pageSize: RECORDS })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toMatchObject({ kind: 'timeout' });
    expect((err as Error).message).toMatch(/stalled \(less than 64 KiB in 1 s\)/);
  });
});
