/**
 * The hostile-requests fuzzer's world: the real local server with the demo base (3,500 Tasks, linked to People), a
 * chain of rollups over ten tables of four records, a mirrored table with files, a stored image and its signed
 * link, and a 16-bit PNG heavy to decode.
 */
import sharp from 'sharp';
import { startLocalServer } from '../../support/local-server';
import type { AnyReply, LocalServer } from '../../support/local-server';
import { stallAllowanceMs } from '../../support/probe';

export interface HostileWorld {
  server: LocalServer;
  /** How long a probe may wait behind the requests: a second more than on the idle server. */
  stallMs: number;
  people: string[];
  /** The chain's base, its last table and that table's records (a change there reaches every table). */
  chain: { base: string; bottom: string; records: string[] };
  /** A mirrored base of one table (Name, Photo), written only through the mirror route. */
  mirror: { base: string; table: string; name: string; photo: string };
  /** A file stored here: its signed link, its bytes and its hash; and another file's hash. */
  file: { url: string; bytes: Buffer; hash: string; otherHash: string };
  /** A 16-bit PNG of one colour: a few KB, a heavy decode. */
  heavyPng: Buffer;
  close(): Promise<void>;
}

const CHAIN_TABLES = 10;

export async function ok(r: Promise<AnyReply>): Promise<AnyReply> {
  const answer = await r;
  if (answer.status !== 200) throw new Error(`setup: ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer;
}

async function makeChain(s: LocalServer): Promise<HostileWorld['chain']> {
  const b = (
    await ok(
      s.request('POST', '/v0/meta/bases', {
        name: 'Chain',
        tables: Array.from({ length: CHAIN_TABLES }, (_, i) => ({
          name: `T${i}`,
          fields: [
            { name: 'Name', type: 'singleLineText' },
            { name: 'N', type: 'number', options: { precision: 0 } },
          ],
        })),
      }),
    )
  ).body as { id: string; tables: { id: string; fields: { id: string; name: string }[] }[] };
  const tables = b.tables.map((t) => t.id);
  const field = (table: string, spec: unknown) =>
    ok(s.request('POST', `/v0/meta/bases/${b.id}/tables/${table}/fields`, spec)).then(
      (r) => r.body.id as string,
    );
  let below = b.tables[CHAIN_TABLES - 1]!.fields.find((f) => f.name === 'N')!.id;
  let next: string[] = [];
  let bottom: string[] = [];
  for (let i = CHAIN_TABLES - 1; i >= 0; i--) {
    const linked = tables[i + 1];
    if (linked) {
      const link = await field(tables[i]!, {
        name: 'Next',
        type: 'multipleRecordLinks',
        options: { linkedTableId: linked },
      });
      below = await field(tables[i]!, {
        name: 'Total',
        type: 'rollup',
        options: { recordLinkFieldId: link, fieldIdInLinkedTable: below, formula: 'SUM(values)' },
      });
    }
    const made = await ok(
      s.request('POST', `/v0/${b.id}/${tables[i]}`, {
        records: Array.from({ length: 4 }, (_, k) => ({
          fields: { Name: `r${k}`, N: k, ...(linked ? { Next: next } : {}) },
        })),
      }),
    );
    next = made.body.records.map((r: { id: string }) => r.id);
    if (i === CHAIN_TABLES - 1) bottom = next;
  }
  return { base: b.id, bottom: tables[CHAIN_TABLES - 1]!, records: bottom };
}

async function makeMirror(s: LocalServer): Promise<HostileWorld['mirror']> {
  const m = {
    base: 'appHostileMirror1',
    table: 'tblHostileMirror1',
    name: 'fldHostileName001',
    photo: 'fldHostilePhoto01',
  };
  await ok(
    s.request('PUT', `/_tabledesk/mirror/bases/${m.base}`, {
      name: 'Mirrored',
      tables: [
        {
          id: m.table,
          name: 'Things',
          primaryFieldId: m.name,
          fields: [
            { id: m.name, name: 'Name', type: 'singleLineText' },
            { id: m.photo, name: 'Photo', type: 'multipleAttachments' },
          ],
          views: [{ id: 'viwHostileMirror1', name: 'Grid view', type: 'grid' }],
        },
      ],
    }),
  );
  return m;
}

export async function startHostileWorld(): Promise<HostileWorld> {
  const server = await startLocalServer({ demo: { largeTableRecords: 3_500 } });
  try {
    const page = await ok(server.request('GET', `/v0/${server.baseId}/People?pageSize=20`));
    const people = page.body.records.map((r: { id: string }) => r.id) as string[];
    const upload = async (background: string, filename: string) => {
      const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background } })
        .png()
        .toBuffer();
      const up = await ok(
        server.request('POST', `/v0/${server.baseId}/${people[0]}/Photo/uploadAttachment`, {
          contentType: 'image/png',
          file: bytes.toString('base64'),
          filename,
        }),
      );
      const url = (up.body.fields.Photo as { url: string }[]).at(-1)!.url;
      return { url, bytes, hash: new URL(url).pathname.split('/')[2]! };
    };
    const file = await upload('#3366cc', 'probe.png');
    const other = await upload('#cc6633', 'other.png');
    const heavyPng = await sharp({ create: { width: 2600, height: 2600, channels: 3, background: '#000' } })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    return {
      server,
      stallMs: await stallAllowanceMs(server),
      people,
      chain: await makeChain(server),
      mirror: await makeMirror(server),
      file: { ...file, otherHash: other.hash },
      heavyPng,
      close: () => server.close(),
    };
  } catch (e) {
    await server.close();
    throw e;
  }
}
