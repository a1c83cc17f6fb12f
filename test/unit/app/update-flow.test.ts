/**
 * The update policy (services/updates/update-flow.ts) on its own: when the installed app checks, when it offers
 * "Restart to update" (never while an edit waits), what "Later" and an edit made during the offer do, and
 * which feeds TABLEDESK_UPDATE_URL may name. The updater itself is exercised against a feed over loopback in
 * test/integration/electron/main-bundle.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UPDATE_CHECK_EVERY_MS, startUpdateFlow, updateFeed } from '../../../services/updates/update-flow';
import type { UpdateFlow } from '../../../services/updates/update-flow';

function harness(options: { pending?: boolean; accept?: boolean; checkFails?: boolean } = {}) {
  let pending = options.pending ?? false;
  let downloaded: ((version: string) => void) | undefined;
  let editsChanged: (() => void) | undefined;
  const calls = { checks: 0, offers: [] as string[], installs: 0, unsubscribed: 0, logged: [] as string[] };
  let answer: (accepted: boolean) => void = () => undefined;
  const flow: UpdateFlow = startUpdateFlow({
    updater: {
      async check() {
        calls.checks += 1;
        if (options.checkFails) throw new Error('feed unreachable');
      },
      onDownloaded(listener) {
        downloaded = listener;
      },
      install() {
        calls.installs += 1;
      },
    },
    hasPendingEdits: async () => pending,
    onEditsChanged(listener) {
      editsChanged = listener;
      return () => (calls.unsubscribed += 1);
    },
    offer(version) {
      calls.offers.push(version);
      if (options.accept !== undefined) return Promise.resolve(options.accept);
      return new Promise((resolve) => (answer = resolve));
    },
    log: (message) => calls.logged.push(message),
  });
  return {
    flow,
    calls,
    download: (version: string) => downloaded?.(version),
    setPending(value: boolean) {
      pending = value;
      editsChanged?.();
    },
    answer: (accepted: boolean) => answer(accepted),
  };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the update flow', () => {
  it('checks at start and then once a day, until stopped', async () => {
    const h = harness();
    expect(h.calls.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_EVERY_MS - 1);
    expect(h.calls.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.calls.checks).toBe(2);
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_EVERY_MS);
    expect(h.calls.checks).toBe(3);
    h.flow.stop();
    expect(h.calls.unsubscribed).toBe(1);
    await vi.advanceTimersByTimeAsync(3 * UPDATE_CHECK_EVERY_MS);
    expect(h.calls.checks).toBe(3);
  });

  it('a failed check is logged and the next day checks again', async () => {
    const h = harness({ checkFails: true });
    await settle();
    expect(h.calls.logged).toEqual(['the update check failed']);
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_EVERY_MS);
    expect(h.calls.checks).toBe(2);
    expect(h.calls.logged).toHaveLength(2);
  });

  it('with no edit waiting, a downloaded version is offered at once and installed when the user says so', async () => {
    const h = harness({ accept: true });
    h.download('0.2.0');
    await settle();
    expect(h.calls.offers).toEqual(['0.2.0']);
    expect(h.calls.installs).toBe(1);
  });

  it('while edits wait, the offer waits; it comes once the last edit has reached its service', async () => {
    const h = harness({ pending: true, accept: true });
    h.download('0.2.0');
    await settle();
    expect(h.calls.offers).toEqual([]);
    h.setPending(true);
    await settle();
    expect(h.calls.offers).toEqual([]);
    h.setPending(false);
    await settle();
    expect(h.calls.offers).toEqual(['0.2.0']);
    expect(h.calls.installs).toBe(1);
  });

  it('"Later" installs nothing and is not asked again until the next download', async () => {
    const h = harness({ accept: false });
    h.download('0.2.0');
    await settle();
    h.setPending(true);
    h.setPending(false);
    await settle();
    expect(h.calls.offers).toEqual(['0.2.0']);
    expect(h.calls.installs).toBe(0);
    h.download('0.2.0');
    await settle();
    expect(h.calls.offers).toEqual(['0.2.0', '0.2.0']);
  });

  it('an edit made while the offer is open: no restart then, the offer comes back once it is sent', async () => {
    const h = harness();
    h.download('0.3.0');
    await settle();
    expect(h.calls.offers).toEqual(['0.3.0']);
    h.setPending(true);
    h.answer(true);
    await settle();
    expect(h.calls.installs).toBe(0);
    h.setPending(false);
    await settle();
    expect(h.calls.offers).toEqual(['0.3.0', '0.3.0']);
    h.answer(true);
    await settle();
    expect(h.calls.installs).toBe(1);
  });

  it('one offer at a time: a second download while the dialog is open does not open another', async () => {
    const h = harness();
    h.download('0.2.0');
    await settle();
    h.download('0.2.1');
    h.setPending(false);
    await settle();
    expect(h.calls.offers).toEqual(['0.2.0']);
  });

  it('after stop, a download offers nothing', async () => {
    const h = harness({ accept: true });
    h.flow.stop();
    h.download('0.2.0');
    await settle();
    expect(h.calls.offers).toEqual([]);
  });
});

describe('TABLEDESK_UPDATE_URL', () => {
  it("unset or blank: the feed the build wrote; 'off': none", () => {
    expect(updateFeed(undefined)).toEqual({ kind: 'built' });
    expect(updateFeed('  ')).toEqual({ kind: 'built' });
    expect(updateFeed('off')).toEqual({ kind: 'off' });
  });

  it('an https feed anywhere, an http feed only on this computer', () => {
    expect(updateFeed('https://updates.example.com/tabledesk/')).toEqual({
      kind: 'generic',
      url: 'https://updates.example.com/tabledesk/',
    });
    expect(updateFeed('http://127.0.0.1:8123/feed')).toEqual({
      kind: 'generic',
      url: 'http://127.0.0.1:8123/feed',
    });
    expect(updateFeed('http://localhost:8123/')).toMatchObject({ kind: 'generic' });
    expect(updateFeed('http://[::1]:8123/')).toMatchObject({ kind: 'generic' });
    expect(() => updateFeed('http://updates.example.com/')).toThrow(/https/);
    expect(() => updateFeed('file:///tmp/feed')).toThrow(/https/);
  });

  it('refuses what is not a URL, and a URL carrying credentials (never echoed)', () => {
    expect(() => updateFeed('updates.example.com')).toThrow(/not a URL/);
    let message = '';
    try {
      updateFeed('https://me:s3cret@updates.example.com/');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/user name or password/);
    expect(message).not.toContain('s3cret');
  });
});
