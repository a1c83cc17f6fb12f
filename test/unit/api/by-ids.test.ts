import { describe, expect, it } from 'vitest';
import { MAX_ID_FORMULA_LENGTH, chunkIds, idFormula } from '../../../core/api/by-ids';

describe('chunks of ids', () => {
  it('keeps to the size asked for', () => {
    const ids = Array.from({ length: 250 }, (_, i) => `rec${String(i).padStart(14, '0')}`);
    expect(chunkIds(ids, 100).map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunkIds(ids, 1).length).toBe(250);
  });

  it("keeps each request's id formula within the limit, one id at least", () => {
    const ids = Array.from({ length: 60 }, (_, i) => `rec${String(i).padStart(400, 'x')}`);
    const chunks = chunkIds(ids, 100);
    expect(chunks.flat()).toEqual(ids);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(idFormula(c).length).toBeLessThanOrEqual(MAX_ID_FORMULA_LENGTH);
    expect(chunkIds([`rec${'y'.repeat(MAX_ID_FORMULA_LENGTH)}`], 100)).toHaveLength(1);
  });

  it('pins the ids, quoted, within a filter', () => {
    expect(idFormula(['recA', "rec'B"], '{Done}')).toBe(
      "AND(OR(RECORD_ID() = 'recA', RECORD_ID() = 'rec\\'B'), {Done})",
    );
    expect(idFormula(['recA'])).toBe("RECORD_ID() = 'recA'");
  });
});
