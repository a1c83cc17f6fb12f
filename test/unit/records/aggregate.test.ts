import { describe, expect, it } from 'vitest';
import {
  GroupBuilder,
  SummaryAccumulator,
  TEXT_KEY_LENGTH,
  groupKey,
  summaryKinds,
  textSortKey,
  textSortPrefix,
} from '../../../core/records/aggregate';
import type { SummaryKind } from '../../../core/records/aggregate';

const summarize = (kind: SummaryKind, values: unknown[]) => {
  const acc = new SummaryAccumulator(kind);
  for (const v of values) acc.add(v);
  return acc.result();
};

describe('summaries', () => {
  it('are offered by type: sums and averages of amounts only, min and max of ordered values', () => {
    expect(summaryKinds('singleLineText')).toEqual(['count', 'filled', 'empty']);
    expect(summaryKinds('currency')).toEqual(['count', 'filled', 'empty', 'sum', 'average', 'min', 'max']);
    expect(summaryKinds('duration')).toContain('average');
    expect(summaryKinds('date')).toEqual(['count', 'filled', 'empty', 'min', 'max']);
    expect(summaryKinds('rating')).not.toContain('sum');
    expect(summaryKinds('checkbox')).toEqual(['count', 'filled', 'empty']);
  });

  it('count blanks as Airtable does, and leave values of another shape out of sums and ranges', () => {
    const cells = [3, undefined, '', false, [], 1.5, { error: '#ERROR!' }, Number.NaN, -2];
    expect(summarize('count', cells)).toBe(9);
    expect(summarize('empty', cells)).toBe(4);
    expect(summarize('filled', cells)).toBe(5);
    expect(summarize('sum', cells)).toBe(2.5);
    expect(summarize('average', cells)).toBeCloseTo(2.5 / 3, 12);
    expect(summarize('min', cells)).toBe(-2);
    expect(summarize('max', cells)).toBe(3);
    expect(summarize('max', ['2024-01-31', '2023-12-01', undefined])).toBe('2024-01-31');
    expect(summarize('average', [undefined, ''])).toBeNull();
  });
});

describe('groups from records in order', () => {
  it('end where a key changes, at each level, and show the first record’s value', () => {
    const b = new GroupBuilder(2);
    const rows: [string, string, number][] = [
      ['Abc', 'abc', 1],
      ['abc', 'abc', 1],
      ['abc', 'abc', 2],
      ['Def', 'def', 2],
    ];
    for (const [value, key, sub] of rows) b.add([key, sub], [value, sub]);
    expect(b.total).toBe(4);
    expect(b.groups).toEqual([
      {
        value: 'Abc',
        count: 3,
        start: 0,
        groups: [
          { value: 1, count: 2, start: 0 },
          { value: 2, count: 1, start: 2 },
        ],
      },
      { value: 'Def', count: 1, start: 3, groups: [{ value: 2, count: 1, start: 3 }] },
    ]);
  });

  it('key cells as the service orders them: case and accents aside, blanks as one', () => {
    expect(groupKey('Éclair')).toBe(groupKey('eclair'));
    expect(groupKey(undefined)).toBe(groupKey(''));
    expect(groupKey([])).toBe(groupKey(null));
    expect(groupKey(false)).toBe(groupKey(undefined));
    expect(groupKey(['B', 'a'])).toBe('b, a');
    expect(groupKey({ name: 'Ann' })).toBe('ann');
    expect(groupKey(2)).toBe(2);
  });
});

describe('the sort key prefix a server index holds', () => {
  it('is the first TEXT_KEY_LENGTH characters of the whole key, for texts, lists and objects', () => {
    const long = 'Élan '.repeat(1000);
    const values: unknown[] = [
      long,
      'Short',
      ['b', '', 'Ä'],
      Array.from({ length: 5000 }, (_, i) => `name ${i}`),
      [{ name: 'Ann' }, { filename: 'x.png' }],
      [long, 'tail'],
      null,
    ];
    for (const v of values) {
      expect(textSortPrefix(v)).toBe(textSortKey(v).slice(0, TEXT_KEY_LENGTH));
    }
    expect(textSortPrefix(long)).toHaveLength(TEXT_KEY_LENGTH);
  });

  it('folds no more of a list than the prefix needs', () => {
    // An item past the prefix is never read: one that throws when read shows it.
    const unread = Object.defineProperty({}, 'name', {
      get: () => {
        throw new Error('read past the prefix');
      },
    });
    expect(textSortPrefix(['a'.repeat(TEXT_KEY_LENGTH), unread])).toBe('a'.repeat(TEXT_KEY_LENGTH));
    expect(() => textSortKey(['a', unread])).toThrow('read past the prefix');
  });
});
