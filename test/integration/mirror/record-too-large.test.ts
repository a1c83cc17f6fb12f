/**
 * A record larger than the copy may hold (past the local write route's 8 MiB bound): the pull stops with an
 * error naming the record and the bound, and nothing of the write that met it is in the copy (it used to end
 * in a bare 413, after the records before it in the write were written). Once the service sends the record at
 * a size the copy holds, a pull makes the copy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxiedAnswer } from '../../support/fault-proxy';
import { allRecords, expectCopyEqualsRemote, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness;
let big: string;

beforeAll(async () => {
  h = await startMirrorHarness({ records: 5, fast: true });
  big = (await allRecords(h.hostedClient, h.baseId, 'People'))[2]!.id;
}, 60_000);
afterAll(() => h.close());

/** The service's page with one record's Notes padded past 9 MiB. */
function padded(answer: ProxiedAnswer): ProxiedAnswer {
  const body = JSON.parse(answer.body.toString('utf8')) as {
    records?: { id: string; fields: Record<string, unknown> }[];
  };
  for (const r of body.records ?? [])
    if (r.id === big)
      for (const [k, v] of Object.entries(r.fields))
        if (typeof v === 'string' && v.startsWith('Line one')) r.fields[k] = v + 'x'.repeat(9 * 1024 * 1024);
  return { ...answer, body: Buffer.from(JSON.stringify(body)) };
}

describe('a record larger than the copy may hold', () => {
  it('stops the pull naming the record and the bound, with nothing of its write in the copy', async () => {
    h.proxy.inject(
      { type: 'rewrite', rewrite: padded },
      { match: (r) => r.method === 'GET' && /\/v0\/app\w+\/tbl\w+/.test(r.path), times: Infinity },
    );
    const mirrors = h.mirrors();
    const e = await mirrors
      .makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId })
      .catch((x: unknown) => x);
    expect(String(e)).toMatch(
      new RegExp(
        `record ${big} of table tbl\\w+ is \\d+ bytes, over the \\d+ bytes a record of the copy may hold`,
      ),
    );
    const [partial] = await mirrors.list();
    expect(partial).toMatchObject({ state: 'partial' });
    // Records of other writes (other pages) are in the copy, each as the service has it; that one is not.
    const service = new Map((await allRecords(h.hostedClient, h.baseId, 'People')).map((r) => [r.id, r]));
    const copied = await allRecords(h.localClient, h.baseId, 'People');
    expect(copied.map((r) => r.id)).not.toContain(big);
    for (const r of copied) expect(r.fields).toEqual(service.get(r.id)!.fields);

    h.proxy.reset();
    await mirrors.remove(partial!.id, { force: true });
    const summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
    expect(summary.state).toBe('ready');
    await expectCopyEqualsRemote(h, ['People', 'Companies']);
  });
});
