/** How an offline copy is named where its name shows, and told from other copies of bases of its name. */
import { describe, expect, it } from 'vitest';
import type { MirrorInfo } from '../../../core/contract';
import { copyDistinction, copyName, copyTableName, exportFileName } from '../../../core/records/copy-names';

const mirror = (id: string, baseId: string, baseName: string, tables: string[]): MirrorInfo => ({
  id,
  source: { connectionId: 'conA', baseId, baseName },
  local: { connectionId: 'demo', baseId },
  tables: tables.map((name, i) => ({ id: `tbl${i}`, name })),
  state: 'ready',
  localChanges: 0,
  conflicts: 0,
  filesMissing: 0,
  autoSyncMinutes: 0,
});

describe('copy names', () => {
  it('marks a copy’s table and its export file', () => {
    expect(copyName('Teams')).toBe('Teams (offline copy)');
    expect(exportFileName('Teams', true)).toBe('Teams (offline copy).csv');
    expect(exportFileName('Teams', false)).toBe('Teams.csv');
  });

  it('says nothing more where no other copy has its base’s name', () => {
    const a = mirror('mirA', 'appAAAAAAAAAAAAAA', 'Product', ['Teams', 'People']);
    const b = mirror('mirB', 'appBBBBBBBBBBBBBB', 'Sales', ['Teams']);
    expect(copyDistinction(a, [a, b])).toBeUndefined();
    expect(copyTableName('Teams', a, [a, b])).toBe('Teams (offline copy)');
  });

  it('tells two copies of bases of one name apart by their tables, else by their bases’ ids', () => {
    const whole = mirror('mirA', 'appAAAAAAAAAAAAAA', 'Product', ['Teams', 'People', 'Tasks']);
    const one = mirror('mirB', 'appBBBBBBBBBBBBBB', 'Product', ['Teams']);
    expect(copyTableName('Teams', whole, [whole, one])).toBe('Teams (offline copy: 3 tables)');
    expect(copyTableName('Teams', one, [whole, one])).toBe('Teams (offline copy: Teams only)');
    const twin = mirror('mirC', 'appCCCCCCCCCCCCCC', 'Product', ['Teams']);
    expect(copyTableName('Teams', one, [whole, one, twin])).toBe('Teams (offline copy: appBBBBBBBBBBBBBB)');
    expect(copyTableName('Teams', twin, [whole, one, twin])).toBe('Teams (offline copy: appCCCCCCCCCCCCCC)');
  });
});
