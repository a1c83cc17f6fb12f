/**
 * cellFormat=string writes dates in their field's format (Airtable's date and time formats, Moment tokens),
 * as Airtable's own CSV export does: ISO by default, US, European, local and friendly, 12- or 24-hour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
let path: string;

const US = { name: 'us', format: 'M/D/YYYY' };
const EUROPEAN = { name: 'european', format: 'D/M/YYYY' };
const H12 = { name: '12hour', format: 'h:mma' };

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 5 } });
  const r = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: 'Dates',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Iso', type: 'date' },
      { name: 'Us', type: 'date', options: { dateFormat: US } },
      { name: 'European', type: 'date', options: { dateFormat: EUROPEAN } },
      { name: 'Local', type: 'date', options: { dateFormat: { name: 'local', format: 'l' } } },
      { name: 'Friendly', type: 'date', options: { dateFormat: { name: 'friendly', format: 'LL' } } },
      { name: 'At', type: 'dateTime' },
      { name: 'Us at', type: 'dateTime', options: { dateFormat: US, timeFormat: H12, timeZone: 'client' } },
    ],
  });
  path = `/v0/${s.baseId}/${r.body.id}`;
  const day = '2024-03-07';
  const at = '2024-03-07T15:04:05.000Z';
  await s.request('POST', path, {
    records: [
      {
        fields: {
          Name: 'one',
          Iso: day,
          Us: day,
          European: day,
          Local: day,
          Friendly: day,
          At: at,
          'Us at': at,
        },
      },
    ],
  });
});
afterAll(() => s.close());

const read = async (timeZone: string, locale: string) =>
  (await s.request('GET', `${path}?cellFormat=string&timeZone=${timeZone}&userLocale=${locale}`)).body
    .records[0].fields;

describe('cellFormat=string dates', () => {
  it('writes each date in its field format, and date-times in the time zone asked for', async () => {
    expect(await read('America/New_York', 'en-US')).toEqual({
      Name: 'one',
      Iso: '2024-03-07',
      Us: '3/7/2024',
      European: '7/3/2024',
      Local: '3/7/2024',
      Friendly: 'March 7, 2024',
      At: '2024-03-07 10:04',
      'Us at': '3/7/2024 10:04am',
    });
  });

  it('follows the locale only where the format is the local or friendly one', async () => {
    expect(await read('UTC', 'de-DE')).toMatchObject({
      Us: '3/7/2024',
      Local: '7.3.2024',
      Friendly: '7. März 2024',
      At: '2024-03-07 15:04',
      'Us at': '3/7/2024 3:04pm',
    });
  });
});
