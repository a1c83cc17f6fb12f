/**
 * The offset chain's bounds (core/api/offsets.ts) at their edges: a walk may hold exactly SPARE_PAGES pages
 * more than its items fill (pages left short by edits made during the walk), and not one more; an offset
 * named twice ends it at once.
 */
import { describe, expect, it } from 'vitest';
import { OffsetChain, SPARE_PAGES, WalkedIds } from '../../../core/api/offsets';

describe('an offset chain', () => {
  it('takes exactly SPARE_PAGES pages more than its items fill, and refuses the next', () => {
    const chain = new OffsetChain('GET /v0/app/T', 100);
    // A full page, then pages left empty: the first full page fills one page of the bound.
    expect(chain.next('o0', 100)).toBe('o0');
    for (let i = 1; i <= SPARE_PAGES; i++) expect(chain.next(`o${i}`, 0)).toBe(`o${i}`);
    expect(() => chain.next('one too many', 0)).toThrow(/named 12 pages for 100 items/);
  });

  it('counts a short page as a whole page of its bound, and a page size other than 100', () => {
    const chain = new OffsetChain('GET /v0/app/T', 10);
    // 25 items fill 3 pages of 10: the walk may hold 3 + SPARE_PAGES of them.
    expect(chain.next('a', 25)).toBe('a');
    for (let i = 1; i < 3 + SPARE_PAGES; i++) expect(chain.next(`b${i}`, 0)).toBe(`b${i}`);
    expect(() => chain.next('c', 0)).toThrow(/named 14 pages for 25 items/);
  });

  it('ends at the last page, and refuses an offset named before', () => {
    const chain = new OffsetChain('GET /v0/app/T', 100);
    expect(chain.next('x', 100)).toBe('x');
    expect(() => chain.next('x', 100)).toThrow(/named an offset it had named before/);
    expect(new OffsetChain('GET /v0/app/T', 100).next(undefined, 3)).toBeUndefined();
  });

  it('refuses a record handed out twice in one walk', () => {
    const ids = new WalkedIds('GET /v0/app/T');
    ids.add([{ id: 'rec1' }, { id: 'rec2' }]);
    expect(() => ids.add([{ id: 'rec3' }, { id: 'rec1' }])).toThrow(/sent record rec1 twice/);
  });
});
