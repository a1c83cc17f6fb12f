/**
 * Attachments through the browser door against the real local server: a PNG dropped on a grid cell is
 * uploaded (a thumbnail in the cell, loaded through the page's CSP), previewed in the record form, a text file
 * dropped on the form is listed with its size and type, a file over 5 MB is refused before anything is sent,
 * and a removed attachment is gone from the server.
 */
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import type { RecordData } from '../../core/records/types';
import type { EditDoor } from './edit-door';
import { expect, test } from './edit-fixtures';
import { openThroughProxy, showCell } from './edit-helpers';

test.use({ doorName: 'attachments' });
test.describe.configure({ mode: 'serial' });

const PEOPLE = 'People';

interface Attachment {
  id: string;
  filename: string;
  size: number;
  type: string;
  thumbnails?: { small: { width: number; height: number } };
}

async function photos(door: EditDoor, id: string): Promise<Attachment[]> {
  const found: RecordData | undefined = (await door.records(PEOPLE)).find((r) => r.id === id);
  return (found?.fields['Photo'] ?? []) as Attachment[];
}

/** Drops files on an element as the OS would: a DataTransfer with Files, then dragover and drop. */
async function dropFiles(page: Page, on: Locator, files: { name: string; type: string; bytes: Buffer }[]) {
  const transfer = await page.evaluateHandle(
    (list) => {
      const dt = new DataTransfer();
      for (const f of list) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        dt.items.add(new File([bytes], f.name, { type: f.type }));
      }
      return dt;
    },
    files.map((f) => ({ name: f.name, type: f.type, base64: f.bytes.toString('base64') })),
  );
  await on.dispatchEvent('dragover', { dataTransfer: transfer });
  await on.dispatchEvent('drop', { dataTransfer: transfer });
}

const uploads = (door: EditDoor) => door.requests.filter((r) => r.url.endsWith('/uploadAttachment'));

test('a PNG dropped on a cell is uploaded, shown as a thumbnail and previewed in the form; removing it reaches the server', async ({
  app,
  door,
}, info) => {
  await app.openTable(PEOPLE);
  const id = (await app.rowId(0)) ?? '';
  const before = await photos(door, id);
  const png = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#1e90ff' } })
    .png()
    .toBuffer();
  const cell = await showCell(app, 0, 'Photo');
  await dropFiles(app.page, cell, [{ name: 'dropped.png', type: 'image/png', bytes: png }]);

  const thumb = cell.locator('img.td-thumb[alt="dropped.png"]');
  await expect(thumb).toBeVisible();
  // Loaded, not just placed: the page's CSP lets the signed link on the local server through.
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(54);
  const stored = await photos(door, id);
  expect(stored.map((a) => a.filename)).toEqual([...before.map((a) => a.filename), 'dropped.png']);
  expect(stored.at(-1)).toMatchObject({
    size: png.length,
    type: 'image/png',
    thumbnails: { small: { width: 54, height: 36 } },
  });
  expect(uploads(door)).toHaveLength(1);
  await app.screenshot(info, 'attachments-01-cell-thumbnail');

  await cell.click();
  await app.table.getByRole('button', { name: 'Open record' }).click();
  const form = app.page.getByRole('dialog', { name: 'Record' });
  const section = form.getByRole('region', { name: 'Photo attachments' });
  const preview = section.getByRole('img', { name: 'dropped.png' });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);

  // A text file dropped on the form: listed with its size and type.
  await dropFiles(app.page, section, [
    { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('hello notes') },
  ]);
  await expect(section.getByText('notes.txt')).toBeVisible();
  await expect(section.getByText('11 B · text/plain')).toBeVisible();
  await expect.poll(async () => (await photos(door, id)).map((a) => a.filename)).toContain('notes.txt');

  // Over 5 MB: refused with a message, nothing sent.
  const sent = uploads(door).length;
  await dropFiles(app.page, section, [
    { name: 'huge.bin', type: 'application/octet-stream', bytes: Buffer.alloc(5 * 1024 * 1024 + 1) },
  ]);
  await expect(form.getByRole('alert').filter({ hasText: 'huge.bin' })).toContainText(
    'huge.bin is 5.1 MB; an upload may be at most 5 MB',
  );
  expect(uploads(door)).toHaveLength(sent);
  await app.screenshot(info, 'attachments-02-record-form');

  await section.getByRole('button', { name: 'Remove dropped.png' }).click();
  await expect(preview).toHaveCount(0);
  await expect
    .poll(async () => (await photos(door, id)).map((a) => a.filename))
    .toEqual([...before.map((a) => a.filename), 'notes.txt']);
});

test('an upload whose answer is lost says it may or may not have been attached, and is not sent again', async ({
  app,
  door,
}, info) => {
  await openThroughProxy(app, PEOPLE);
  const id = (await app.rowId(1)) ?? '';
  const before = (await photos(door, id)).length;
  door.proxy.inject({ type: 'drop-after' }, { match: (r) => r.path.endsWith('/uploadAttachment') });
  const sent = uploads(door).length;
  const cell = await showCell(app, 1, 'Photo');
  await dropFiles(app.page, cell, [{ name: 'lost.txt', type: 'text/plain', bytes: Buffer.from('lost?') }]);
  const notice = app.table
    .getByRole('alert')
    .filter({ hasText: 'lost.txt may or may not have been attached' });
  await expect(notice).toBeVisible();
  await app.screenshot(info, 'attachments-03-uncertain-upload');
  // It reached the server once; nothing sends it again.
  await app.page.waitForTimeout(1000);
  expect(uploads(door).length - sent).toBe(1);
  expect((await photos(door, id)).length).toBe(before + 1);
  await notice.getByRole('button', { name: 'I have checked' }).click();
  await expect(notice).toHaveCount(0);
});
