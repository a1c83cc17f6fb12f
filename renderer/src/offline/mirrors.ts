/**
 * The offline mirrors as the renderer knows them: the list (`mirror.list`, then every `mirror.changed`) and
 * the latest progress of each pull or sync (`mirror.progress`), in one store that every picker, badge and
 * report reads, so they never disagree.
 */
import { useSyncExternalStore } from 'react';
import type { EventPayload, MirrorInfo, TableDeskApi } from '../../../core/contract';
import { useApi } from '../api/ApiProvider';
import { perApi } from '../api/per-api';
import { errorMessage } from '../api/call-errors';

export type MirrorProgress = EventPayload<'mirror.progress'>;

interface Snapshot {
  mirrors: readonly MirrorInfo[];
  /** The latest progress by mirror id, while its pull or sync runs. */
  progress: ReadonlyMap<string, MirrorProgress>;
  /** Pulls this page started, by base (`connection/base`): running, or how the last one ended. */
  pulls: ReadonlyMap<string, { running: boolean; note?: string }>;
}

export const sourceKey = (connectionId: string, baseId: string) => `${connectionId}/${baseId}`;

class MirrorStore {
  private snapshot: Snapshot = { mirrors: [], progress: new Map(), pulls: new Map() };
  private readonly listeners = new Set<() => void>();
  private started = false;

  constructor(private readonly api: TableDeskApi) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.start();
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly get = (): Snapshot => this.snapshot;

  /** Asks for the list again (after a call whose end no event may tell, e.g. a failed start). */
  refresh(): void {
    this.api.call('mirror.list', {}).then(
      ({ mirrors }) => this.setMirrors(mirrors),
      // Without the local server there are no mirrors to show; the picker names the failure when used.
      () => undefined,
    );
  }

  /**
   * Makes a base (or some of its tables) available offline, or resumes its partial copy. The call answers
   * when the pull ends; meanwhile its progress arrives by event.
   */
  pull(connectionId: string, baseId: string, tableIds?: string[]): void {
    const key = sourceKey(connectionId, baseId);
    this.setPull(key, { running: true });
    this.api.call('mirror.start', { connectionId, baseId, ...(tableIds ? { tableIds } : {}) }).then(
      (r) => {
        if (r.mirror) this.ended(r.mirror.id);
        this.setPull(key, {
          running: false,
          ...(r.declined
            ? { note: 'Not copied: its API calls were not agreed to.' }
            : r.cancelled
              ? { note: 'Stopped: what was copied is kept, and Resume goes on from there.' }
              : {}),
        });
      },
      (e: unknown) => {
        this.setPull(key, { running: false, note: errorMessage(e) });
        this.refresh();
      },
    );
  }

  /** A pull or sync ended: its progress bar goes. */
  ended(mirrorId: string): void {
    if (!this.snapshot.progress.has(mirrorId)) return;
    const progress = new Map(this.snapshot.progress);
    progress.delete(mirrorId);
    this.set({ ...this.snapshot, progress });
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.api.on('mirror.changed', ({ mirrors }) => this.setMirrors(mirrors));
    this.api.on('mirror.progress', (p) => {
      const progress = new Map(this.snapshot.progress);
      progress.set(p.mirrorId, p);
      this.set({ ...this.snapshot, progress });
    });
    this.refresh();
  }

  private setPull(key: string, pull: { running: boolean; note?: string }): void {
    const pulls = new Map(this.snapshot.pulls);
    pulls.set(key, pull);
    this.set({ ...this.snapshot, pulls });
  }

  private setMirrors(mirrors: MirrorInfo[]): void {
    // Every open tab reads the store: an unchanged list must not draw them again.
    if (
      this.snapshot.progress.size === 0 &&
      JSON.stringify(mirrors) === JSON.stringify(this.snapshot.mirrors)
    )
      return;
    // Progress of a mirror no longer pulling or syncing is over.
    const busy = (id: string) =>
      mirrors.some((m) => m.id === id && (m.state === 'pulling' || m.state === 'syncing'));
    const progress = new Map([...this.snapshot.progress].filter(([id]) => busy(id)));
    this.set({ ...this.snapshot, mirrors, progress });
  }

  private set(next: Snapshot): void {
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}

/** The store over this api, created on first use. */
const mirrorsOf = perApi((api) => new MirrorStore(api));

/** The store over the provided api. */
export function useMirrorStore(): MirrorStore {
  return mirrorsOf(useApi());
}

export function useMirrors(): Snapshot {
  const store = useMirrorStore();
  return useSyncExternalStore(store.subscribe, store.get);
}

/** The mirror served as this base of this connection, if it is one. */
export const mirrorServedAs = (mirrors: readonly MirrorInfo[], connectionId: string, baseId: string) =>
  mirrors.find((m) => m.local.connectionId === connectionId && m.local.baseId === baseId);

/** The mirror of this hosted base, if it has one. */
export const mirrorOf = (mirrors: readonly MirrorInfo[], connectionId: string, baseId: string) =>
  mirrors.find((m) => m.source.connectionId === connectionId && m.source.baseId === baseId);

/** "just now", "12 min ago", "3 h ago", else the date. */
export function syncedText(at: number | undefined, now = Date.now()): string {
  if (at === undefined) return 'never synced';
  const minutes = Math.floor((now - at) / 60_000);
  if (minutes < 1) return 'synced just now';
  if (minutes < 60) return `synced ${minutes} min ago`;
  if (minutes < 24 * 60) return `synced ${Math.floor(minutes / 60)} h ago`;
  return `synced ${new Date(at).toLocaleDateString()}`;
}
