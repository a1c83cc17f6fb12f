/** The merge of a link pair cell, edge by edge (services/mirror/links.ts), as properties over random cells. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepsOrder, mergeLinks, weave } from '../../../services/mirror/links';

const ids = ['recA', 'recB', 'recC', 'recD', 'recE', 'recF'];
const cell = fc.uniqueArray(fc.constantFrom(...ids), { maxLength: 6 });
const sorted = (list: readonly string[]) => [...list].sort();

describe('mergeLinks', () => {
  it('takes each edge from the side that changed it, and keeps one order on both sides', () => {
    fc.assert(
      fc.property(cell, cell, cell, (base, mine, theirs) => {
        const merged = mergeLinks(base, mine, theirs, () => false);
        for (const id of ids) {
          const [b, m, t] = [base, mine, theirs].map((list) => list.includes(id));
          expect(merged.copy.includes(id)).toBe(m !== b ? m : t);
        }
        expect(merged.service).toEqual(merged.copy);
        expect(sorted(merged.base)).toEqual(sorted(theirs));
      }),
    );
  });

  it('is mine when only mine changed, and theirs when only theirs did, order included', () => {
    fc.assert(
      fc.property(cell, cell, (base, other) => {
        expect(mergeLinks(base, other, base, () => false).service).toEqual(other);
        expect(mergeLinks(base, base, other, () => false).copy).toEqual(other);
      }),
    );
  });

  it('keeps a held edge as each side has it: mine in the copy, theirs on the service, the base as it was', () => {
    fc.assert(
      fc.property(cell, cell, cell, fc.constantFrom(...ids), (base, mine, theirs, held) => {
        const merged = mergeLinks(base, mine, theirs, (id) => id === held);
        expect(merged.copy.includes(held)).toBe(mine.includes(held));
        expect(merged.service.includes(held)).toBe(theirs.includes(held));
        expect(merged.base.includes(held)).toBe(base.includes(held));
      }),
    );
  });

  it("puts a reordered cell in mine's order, and links only the service added where it put them", () => {
    const merged = mergeLinks(
      ['recA', 'recB', 'recC'],
      ['recC', 'recA', 'recB'],
      ['recA', 'recD', 'recB', 'recC'],
      () => false,
    );
    expect(merged.copy).toEqual(['recC', 'recA', 'recD', 'recB']);
  });

  it("appends links added here after the service's order when mine only added at the end", () => {
    const merged = mergeLinks(['recA', 'recB'], ['recA', 'recB', 'recC'], ['recB', 'recA'], () => false);
    expect(merged.copy).toEqual(['recB', 'recA', 'recC']);
  });
});

describe('keepsOrder and weave', () => {
  it('tells a list that adds at the end from one that reorders or inserts', () => {
    expect(keepsOrder(['recA', 'recB'], ['recA', 'recB', 'recC'])).toBe(true);
    expect(keepsOrder(['recA', 'recB'], ['recB'])).toBe(true);
    expect(keepsOrder(['recA', 'recB'], ['recB', 'recA'])).toBe(false);
    expect(keepsOrder(['recA', 'recB'], ['recC', 'recA', 'recB'])).toBe(false);
  });

  it('puts each extra link after the one before it in the reference', () => {
    expect(weave(['recA', 'recC'], ['recB', 'recD'], ['recD', 'recA', 'recB', 'recC'])).toEqual([
      'recD',
      'recA',
      'recB',
      'recC',
    ]);
  });
});
