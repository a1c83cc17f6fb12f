/** TSV as spreadsheets put it on the clipboard (quoted cells may hold tabs and line breaks). */
import Papa from 'papaparse';

export function toTsv(rows: string[][]): string {
  return Papa.unparse(rows, { delimiter: '\t', newline: '\n' });
}

export function parseTsv(text: string): string[][] {
  const { data } = Papa.parse<string[]>(text.replace(/\r?\n$/, ''), { delimiter: '\t' });
  return data;
}
