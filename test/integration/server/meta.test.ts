import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 5 } });
});

afterAll(async () => {
  await s.close();
});

describe('metadata API', () => {
  it('lists bases and the demo schema with every field type and a default Grid view', async () => {
    const bases = await s.request('GET', '/v0/meta/bases');
    expect(bases.body.bases).toEqual([{ id: s.baseId, name: 'TableDesk Demo', permissionLevel: 'create' }]);
    const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables?include=visibleFieldIds`);
    const names = schema.body.tables.map((t: { name: string }) => t.name);
    expect(names).toEqual(['Teams', 'People', 'Tasks']);
    const types = new Set(
      schema.body.tables.flatMap((t: { fields: { type: string }[] }) => t.fields.map((f) => f.type)),
    );
    expect([...types].sort()).toEqual(
      [
        'autoNumber',
        'checkbox',
        'count',
        'createdTime',
        'currency',
        'date',
        'dateTime',
        'duration',
        'email',
        'formula',
        'lastModifiedTime',
        'multilineText',
        'multipleAttachments',
        'multipleLookupValues',
        'multipleRecordLinks',
        'multipleSelects',
        'number',
        'percent',
        'phoneNumber',
        'rating',
        'rollup',
        'singleLineText',
        'singleSelect',
        'url',
      ].sort(),
    );
    const tasks = schema.body.tables[2];
    expect(tasks.id).toMatch(/^tbl[A-Za-z0-9]{14}$/);
    expect(tasks.primaryFieldId).toBe(tasks.fields[0].id);
    expect(tasks.views[0]).toMatchObject({ name: 'Grid view', type: 'grid' });
    expect(tasks.views[0].id).toMatch(/^viw[A-Za-z0-9]{14}$/);
    const byDue = tasks.views.find((v: { name: string }) => v.name === 'By due date');
    const notes = tasks.fields.find((f: { name: string }) => f.name === 'Notes');
    expect(byDue.visibleFieldIds).not.toContain(notes.id);
    expect(byDue.visibleFieldIds).toHaveLength(tasks.fields.length - 1);
  });

  it('gives each view its filter and sort as an extra property, by field name', async () => {
    const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    const tasks = schema.body.tables.find((t: { name: string }) => t.name === 'Tasks');
    const view = (name: string) => tasks.views.find((v: { name: string }) => v.name === name);
    expect(view('Open tasks').tabledesk).toEqual({
      filterByFormula: 'NOT({Done})',
      sort: [{ field: 'Priority', direction: 'desc' }],
    });
    expect(view('By due date').tabledesk).toEqual({ sort: [{ field: 'Due', direction: 'asc' }] });
    expect(view('Grid view').tabledesk).toEqual({ sort: [] });
  });

  it('seeds links both ways, sortable by the linked names', async () => {
    const people = new Map<string, string>();
    let offset = '';
    do {
      const r = await s.request(
        'GET',
        `/v0/${s.baseId}/People?fields[]=Name&offset=${encodeURIComponent(offset)}`,
      );
      for (const p of r.body.records as { id: string; fields: { Name: string } }[])
        people.set(p.id, p.fields.Name);
      offset = r.body.offset ?? '';
    } while (offset);
    const tasks = await s.request(
      'GET',
      `/v0/${s.baseId}/Tasks?sort[0][field]=Assignee&fields[]=Assignee&pageSize=100`,
    );
    const names = (tasks.body.records as { fields: { Assignee?: string[] } }[]).map((t) =>
      t.fields.Assignee ? people.get(t.fields.Assignee[0]!)!.toLowerCase() : '',
    );
    expect(names.slice(1).every((n, i) => n >= names[i]!)).toBe(true);
    expect(names.filter(Boolean).length).toBeGreaterThan(0);
    const person = await s.request(
      'GET',
      `/v0/${s.baseId}/People?maxRecords=1&filterByFormula=${encodeURIComponent('{Tasks}')}`,
    );
    const taskId = person.body.records[0].fields.Tasks[0] as string;
    expect((await s.request('GET', `/v0/${s.baseId}/Tasks/${taskId}`)).body.fields.Assignee).toEqual([
      person.body.records[0].id,
    ]);
  });

  it('creates a base whose tables link to each other', async () => {
    const r = await s.request('POST', '/v0/meta/bases', {
      name: 'Shop',
      tables: [
        {
          name: 'Orders',
          fields: [
            { name: 'Ref', type: 'singleLineText' },
            { name: 'Lines', type: 'multipleRecordLinks', options: { linkedTableId: 'placeholder' } },
          ],
        },
      ],
    });
    // Link options must name a real table of the base.
    expect(r.status).toBe(422);
    const ok = await s.request('POST', '/v0/meta/bases', {
      name: 'Shop',
      tables: [
        { name: 'Orders', description: 'All orders', fields: [{ name: 'Ref', type: 'singleLineText' }] },
      ],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.id).toMatch(/^app/);
    const baseId = ok.body.id as string;
    const orders = ok.body.tables[0];
    const lines = await s.request('POST', `/v0/meta/bases/${baseId}/tables`, {
      name: 'Lines',
      fields: [
        { name: 'Item', type: 'singleLineText' },
        { name: 'Order', type: 'multipleRecordLinks', options: { linkedTableId: orders.id } },
        { name: 'Qty', type: 'number', options: { precision: 0 } },
      ],
    });
    expect(lines.status).toBe(200);
    expect(lines.body.fields[1].options).toMatchObject({ linkedTableId: orders.id });
    const order = await s.request('POST', `/v0/${baseId}/Orders`, { fields: { Ref: 'A-1' } });
    const line = await s.request('POST', `/v0/${baseId}/${lines.body.id}`, {
      fields: { Item: 'pen', Order: [order.body.id] },
    });
    expect(line.body.fields.Order).toEqual([order.body.id]);
    expect((await s.request('GET', '/v0/meta/bases')).body.bases).toHaveLength(2);
  });

  it('adds fields, renames tables and fields, and refuses duplicates and unknown types', async () => {
    const t = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
      name: 'Renames',
      fields: [{ name: 'Name', type: 'singleLineText' }],
    });
    const tableId = t.body.id as string;
    const f = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${tableId}/fields`, {
      name: 'Visited',
      type: 'checkbox',
      description: 'Whether I have visited',
      options: { color: 'greenBright', icon: 'check' },
    });
    expect(f.status).toBe(200);
    expect(f.body).toMatchObject({
      name: 'Visited',
      type: 'checkbox',
      description: 'Whether I have visited',
    });
    const dup = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${tableId}/fields`, {
      name: 'visited',
      type: 'number',
    });
    expect(dup.status).toBe(422);
    const bad = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${tableId}/fields`, {
      name: 'B',
      type: 'hologram',
    });
    expect(bad.status).toBe(422);
    const formula = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${tableId}/fields`, {
      name: 'Shout',
      type: 'formula',
      options: { formula: 'UPPER({Name})' },
    });
    expect(formula.body.options.formula).toBe(`UPPER({${t.body.fields[0].id}})`);
    await s.request('POST', `/v0/${s.baseId}/${tableId}`, { fields: { Name: 'quiet' } });

    const renamed = await s.request('PATCH', `/v0/meta/bases/${s.baseId}/tables/${tableId}`, {
      name: 'Renamed/Table',
    });
    expect(renamed.body.name).toBe('Renamed/Table');
    const field = await s.request(
      'PATCH',
      `/v0/meta/bases/${s.baseId}/tables/${tableId}/fields/${t.body.fields[0].id}`,
      {
        name: 'Title',
      },
    );
    expect(field.body.name).toBe('Title');
    // A type or options asked of the update is refused, not dropped with a 200; nothing of the field changes.
    for (const body of [{ type: 'number' }, { name: 'Other', options: { precision: 2 } }]) {
      const refused = await s.request(
        'PATCH',
        `/v0/meta/bases/${s.baseId}/tables/${tableId}/fields/${t.body.fields[0].id}`,
        body,
      );
      expect(refused.status).toBe(422);
      expect(refused.body.error.message).toMatch(/only its name and description/);
    }
    const after = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    const title = after.body.tables
      .flatMap((x: { fields: { id: string; name: string; type: string }[] }) => x.fields)
      .find((f: { id: string }) => f.id === t.body.fields[0].id);
    expect(title).toMatchObject({ name: 'Title', type: 'singleLineText' });
    // The formula keeps working after its field was renamed.
    const rec = await s.request('POST', `/v0/${s.baseId}/${encodeURIComponent('Renamed/Table')}`, {
      fields: { Title: 'loud' },
    });
    expect(rec.body.fields).toMatchObject({ Title: 'loud', Shout: 'LOUD' });
    const taken = await s.request('PATCH', `/v0/meta/bases/${s.baseId}/tables/${tableId}`, { name: 'tasks' });
    expect(taken.status).toBe(422);
  });

  it('answers whoami, and 403 for meta calls on an unknown base', async () => {
    const me = await s.request('GET', '/v0/meta/whoami');
    expect(me.body.id).toMatch(/^usr/);
    const r = await s.request('GET', '/v0/meta/bases/appAAAAAAAAAAAAAA/tables');
    expect(r.status).toBe(403);
  });

  it('addresses tables whose names hold / ? # % + &, spaces and emoji, encoded once', async () => {
    for (const name of ['A/B ? # % + & C', 'Emoji 🎉 table', 'percent %25 literal', '  spaced  name']) {
      const created = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
        name,
        fields: [{ name: 'Name', type: 'singleLineText' }],
      });
      expect(created.status).toBe(200);
      const stored = created.body.name as string;
      const path = `/v0/${s.baseId}/${encodeURIComponent(stored)}`;
      const rec = await s.request('POST', path, { fields: { Name: name } });
      expect(rec.status).toBe(200);
      const list = await s.request('GET', `${path}?fields%5B%5D=Name`);
      expect(list.body.records.map((r: { fields: { Name: string } }) => r.fields.Name)).toEqual([name]);
      expect((await s.request('GET', `${path}/${rec.body.id}`)).status).toBe(200);
      expect((await s.request('GET', `/v0/${s.baseId}/${created.body.id}/${rec.body.id}`)).status).toBe(200);
    }
    // A name encoded twice is another (unknown) name.
    expect(
      (await s.request('GET', `/v0/${s.baseId}/${encodeURIComponent(encodeURIComponent('A/B ? # % + & C'))}`))
        .status,
    ).toBe(404);
  });
});
