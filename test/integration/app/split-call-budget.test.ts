/**
 * A call too large for one frame of the browser door (a big paste, a whole view's delete with the fields undo
 * needs) is sent in parts, and the parts are one user action: on a limited plan of the hosted service (a local
 * server playing it, extensions off) the paste asks one API calls question for all its records, its delete is
 * one undo step, and that undo asks once for re-creating every record (it asked once per part, and undid only
 * the last part).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { RecordTableClient } from '../../../core/api/index';
import { connectSocketBridge } from '../../../core/contract/socket-bridge';
import type { BrowserApp } from '../../../host/launch';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';
import { pageSocket, startStandInDoor } from './stand-in-door';

/** About 1.3 MiB of records with their fields: more than one frame (1 MiB). */
const RECORDS = 3000;
const NAME = (i: number) => `Split ${i} ${'n'.repeat(400)}`;

let app: BrowserApp;
let hosted: LocalServer;
let ws: WebSocket;

beforeAll(async () => {
  app = await startStandInDoor(100, 1000);
  hosted = await startLocalServer({ extensions: false, demo: { largeTableRecords: 100 } });
});

afterAll(async () => {
  ws?.close();
  await app?.close();
  await hosted?.close();
});

it('a split paste asks once for all its records; its delete is one step, whose undo asks once and restores all', async () => {
  const { connection } = await app.services.handlers['connections.save']({
    name: 'Hosted',
    baseUrl: hosted.url,
    apiKey: hosted.apiKey,
    remember: true,
  });
  await app.services.handlers['budget.setPlan']({ scope: 'wspLocalTableDesk', plan: 'free' });
  ws = pageSocket(app);
  const api = connectSocketBridge(ws as unknown as Parameters<typeof connectSocketBridge>[0]);
  const target = { connectionId: connection.id, baseId: hosted.baseId, table: 'Tasks' };

  /** Runs `work`, saying yes to every question of edits it asks meanwhile; returns its answer and the questions. */
  const agreeing = async <T>(work: Promise<T>) => {
    const asked: { subject: string; calls?: number }[] = [];
    let settled = false;
    const done = work.finally(() => (settled = true));
    while (!settled) {
      for (const a of (await app.services.handlers['budget.asks']({})).asks.filter(
        (q) => q.purpose === 'edits',
      )) {
        asked.push({ subject: a.subject, ...(a.calls === undefined ? {} : { calls: a.calls }) });
        await app.services.handlers['budget.answer']({ askId: a.askId, choice: 'yes' });
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return { answer: await done, asked };
  };

  const records = Array.from({ length: RECORDS }, (_, i) => ({ fields: { Name: NAME(i) } }));
  const pasted = await agreeing(api.call('records.create', { target, records, undoable: false }));
  expect(pasted.asked).toEqual([{ subject: 'Add 3,000 records to Tasks', calls: 300 }]);
  expect(pasted.answer.created).toHaveLength(RECORDS);

  // A whole view's delete: every record with its fields, for undo to re-create them.
  const created = pasted.answer.created.map((r) => ({ id: r.id, fields: { Name: r.fields['Name'] } }));
  const deleted = await api.call('records.delete', { target, records: created });
  expect(deleted.deleted).toHaveLength(RECORDS);
  const state = await api.call('history.state', { target });
  expect(state).toMatchObject({ canUndo: true, undoLabel: 'Undo deleting 3000 records' });

  const undone = await agreeing(api.call('history.undo', { target }));
  expect(undone.asked).toEqual([{ subject: 'Undo deleting 3000 records of Tasks', calls: 300 }]);
  expect(undone.answer, undone.answer.message).toMatchObject({ done: true, canUndo: false });
  expect(undone.answer.idChanges).toHaveLength(RECORDS);
  const all = await new RecordTableClient({ baseUrl: hosted.url, apiKey: hosted.apiKey })
    .table(hosted.baseId, 'Tasks')
    .all({ formula: `FIND('Split ', {Name}) = 1` });
  expect(all).toHaveLength(RECORDS);
}, 120_000);
