/** A duplicate takes every field a person can write, as shown, and none the service computes. */
import { describe, expect, it } from 'vitest';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { duplicateFields } from '../../../renderer/src/rows/duplicate';

const field = (name: string, type: string): Column => ({ id: `fld${name}`, name, type }) as Column;

describe('duplicateFields', () => {
  const fields = [
    field('Name', 'singleLineText'),
    field('Tags', 'multipleSelects'),
    field('Assignee', 'multipleRecordLinks'),
    field('Photo', 'multipleAttachments'),
    field('Empty', 'number'),
    field('Task #', 'autoNumber'),
    field('Label', 'formula'),
    field('Created', 'createdTime'),
    field('Team', 'multipleLookupValues'),
  ];
  const record: RecordData = {
    id: 'rec1',
    createdTime: '2024-01-01T00:00:00.000Z',
    fields: {
      Name: 'Saved name',
      Tags: ['Bug'],
      Assignee: ['recP'],
      Photo: [
        { id: 'att1', url: 'http://127.0.0.1:1/f/a.png', filename: 'a.png', size: 3, type: 'image/png' },
      ],
      'Task #': 7,
      Label: 'Todo: Saved name',
      Created: '2024-01-01T00:00:00.000Z',
      Team: ['Ops'],
    },
  };
  // An edit on its way: the cell shows it, and the duplicate takes what the cell shows.
  const shown = (row: RecordData, name: string) => (name === 'Name' ? 'Typed name' : row.fields[name]);

  it('copies the editable fields as shown, attachments by URL, and leaves computed and empty ones out', () => {
    expect(duplicateFields(record, fields, shown)).toEqual({
      Name: 'Typed name',
      Tags: ['Bug'],
      Assignee: ['recP'],
      Photo: [{ url: 'http://127.0.0.1:1/f/a.png', filename: 'a.png' }],
    });
  });
});
