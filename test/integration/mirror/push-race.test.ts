/**
 * After the service accepts a push, the copy takes its answers (values it normalised, cells it computed): not
 * over an edit made in the copy while the push was under way, which stays and goes with the next sync. Here
 * the service's answer differs from what was sent (the proxy plays a service that normalises the text) and the
 * edit lands just before that answer is written into the copy.
 */
import { afterEach, describe, expect, it } from 'vitest';
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
});
