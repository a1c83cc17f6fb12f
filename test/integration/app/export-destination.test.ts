/**
 * The renderer never names a file on disk: `export.start` refuses a path, and the file is where the user
 * picked in the main process's save dialog (Electron), or the CSV is handed to the page to download.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserWindow, Dialog, SaveDialogOptions } from 'electron';
import { afterEach, describe, expect, it } from 'vitest';
import { exportDestination, safeFileName } from '../../../electron/export-destination';
import { startHarness } from '../edits/harness';
import type { Harness } from '../edits/harness';
import { startHarness as startAppHarness } from './harness';
import type { Harness as AppHarness } from './harness';

let h: Harness | undefined;
let app: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  await app?.close();
  h = app = undefined;
});

describe('export.start from the renderer', () => {
  it('refuses any file path, through the dispatcher both doors use, and writes nothing there', async () => {
    app = await startAppHarness();
    const target = { connectionId: 'demo', baseId: await app.demoBaseId(), table: 'Teams' };
    for (const extra of [
      { filePath: join(app.userDataDir, 'owned.csv') },
      { filePath: '/tmp/../etc/owned' },
      { destination: join(app.userDataDir, 'owned.csv') },
    ]) {
      const result = await app.services.dispatch('export.start', { target, query: {}, ...extra });
      expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-request' } });
    }
    expect(existsSync(join(app.userDataDir, 'owned.csv'))).toBe(false);
    expect(app.eventsOf('export.progress')).toEqual([]);
  });
});

describe('the door picks the destination', () => {
  it('asks with the table name and writes the file where the user chose', async () => {
    h = await startHarness({ saveExportAs: 'chosen.csv' });
    const { exportId } = await h.call('export.start', { target: h.target('Teams'), query: {} });
    await h.parts.exports.settled(exportId);
    const chosen = join(h.userDataDir, 'chosen.csv');
    expect(h.eventsOf('export.progress').at(-1)).toMatchObject({ state: 'done', filePath: chosen });
    expect(await readFile(chosen, 'utf8')).toContain('Name');
  });

  it('ends as cancelled, writing nothing, when the user declines the dialog', async () => {
    h = await startHarness();
    const asked: string[] = [];
    const { CsvExports } = await import('../../../services/edits/csv-export');
    const events: { event: string; payload: unknown }[] = [];
    const exports = new CsvExports(
      () => {
        throw new Error('no table may be read');
      },
      ((event: string, payload: unknown) => events.push({ event, payload })) as never,
      async (name) => {
        asked.push(name);
        return undefined;
      },
    );
    const exportId = await exports.start({ target: h.target('Tasks'), query: {} });
    expect(asked).toEqual(['Tasks.csv']);
    expect(events).toEqual([
      { event: 'export.progress', payload: { exportId, rows: 0, pages: 0, state: 'cancelled' } },
    ]);
    expect(exports.take(exportId)).toBeUndefined();
  });
});

describe("Electron's save dialog (a stand-in of Electron's dialog API)", () => {
  const window = { id: 1 } as unknown as BrowserWindow;
  function standIn(answer: { canceled: boolean; filePath?: string }) {
    const calls: { window?: BrowserWindow; options: SaveDialogOptions }[] = [];
    const dialog = {
      showSaveDialog: async (a: BrowserWindow | SaveDialogOptions, b?: SaveDialogOptions) => {
        calls.push(
          b === undefined ? { options: a as SaveDialogOptions } : { window: a as BrowserWindow, options: b },
        );
        return { canceled: answer.canceled, filePath: answer.filePath ?? '' };
      },
    } as unknown as Pick<Dialog, 'showSaveDialog'>;
    return { dialog, calls };
  }

  it('offers a safe file name in the Downloads folder, on the app window, and returns the choice', async () => {
    const { dialog, calls } = standIn({ canceled: false, filePath: '/home/u/Documents/tasks.csv' });
    const choose = exportDestination({ dialog, window: () => window, folder: () => '/home/u/Downloads' });
    expect(await choose('../../etc/Tasks.csv')).toBe('/home/u/Documents/tasks.csv');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.window).toBe(window);
    expect(calls[0]!.options.defaultPath).toBe('/home/u/Downloads/_.._etc_Tasks.csv');
    expect(calls[0]!.options.filters).toEqual([{ name: 'CSV', extensions: ['csv'] }]);
  });

  it('offers a conflicts report as JSON, with its own title', async () => {
    const { dialog, calls } = standIn({ canceled: false, filePath: '/home/u/report.json' });
    const choose = exportDestination({ dialog, window: () => window, folder: () => '/home/u/Downloads' });
    expect(await choose('Sales conflicts.json')).toBe('/home/u/report.json');
    expect(calls[0]!.options.title).toBe('Save report');
    expect(calls[0]!.options.filters).toEqual([{ name: 'JSON', extensions: ['json'] }]);
  });

  it('returns nothing when the user cancels', async () => {
    const { dialog } = standIn({ canceled: true });
    const choose = exportDestination({ dialog, window: () => undefined, folder: () => '/d' });
    expect(await choose('Tasks.csv')).toBeUndefined();
  });

  it('keeps only characters every OS accepts in a file name', () => {
    expect(safeFileName('a/b\\c:d*e?f"g<h>i|j\u0000.csv')).toBe('a_b_c_d_e_f_g_h_i_j_.csv');
    expect(safeFileName('..')).toBe('export.csv');
    expect(safeFileName('.hidden.csv')).toBe('hidden.csv');
  });
});
