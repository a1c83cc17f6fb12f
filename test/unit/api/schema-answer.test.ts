/** A base schema answer the app cannot use is refused with a message in words (the remote fuzzer's seed 7). */
import { describe, expect, it } from 'vitest';
import { asTables } from '../../../core/api/schema-answer';

const table = {
  id: 'tblAAAAAAAAAAAAAA',
  name: 'Things',
  primaryFieldId: 'fldAAAAAAAAAAAAAA',
  fields: [{ id: 'fldAAAAAAAAAAAAAA', name: 'Name', type: 'singleLineText' }],
};

describe('a base schema answer', () => {
  it('is taken as it is when it holds tables of the right shape', () => {
    expect(asTables({ tables: [table] })).toEqual([{ ...table, views: [] }]);
    // A type the app does not know is still a type: the service adds types over time.
    const later = { ...table, fields: [{ ...table.fields[0], type: 'aiSummaryV9' }] };
    expect(asTables({ tables: [later] })).toEqual([{ ...later, views: [] }]);
  });

  it.each<[unknown, string]>([
    [{ tables: [{}] }, 'tables.0.id: missing'],
    [{ tables: [{ ...table, fields: 42 }] }, 'tables.0.fields: not an array'],
    [{ tables: [{ ...table, name: null }] }, 'tables.0.name: not a string'],
    ...['../../../../etc/passwd', 'single line', '', 'a'.repeat(65)].map((type): [unknown, string] => [
      { tables: [{ ...table, fields: [{ ...table.fields[0], type }] }] },
      'tables.0.fields.0.type: not the name of a type',
    ]),
  ])('that is wrong says where and what in words: %j', (body, why) => {
    expect(() => asTables(body)).toThrow(`base schema that cannot be used (${why})`);
    expect(() => asTables(body)).not.toThrow(/undefined|received/);
  });
});
