/**
 * 429s and dropped connections between the mirror and the service, during a pull and during a push: nothing
 * duplicated, nothing lost, and the copy ends equal to the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableClient } from '../../../core/api/index';
import { allRecords, expectCopyEqualsRemote, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';
import type { Mirrors } from '../../../services/mirror/index';
import type { ProxiedRequest } from '../../support/fault-proxy';

let h: MirrorHarness;
let mirrors: Mirrors;
let copy: TableClient;
let remote: TableClient;

beforeAll(async () => {
  h = await startMirrorHarness({ records: 250 });
  mirrors = h.mirrors();
  copy = h.localClient.table(h.baseId, 'People');
  remote = h.hostedClient.table(h.baseId, 'People');
}, 60_000);
afterAll(() => h.close());

const isList = (r: ProxiedRequest) =>
  r.method === 'GET' && r.path.includes('/v0/app') && !r.path.includes('/meta/');
const isPatch = (r: ProxiedRequest) => r.method === 'PATCH';
const isCreate = (r: ProxiedRequest) =>
  r.method === 'POST' && !r.path.includes('listRecords') && !r.path.includes('/meta/');

describe('faults', () => {
  it('leaves a partial mirror, never a ready one, when a pull is cancelled', async () => {
    h.proxy.latencyMs = 200;
    let cancelled = false;
    const pull = mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId }, (p) => {
      if (p.records > 0 && !cancelled) {
        cancelled = true;
        mirrors.cancel(p.mirrorId);
      }
    });
    await expect(pull).rejects.toThrow();
    h.proxy.latencyMs = 0;
    const [partial] = await mirrors.list();
    expect(partial).toMatchObject({ state: 'partial' });
    expect(partial!.lastSyncedAt).toBeUndefined();
  }, 60_000);

  it('pulls everything through 429s and connections dropped before and after the service answered', async () => {
    h.proxy.inject({ type: 'status', status: 429, retryAfter: 1 }, { match: isList, times: 2 });
    h.proxy.inject({ type: 'drop-before' }, { match: isList, times: 2 });
    h.proxy.inject({ type: 'drop-after' }, { match: isList, times: 2 });
    const summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
    expect(summary.state).toBe('ready');
    expect(h.proxy.log.filter((r) => r.fault !== undefined)).toHaveLength(6);
    await expectCopyEqualsRemote(h, ['People', 'Companies']);
  }, 120_000);

  it('pushes edits and creates through 429s and dropped connections, each create once', async () => {
    const ids = (await allRecords(h.localClient, h.baseId, 'People')).map((r) => r.id);
    for (let i = 0; i < 25; i++) await copy.update(ids[i]!, { Notes: `offline ${i}` });
    await copy.createMany(Array.from({ length: 12 }, (_, i) => ({ Name: `Offline new ${i}`, Age: i })));
    h.proxy.reset();
    h.proxy.inject({ type: 'status', status: 429, retryAfter: 1 }, { match: isPatch, times: 1 });
    h.proxy.inject({ type: 'drop-after' }, { match: isPatch, times: 1 });
    h.proxy.inject({ type: 'drop-before' }, { match: isPatch, times: 1 });
    h.proxy.inject({ type: 'status', status: 429, retryAfter: 1 }, { match: isCreate, times: 1 });
    // The service makes the records, the answer is lost: this sync cannot know and stops.
    h.proxy.inject({ type: 'drop-after' }, { match: isCreate, times: 1 });
    await expect(mirrors.sync((await mirrors.list())[0]!.id)).rejects.toThrow();
    // The next sync finds them on the service and adopts them instead of sending them again.
    const result = await mirrors.sync((await mirrors.list())[0]!.id);
    expect(result.conflicts).toBe(0);
    for (let i = 0; i < 25; i++) expect((await remote.get(ids[i]!)).fields.Notes).toBe(`offline ${i}`);
    const made = await remote.all({ formula: "FIND('Offline new', {Name}) = 1" });
    expect(made.map((r) => r.fields.Name).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `Offline new ${i}`).sort(),
    );
    await expectCopyEqualsRemote(h, ['People', 'Companies']);
    expect((await mirrors.list())[0]!.localChanges).toBe(0);
    expect(h.proxy.log.filter((r) => r.status === 429 && r.fault === undefined)).toEqual([]);
  }, 120_000);

  it('reads the changed records in smaller requests when the service refuses as many ids as too much work', async () => {
    const ids = (await allRecords(h.localClient, h.baseId, 'People')).map((r) => r.id);
    for (let i = 0; i < 120; i += 10)
      await copy.updateMany(
        ids.slice(i, i + 10).map((id, k) => ({ id, fields: { Notes: `many ${i + k}` } })),
      );
    h.proxy.reset();
    // As the local server refused an id formula over 60 ids on its 50,000-record table.
    const ids_ = (r: ProxiedRequest) => decodeURIComponent(r.path + r.body).split('RECORD_ID()').length - 1;
    const refusal = JSON.stringify({
      error: {
        type: 'INVALID_FILTER_BY_FORMULA',
        message: 'The formula needs more work than one request may take',
      },
    });
    h.proxy.inject(
      { type: 'status', status: 422, body: refusal },
      { match: (r) => ids_(r) > 40, times: Infinity },
    );
    const result = await mirrors.sync((await mirrors.list())[0]!.id);
    expect(result).toMatchObject({ sent: 120, conflicts: 0 });
    expect(h.proxy.log.some((r) => r.status === 422)).toBe(true);
    for (let i = 0; i < 120; i += 17) expect((await remote.get(ids[i]!)).fields.Notes).toBe(`many ${i}`);
    await expectCopyEqualsRemote(h, ['People', 'Companies']);
  }, 120_000);
});
