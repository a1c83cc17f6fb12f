/**
 * The `mirror.*` channels as the doors reach them, through the app's dispatcher: every request checked before
 * the engine sees it, every failure a ChannelError in words, and the local server's own bases refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ embedded: { largeTableRecords: 20 } });
});
afterAll(() => h.close());

const refused = async (channel: string, request: unknown) => {
  const result = await h.services.dispatch(channel, request);
  expect(result.ok).toBe(false);
  return (result as { error: { kind: string; message: string } }).error;
};

describe('mirror channels: validation', () => {
  it('lists no mirrors before any was made', async () => {
    expect(await h.call('mirror.list', {})).toEqual({ mirrors: [] });
  });

  it('refuses to mirror a base of the local server itself, before any request', async () => {
    const before = h.requests.length;
    const error = await refused('mirror.start', { connectionId: 'demo', baseId: await h.demoBaseId() });
    expect(error).toEqual({
      kind: 'invalid-request',
      message: 'The local server’s bases are on this computer already.',
    });
    expect(h.requests.length).toBe(before);
  });

  it('refuses malformed starts: no base, an empty table list, unknown properties', async () => {
    expect(await refused('mirror.start', { connectionId: 'con1' })).toMatchObject({
      kind: 'invalid-request',
      message: expect.stringContaining('baseId'),
    });
    expect(await refused('mirror.start', { connectionId: 'con1', baseId: 'app1', tableIds: [] })).toEqual({
      kind: 'invalid-request',
      message: 'tableIds: Choose at least one table',
    });
    expect(
      await refused('mirror.start', { connectionId: 'con1', baseId: 'app1', dataDir: '/tmp/elsewhere' }),
    ).toMatchObject({ kind: 'invalid-request' });
    expect(await refused('mirror.start', { connectionId: 'con1', baseId: 'x'.repeat(201) })).toMatchObject({
      kind: 'invalid-request',
    });
  });

  it('says which connection is missing, as not-found', async () => {
    expect(await refused('mirror.start', { connectionId: 'conNoSuchOne', baseId: 'appX' })).toMatchObject({
      kind: 'not-found',
      message: 'No connection conNoSuchOne.',
    });
    // Nothing is recorded for it: no partial mirror of a base that cannot be reached is left to resume.
    expect(await h.call('mirror.list', {})).toEqual({ mirrors: [] });
  });

  it('refuses resolutions that do not say what to keep', async () => {
    const mirrorId = 'mirNone';
    expect(await refused('mirror.resolve', { mirrorId, resolutions: [] })).toEqual({
      kind: 'invalid-request',
      message: 'resolutions: Choose at least one conflict',
    });
    expect(
      await refused('mirror.resolve', { mirrorId, resolutions: [{ conflictId: 'c1', choice: 'edit' }] }),
    ).toEqual({
      kind: 'invalid-request',
      message: 'resolutions.0.value: An edited resolution needs its value',
    });
    expect(
      await refused('mirror.resolve', {
        mirrorId,
        resolutions: [{ conflictId: 'c1', choice: 'mine', value: 'sneaked in' }],
      }),
    ).toEqual({
      kind: 'invalid-request',
      message: 'resolutions.0.value: Only an edited resolution carries a value',
    });
    expect(
      await refused('mirror.resolve', { mirrorId, resolutions: [{ conflictId: 'c1', choice: 'both' }] }),
    ).toMatchObject({ kind: 'invalid-request' });
    const many = Array.from({ length: 5001 }, (_, i) => ({ conflictId: `c${i}`, choice: 'mine' }));
    expect(await refused('mirror.resolve', { mirrorId, resolutions: many })).toMatchObject({
      kind: 'invalid-request',
      message: 'resolutions: Resolve at most 5000 conflicts at once',
    });
  });

  it('refuses an automatic sync that is not whole minutes between 0 and a day', async () => {
    for (const minutes of [-1, 1.5, 1441, '5'])
      expect(await refused('mirror.autoSync', { mirrorId: 'mirNone', minutes })).toMatchObject({
        kind: 'invalid-request',
      });
  });

  it('answers a mirror id it does not know with not-found, on every channel that names one', async () => {
    for (const channel of ['mirror.sync', 'mirror.conflicts', 'mirror.saveReport'])
      expect(await refused(channel, { mirrorId: 'mirNoSuchMirror' })).toEqual({
        kind: 'not-found',
        message: 'No offline mirror mirNoSuchMirror.',
      });
    expect(
      await refused('mirror.resolve', {
        mirrorId: 'mirNoSuchMirror',
        resolutions: [{ conflictId: 'c1', choice: 'theirs' }],
      }),
    ).toMatchObject({ kind: 'not-found' });
    expect(await refused('mirror.autoSync', { mirrorId: 'mirNoSuchMirror', minutes: 5 })).toMatchObject({
      kind: 'not-found',
    });
    expect(await h.call('mirror.cancel', { mirrorId: 'mirNoSuchMirror' })).toEqual({ cancelled: false });
  });
});
