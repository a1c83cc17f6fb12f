import { describe, expect, it } from 'vitest';
import { checkFormula } from '../../../core/formula';
import { FIELDS, NOW, cell } from './helpers';

describe('date functions in GMT (the default)', () => {
  it.each([
    ['NOW()', '2024-06-15T15:45:00.000Z'],
    ['TODAY()', '2024-06-15T00:00:00.000Z'],
    ['DATEADD("2019-07-10", 10, "days")', '2019-07-20T00:00:00.000Z'],
    ['DATEADD("2024-01-31", 1, "months")', '2024-02-29T00:00:00.000Z'],
    ['DATEADD("2024-01-01", 1, "M")', '2024-02-01T00:00:00.000Z'],
    ['DATEADD("2024-01-01", 90, "m")', '2024-01-01T01:30:00.000Z'],
    ['DATEADD("2024-01-01", 1, "Q")', '2024-04-01T00:00:00.000Z'],
    ['DATEADD("2024-01-01", 2, "years")', '2026-01-01T00:00:00.000Z'],
    ['DATEADD("2024-01-01", 3, "weeks")', '2024-01-22T00:00:00.000Z'],
    ['DATEADD({When}, 2, "hours")', '2021-02-11T12:15:30.000Z'],
    ['DATEADD({When}, -30, "seconds")', '2021-02-11T10:15:00.000Z'],
    ['DATEADD({When}, 250, "ms")', '2021-02-11T10:15:30.250Z'],
    ['DATETIME_DIFF("2024-03-01", "2024-01-01", "days")', 60],
    ['DATETIME_DIFF("2024-01-01", "2024-03-01", "days")', -60],
    ['DATETIME_DIFF("2024-03-01", "2024-01-01", "M")', 2],
    ['DATETIME_DIFF("2024-01-01T01:00:00Z", "2024-01-01T00:00:00Z")', 3600],
    ['DATETIME_DIFF("2024-01-01T00:00:00Z", "2024-01-01T00:00:01.5Z", "ms")', -1500],
    ['DATETIME_DIFF("2024-12-31", "2024-01-01", "years")', 0],
    ['DATETIME_DIFF("2024-01-15", "2024-01-01", "weeks")', 2],
    ['DATETIME_DIFF("2024-01-01T05:59:00Z", "2024-01-01T00:00:00Z", "hours")', 5],
    ['DATETIME_DIFF("2024-07-01", "2024-01-01", "quarters")', 2],
    ['DATETIME_FORMAT("10/22/2003", "M")', '10'],
    ['DATETIME_FORMAT("2021-02-11", "W")', '6'],
    ['DATETIME_FORMAT("2021-02-11", "w")', '7'],
    ['DATETIME_FORMAT({When}, "YYYY-MM-DD HH:mm")', '2021-02-11 10:15'],
    ['DATETIME_FORMAT({When}, "h:mm A")', '10:15 AM'],
    ['DATETIME_FORMAT("2024-01-05", "Do MMMM YYYY, dddd")', '5th January 2024, Friday'],
    ['DATETIME_FORMAT("2024-05-05", "Q")', '2'],
    ['DATETIME_FORMAT("2024-01-05", "X")', '1704412800'],
    ['DATETIME_FORMAT("2024-01-05", "LL")', 'January 5, 2024'],
    ['DATETIME_FORMAT({When})', '2021-02-11T10:15:30.000Z'],
    ['DATETIME_PARSE("2023-12-01")', '2023-12-01T00:00:00.000Z'],
    ['DATETIME_PARSE("2023-12-01T12:34:56.000Z")', '2023-12-01T12:34:56.000Z'],
    ['DATETIME_PARSE("2023-12-01T12:34:56+02:00")', '2023-12-01T10:34:56.000Z'],
    ['DATETIME_PARSE("2023-12-01 08:15")', '2023-12-01T08:15:00.000Z'],
    ['DATETIME_PARSE("10/22/2003")', '2003-10-22T00:00:00.000Z'],
    ['DATETIME_PARSE("3/5/2024 2:30 pm")', '2024-03-05T14:30:00.000Z'],
    ['DATETIME_PARSE("March 5, 2024")', '2024-03-05T00:00:00.000Z'],
    ['DATETIME_PARSE("22-10-2003", "DD-MM-YYYY")', '2003-10-22T00:00:00.000Z'],
    ['DATETIME_PARSE("5 mars 2024", "D MMMM YYYY", "fr")', '2024-03-05T00:00:00.000Z'],
    ['DATETIME_PARSE("not a date")', { error: '#ERROR!' }],
    ['DATETIME_PARSE("2024-01-01", "YYYY-MM-DD", "xx")', { error: '#ERROR!' }],
    ['DATESTR({When})', '2021-02-11'],
    ['TIMESTR({When})', '10:15:30'],
    ['YEAR({When})', 2021],
    ['MONTH({When})', 2],
    ['DAY({When})', 11],
    ['HOUR({When})', 10],
    ['MINUTE({When})', 15],
    ['SECOND({When})', 30],
    ['YEAR("2024-12-31")', 2024],
    ['YEAR({Empty})', undefined],
    ['WEEKDAY({When})', 4],
    ['WEEKDAY({When}, "Monday")', 3],
    ['WEEKDAY("2024-06-16")', 0],
    ['WEEKDAY("2024-06-16", "Monday")', 6],
    ['WEEKDAY({When}, "Friday")', { error: '#ERROR!' }],
    ['WEEKNUM({When})', 7],
    ['WEEKNUM("2024-01-01")', 1],
    ['WEEKNUM("2024-01-07")', 2],
    ['WEEKNUM("2024-01-07", "Monday")', 1],
    ['WEEKNUM("2024-12-31")', 53],
    ['WORKDAY("2024-06-14", 1)', '2024-06-17T00:00:00.000Z'],
    ['WORKDAY("2024-06-14", 5)', '2024-06-21T00:00:00.000Z'],
    ['WORKDAY("2024-06-17", -1)', '2024-06-14T00:00:00.000Z'],
    ['WORKDAY("2024-12-24", 2, "2024-12-25, 2024-12-26")', '2024-12-30T00:00:00.000Z'],
    ['WORKDAY("2024-06-14", 0)', '2024-06-14T00:00:00.000Z'],
    ['WORKDAY_DIFF("2024-01-01", "2024-01-31")', 23],
    ['WORKDAY_DIFF("2024-06-14", "2024-06-17")', 2],
    ['WORKDAY_DIFF("2024-06-17", "2024-06-14")', -2],
    ['WORKDAY_DIFF("2024-01-01", "2024-01-31", "2024-01-01")', 22],
    ['WORKDAY_DIFF("2024-06-15", "2024-06-16")', 0],
    ['IS_BEFORE("2024-01-01", "2024-01-02")', true],
    ['IS_BEFORE("2024-01-02", "2024-01-01")', undefined],
    ['IS_AFTER({Due}, {When})', true],
    ['IS_SAME("2024-01-01T10:00:00Z", "2024-01-01T23:00:00Z", "day")', true],
    ['IS_SAME("2024-01-01T10:00:00Z", "2024-01-01T23:00:00Z")', undefined],
    ['IS_SAME("2024-01-01", "2024-01-31", "month")', true],
    ['IS_SAME("2024-01-01", "2024-02-01", "M")', undefined],
    ['IS_SAME("2024-01-01", "2024-01-01")', true],
    ['TONOW("2024-06-10")', 5],
    ['FROMNOW("2024-06-20")', 4],
    ['CREATED_TIME()', '2024-03-10T08:30:00.000Z'],
    ['LAST_MODIFIED_TIME()', '2024-04-01T12:00:00.000Z'],
    ['LAST_MODIFIED_TIME({Name}, {Qty})', '2024-04-01T12:00:00.000Z'],
    ['DATETIME_FORMAT(SET_LOCALE({When}, "fr"), "dddd D MMMM")', 'jeudi 11 février'],
    ['DATETIME_FORMAT(SET_LOCALE({When}, "de"), "dddd")', 'Donnerstag'],
    ['SET_TIMEZONE({When}, {Name})', { error: '#ERROR!' }],
    ['SET_LOCALE({When}, "klingon")', { error: '#ERROR!' }],
    ['DATEADD({Due}, 1, {Name})', { error: '#ERROR!' }],
  ])('%s → %j', (formula, value) => {
    expect(cell(formula)).toEqual(value);
  });
});

describe('dates in other time zones', () => {
  it.each([
    [
      'DATETIME_FORMAT(SET_TIMEZONE({When}, "America/New_York"), "YYYY-MM-DD HH:mm Z")',
      '2021-02-11 05:15 -05:00',
    ],
    ['DATETIME_FORMAT(SET_TIMEZONE({When}, "Asia/Kolkata"), "HH:mm")', '15:45'],
    ['DATETIME_FORMAT(SET_TIMEZONE({When}, "Europe/Paris"), "HH:mm Z")', '11:15 +01:00'],
    ['DATETIME_FORMAT(SET_TIMEZONE("2021-07-11T10:15:30Z", "Europe/Paris"), "HH:mm Z")', '12:15 +02:00'],
    ['DATETIME_FORMAT(SET_TIMEZONE({When}, "Pacific/Kiritimati"), "YYYY-MM-DD")', '2021-02-12'],
    ['HOUR(SET_TIMEZONE({When}, "Asia/Tokyo"))', 19],
    ['DAY(SET_TIMEZONE("2024-01-01T02:00:00Z", "America/Los_Angeles"))', 31],
    [
      'DATETIME_FORMAT(SET_LOCALE(SET_TIMEZONE({When}, "Europe/Berlin"), "de"), "dddd, HH:mm")',
      'Donnerstag, 11:15',
    ],
  ])('%s → %j', (formula, value) => {
    expect(cell(formula)).toEqual(value);
  });

  it.each([
    ['America/Los_Angeles', 'HOUR({When})', 2],
    ['Asia/Tokyo', 'HOUR({When})', 19],
    ['Pacific/Kiritimati', 'DAY({When})', 12],
    ['Pacific/Auckland', 'TODAY()', '2024-06-15T12:00:00.000Z'],
    ['America/New_York', 'TODAY()', '2024-06-15T04:00:00.000Z'],
    ['America/New_York', 'IS_SAME("2024-01-01T23:00:00Z", "2024-01-02T01:00:00Z", "day")', true],
    ['UTC', 'IS_SAME("2024-01-01T23:00:00Z", "2024-01-02T01:00:00Z", "day")', undefined],
    ['America/New_York', 'DATEADD("2024-03-09T12:00:00Z", 1, "days")', '2024-03-10T11:00:00.000Z'],
    ['UTC', 'DATEADD("2024-03-09T12:00:00Z", 1, "days")', '2024-03-10T12:00:00.000Z'],
    ['Europe/London', 'DATETIME_FORMAT({When}, "HH:mm")', '10:15'],
    ['Asia/Kolkata', 'DATESTR("2024-01-01T20:00:00Z")', '2024-01-02'],
    ['Asia/Kolkata', 'WEEKDAY("2024-06-15T20:00:00Z")', 0],
    ['Australia/Sydney', 'WORKDAY_DIFF("2024-06-14T20:00:00Z", "2024-06-17T20:00:00Z")', 2],
    ['America/New_York', 'DATEADD("2024-03-09T12:00:00Z", 24, "hours")', '2024-03-10T12:00:00.000Z'],
    ['Europe/Paris', 'DATEADD("2024-10-26T10:00:00Z", 1, "weeks")', '2024-11-02T11:00:00.000Z'],
  ])('in %s, %s → %j', (timeZone, formula, value) => {
    expect(cell(formula, undefined, { now: NOW, timeZone })).toEqual(value);
  });
});

describe('dates in comparisons and arithmetic', () => {
  it.each([
    ['{Due} > "2024-04-30"', true],
    ['{Due} = DATETIME_PARSE("2024-05-01")', true],
    ['{Due} = "2024-05-01"', true],
    ['{When} < {Due}', true],
    ['{Due} >= DATETIME_PARSE("2024-05-02")', undefined],
    ['{Due} + 1', '2024-05-02T00:00:00.000Z'],
    ['{Due} - 1', '2024-04-30T00:00:00.000Z'],
    ['{Due} - DATETIME_PARSE("2024-04-30")', 1],
    ['{Due} - DATETIME_PARSE("2024-04-30T12:00:00Z")', 0.5],
    ['{Due} + {When}', { error: '#ERROR!' }],
    ['1 - {Due}', { error: '#ERROR!' }],
    ['{Due} & ""', '2024-05-01T00:00:00.000Z'],
    ['MAX({Due}, {When})', '2024-05-01T00:00:00.000Z'],
    ['MIN({Due}, {When})', '2021-02-11T10:15:30.000Z'],
    ['{Created} = CREATED_TIME()', true],
  ])('%s → %j', (formula, value) => {
    expect(cell(formula)).toEqual(value);
  });

  it('rejects an unknown unit or time zone written in the formula', () => {
    expect(checkFormula('DATEADD({Due}, 1, "fortnights")', FIELDS)[0]?.message).toContain(
      'Unknown unit "fortnights"',
    );
    expect(checkFormula('SET_TIMEZONE({Due}, "Mars/Olympus")', FIELDS)[0]?.message).toContain(
      'Unknown time zone',
    );
  });
});

describe('a date past the range a Date holds (±8.64e15 ms)', () => {
  it.each([
    ['{Due} + 100000000000', undefined],
    ['DATEADD({Due}, 100000000000, "days")', undefined],
    ['({Due} + 100000000000) & ""', undefined],
    ['DATETIME_FORMAT({Due} + 100000000000)', { error: '#ERROR!' }],
    ['DATETIME_FORMAT({Due} + 100000000000, "YYYY")', { error: '#ERROR!' }],
    ['YEAR(DATEADD({Due}, 100000000000, "days"))', { error: '#ERROR!' }],
    ['{Due} - 100000000000', undefined],
  ])('%s → %j (a blank cell or an error), never a thrown RangeError', (formula, value) => {
    expect(cell(formula)).toEqual(value);
  });
});
