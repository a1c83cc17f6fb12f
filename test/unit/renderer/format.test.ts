import { describe, expect, it } from 'vitest';
import { effectiveType, formatCell, genericText } from '../../../renderer/src/grid/format';

const col = (type: string, options?: Record<string, unknown>) => ({ type, options });

describe('formatCell', () => {
  it('formats numbers by type and precision', () => {
    expect(formatCell(1234.5, col('number', { precision: 2 }))).toBe(
      (1234.5).toLocaleString(undefined, {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }),
    );
    expect(formatCell(0.125, col('percent', { precision: 1 }))).toMatch(/12[.,]5\s?%/);
    expect(formatCell(12.5, col('currency', { precision: 2, symbol: '$' }))).toMatch(/^\$12[.,]50$/);
    expect(formatCell(4980, col('duration', { durationFormat: 'h:mm:ss' }))).toBe('1:23:00');
    expect(formatCell(3, col('rating', { max: 5 }))).toBe('★★★☆☆');
    expect(formatCell(42, col('autoNumber'))).toBe('42');
  });

  it('keeps a date field on its calendar day whatever the time zone', () => {
    const text = formatCell('2022-09-05', col('date'));
    expect(text).toMatch(/5/);
    expect(text).toMatch(/2022/);
    expect(text).not.toMatch(/4,|6,/);
  });

  it('shows what it cannot read as it came', () => {
    expect(formatCell('not a date', col('dateTime'))).toBe('not a date');
    expect(formatCell('12', col('number'))).toBe('12');
    expect(formatCell(undefined, col('number'))).toBe('');
  });

  it('formats formula results by their result type, and their special values', () => {
    expect(effectiveType(col('formula', { result: { type: 'currency' } }))).toBe('currency');
    expect(formatCell({ error: '#ERROR!' }, col('formula'))).toBe('#ERROR!');
    expect(formatCell({ specialValue: 'NaN' }, col('formula'))).toBe('NaN');
  });

  it('turns values of any shape into text', () => {
    expect(genericText(['a', 1, true])).toBe('a, 1, true');
    expect(genericText({ id: 'att1', filename: 'cat.png', url: 'https://x' })).toBe('cat.png');
    expect(genericText({ id: 'usr1', email: 'a@b.c', name: 'Ann' })).toBe('Ann');
    expect(genericText({ a: 1 })).toBe('{"a":1}');
  });
});
