import { describe, expect, it } from 'vitest';
import { cell, recordWith } from './helpers';

describe('logical functions', () => {
  it.each([
    ['IF(1, "yes", "no")', 'yes'],
    ['IF(0, "yes", "no")', 'no'],
    ['IF("", "yes", "no")', 'no'],
    ['IF("0", "yes", "no")', 'yes'],
    ['IF({Empty}, "yes", "no")', 'no'],
    ['IF({Tags}, "yes", "no")', 'yes'],
    ['IF(0, "yes")', undefined],
    ['IF({Zero} = 0, BLANK(), 10 / {Zero})', undefined],
    ['IF(1, 1, ERROR())', 1],
    ['IF(ERROR(), 1, 2)', { error: '#ERROR!' }],
    ['SWITCH(4, 1, "one", 2, "two", "many")', 'many'],
    ['SWITCH(2, 1, "one", 2, "two", "many")', 'two'],
    ['SWITCH(3, 1, "one", 2, "two")', undefined],
    ['SWITCH({Status}, "Open", 1, "Closed", 2)', 1],
    ['SWITCH("x", "default")', 'default'],
    ['SWITCH(BLANK(), "", "empty", "other")', 'empty'],
    ['SWITCH(1, 1, "one", ERROR())', 'one'],
    ['AND(1, "a", TRUE())', true],
    ['AND(1, 0)', undefined],
    ['AND({Tags}, {Done})', true],
    ['AND(1, ERROR())', { error: '#ERROR!' }],
    ['OR(0, "", BLANK())', undefined],
    ['OR(0, 5)', true],
    ['OR(ERROR(), 1)', { error: '#ERROR!' }],
    ['XOR(1, 0)', true],
    ['XOR(1, 1)', undefined],
    ['XOR(1, 1, 1)', true],
    ['NOT(100 > 75)', undefined],
    ['NOT(0)', true],
    ['NOT({Empty})', true],
    ['NOT({Done})', undefined],
    ['BLANK()', undefined],
    ['ERROR()', { error: '#ERROR!' }],
    ['ISERROR(ERROR())', true],
    ['ISERROR(1 / 0)', true],
    ['ISERROR(0 / 0)', true],
    ['ISERROR({Price} / 0)', true],
    ['ISERROR(1)', undefined],
    ['ISERROR(VALUE("x") + 1)', true],
    ['TRUE()', true],
    ['FALSE()', undefined],
    ['TRUE() + TRUE()', 2],
    ['TRUE', true],
    ['false', undefined],
  ])('%s → %j', (formula, value) => {
    expect(cell(formula)).toEqual(value);
  });

  // Airtable's array semantics: a lookup's items are asked one by one; an empty list is one blank.
  it.each([
    ['AND({Lookup})', [1, 0, 2], undefined],
    ['AND({Lookup})', [1, 2], true],
    ['AND({Lookup})', [], undefined],
    ['AND({Lookup}, 1)', [true, false], undefined],
    ['OR({Lookup})', [0, '', false], undefined],
    ['OR({Lookup})', [0, 'x'], true],
    ['OR({Lookup})', [], undefined],
    ['XOR({Lookup})', [1, 1, 0], undefined],
    ['XOR({Lookup})', [1, 0, 0], true],
  ])('%s over %j → %j', (formula, items, value) => {
    expect(cell(formula, recordWith({ Lookup: items }))).toEqual(value);
  });
});
