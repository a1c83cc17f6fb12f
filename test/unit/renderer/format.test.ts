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

  it("formats a lookup's values one by one in its result's format, and a count as a number", () => {
    const budgets = col('multipleLookupValues', {
      result: { type: 'currency', options: { precision: 2, symbol: '$' } },
    });
    expect(formatCell([1000, 2.5], budgets)).toMatch(/^\$1[,.\s]?000[.,]00, \$2[.,]50$/);
    expect(formatCell([true, false], col('multipleLookupValues', { result: { type: 'checkbox' } }))).toBe(
      '✓, ',
    );
    expect(formatCell(3, col('count'))).toBe('3');
    expect(formatCell(1234.5, col('rollup', { result: { type: 'number', options: { precision: 1 } } }))).toBe(
      (1234.5).toLocaleString(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    );
  });

  it('keeps a date field on its calendar day whatever the time zone', () => {
    for (const day of ['2022-09-05', '2022-01-05']) {
      const text = formatCell(day, col('date'));
      expect(text).toMatch(/\b5\b/);
      expect(text).toMatch(/2022/);
      expect(text).not.toMatch(/\b[46]\b/);
    }
  });

  it('shows a date-time at the wall-clock time of the zone, in and out of daylight saving time', () => {
    // 20:00 UTC on a summer and a winter day, as read on a wall clock in each zone the suite runs in
    // (vitest.config.ts sets TZ per project); the winter offset shows the zone is really in effect.
    const expected: Record<string, { winterOffset: number; summer: RegExp; winter: RegExp }> = {
      UTC: { winterOffset: 0, summer: /Sep 5, 2022.*8:00/, winter: /Jan 5, 2022.*8:00/ },
      'America/New_York': { winterOffset: 300, summer: /Sep 5, 2022.*4:00/, winter: /Jan 5, 2022.*3:00/ },
      'Asia/Kolkata': { winterOffset: -330, summer: /Sep 6, 2022.*1:30/, winter: /Jan 6, 2022.*1:30/ },
    };
    const want = expected[process.env.TZ ?? ''];
    if (want === undefined) throw new Error(`No expected wall-clock times for TZ=${process.env.TZ}`);
    expect(new Date('2022-01-05T20:00:00.000Z').getTimezoneOffset()).toBe(want.winterOffset);
    expect(formatCell('2022-09-05T20:00:00.000Z', col('dateTime'))).toMatch(want.summer);
    expect(formatCell('2022-01-05T20:00:00.000Z', col('dateTime'))).toMatch(want.winter);
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
