import { describe, expect, it } from 'vitest';
import { filterChoices } from '../../../renderer/src/editing/choice-filter';

const STATUS = ['Todo', 'In progress', 'Blocked', 'Done'];

describe('the choices a select editor offers for what is typed', () => {
  it('offers every choice, in order, while nothing is typed', () => {
    expect(filterChoices(STATUS, '')).toEqual(STATUS);
    expect(filterChoices(STATUS, '  ')).toEqual(STATUS);
  });

  it('ranks a name that starts with the text first, then a word that does, then any containing it', () => {
    expect(filterChoices(STATUS, 'do')).toEqual(['Done', 'Todo']);
    expect(filterChoices(STATUS, 'pro')).toEqual(['In progress']);
    expect(filterChoices(['Reprocess', 'In process', 'Process'], 'proc')).toEqual([
      'Process',
      'In process',
      'Reprocess',
    ]);
  });

  it('ignores case and the spaces around the text, and leaves out what does not contain it', () => {
    expect(filterChoices(STATUS, ' BL ')).toEqual(['Blocked']);
    expect(filterChoices(STATUS, 'zz')).toEqual([]);
  });
});
