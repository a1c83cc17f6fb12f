import { describe, expect, it } from 'vitest';
import type { TableDeskApi } from '../../../core/contract';
import { linkNames, linkText, linkTokens, linkedTableId } from '../../../renderer/src/links/names';

const people = { type: 'multipleRecordLinks', options: { linkedTableId: 'tblPeople' } };

describe('link cell text', () => {
  it('names the table a link or a lookup of a link points at', () => {
    expect(linkedTableId(people)).toBe('tblPeople');
    expect(
      linkedTableId({
        type: 'multipleLookupValues',
        options: { result: { type: 'multipleRecordLinks', options: { linkedTableId: 'tblTeams' } } },
      }),
    ).toBe('tblTeams');
    expect(linkedTableId({ type: 'multipleLookupValues', options: { result: { type: 'number' } } })).toBe(
      undefined,
    );
  });

  it('copies names (ids until known), quoting those with commas or quotes, and reads them back', () => {
    linkNames.add('tblPeople', { recA: 'Ada', recB: 'Smith, "Jo"' });
    const text = linkText(people, ['recA', 'recB', 'recC']);
    expect(text).toBe('Ada, "Smith, ""Jo""", recC');
    expect(linkTokens(text!)).toEqual(['Ada', 'Smith, "Jo"', 'recC']);
    expect(linkTokens('  a ,, b,')).toEqual(['a', 'b']);
    expect(linkTokens('')).toEqual([]);
    // A quote that never closes, or text after a closing one, leaves the name as typed up to its comma.
    expect(linkTokens('"a, b')).toEqual(['"a', 'b']);
    expect(linkTokens(' "x" y, "z" ')).toEqual(['"x" y', 'z']);
    expect(linkText({ type: 'singleLineText' }, 'x')).toBeUndefined();
  });
});

describe('what a link chip shows', () => {
  /** The services' side of the door: names `named`, leaves the other ids out (deleted or unreadable). */
  const servicesNaming = (named: Record<string, string>, asked: string[][]): TableDeskApi => ({
    call: (async (_channel: string, request: { tables: { tableId: string; ids: string[] }[] }) => {
      asked.push(...request.tables.map((t) => t.ids));
      return {
        tables: request.tables.map((t) => ({
          tableId: t.tableId,
          names: Object.fromEntries(t.ids.flatMap((id) => (named[id] ? [[id, named[id]]] : []))),
        })),
      };
    }) as TableDeskApi['call'],
    on: () => () => undefined,
  });
  const target = { connectionId: 'c', baseId: 'appBase' };

  it('a placeholder until asked and answered; then the name, or the id of a record the services could not name', async () => {
    const asked: string[][] = [];
    const api = servicesNaming({ recNamed1: 'Ada' }, asked);
    const settled = new Promise<void>((resolve) => {
      const off = linkNames.subscribe((tableId, ids) => {
        if (tableId === 'tblShown' && ids.has('recGone01')) {
          off();
          resolve();
        }
      });
    });
    expect(linkNames.shown('tblShown', 'recNamed1')).toBeUndefined();
    expect(linkNames.shown('tblShown', 'recGone01')).toBeUndefined();
    // Not a record id, or a field that links nowhere known: shown as it is.
    expect(linkNames.shown('tblShown', 'not an id')).toBe('not an id');
    expect(linkNames.shown(undefined, 'recNamed1')).toBe('recNamed1');
    linkNames.want(api, target, [
      {
        field: { type: 'multipleRecordLinks', options: { linkedTableId: 'tblShown' } },
        value: ['recNamed1', 'recGone01'],
      },
    ]);
    await settled;
    expect(asked).toEqual([['recNamed1', 'recGone01']]);
    expect(linkNames.shown('tblShown', 'recNamed1')).toBe('Ada');
    expect(linkNames.shown('tblShown', 'recGone01')).toBe('recGone01');
  });
});
