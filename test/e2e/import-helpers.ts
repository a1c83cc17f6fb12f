/** A CSV file chosen in the Import dialog, as a spreadsheet writes one. */
import type { Page } from '@playwright/test';

const csv = (lines: string[][]) =>
  Buffer.from(
    // A BOM and CRLF line ends, as spreadsheets write them; a quoted cell holds a comma and a line break.
    '\uFEFF' +
      lines
        .map((l) => l.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','))
        .join('\r\n'),
  );

export async function choose(page: Page, name: string, lines: string[][]): Promise<void> {
  await page
    .getByRole('dialog', { name: 'Import CSV' })
    .getByLabel('CSV file')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: csv(lines) });
}
