/**
 * The app side of offline mirrors: the `mirror.*` channels over the engine (`services/mirror/`), progress and
 * changes as events, the automatic sync every N minutes (off by default, remembered per mirror), and the
 * conflicts report saved as a file. The engine does the copying and the merge; this module decides what the
 * user may start, joins a second click to the work already running, and keeps the renderers' badges current.
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import type { EventPayload, MirrorInfo } from '../../core/contract';
import type { RequestOut, ResponseOf } from '../../core/contract/define';
import type { mirrorChannels } from '../../core/contract/mirror';
import type { ChooseDestination } from '../edits/csv-export';
import { ServiceError, toChannelError } from '../errors';
import type { MirrorProgress, Mirrors, SyncResult } from '../mirror/index';
import { conflictsReport, reportFileName } from './report';
import { MirrorSettings } from './settings';
import type { Consent } from '../budget/budget';
import type { OfflineCost } from './offline-cost';

type Channels = typeof mirrorChannels;
export type MirrorHandlers = {
  [C in keyof Channels]: (request: RequestOut<Channels, C>) => Promise<ResponseOf<Channels, C>>;
};

type Emit = <E extends 'mirror.progress' | 'mirror.changed'>(event: E, payload: EventPayload<E>) => void;

export interface OfflineMirrorsOptions {
  userDataDir: string;
  /** The engine, once the embedded server it writes into has started. */
  engine: Promise<Mirrors>;
  /** The embedded server's connection: its bases are local already, and it serves the mirrors. */
  localConnectionId: string;
  /** Fails, as not-found, for a connection that does not exist: nothing is recorded for it. */
  checkConnection: (connectionId: string) => Promise<unknown>;
  emit: Emit;
  /** The door's save dialog (Electron); without it the report's text goes to the page to download. */
  chooseDestination?: ChooseDestination | undefined;
  /** The length of a minute of the automatic sync's interval (tests shorten it). */
  minuteMs?: number | undefined;
  /** Whether a copy may spend its calls (the request budget asks on a limited plan); without it, always. */
  consent?: Consent | undefined;
  /** What a copy of the base's tables (all without `tableIds`) costs, where the app can tell (offline-cost.ts). */
  costOf?:
    | ((connectionId: string, baseId: string, tableIds?: string[]) => Promise<OfflineCost | undefined>)
    | undefined;
  /**
   * Resolves once the edits made to a base of the embedded server have reached it: a sync compares the copy as
   * it is, so an edit typed just before Sync would otherwise be a local change only of the next sync, compared
   * against what this one received (a conflict never shown). Without it a sync does not wait.
   */
  settleEdits?: ((base: { connectionId: string; baseId: string }) => Promise<void>) | undefined;
}

/** Local edits come in bursts (a paste, an undo of many rows): the badges are counted again once they pause. */
const CHANGED_DEBOUNCE_MS = 300;
/** Progress at most this often per mirror (a files phase may report far faster than anyone reads). */
const PROGRESS_EVERY_MS = 100;

interface Pull {
  mirrorId?: string;
  cancelled: boolean;
  done: Promise<ResponseOf<Channels, 'mirror.start'>>;
}

export class OfflineMirrors {
  private readonly settings: MirrorSettings;
  /** Pulls running, by source (`connection/base`): a second start of the same base joins the first. */
  private readonly pulls = new Map<string, Pull>();
  private readonly syncs = new Map<string, Promise<SyncResult>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** The last automatic sync's end, and its failure: the renderer shows whichever outcome is newest. */
  private readonly autoSyncs = new Map<string, { at: number; error?: string }>();
  private changedTimer: NodeJS.Timeout | undefined;
  /** The embedded server's bases that are mirrors, as last listed: writes to other bases count for none. */
  private mirroredBases = new Set<string>();
  private closed = false;

  constructor(private readonly options: OfflineMirrorsOptions) {
    this.settings = new MirrorSettings(options.userDataDir);
    // A failure to start the engine reaches the user when a mirror channel is used.
    void this.scheduleAll().catch(() => undefined);
  }

  readonly handlers: MirrorHandlers = {
    'mirror.list': async () => ({ mirrors: await this.list() }),
    'mirror.start': (r) => this.start(r),
    'mirror.cancel': async ({ mirrorId }) => {
      const pull = this.pulling(mirrorId);
      if (pull === undefined) return { cancelled: false };
      pull.cancelled = true;
      (await this.options.engine).cancel(mirrorId);
      return { cancelled: true };
    },
    'mirror.sync': async ({ mirrorId }) => {
      const mirror = await this.mirror(mirrorId);
      if (this.pulling(mirrorId))
        throw new ServiceError('invalid-request', 'This base is still being copied: sync once it is done.');
      return this.sync(mirror);
    },
    'mirror.conflicts': async ({ mirrorId }) => {
      await this.mirror(mirrorId);
      return { conflicts: await (await this.options.engine).conflicts(mirrorId) };
    },
    'mirror.resolve': async ({ mirrorId, resolutions }) => {
      const mirror = await this.mirror(mirrorId);
      try {
        // The resolutions are sent with a sync, which must see an edit typed just before as the Sync button's does.
        await this.options.settleEdits?.(mirror.local);
        return await (await this.options.engine).resolve(mirrorId, resolutions);
      } finally {
        this.changed();
      }
    },
    'mirror.remove': async ({ mirrorId, force }) => {
      await this.mirror(mirrorId);
      if (this.pulling(mirrorId) || this.syncs.has(mirrorId))
        throw new ServiceError(
          'invalid-request',
          'This copy is being copied or synced: remove it once that is done.',
        );
      await (await this.options.engine).remove(mirrorId, force === undefined ? {} : { force });
      await this.settings.setAutoSync(mirrorId, 0);
      this.schedule(mirrorId, 0);
      this.changed();
      return { removed: true };
    },
    'mirror.autoSync': async ({ mirrorId, minutes }) => {
      await this.mirror(mirrorId);
      await this.settings.setAutoSync(mirrorId, minutes);
      this.schedule(mirrorId, minutes);
      // Turned off: an automatic sync already under way ends first, so none lands after this answer.
      if (minutes === 0) await this.syncs.get(mirrorId)?.catch(() => undefined);
      this.changed();
      return { autoSyncMinutes: minutes };
    },
    'mirror.saveReport': ({ mirrorId }) => this.saveReport(mirrorId),
  };

  /** A write reached the embedded server: a mirror's count of local changes may have moved. */
  noteLocalChange(target: { connectionId: string; baseId: string }): void {
    if (target.connectionId !== this.options.localConnectionId || this.closed) return;
    if (!this.mirroredBases.has(target.baseId)) return;
    clearTimeout(this.changedTimer);
    this.changedTimer = setTimeout(() => this.changed(), CHANGED_DEBOUNCE_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.changedTimer);
    for (const timer of this.timers.values()) clearInterval(timer);
    this.timers.clear();
    const engine = await this.options.engine.catch(() => undefined);
    for (const pull of this.pulls.values()) if (pull.mirrorId !== undefined) engine?.cancel(pull.mirrorId);
    await Promise.allSettled([...[...this.pulls.values()].map((p) => p.done), ...this.syncs.values()]);
    engine?.close();
  }

  private pulling(mirrorId: string): Pull | undefined {
    return [...this.pulls.values()].find((p) => p.mirrorId === mirrorId);
  }

  /** Whether the target is a table of an offline copy (a base of the embedded connection that a mirror serves). */
  async servesCopy(target: { connectionId: string; baseId: string }): Promise<boolean> {
    if (target.connectionId !== this.options.localConnectionId) return false;
    return (await this.list()).some((m) => m.local.baseId === target.baseId);
  }

  private async list(): Promise<MirrorInfo[]> {
    const [mirrors, autoSync] = await Promise.all([
      (await this.options.engine).list(),
      this.settings.autoSync(),
    ]);
    this.mirroredBases = new Set(mirrors.map((m) => m.local.baseId));
    return mirrors.map((m) => {
      const last = this.autoSyncs.get(m.id);
      return {
        ...m,
        autoSyncMinutes: autoSync[m.id] ?? 0,
        ...(last === undefined ? {} : { autoSyncAt: last.at }),
        ...(last?.error === undefined ? {} : { autoSyncError: last.error }),
      };
    });
  }

  private async mirror(mirrorId: string): Promise<MirrorInfo> {
    const found = (await this.list()).find((m) => m.id === mirrorId);
    if (found === undefined) throw new ServiceError('not-found', `No offline mirror ${mirrorId}.`);
    return found;
  }

  private start(
    request: RequestOut<Channels, 'mirror.start'>,
  ): Promise<ResponseOf<Channels, 'mirror.start'>> {
    const { connectionId, baseId } = request;
    if (connectionId === this.options.localConnectionId) {
      return Promise.reject(
        new ServiceError('invalid-request', 'The local server’s bases are on this computer already.'),
      );
    }
    const key = `${connectionId}/${baseId}`;
    const running = this.pulls.get(key);
    if (running !== undefined) return running.done;
    const pull: Pull = { cancelled: false, done: Promise.resolve({ cancelled: false }) };
    this.pulls.set(key, pull);
    const report = this.progressTo({ connectionId, baseId }, (id) => (pull.mirrorId = id));
    pull.done = (async () => {
      await this.options.checkConnection(connectionId);
      const cost =
        this.options.consent && (await this.options.costOf?.(connectionId, baseId, request.tableIds));
      const agreed =
        (await this.options.consent?.({
          connectionId,
          baseId,
          ...(cost ? { calls: cost.calls, estimate: true, uncounted: cost.uncounted } : {}),
          purpose: 'offline',
          subject: `Make a base available offline: read every record of ${request.tableIds === undefined ? 'its tables' : `${request.tableIds.length} of its tables`}, and its files`,
        })) ?? true;
      if (!agreed) {
        this.pulls.delete(key);
        return { cancelled: true, declined: true };
      }
      const engine = await this.options.engine;
      const source =
        request.tableIds === undefined
          ? { connectionId, baseId }
          : { connectionId, baseId, tableIds: request.tableIds };
      try {
        const summary = await engine.makeAvailableOffline(source, report);
        const mirror = (await this.list()).find((m) => m.id === summary.id);
        return { cancelled: pull.cancelled && summary.state === 'partial', ...(mirror ? { mirror } : {}) };
      } catch (error) {
        if (!pull.cancelled && toChannelError(error).kind !== 'aborted') throw error;
        // Cancelled: what was copied stays, as a partial mirror the same call resumes.
        const mirror = (await this.list()).find(
          (m) => m.source.connectionId === connectionId && m.source.baseId === baseId,
        );
        return { cancelled: true, ...(mirror ? { mirror } : {}) };
      } finally {
        this.pulls.delete(key);
        this.changed();
      }
    })();
    return pull.done;
  }

  private sync(mirror: MirrorInfo): Promise<SyncResult> {
    const mirrorId = mirror.id;
    const running = this.syncs.get(mirrorId);
    if (running !== undefined) return running;
    const report = this.progressTo(undefined);
    const done = (async () => {
      try {
        await this.options.settleEdits?.(mirror.local);
        return await (await this.options.engine).sync(mirrorId, report);
      } finally {
        this.syncs.delete(mirrorId);
        this.changed();
      }
    })();
    this.syncs.set(mirrorId, done);
    // The channel's caller sees the error; this copy only keeps an unheard rejection from ending the process.
    done.catch(() => undefined);
    return done;
  }

  /** The engine's progress as `mirror.progress` events, at most every PROGRESS_EVERY_MS and always at a new phase. */
  private progressTo(
    source: { connectionId: string; baseId: string } | undefined,
    seen?: (mirrorId: string) => void,
  ): (p: MirrorProgress) => void {
    let last: { at: number; phase: string } | undefined;
    return (p) => {
      seen?.(p.mirrorId);
      const now = Date.now();
      if (last !== undefined && last.phase === p.phase && now - last.at < PROGRESS_EVERY_MS) return;
      last = { at: now, phase: p.phase };
      this.options.emit('mirror.progress', { ...p, ...(source === undefined ? {} : { source }) });
    };
  }

  private async saveReport(mirrorId: string): Promise<ResponseOf<Channels, 'mirror.saveReport'>> {
    const mirror = await this.mirror(mirrorId);
    const conflicts = await (await this.options.engine).conflicts(mirrorId);
    const now = new Date();
    const fileName = reportFileName(mirror, now);
    const json = JSON.stringify(conflictsReport(mirror, conflicts, now), null, 2) + '\n';
    const answer = { fileName, conflicts: conflicts.length };
    const choose = this.options.chooseDestination;
    if (choose === undefined) return { ...answer, json, cancelled: false };
    const filePath = await choose(fileName);
    if (filePath === undefined) return { ...answer, cancelled: true };
    // Written beside the destination and renamed into place, as the CSV export: never half a file.
    const partial = `${filePath}.partial`;
    try {
      await writeFile(partial, json);
      await rename(partial, filePath);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { ...answer, filePath, cancelled: false };
  }

  private async scheduleAll(): Promise<void> {
    await this.list();
    for (const [mirrorId, minutes] of Object.entries(await this.settings.autoSync()))
      this.schedule(mirrorId, minutes);
  }

  private schedule(mirrorId: string, minutes: number): void {
    clearInterval(this.timers.get(mirrorId));
    this.timers.delete(mirrorId);
    this.autoSyncs.delete(mirrorId);
    if (minutes === 0 || this.closed) return;
    const timer = setInterval(
      () => void this.autoSync(mirrorId),
      minutes * (this.options.minuteMs ?? 60_000),
    );
    // A waiting automatic sync must not keep a closing process alive.
    timer.unref();
    this.timers.set(mirrorId, timer);
  }

  /** One automatic sync; while the service cannot be reached it fails, says so on the badge, and is tried again. */
  private async autoSync(mirrorId: string): Promise<void> {
    if (this.syncs.has(mirrorId) || this.pulling(mirrorId)) return;
    const mirror = (await this.list().catch(() => [])).find((m) => m.id === mirrorId);
    // Turned off while the list was read: this tick is void.
    const timer = this.timers.get(mirrorId);
    if (timer === undefined) return;
    if (mirror === undefined || mirror.state !== 'ready') return;
    let outcome: { at: number; error?: string };
    try {
      await this.sync(mirror);
      outcome = { at: Date.now() };
    } catch (error) {
      outcome = { at: Date.now(), error: toChannelError(error).message };
    }
    // Turned off or rescheduled while this sync ran: its outcome went with the old schedule.
    if (this.timers.get(mirrorId) !== timer) return;
    this.autoSyncs.set(mirrorId, outcome);
    this.changed();
  }

  /** Tells every renderer the mirrors as they are now. */
  private changed(): void {
    if (this.closed) return;
    this.list().then(
      (mirrors) => this.options.emit('mirror.changed', { mirrors }),
      (error: unknown) => console.error('TableDesk: the offline mirrors could not be listed', error),
    );
  }
}
