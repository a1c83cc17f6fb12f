import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
let tasks: string;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 20 }, bodyLimit: 64 * 1024 });
  tasks = `/v0/${s.baseId}/Tasks`;
});

afterAll(async () => {
  await s.close();
});

async function firstId(): Promise<string> {
  return (await s.request('GET', `${tasks}?maxRecords=1`)).body.records[0].id as string;
}

describe('error statuses and bodies (airtable-wire.md §4)', () => {
  it('401 without a key or with a wrong one', async () => {
    for (const auth of ['', 'Bearer wrong', `Basic ${s.apiKey}`]) {
      const r = await s.request('GET', tasks, undefined, { authorization: auth });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({
        error: { type: 'AUTHENTICATION_REQUIRED', message: 'Authentication required' },
      });
    }
  });

  it('403 for an unknown base', async () => {
    const r = await s.request('GET', '/v0/appAAAAAAAAAAAAAA/Tasks');
    expect(r.status).toBe(403);
    expect(r.body.error.type).toBe('INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND');
    expect(r.body.error.message).toMatch(/^Invalid permissions, or the requested model was not found/);
  });

  it('404 for an unknown table, record and route, each in its shape', async () => {
    const t = await s.request('GET', `/v0/${s.baseId}/Unknown%20Table`);
    expect(t.status).toBe(404);
    expect(t.body).toEqual({
      error: {
        type: 'TABLE_NOT_FOUND',
        message: `Could not find table Unknown Table in application ${s.baseId}`,
      },
    });
    const r = await s.request('GET', `${tasks}/recAAAAAAAAAAAAAA`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: { type: 'MODEL_ID_NOT_FOUND', message: 'Record not found' } });
    for (const [method, path] of [
      ['GET', '/v0/meta/bases/junk/tables/x/y'],
      ['GET', '/nothing'],
      ['POST', `${tasks}/recAAAAAAAAAAAAAA`],
    ] as const) {
      const n = await s.request(method, path, method === 'POST' ? {} : undefined);
      expect(n.status).toBe(404);
      expect(n.body).toEqual({ error: 'NOT_FOUND' });
    }
    const del = await s.request('DELETE', `${tasks}/recAAAAAAAAAAAAAA`);
    expect(del.status).toBe(404);
    const patch = await s.request('PATCH', `${tasks}/recAAAAAAAAAAAAAA`, { fields: { Name: 'x' } });
    expect(patch.status).toBe(404);
  });

  it('422 for more than 10 records, with the count', async () => {
    const records = Array.from({ length: 11 }, (_, i) => ({ fields: { Name: `n${i}` } }));
    const r = await s.request('POST', tasks, { records });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      error: {
        type: 'INVALID_RECORDS',
        message: 'A maximum of 10 records can be created per request but you have provided 11.',
      },
    });
    const ids = Array.from({ length: 11 }, () => 'recAAAAAAAAAAAAAA');
    const d = await s.request('DELETE', `${tasks}?${ids.map((id) => `records[]=${id}`).join('&')}`);
    expect(d.status).toBe(422);
    expect(d.body.error.type).toBe('INVALID_RECORDS');
    const p = await s.request('PATCH', tasks, { records: ids.map((id) => ({ id, fields: {} })) });
    expect(p.status).toBe(422);
    expect(p.body.error.type).toBe('INVALID_RECORDS');
  });

  it('422 for a single bracket-less records= on batch delete, as Airtable', async () => {
    const r = await s.request('DELETE', `${tasks}?records=${await firstId()}`);
    expect(r.status).toBe(422);
    expect(r.body.error).toEqual({
      type: 'INVALID_RECORDS',
      message: '"records" must be an array of up to 10 record IDs.',
    });
  });

  it('422 for unknown ids in a batch update, and nothing is written', async () => {
    const id = await firstId();
    const r = await s.request('PATCH', tasks, {
      records: [
        { id, fields: { Name: 'changed' } },
        { id: 'recAAAAAAAAAAAAAA', fields: { Name: 'x' } },
      ],
    });
    expect(r.status).toBe(422);
    expect(r.body.error).toEqual({
      type: 'ROW_DOES_NOT_EXIST',
      message: 'Record ID recAAAAAAAAAAAAAA does not exist in this table',
    });
    expect((await s.request('GET', `${tasks}/${id}`)).body.fields.Name).not.toBe('changed');
  });

  it('422 for unknown fields, bad values, computed fields and unknown select options', async () => {
    const unknown = await s.request('POST', tasks, { fields: { Nope: 1 } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toEqual({ type: 'UNKNOWN_FIELD_NAME', message: 'Unknown field name: "Nope"' });
    const bad = await s.request('POST', tasks, { fields: { Points: 'many' } });
    expect(bad.body.error).toEqual({
      type: 'INVALID_VALUE_FOR_COLUMN',
      message: 'Field "Points" cannot accept the provided value',
    });
    const computed = await s.request('POST', tasks, {
      records: [{ fields: { Name: 'ok' } }, { fields: { 'Task #': 40 } }],
    });
    expect(computed.status).toBe(422);
    expect(computed.body.error).toEqual({
      type: 'INVALID_VALUE_FOR_COLUMN',
      message: 'Field "Task #" cannot accept a value because the field is computed',
    });
    const select = await s.request('POST', tasks, { fields: { Status: 'Someday' } });
    expect(select.body.error).toEqual({
      type: 'INVALID_MULTIPLE_CHOICE_OPTIONS',
      message: 'Insufficient permissions to create new select option "Someday"',
    });
    const missing = await s.request('POST', tasks, { typecast: true });
    expect(missing.status).toBe(422);
    expect(missing.body.error.type).toBe('INVALID_REQUEST_MISSING_FIELDS');
  });

  it('422 for invalid list options, formulas, views and sorts', async () => {
    const formula = await s.request('GET', `${tasks}?filterByFormula=${encodeURIComponent('AND({Done},')}`);
    expect(formula.status).toBe(422);
    expect(formula.body.error.type).toBe('INVALID_FILTER_BY_FORMULA');
    expect(formula.body.error.message).toMatch(/^The formula for filtering records is invalid: ./);
    const field = await s.request('GET', `${tasks}?filterByFormula=${encodeURIComponent('{Nope}')}`);
    expect(field.body.error).toEqual({
      type: 'INVALID_FILTER_BY_FORMULA',
      message: 'The formula for filtering records is invalid: Unknown field names: Nope',
    });
    expect((await s.request('GET', `${tasks}?pageSize=101`)).status).toBe(422);
    expect((await s.request('GET', `${tasks}?fields=Name`)).body.error.type).toBe('INVALID_REQUEST_UNKNOWN');
    expect((await s.request('GET', `${tasks}?sort[0][field]=Nope`)).body.error.type).toBe(
      'UNKNOWN_FIELD_NAME',
    );
    expect((await s.request('GET', `${tasks}?fields[]=Nope`)).body.error.type).toBe('UNKNOWN_FIELD_NAME');
    expect((await s.request('GET', `${tasks}?view=Nope`)).status).toBe(422);
    expect((await s.request('GET', `${tasks}?cellFormat=string`)).status).toBe(422);
    expect(
      (await s.request('GET', `${tasks}?cellFormat=string&timeZone=Mars/Base&userLocale=en`)).status,
    ).toBe(422);
    expect((await s.request('GET', `${tasks}?offset=itrAAAAAAAAAAAAAA/recAAAAAAAAAAAAAA`)).body).toEqual({
      error: { type: 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE' },
    });
  });

  it('a malformed JSON body gets a 4xx JSON error, never a 500', async () => {
    for (const body of ['{bad', '[1,', '"just a string"', '42']) {
      const r = await s.request('POST', tasks, body);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body.error).toBeDefined();
    }
    const text = await s.request('POST', tasks, 'fields=1', { 'content-type': 'text/plain' });
    expect(text.status).toBeGreaterThanOrEqual(400);
    expect(text.status).toBeLessThan(500);
    expect(text.body.error).toBeDefined();
  });

  it('413 for an oversized body', async () => {
    const r = await s.request('POST', tasks, { fields: { Notes: 'x'.repeat(70 * 1024) } });
    expect(r.status).toBe(413);
    expect(r.body.error.type).toBe('REQUEST_TOO_LARGE');
  });

  it('answers a CORS preflight as Airtable does', async () => {
    const r = await s.request('OPTIONS', tasks, undefined, {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'PATCH',
      'access-control-request-headers': 'authorization,content-type,x-airtable-user-agent',
    });
    expect(r.status).toBeLessThan(300);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(r.headers.get('access-control-allow-headers')).toContain('x-airtable-user-agent');
  });
});

describe('rate limit', () => {
  it('answers 429 over 5 requests/s per base and keeps answering it for the penalty', async () => {
    const limited = await startLocalServer({ demo: { largeTableRecords: 5 }, rateLimit: 5, penaltyMs: 1500 });
    try {
      const path = `/v0/${limited.baseId}/Tasks?maxRecords=1`;
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await limited.request('GET', path)).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses[5]).toBe(429);
      const r = await limited.request('GET', path);
      expect(r.status).toBe(429);
      expect(r.body).toEqual({
        error: { type: 'RATE_LIMIT_REACHED', message: 'Rate limit exceeded. Please try again later' },
      });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      // Still refused after the one-second window: the penalty holds.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await limited.request('GET', path)).status).toBe(429);
      // Other routes without a base are not limited.
      expect((await limited.request('GET', '/v0/meta/bases')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await limited.request('GET', path)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('lets a client spaced 200 ms apart through', async () => {
    const limited = await startLocalServer({ demo: { largeTableRecords: 5 }, rateLimit: 5 });
    try {
      const path = `/v0/${limited.baseId}/Tasks?maxRecords=1`;
      for (let i = 0; i < 12; i++) {
        const started = Date.now();
        expect((await limited.request('GET', path)).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 200 - (Date.now() - started))));
      }
    } finally {
      await limited.close();
    }
  });
});
