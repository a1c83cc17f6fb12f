/**
 * A CSV import on a limited plan of the hosted service (a local server playing it, extensions off) asks the
 * request budget before it sends anything, naming its calls (a call per 10 rows left), like any write of many
 * records: a no sends nothing and leaves the import cancelled, a Resume asks again, and a Cancel while the
 * question is open withdraws it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api/index';
import type { ImportState } from '../../../core/contract/imports';
import type { BrowserApp } from '../../../host/launch';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';
import { stageNames } from './import-stage';
import { startStandInDoor } from './stand-in-door';

const ROWS = 100;

let app: BrowserApp;
let hosted: LocalServer;

beforeAll(async () => {
  app = await startStandInDoor(100, 1000);
  hosted = await startLocalServer({ extensions: false, demo: { largeTableRecords: 100 } });
});

afterAll(async () => {
  await app?.close();
  await hosted?.close();
});

const until = async <T>(look: () => Promise<T | undefined>): Promise<T> => {
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
};

it('an import and its resume each ask first with their calls; a no or a cancel sends nothing', async () => {
  const h = app.services.handlers;
  const { connection } = await h['connections.save']({
    name: 'Hosted',
    baseUrl: hosted.url,
    apiKey: hosted.apiKey,
    remember: true,
  });
  await h['budget.setPlan']({ scope: 'wspLocalTableDesk', plan: 'free' });
  const target = { connectionId: connection.id, baseId: hosted.baseId, table: 'Tasks' };
  const imported = () =>
    new RecordTableClient({ baseUrl: hosted.url, apiKey: hosted.apiKey })
      .table(hosted.baseId, 'Tasks')
      .all({ formula: `FIND('Imported ', {Name}) = 1` });
  /** The import's question; an import that stops running without one fails here rather than timing out. */
  const question = (importId: string) =>
    until(async () => {
      const ask = (await h['budget.asks']({})).asks.find((a) => a.purpose === 'edits');
      if (ask !== undefined) return ask;
      const job = (await h['import.list']({})).imports.find((s) => s.importId === importId);
      if (job?.state !== 'running') throw new Error(`The import ended (${job?.state ?? 'done'}) unasked.`);
      return undefined;
    });
  const stateOf = (importId: string, state: ImportState['state']) =>
    until(async () =>
      (await h['import.list']({})).imports.find((s) => s.importId === importId && s.state === state),
    );
  const staged = () => stageNames(app, target, ROWS, (i) => `Imported ${i}`);

  const first = await staged();
  expect((await h['import.run']({ importId: first })).state).toBe('running');
  const asked = await question(first);
  expect(asked).toMatchObject({ subject: `Import ${ROWS} rows into Tasks`, calls: ROWS / 10 });
  // The job says it waits for the answer (the dialog shows it rather than "0 of 100").
  expect((await h['import.list']({})).imports.find((s) => s.importId === first)).toMatchObject({
    state: 'running',
    waiting: true,
    done: 0,
  });
  expect(await imported()).toHaveLength(0);
  await h['budget.answer']({ askId: asked.askId, choice: 'no' });
  const declined = await stateOf(first, 'cancelled');
  expect(declined).toMatchObject({ declined: true });
  expect(declined.waiting).toBeUndefined();
  expect(declined.error?.message).toMatch(/not agreed to/);
  expect(declined.done).toBe(0);
  expect(await imported()).toHaveLength(0);

  await h['import.resume']({ importId: first });
  const again = await question(first);
  expect(again).toMatchObject({ subject: `Resume importing ${ROWS} rows into Tasks`, calls: ROWS / 10 });
  expect(await imported()).toHaveLength(0);
  await h['budget.answer']({ askId: again.askId, choice: 'yes' });
  // A finished import with nothing to check leaves the list.
  await until(async () =>
    (await h['import.list']({})).imports.some((s) => s.importId === first) ? undefined : true,
  );
  expect(await imported()).toHaveLength(ROWS);

  // A cancel while the question is open withdraws it, and nothing more is sent.
  const second = await staged();
  await h['import.run']({ importId: second });
  await question(second);
  expect(await h['import.cancel']({ importId: second })).toEqual({ cancelled: true });
  const cancelled = await stateOf(second, 'cancelled');
  // Cancelled by the user, not declined.
  expect(cancelled.declined).toBeUndefined();
  expect((await h['budget.asks']({})).asks).toEqual([]);
  expect(await imported()).toHaveLength(ROWS);
}, 60_000);
