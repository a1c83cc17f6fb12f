import { describe, expect, it } from 'vitest';
import type { GroupNode } from '../../../core/records/aggregate';
import { GroupLayout } from '../../../renderer/src/table/groups/group-layout';
import type { LayoutRow } from '../../../renderer/src/table/groups/group-layout';

const oneLevel: GroupNode[] = [
  { value: null, count: 2, start: 0 },
  { value: 'Done', count: 3, start: 2 },
  { value: 'Todo', count: 1, start: 5 },
];

const twoLevels: GroupNode[] = [
  {
    value: 'A',
    count: 3,
    start: 0,
    groups: [
      { value: 1, count: 2, start: 0 },
      { value: 2, count: 1, start: 2 },
    ],
  },
  { value: 'B', count: 2, start: 3, groups: [{ value: 1, count: 2, start: 3 }] },
];

/** A layout row as short text: "H<level>:<value>" or "R<offset>". */
const show = (r: LayoutRow | undefined) =>
  r === undefined ? '-' : 'header' in r ? `H${r.header.level}:${String(r.header.value)}` : `R${r.offset}`;

const all = (l: GroupLayout) => l.rows(0, l.rowCount).map(show);

describe('grouped rows', () => {
  it('by one field: a header, then its records, with the blank group first', () => {
    const l = new GroupLayout(oneLevel, ['Status'], new Set());
    expect(l.rowCount).toBe(9);
    expect(all(l)).toEqual(['H0:null', 'R0', 'R1', 'H0:Done', 'R2', 'R3', 'R4', 'H0:Todo', 'R5']);
    expect(l.at(3)).toMatchObject({ header: { field: 'Status', count: 3, collapsed: false } });
    expect(l.at(9)).toBeUndefined();
    expect(l.at(-1)).toBeUndefined();
  });

  it('by two fields: subgroup headers under their group, records under the subgroup', () => {
    const l = new GroupLayout(twoLevels, ['Team', 'Level'], new Set());
    expect(all(l)).toEqual(['H0:A', 'H1:1', 'R0', 'R1', 'H1:2', 'R2', 'H0:B', 'H1:1', 'R3', 'R4']);
    expect(l.at(7)).toMatchObject({ header: { field: 'Level', key: '["B",1]' } });
  });

  it('a collapsed group shows its header only, and the records after it keep their offsets', () => {
    const l = new GroupLayout(twoLevels, ['Team', 'Level'], new Set(['["A"]']));
    expect(all(l)).toEqual(['H0:A', 'H0:B', 'H1:1', 'R3', 'R4']);
    expect(l.at(0)).toMatchObject({ header: { collapsed: true, count: 3 } });
    const sub = new GroupLayout(twoLevels, ['Team', 'Level'], new Set(['["A",1]']));
    expect(all(sub)).toEqual(['H0:A', 'H1:1', 'H1:2', 'R2', 'H0:B', 'H1:1', 'R3', 'R4']);
  });

  it('maps a block of rows to the runs of records it needs, skipping collapsed ones', () => {
    const l = new GroupLayout(oneLevel, ['Status'], new Set(['["Done"]']));
    const rows = l.rows(0, 100);
    expect(rows.map(show)).toEqual(['H0:null', 'R0', 'R1', 'H0:Done', 'H0:Todo', 'R5']);
    expect(GroupLayout.recordRuns(rows)).toEqual([
      { from: 0, to: 2 },
      { from: 5, to: 6 },
    ]);
    expect(l.headerRow('["Todo"]')).toBe(4);
  });

  it('finds every row of a large layout by binary search as a walk would', () => {
    let start = 0;
    const groups: GroupNode[] = Array.from({ length: 500 }, (_, i) => {
      const count = (i * 7) % 13;
      start += count;
      return { value: i, count, start: start - count };
    });
    const collapsed = new Set(groups.filter((_, i) => i % 5 === 0).map((g) => JSON.stringify([g.value])));
    const l = new GroupLayout(groups, ['N'], collapsed);
    const expected: string[] = [];
    let offset = 0;
    for (const g of groups) {
      expected.push(`H0:${String(g.value)}`);
      if (!collapsed.has(JSON.stringify([g.value])))
        for (let k = 0; k < g.count; k++) expected.push(`R${offset + k}`);
      offset += g.count;
    }
    expect(l.rowCount).toBe(expected.length);
    for (let i = 0; i < expected.length; i += 1) expect(show(l.at(i))).toBe(expected[i]);
  });

  it('the records on screen, each run with the stretch shown around it without a break', () => {
    // H0:null R0 R1 H0:Done(collapsed) H0:Todo R5
    const l = new GroupLayout(oneLevel, ['Status'], new Set([JSON.stringify(['Done'])]));
    expect(l.recordsOn(0, l.rowCount)).toEqual([
      { from: 0, to: 2, within: { start: 0, end: 2 } },
      { from: 5, to: 6, within: { start: 5, end: 6 } },
    ]);
    expect(l.recordsOn(3, 4)).toEqual([]);
    // Open groups, and subgroups, follow one another without a break.
    const open = new GroupLayout(twoLevels, ['A', 'B'], new Set());
    expect(open.recordsOn(3, 4)).toEqual([{ from: 1, to: 2, within: { start: 0, end: 5 } }]);
  });
});
