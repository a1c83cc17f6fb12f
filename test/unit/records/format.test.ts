import { describe, expect, it } from 'vitest';
import { fieldTypeName, formatDuration, formatRating, plural, ratingMax } from '../../../core/records/format';
import { formatCell } from '../../../renderer/src/grid/format';

describe('formatDuration', () => {
  it('shows hours and minutes for h:mm, and for a field without a format (Airtable default)', () => {
    expect(formatDuration(14_400, 'h:mm')).toBe('4:00');
    expect(formatDuration(5_400, 'h:mm')).toBe('1:30');
    expect(formatDuration(5_400)).toBe('1:30');
    expect(formatDuration(5_400, 'not a format')).toBe('1:30');
  });

  it('adds seconds and their fractions for the longer formats', () => {
    expect(formatDuration(14_400, 'h:mm:ss')).toBe('4:00:00');
    expect(formatDuration(3_723.456, 'h:mm:ss.S')).toBe('1:02:03.5');
    expect(formatDuration(3_723.456, 'h:mm:ss.SS')).toBe('1:02:03.46');
    expect(formatDuration(3_723.456, 'h:mm:ss.SSS')).toBe('1:02:03.456');
    expect(formatDuration(3_600.05, 'h:mm:ss.SSS')).toBe('1:00:00.050');
  });

  it('rounds to the last unit shown, carrying into the next one', () => {
    expect(formatDuration(59.96, 'h:mm:ss.S')).toBe('0:01:00.0');
    expect(formatDuration(3_599.6, 'h:mm:ss')).toBe('1:00:00');
    expect(formatDuration(3_570, 'h:mm')).toBe('1:00');
    expect(formatDuration(100 * 3600, 'h:mm')).toBe('100:00');
  });

  it('keeps the sign of a negative duration', () => {
    expect(formatDuration(-5_400, 'h:mm')).toBe('-1:30');
    expect(formatDuration(-1.5, 'h:mm:ss.S')).toBe('-0:00:01.5');
  });

  it('is what the grid shows for a duration field', () => {
    expect(formatCell(14_400, { type: 'duration', options: { durationFormat: 'h:mm' } })).toBe('4:00');
    expect(formatCell(14_400, { type: 'duration', options: { durationFormat: 'h:mm:ss.SS' } })).toBe(
      '4:00:00.00',
    );
  });
});

describe('ratings', () => {
  it('shows filled stars then empty ones up to the maximum', () => {
    expect(formatRating(2, 5)).toBe('★★☆☆☆');
    expect(formatRating(0, 3)).toBe('☆☆☆');
    expect(formatRating(10, 10)).toBe('★'.repeat(10));
    expect(formatRating(7, 5)).toBe('★★★★★');
    expect(formatRating(-1, 5)).toBe('☆☆☆☆☆');
  });

  it("takes the maximum from the field's options, 5 when missing or out of range", () => {
    expect(ratingMax({ max: 10 })).toBe(10);
    expect(ratingMax({ max: 3 })).toBe(3);
    expect(ratingMax({})).toBe(5);
    expect(ratingMax(undefined)).toBe(5);
    expect(ratingMax({ max: 11 })).toBe(5);
    expect(ratingMax({ max: 2.5 })).toBe(5);
    expect(formatCell(4, { type: 'rating', options: { max: 7 } })).toBe('★★★★☆☆☆');
  });
});

describe('fieldTypeName', () => {
  it('names field types as people do', () => {
    expect(fieldTypeName('singleLineText')).toBe('Single line text');
    expect(fieldTypeName('multilineText')).toBe('Long text');
    expect(fieldTypeName('multipleRecordLinks')).toBe('Link to another record');
    expect(fieldTypeName('dateTime')).toBe('Date and time');
    expect(fieldTypeName('url')).toBe('URL');
  });

  it('spells out a type it does not know from its id', () => {
    expect(fieldTypeName('someNewType')).toBe('Some new type');
    expect(fieldTypeName('x')).toBe('X');
  });
});

describe('plural', () => {
  it('says 1 record, 0 and 2 records, with the count grouped', () => {
    expect(plural(1, 'record')).toBe('1 record');
    expect(plural(0, 'record')).toBe('0 records');
    expect(plural(2, 'row')).toBe('2 rows');
    expect(plural(50_000, 'record')).toBe((50_000).toLocaleString() + ' records');
  });
});
