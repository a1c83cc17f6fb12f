/**
 * What the dispatcher both doors call does with a failure: a ServiceError (a state the user caused) reaches
 * the page as its kind and message and is not logged; any other error is a bug, logged as one, and the page
 * is told so without the error's own words.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDispatcher } from '../../../services/dispatch';
import type { Handlers } from '../../../services/dispatch';
import { BUG_MESSAGE } from '../../../services/errors';
import { updateFeed } from '../../../services/updates/update-flow';
import { startHarness } from './harness';

afterEach(() => vi.restoreAllMocks());

/** The real dispatcher over one handler; the others are never called. */
const dispatcherWith = (info: () => Promise<unknown>) =>
  createDispatcher({ 'app.info': info } as Partial<Handlers> as Handlers);

describe('a failed call at the dispatcher', () => {
  it('gives a ServiceError to the page as its kind and words, and logs nothing', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dispatch = dispatcherWith(async () => updateFeed('ftp://updates.example.com/'));
    expect(await dispatch('app.info', {})).toEqual({
      ok: false,
      error: {
        kind: 'invalid-request',
        message: 'TABLEDESK_UPDATE_URL must be an https:// feed (http:// only on this computer), or "off"',
      },
    });
    expect(logged).not.toHaveBeenCalled();
  });

  it('logs a plain Error as a bug and tells the page so, not in the error’s words', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const bug = new Error('row 7 of the index is missing');
    const dispatch = dispatcherWith(async () => {
      throw bug;
    });
    const result = await dispatch('app.info', {});
    expect(result).toEqual({ ok: false, error: { kind: 'internal', message: BUG_MESSAGE } });
    expect(JSON.stringify(result)).not.toContain('row 7');
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('bug'), bug);
  });

  it('gives the disk’s refusal as a storage state, not a bug', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refusal = Object.assign(new Error("EACCES: permission denied, open '/x/out.csv'"), {
      code: 'EACCES',
      syscall: 'open',
    });
    const dispatch = dispatcherWith(async () => {
      throw refusal;
    });
    expect(await dispatch('app.info', {})).toEqual({
      ok: false,
      error: { kind: 'storage', message: refusal.message },
    });
    expect(logged).not.toHaveBeenCalled();
  });

  it('gives the app’s own state (no such mirror) through the app’s dispatcher, unlogged', async () => {
    const h = await startHarness({ embedded: { largeTableRecords: 5 } });
    try {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      expect(await h.services.dispatch('mirror.sync', { mirrorId: 'mirNone' })).toEqual({
        ok: false,
        error: { kind: 'not-found', message: 'No offline mirror mirNone.' },
      });
      expect(logged).not.toHaveBeenCalled();
    } finally {
      await h.close();
    }
  });
});
