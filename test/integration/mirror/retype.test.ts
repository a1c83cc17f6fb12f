/**
 * A field re-typed on the service (here the local server playing it re-types the field through its private
 * schema path, converting its cells as the hosted service does): the copy's merge base held the old type's
 * values, so the next merge compared them with cells of the new type. The base now takes the field afresh
 * and the table is read whole: no conflict and nothing sent that nobody made, an unsent edit in the field
 * listed (never lost), and a record deleted here deleted there as before.
 */
import { describe, expect, it } from 'vitest';
import type { TableSchema } from '../../../core/records/types';
import { offlineCopyOf } from './harness';

const c = offlineCopyOf({ records: 3, fast: true }, ['People', 'Companies']);

/** The service re-types People's `field` (its cells converted or cleared as the service does). */
async function retype(field: string, type: string, options?: Record<string, unknown>): Promise<void> {
  const { h } = c;
  const schema: TableSchema[] = await h.hostedClient.meta.baseSchema(h.baseId);
  const tables = schema.map((t) => ({
    id: t.id,
    name: t.name,
    primaryFieldId: t.primaryFieldId,
    fields: t.fields.map((f) =>
      t.name === 'People' && f.name === field
        ? { id: f.id, name: f.name, type, ...(options ? { options } : {}) }
        : f,
    ),
    views: t.views.map((v) => ({ id: v.id, name: v.name, type: v.type })),
  }));
  const res = await fetch(`${h.hosted.url}/_tabledesk/mirror/bases/${h.baseId}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${h.hosted.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Hosted CRM', tables }),
  });
  expect(res.status).toBe(200);
}

const person = async (n: number) =>
  (await c.remote('People').all({ formula: `{Name} = 'Person ${n}'` }))[0]!.id;

describe('a field re-typed on the service', () => {
  it('takes the service cells of the new type, with no conflict and nothing sent', async () => {
    await retype('Age', 'singleLineText');
    // The other user then edits one of them in the new type.
    await c.remote('People').update(await person(1), { Age: 'twenty-one' });
    const result = await c.mirrors.sync(c.summary.id);
    expect(result).toMatchObject({ sent: 0, conflicts: 0 });
    expect(result.schemaChanges).toContain('Field "Age" of "People" is now singleLineText');
    const ages = (await c.copy('People').all()).map((r) => r.fields['Age']).sort();
    expect(ages).toEqual(['20', '22', 'twenty-one']);
    await c.settled();
  });

  it('lists an unsent edit in it as a conflict, and the copy shows the service cell meanwhile', async () => {
    await retype('Age', 'number', { precision: 0 });
    await c.mirrors.sync(c.summary.id);
    const id = await person(0);
    await c.copy('People').update(id, { Age: 50 });
    await retype('Age', 'singleLineText');
    const result = await c.mirrors.sync(c.summary.id);
    expect(result.sent).toBe(0);
    const [conflict, ...more] = await c.mirrors.conflicts(c.summary.id);
    expect(more).toEqual([]);
    expect(conflict).toMatchObject({
      recordId: id,
      fieldName: 'Age (now singleLineText on the service)',
      mine: 50,
    });
    expect((await c.copy('People').get(id)).fields['Age']).toBe('20');
    expect((await c.remote('People').get(id)).fields['Age']).toBe('20');
    await c.mirrors.resolve(c.summary.id, [{ conflictId: conflict!.id, choice: 'theirs' }]);
    await c.settled();
  });

  it('still deletes there a record deleted here that the service did not change', async () => {
    await c.remote('People').update(await person(2), { Notes: 'a note' });
    await c.mirrors.sync(c.summary.id);
    const id = await person(2);
    await c.copy('People').delete(id);
    await retype('Notes', 'singleLineText');
    const result = await c.mirrors.sync(c.summary.id);
    expect(result.conflicts).toBe(0);
    expect(await c.remote('People').all({ formula: "{Name} = 'Person 2'" })).toEqual([]);
    await c.settled();
  });
});
