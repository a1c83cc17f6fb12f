/**
 * An offline copy's files are named as a copy's (issue 22): its table's CSV export is offered as
 * "Teams (offline copy).csv" (the hosted table's as "Teams.csv") and its conflicts report as
 * "<base> (offline copy) conflicts <date>.json". A second local server plays the hosted service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';
import { startHarness } from './harness';
import type { Harness } from './harness';

let remote: LocalServer;
let h: Harness;
let connectionId: string;
let mirrorId: string;
const asked: string[] = [];

beforeAll(async () => {
  remote = await startLocalServer({ demo: { largeTableRecords: 20 } });
  h = await startHarness({
    embedded: { largeTableRecords: 20 },
    exportDestination: async (name) => {
      asked.push(name);
      return undefined;
    },
  });
  ({
    connection: { id: connectionId },
  } = await h.call('connections.save', { name: 'Hosted', baseUrl: remote.url, apiKey: remote.apiKey }));
  const made = await h.call('mirror.start', { connectionId, baseId: remote.baseId });
  mirrorId = made.mirror!.id;
});
afterAll(async () => {
  await h?.close();
  await remote?.close();
});

describe('the files of an offline copy', () => {
  it('offers the copy’s export as the copy’s, the hosted table’s as the table’s', async () => {
    await h.call('export.start', {
      target: { connectionId: 'demo', baseId: remote.baseId, table: 'Teams' },
      query: {},
    });
    await h.call('export.start', {
      target: { connectionId, baseId: remote.baseId, table: 'Teams' },
      query: {},
    });
    expect(asked).toEqual(['Teams (offline copy).csv', 'Teams.csv']);
  });

  it('names the conflicts report as the copy’s', async () => {
    const report = await h.call('mirror.saveReport', { mirrorId });
    expect(report.fileName).toMatch(/^TableDesk Demo \(offline copy\) conflicts \d{4}-\d{2}-\d{2}\.json$/);
  });
});
