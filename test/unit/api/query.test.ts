import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  encodeSegment,
  listBody,
  listQuery,
  localeQuery,
  tablePath,
  toSortSpec,
} from '../../../core/api/query';
import { backoffMs } from '../../../core/api/requester';
import { parseRetryAfter } from '../../../core/api/attempt';
import { readServiceError } from '../../../core/api/errors';

describe('query encoding', () => {
  it('encodes list options the way Airtable expects them', () => {
    const qs = listQuery({
      view: 'Grid view',
      fields: ['Name', 'Notes'],
      sort: ['-Name', { field: 'Age' }],
      formula: "AND({Name} = 'O\\'Brien', NOT({Done}))",
      pageSize: 10,
      maxRecords: 25,
      cellFormat: 'string',
      timeZone: 'Europe/Paris',
      userLocale: 'fr',
      returnFieldsByFieldId: true,
      recordMetadata: ['commentCount'],
      offset: 'itr5boAQndnj6DsRG/recIioL2RTwQ1FU0G',
    }).toString();
    expect(qs).toBe(
      'view=Grid+view&fields%5B%5D=Name&fields%5B%5D=Notes&sort%5B0%5D%5Bfield%5D=Name&sort%5B0%5D%5Bdirection%5D=desc' +
        '&sort%5B1%5D%5Bfield%5D=Age' +
        '&filterByFormula=AND%28%7BName%7D+%3D+%27O%5C%27Brien%27%2C+NOT%28%7BDone%7D%29%29&pageSize=10&maxRecords=25' +
        '&cellFormat=string&timeZone=Europe%2FParis&userLocale=fr&returnFieldsByFieldId=true' +
        '&recordMetadata%5B%5D=commentCount&offset=itr5boAQndnj6DsRG%2FrecIioL2RTwQ1FU0G',
    );
  });

  it('puts every option but the locale in the POST listRecords body, offset included', () => {
    const opts = {
      fields: ['A'],
      sort: ['-B'],
      formula: '{A}',
      offset: 'itr1/rec1',
      timeZone: 'UTC',
      userLocale: 'en',
    };
    expect(listBody(opts)).toEqual({
      fields: ['A'],
      sort: [{ field: 'B', direction: 'desc' }],
      filterByFormula: '{A}',
      offset: 'itr1/rec1',
    });
    expect(localeQuery(opts).toString()).toBe('timeZone=UTC&userLocale=en');
  });

  it('reads "-Field" as descending and a lone "-" as a field name', () => {
    expect(toSortSpec('-Due date')).toEqual({ field: 'Due date', direction: 'desc' });
    expect(toSortSpec('-')).toEqual({ field: '-', direction: 'asc' });
  });

  it('leaves nothing unescaped in a table name, and decodes back to it', () => {
    expect(tablePath('app1', "Test/Table 2 (o'k)!*")).toBe('/v0/app1/Test%2FTable%202%20%28o%27k%29%21%2A');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (name) => {
        const encoded = encodeSegment(name);
        expect(encoded).toMatch(/^[A-Za-z0-9%\-._~]*$/);
        expect(decodeURIComponent(encoded)).toBe(name);
      }),
    );
  });
});

describe('retry helpers', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('Sat, 21 Nov 2026 07:00:10 GMT', Date.parse('2026-11-21T07:00:00Z'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    const policy = {
      maxRetries: 5,
      maxRateLimitRetries: 5,
      rateLimitPauseMs: 30_000,
      backoffBaseMs: 100,
      backoffMaxMs: 1000,
    };
    expect(backoffMs(policy, 1, () => 0)).toBe(50);
    expect(backoffMs(policy, 3, () => 1)).toBe(400);
    expect(backoffMs(policy, 10, () => 1)).toBe(1000);
  });

  it('reads both error body shapes', () => {
    expect(readServiceError({ error: 'NOT_FOUND' })).toEqual({ type: 'NOT_FOUND' });
    expect(readServiceError({ error: { type: 'X', message: 'y' } })).toEqual({ type: 'X', message: 'y' });
    expect(readServiceError({ records: [] })).toBeUndefined();
  });
});

describe('bad input', () => {
  it('refuses an empty record, table or base id with a clear message before sending anything', async () => {
    const { RecordTableClient } = await import('../../../core/api/index');
    let sent = 0;
    const client = new RecordTableClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      fetch: async () => {
        sent++;
        return new Response('{}');
      },
    });
    expect(() => client.table('', 'T')).toThrow(/base id must be a non-empty string/);
    expect(() => client.table('app1', '')).toThrow(/table name or id must be a non-empty string/);
    const t = client.table('app1', 'T');
    await expect(t.get('')).rejects.toThrow(/record id must be a non-empty string, got ""/);
    await expect(t.deleteMany(['rec1', ''])).rejects.toThrow(/record id/);
    await expect(
      t.updateMany([
        { id: 'rec1', fields: {} },
        { id: undefined as unknown as string, fields: {} },
      ]),
    ).rejects.toThrow(/record id/);
    expect(sent).toBe(0);
    expect(() => new RecordTableClient({ baseUrl: 'not a url', apiKey: 'k' })).toThrow(
      /baseUrl is not a URL/,
    );
    expect(() => new RecordTableClient({ baseUrl: 'http://x', apiKey: 'k', requestsPerSecond: 0 })).toThrow(
      /requestsPerSecond/,
    );
  });
});
