/**
 * The services of one app instance, wired together and bound to the contract's channels. Both doors
 * (Electron's IPC, the browser door's WebSocket) call `dispatch` and forward `events` to their renderers.
 */
import type { SchedulerRegistry } from '../core/api/index';
import type { EventPayload } from '../core/contract';
import type { RunningServer } from '../server/index';
import { commentHandlers } from './comments/comments';
import { Budget, viewSizeKey } from './budget/budget';
import { budgetHandlers } from './budget/handlers';
import { Connections, DEMO_CONNECTION_ID } from './connections/connections';
import { createDispatcher } from './dispatch';
import type { Dispatch, Handlers } from './dispatch';
import { startEmbeddedServer } from './embedded-server';
import type { EmbeddedServerOptions } from './embedded-server';
import type { ChooseDestination } from './edits/csv-export';
import { createEditServices, journalDir } from './edits/index';
import type { EditServicesOptions } from './edits/index';
import { Uploads } from './attachments/uploads';
import type { ChooseFile } from './attachments/uploads';
import { AttachmentFiles } from './attachments/files';
import type { OpenLink } from './attachments/files';
import { EventHub } from './events';
import { Imports } from './imports/imports';
import { importsDir } from './imports/job-file';
import type { KeyVault } from './keys/key-vault';
import { createLinkServices } from './links/index';
import { Metadata } from './metadata/metadata';
import { offlineCost } from './offline/offline-cost';
import { createMirrors } from './mirror/index';
import { OfflineMirrors } from './offline/offline-mirrors';
import { Secrets } from './secrets';
import { ServiceError } from './errors';
import { cannotStart } from './storage/disk-refusal';
import { lockFolder } from './storage/folder-lock';
import { privateDir, privateDirSync } from './storage/private-files';
import { TableViews } from './table-view/table-views';
import { LiveChanges } from './live/live-changes';

const NO_LOCAL_SERVER = 'Offline mirrors live in the local server, and this app runs without one.';

export interface AppServicesOptions {
  userDataDir: string;
  vault: KeyVault;
  door: 'electron' | 'browser';
  version: string;
  /** The embedded local server (default: on, rate limit as the hosted service); false: none. */
  embedded?: Omit<EmbeddedServerOptions, 'userDataDir' | 'vault'> | false;
  requestsPerSecond?: number;
  /** The throttles of the bases, when something outside the app calls the same bases (tests). */
  schedulers?: SchedulerRegistry;
  fetch?: typeof fetch;
  /**
   * The door's save dialog for CSV exports and conflicts reports (Electron); without it the page downloads
   * them.
   */
  exportDestination?: ChooseDestination;
  /** The door's open dialog for attachments (Electron); without it the page offers a file input. */
  chooseFile?: ChooseFile;
  /**
   * Hands an attachment's link to the system (Electron); with `exportDestination` it makes Save and Open of
   * attachments the services' (without them the page's links do it).
   */
  openLink?: OpenLink;
  /** The length of a minute between a mirror's automatic syncs (tests shorten it). */
  autoSyncMinuteMs?: number;
  /** The edit journal's file system (default: the disk; tests fill it up). */
  journalFiles?: EditServicesOptions['journalFiles'];
  /** The edit queue's batching timing (tests that count batches hold its window open). */
  editQueue?: EditServicesOptions['queue'];
}

export interface AppServices {
  dispatch: Dispatch;
  events: EventHub;
  handlers: Handlers;
  /** The embedded server, once started (tests and benches reach the same data). */
  embedded?: Promise<RunningServer>;
  /**
   * Resolves once the edit journal is open; rejects, with a message for the user, when it cannot be (another
   * TableDesk process holds this data folder). The doors wait for it before opening a window or a port.
   */
  ready: Promise<void>;
  /** Other people's changes in the open tables (tests and benches look now rather than at the interval). */
  live: LiveChanges;
  /** Edits journaled but not yet acknowledged by the service (they are sent again on the next start). */
  hasPendingEdits(): Promise<boolean>;
  close(): Promise<void>;
}

export function createAppServices(options: AppServicesOptions): AppServices {
  // Profiles, keys, the journal and the demo server's data live here: no other user may list or read them.
  // A folder that cannot be made (read-only, not this user's) refuses the start, through `ready`, in words.
  let folderRefused: unknown;
  try {
    privateDirSync(options.userDataDir);
  } catch (e) {
    folderRefused = e;
  }
  // One process per data folder, and nothing starts before it holds the folder: a second instance must not
  // open (or seed) the demo server's database it is about to be refused.
  const lock = (async () => {
    if (folderRefused !== undefined) throw folderRefused;
    const dir = journalDir(options.userDataDir);
    await privateDir(dir);
    return lockFolder(dir);
  })();
  lock.catch(() => undefined);
  // Every key the services handle is noted here, and hidden from every answer and event.
  const secrets = new Secrets();
  const events = new EventHub(secrets.redact);
  const embeddedOptions = options.embedded;
  const embedded =
    embeddedOptions === false
      ? undefined
      : lock.then(() =>
          startEmbeddedServer({
            onDown: (message) => {
              console.error(`TableDesk: ${message}`);
              // The status bar of the demo connection shows it.
              connections.noteError(DEMO_CONNECTION_ID, message);
            },
            ...embeddedOptions,
            userDataDir: options.userDataDir,
            vault: options.vault,
          }).catch((error: unknown) => {
            console.error('TableDesk: the local demo server did not start', error);
            throw error;
          }),
        );
  // An unhandled rejection would end the process; the failure reaches the user when the demo is used.
  embedded?.catch(() => undefined);
  // Counts every call of a metered connection; created first, it reaches clients through the connections.
  const budget: Budget = new Budget({
    userDataDir: options.userDataDir,
    clientFor: (id) => connections.client(id),
    emit: events.emit,
  });
  const connections: Connections = new Connections({
    budget,
    userDataDir: options.userDataDir,
    vault: options.vault,
    secrets,
    embedded,
    requestsPerSecond: options.requestsPerSecond,
    schedulers: options.schedulers,
    fetch: options.fetch,
    emitStatus: (status) => events.emit('client.status', status),
  });
  const metadata = new Metadata((id) => connections.client(id));
  const views = new TableViews(
    connections,
    metadata,
    (state) => events.emit('view.state', state),
    (count) => events.emit('view.count', count),
    budget,
  );
  const live = new LiveChanges({
    userDataDir: options.userDataDir,
    clientFor: (id) => connections.client(id),
    open: () => views.openTargets(),
    schema: (target) => metadata.table(target.connectionId, target.baseId, target.table),
    held: (target) => views.held(target),
    applyChanged: (target, record) => views.applySaved(target, record),
    applyCreated: (target, records) => views.applyCreated(target, records),
    applyDeleted: (target, ids) => views.applyDeleted(target, ids),
    readAgain: (target) => views.readAgain(target),
    emit: events.emit,
    consent: budget.consent,
  });
  const links = createLinkServices({
    clientFor: async (id) => (await connections.client(id)).withPurpose('names'),
    metadata,
    emit: events.emit,
    noteError: (id, message) => connections.noteError(id, message),
    metered: (id) => budget.meteredOf(id),
    consent: budget.consent,
  });
  // Mirrors live in the embedded server; without it there is nothing to mirror into.
  const mirrorEngine = (embedded ?? Promise.reject(new ServiceError('not-found', NO_LOCAL_SERVER))).then(
    (server) =>
      createMirrors({
        dataDir: options.userDataDir,
        clientFor: async (id) => (await connections.client(id)).withPurpose('offline'),
        local: { connectionId: DEMO_CONNECTION_ID, url: server.url, apiKey: server.apiKey },
      }),
  );
  mirrorEngine.catch(() => undefined);
  const offline = new OfflineMirrors({
    userDataDir: options.userDataDir,
    engine: mirrorEngine,
    localConnectionId: DEMO_CONNECTION_ID,
    checkConnection: (id) => connections.client(id),
    emit: events.emit,
    chooseDestination: options.exportDestination,
    minuteMs: options.autoSyncMinuteMs,
    consent: budget.consent,
    costOf: async (connectionId, baseId, tableIds) => {
      // The schema is the one the base's picker read (cached); one the token may not read leaves no figure.
      const schema = await metadata.tables(connectionId, baseId).catch(() => undefined);
      if (schema === undefined || schema.refused) return undefined;
      const sizeOf = (table: string) => budget.sizeOf(viewSizeKey({ connectionId, baseId, table }, {}));
      return offlineCost(
        schema.tables
          .filter((t) => tableIds === undefined || tableIds.includes(t.id))
          .map((t) => ({ name: t.name, size: sizeOf(t.name) ?? sizeOf(t.id) })),
      );
    },
    settleEdits: async (base) => (await edits.ready).queue.settle(base),
  });
  // Subscribed before any door, so a view's cache is current before a renderer hears of the change.
  events.subscribe((event, payload) => {
    if (event === 'edits.saved' || event === 'records.created' || event === 'records.deleted') {
      offline.noteLocalChange((payload as EventPayload<'edits.saved'>).target);
    }
    if (event === 'edits.saved') {
      const saved = payload as EventPayload<'edits.saved'>;
      views.applySaved(saved.target, saved.record);
      // A schema that cannot be read leaves the cached names as they were.
      void links.applySaved(saved.target, saved.record).catch(() => undefined);
    } else if (event === 'edits.reverted') {
      const reverted = payload as EventPayload<'edits.reverted'>;
      views.applyReverted(reverted.target, reverted.recordId, reverted.fields);
      void links.applyReverted(reverted.target, reverted.recordId, reverted.fields).catch(() => undefined);
    } else if (event === 'records.created') {
      const created = payload as EventPayload<'records.created'>;
      live.noteCreated(created.records);
      views.applyCreated(created.target, created.records);
    } else if (event === 'records.deleted') {
      const deleted = payload as EventPayload<'records.deleted'>;
      views.applyDeleted(deleted.target, deleted.ids);
      void links.applyDeleted(deleted.target, deleted.ids).catch(() => undefined);
    }
  });
  const edits = createEditServices({
    lock,
    userDataDir: options.userDataDir,
    tableFor: async (t) => (await connections.client(t.connectionId)).table(t.baseId, t.table),
    emit: events.emit,
    exportDestination: options.exportDestination,
    journalFiles: options.journalFiles,
    queue: options.editQueue,
    consent: budget.consent,
    walkCalls: (target, query) => budget.callsFor(viewSizeKey(target, query)),
    isCopy: (target) => offline.servesCopy(target),
  });

  const uploads = new Uploads({
    clientFor: (id) => connections.client(id),
    edits: edits.ready,
    emit: events.emit,
    chooseFile: options.chooseFile,
  });

  const attachmentFiles = new AttachmentFiles({
    tableFor: async (t) => (await connections.client(t.connectionId)).table(t.baseId, t.table),
    chooseDestination: options.exportDestination,
    openLink: options.openLink,
    fetch: options.fetch,
  });

  const imports = new Imports({
    dir: importsDir(journalDir(options.userDataDir)),
    tableFor: async (t) => (await connections.client(t.connectionId)).table(t.baseId, t.table),
    edits: edits.ready,
    emit: events.emit,
    consent: budget.consent,
  });

  const handlers: Handlers = {
    'app.info': async () => ({
      name: 'TableDesk',
      version: options.version,
      door: options.door,
      platform: process.platform,
      keyStorage: options.vault.info(),
    }),
    'connections.list': () => connections.list(),
    'connections.save': (r) => connections.save(r),
    'connections.remove': (r) => connections.remove(r.id),
    'connections.test': (r) => connections.test(r),
    'meta.bases': (r) => metadata.bases(r.connectionId),
    'meta.tables': (r) => metadata.tables(r.connectionId, r.baseId),
    'view.open': async (r) => {
      const opened = await views.open(r);
      live.opened(r);
      return opened;
    },
    'live.interval': async (r) => ({
      seconds: r.seconds === undefined ? await live.interval() : await live.setInterval(r.seconds),
    }),
    'live.focus': async (r) => {
      live.setFocused(r.focused);
      return {};
    },
    'live.refresh': async (r) => live.refresh(r),
    'view.rows': (r) => views.rows(r),
    'view.close': async (r) => {
      const closed = views.close(r.viewId);
      live.forgetClosed();
      return closed;
    },
    'view.countNow': async (r) => views.countNow(r.viewId),
    'view.walk': (r) => views.walk(r),
    'view.cancelWalk': async (r) => views.cancelWalk(r.viewId),
    'view.aggregate': (r) => views.aggregate(r),
    'find.count': (r) => views.findCount(r),
    'find.next': (r) => views.findNext(r),
    'find.cancel': async (r) => views.cancelFind(r.viewId),
    ...edits.handlers,
    ...commentHandlers((id) => connections.client(id)),
    ...uploads.handlers,
    ...attachmentFiles.handlers,
    ...links.handlers,
    ...imports.handlers,
    ...offline.handlers,
    ...budgetHandlers(budget),
  };

  return {
    dispatch: createDispatcher(handlers, secrets.redact),
    events,
    handlers,
    embedded,
    ready: edits.ready.then(
      () => undefined,
      (e: unknown) => {
        throw cannotStart(options.userDataDir, e);
      },
    ),
    hasPendingEdits: () => edits.hasPending(),
    live,
    async close() {
      // Every part closes though one before it failed (a data folder gone read-only refuses their last
      // writes): the demo server and the lock go whatever happened, and the failure is logged, not thrown.
      const steps: (() => unknown)[] = [
        () => live.close(),
        () => views.closeAll(),
        () => imports.close(),
        () => offline.close(),
        () => edits.close(),
        () => budget.close(),
        () => connections.close(),
        async () => (await embedded?.catch(() => undefined))?.close(),
        async () => (await lock.catch(() => undefined))?.release(),
      ];
      for (const step of steps) {
        try {
          await step();
        } catch (e) {
          console.error('TableDesk: a part of the app did not close cleanly', e);
        }
      }
    },
  };
}
