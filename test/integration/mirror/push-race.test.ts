/**
 * After the service accepts a push, the copy takes its answers (values it normalised, cells it computed): not
 * over an edit made in the copy while the push was under way, which stays and goes with the next sync. Here
 * the service's answer differs from what was sent (the proxy plays a service that normalises the text) and the
 * edit lands just before that answer is written into the copy.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api/index';
import { beforeFirstPost, startMirrorHarness } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('an edit in the copy during a push', () => {
  it('is not overwritten by the answer the push writes back, and is sent next', async () => {
    h = await startMirrorHarness({ records: 3, fast: true });
    const harness = h;
    const { id } = await h.mirrors().makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
    const people = (await h.hostedClient.meta.baseSchema(h.baseId)).find((t) => t.name === 'People')!;
    const notes = people.fields.find((f) => f.name === 'Notes')!.id;
    const remote = h.hostedClient.table(h.baseId, 'People');
    const copy = h.localClient.table(h.baseId, 'People');
    const p0 = (await remote.all())[0]!.id;
    await copy.update(p0, { Notes: '  sent  ' });
    h.proxy.inject(
      {
        type: 'rewrite',
        rewrite: (answer) => {
          const body = JSON.parse(answer.body.toString()) as {
            records: { fields: Record<string, unknown> }[];
          };
          for (const r of body.records) r.fields[notes] = 'sent';
          return { ...answer, body: Buffer.from(JSON.stringify(body)) };
        },
      },
      { match: (req) => req.method === 'PATCH' },
    );
    const racing = h.mirrors({
      fetch: beforeFirstPost(`/tables/${people.id}/records`, async () => {
        await harness.localClient.table(harness.baseId, 'People').update(p0, { Age: 99 });
      }),
    });
    await racing.sync(id);
    // The answer's normalised text where the copy was as the push read it, the edit where it was not.
    expect((await copy.get(p0)).fields).toMatchObject({ Notes: 'sent', Age: 99 });
    await racing.sync(id);
    expect((await remote.get(p0)).fields.Age).toBe(99);
  });

  it('is not overwritten by the merge the push writes before it sends, and is sent next', async () => {
    h = await startMirrorHarness({ records: 3, fast: true });
    const harness = h;
    const { id } = await h.mirrors().makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
    const remote = h.hostedClient.table(h.baseId, 'People');
    const copy = h.localClient.table(h.baseId, 'People');
    const p0 = (await remote.all())[0]!;
    const notes = p0.fields.Notes;
    await copy.update(p0.id, { Notes: 'typed, then undone' });
    // The window: the push has read the copy and asks the service for the records changed here. Just then the
    // other user changes p0 (so the merge has something to write into the copy), and in the copy p0's Name is
    // typed and its Notes put back as they were.
    let raced = false;
    const racingClient = new RecordTableClient({
      baseUrl: h.proxy.url,
      apiKey: h.hosted.apiKey,
      requestsPerSecond: 1000,
      minSpacingMs: 1,
      fetch: async (input, init) => {
        // The read by id (its formula in the query, or in the body of a POST listRecords), not the id sweep.
        const formula = new URL(String(input)).searchParams.get('filterByFormula') ?? '';
        const body = typeof init?.body === 'string' ? init.body : '';
        if (!raced && `${formula} ${body}`.includes('RECORD_ID() = ')) {
          raced = true;
          await remote.update(p0.id, { Age: 70 });
          await harness.localClient
            .table(harness.baseId, 'People')
            .update(p0.id, { Name: 'typed during the push', Notes: notes });
        }
        return globalThis.fetch(input, init);
      },
    });
    const racing = h.mirrors({ clientFor: () => racingClient });
    await racing.sync(id);
    expect(raced).toBe(true);
    expect((await copy.get(p0.id)).fields).toMatchObject({ Name: 'typed during the push', Notes: notes });
    // The merge of p0 as read is void: the service never got the Notes the copy no longer holds.
    expect(h.proxy.log.filter((e) => e.body.includes('typed, then undone'))).toEqual([]);
    await racing.sync(id);
    const want = { Name: 'typed during the push', Notes: notes, Age: 70 };
    expect((await remote.get(p0.id)).fields).toMatchObject(want);
    expect((await copy.get(p0.id)).fields).toMatchObject(want);
    expect(await racing.conflicts(id)).toEqual([]);
  });
});
