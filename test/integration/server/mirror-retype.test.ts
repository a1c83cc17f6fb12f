/**
 * A field re-typed by a mirrored schema (the service re-typed it) keeps no value of its old type: each cell is
 * converted where the new type can hold it and cleared where it cannot, as the hosted service does (a number
 * left in a text field, or a text in a number field, read back in a shape no write could give it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let server: LocalServer;
const BASE = 'appRetypeBase0001';
const TABLE = 'tblRetypeTable001';

type Spec = { id: string; name: string; type: string; options?: object };
const named = (name: string, type: string, options?: object): Spec => ({
  id: `fldRetype${name.padEnd(8, '0')}`,
  name,
  type,
  ...(options ? { options } : {}),
});
const choices = (...names: string[]) => ({ choices: names.map((name) => ({ name })) });

const put = (fields: Spec[]) =>
  server.request('PUT', `/_tabledesk/mirror/bases/${BASE}`, {
    name: BASE,
    tables: [
      {
        id: TABLE,
        name: 'Things',
        primaryFieldId: named('Name', 'singleLineText').id,
        fields: [named('Name', 'singleLineText'), ...fields],
        views: [{ id: 'viwRetypeView0001', name: 'Grid view', type: 'grid' }],
      },
    ],
  });

/** Each record's cells by field name, by its Name. */
async function cells(): Promise<Record<string, Record<string, unknown>>> {
  const answer = await server.request('GET', `/v0/${BASE}/${TABLE}`);
  expect(answer.status).toBe(200);
  const records = (answer.body as { records: { fields: Record<string, unknown> }[] }).records;
  return Object.fromEntries(records.map((r) => [String(r.fields['Name']), r.fields]));
}

beforeAll(async () => {
  server = await startLocalServer({ demo: false });
  expect(
    (
      await put([
        named('Count', 'singleLineText'),
        named('Amount', 'number', { precision: 1 }),
        named('Pick', 'singleSelect', choices('Red', 'Blue')),
        named('Tags', 'multipleSelects', choices('a', 'b')),
        named('Label', 'singleLineText'),
        named('Done', 'checkbox'),
      ])
    ).status,
  ).toBe(200);
  const record = (n: number, fields: Record<string, unknown>) => ({
    id: `recRetypeRecord0${n}`,
    createdTime: '2026-11-01T00:00:00.000Z',
    fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [named(k, '').id, v])),
  });
  const written = await server.request('POST', `/_tabledesk/mirror/bases/${BASE}/tables/${TABLE}/records`, {
    records: [
      record(1, {
        Name: 'one',
        Count: '12',
        Amount: 7.5,
        Pick: 'Red',
        Tags: ['a', 'b'],
        Label: 'x',
        Done: true,
      }),
      record(2, { Name: 'two', Count: 'twelve', Amount: 3, Pick: 'Blue', Tags: ['b'], Label: 'y' }),
    ],
  });
  expect(written.status).toBe(200);
});
afterAll(() => server.close());

describe('a field re-typed by a mirrored schema', () => {
  it('converts each cell the new type can hold and clears the others', async () => {
    const answer = await put([
      named('Count', 'number', { precision: 0 }),
      named('Amount', 'singleLineText'),
      named('Pick', 'singleLineText'),
      named('Tags', 'multilineText'),
      named('Label', 'singleSelect', choices('x')),
      named('Done', 'number', { precision: 0 }),
    ]);
    expect(answer.status).toBe(200);
    const now = await cells();
    expect(now['one']).toEqual({
      Name: 'one',
      Count: 12,
      Amount: '7.5',
      Pick: 'Red',
      Tags: 'a, b',
      Label: 'x',
    });
    // "twelve" is no number and "y" no choice of the new select: cleared, as is a checkbox made a number.
    expect(now['two']).toEqual({ Name: 'two', Amount: '3', Pick: 'Blue', Tags: 'b' });
  });

  it('takes a text back into a select whose choices hold it', async () => {
    expect((await put([named('Pick', 'singleSelect', choices('Red'))])).status).toBe(200);
    const now = await cells();
    expect(now['one']!['Pick']).toBe('Red');
    expect(now['two']!['Pick']).toBeUndefined();
  });
});
