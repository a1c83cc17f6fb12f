import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_EXTENSIONS } from '../../../server/http/extension-routes';
import { startHarness } from './setup';
import type { Harness } from './setup';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(() => h.proxy.reset());
afterAll(() => h.close());

const discovery = (path: string) => path.startsWith('/_tabledesk/v1/extensions');

describe('the server extensions a client may use', () => {
  it('are those the local server names, asked once per client', async () => {
    const client = h.client();
    const first = await client.extensions();
    expect([...first].sort()).toEqual([...SERVER_EXTENSIONS].sort());
    await client.extensions();
    expect(h.proxy.log.filter((r) => discovery(r.path))).toHaveLength(1);
  });

  it("are none where the discovery path is unknown, as on Airtable's service", async () => {
    h.proxy.inject(
      { type: 'status', status: 404, body: '{"error":"NOT_FOUND"}' },
      { match: (r) => discovery(r.path) },
    );
    expect((await h.client().extensions()).size).toBe(0);
  });

  it('keep names of the expected shape only, from an answer that is not what it claims', async () => {
    h.proxy.inject(
      {
        type: 'replace-body',
        status: 200,
        body: JSON.stringify({ extensions: ['count', 'Not A Name', 7, 'x'.repeat(200), 'aggregate'] }),
      },
      { match: (r) => discovery(r.path) },
    );
    expect([...(await h.client().extensions())]).toEqual(['count', 'aggregate']);
  });

  it('are asked again after a failure rather than taken as none', async () => {
    const client = h.client();
    h.proxy.inject(
      { type: 'status', status: 401, body: '{"error":{"type":"AUTHENTICATION_REQUIRED","message":"no"}}' },
      { match: (r) => discovery(r.path) },
    );
    await expect(client.extensions()).rejects.toMatchObject({ status: 401 });
    expect([...(await client.extensions())].sort()).toEqual([...SERVER_EXTENSIONS].sort());
  });
});

describe('a local server with its extensions off (playing the hosted service)', () => {
  it("answers only Airtable's wire: discovery and the count are 404s, and the client sees none", async () => {
    const hosted = await startHarness({ extensions: false });
    try {
      const client = hosted.client();
      expect((await client.extensions()).size).toBe(0);
      const count = await fetch(`${hosted.server.url}/_tabledesk/v1/${hosted.baseId}/Tasks/count`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hosted.server.apiKey}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(count.status).toBe(404);
      expect((await client.table(hosted.baseId, 'Tasks').listPage({ pageSize: 1 })).records).toHaveLength(1);
    } finally {
      await hosted.close();
    }
  });
});
