/**
 * The mirror route's schema keeps every id with its owner: a field, view or table id of another table or base,
 * an id named twice, or a link to another base's table is a 422 naming the id, and nothing moves (an
 * upsert by id moved the field, and its table lost it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let server: LocalServer;

const table = (id: string, field: string, view: string, more: object[] = []) => ({
  id,
  name: id,
  primaryFieldId: field,
  fields: [{ id: field, name: 'Name', type: 'singleLineText' }, ...more],
  views: [{ id: view, name: 'Grid view', type: 'grid' }],
});
/** A base of one table, its primary field and view named. */
const inOtherBase = (field: string, view: string, more: object[] = []): [string, object[]] => [
  'appOwnersOther001',
  [table('tblOwnersOther001', field, view, more)],
];
const put = (base: string, tables: object[]) =>
  server.request('PUT', `/_tabledesk/mirror/bases/${base}`, { name: base, tables });

beforeAll(async () => {
  server = await startLocalServer({ demo: false });
  const made = await put('appOwnersFirst001', [
    table('tblOwnersFirst001', 'fldOwnersFirst001', 'viwOwnersFirst001'),
    table('tblOwnersSecond01', 'fldOwnersSecond01', 'viwOwnersSecond01'),
  ]);
  expect(made.status).toBe(200);
});
afterAll(() => server.close());

describe('a mirrored schema naming ids it does not own', () => {
  it.each([
    [
      'a field of another table',
      'appOwnersFirst001',
      [
        table('tblOwnersFirst001', 'fldOwnersFirst001', 'viwOwnersFirst001', [
          { id: 'fldOwnersSecond01', name: 'Moved', type: 'singleLineText' },
        ]),
        table('tblOwnersSecond01', 'fldOwnersSecond02', 'viwOwnersSecond01'),
      ],
      'fldOwnersSecond01',
    ],
    [
      "a field of another base's table",
      ...inOtherBase('fldOwnersFirst001', 'viwOwnersOther001'),
      'fldOwnersFirst001',
    ],
    [
      'a view of another table',
      'appOwnersFirst001',
      [
        table('tblOwnersFirst001', 'fldOwnersFirst001', 'viwOwnersSecond01'),
        table('tblOwnersSecond01', 'fldOwnersSecond01', 'viwOwnersSecond02'),
      ],
      'viwOwnersSecond01',
    ],
    [
      'a table of another base',
      'appOwnersOther001',
      [table('tblOwnersFirst001', 'fldOwnersOther001', 'viwOwnersOther001')],
      'tblOwnersFirst001',
    ],
    [
      'a field id twice',
      'appOwnersOther001',
      [
        table('tblOwnersOther001', 'fldOwnersOther001', 'viwOwnersOther001', [
          { id: 'fldOwnersOther001', name: 'Again', type: 'number' },
        ]),
      ],
      'fldOwnersOther001',
    ],
    [
      "a link to another base's table",
      'appOwnersOther001',
      [
        table('tblOwnersOther001', 'fldOwnersOther001', 'viwOwnersOther001', [
          {
            id: 'fldOwnersOther002',
            name: 'Link',
            type: 'multipleRecordLinks',
            options: { linkedTableId: 'tblOwnersFirst001', inverseLinkFieldId: 'fldOwnersFirst001' },
          },
        ]),
      ],
      'fldOwnersOther002',
    ],
  ])('refuses %s with a 422 naming it, and moves nothing', async (_what, base, tables, id) => {
    const answer = await put(base, tables);
    expect(answer.status).toBe(422);
    expect(answer.text).toContain(id);
    const first = await server.request('GET', '/v0/meta/bases/appOwnersFirst001/tables');
    const fields = (
      first.body as { tables: { id: string; fields: { id: string }[]; views: { id: string }[] }[] }
    ).tables.map((t) => [t.id, t.fields.map((f) => f.id), t.views.map((v) => v.id)]);
    expect(fields).toEqual([
      ['tblOwnersFirst001', ['fldOwnersFirst001'], ['viwOwnersFirst001']],
      ['tblOwnersSecond01', ['fldOwnersSecond01'], ['viwOwnersSecond01']],
    ]);
  });
});
