/**
 * When the installed app looks for updates and when it offers one: a check at start and then once a day, the
 * download in the background (the updater's own), and "Restart to update" only while no edit is waiting to
 * reach a service, so a restart never leaves an edit behind. While edits wait, the offer waits for them; a
 * "Later" waits for the next check. The updater itself (electron-updater) is the desktop door's
 * (electron/updates.ts); this is plain TypeScript so that the policy is tested on its own.
 */
import { isLoopbackHost } from '../../core/records/external-links';
import { ServiceError } from '../errors';

export const UPDATE_CHECK_EVERY_MS = 24 * 60 * 60 * 1000;

export interface Updater {
  /** Asks the feed; a newer version downloads in the background and is then announced by `onDownloaded`. */
  check(): Promise<void>;
  onDownloaded(listener: (version: string) => void): void;
  /** Quits, installs the downloaded version and starts it. */
  install(): void;
}

export interface UpdateFlowOptions {
  updater: Updater;
  hasPendingEdits(): Promise<boolean>;
  /** Calls `listener` whenever the edits waiting change; returns the unsubscribe. */
  onEditsChanged(listener: () => void): () => void;
  /** Offers the restart; true when the user chose it. */
  offer(version: string): Promise<boolean>;
  log(message: string, error?: unknown): void;
  everyMs?: number;
}

export interface UpdateFlow {
  stop(): void;
}

export function startUpdateFlow(options: UpdateFlowOptions): UpdateFlow {
  /** The version downloaded and not yet offered. */
  let ready: string | undefined;
  let offering = false;
  let stopped = false;

  const check = (): void => {
    options.updater.check().catch((error: unknown) => options.log('the update check failed', error));
  };

  const offer = async (): Promise<void> => {
    if (ready === undefined || offering || stopped) return;
    offering = true;
    try {
      // Asked again when the edits waiting change.
      if (await options.hasPendingEdits()) return;
      const version = ready;
      ready = undefined;
      if (!(await options.offer(version)) || stopped) return;
      // An edit made while the dialog was open: the offer comes back once it has reached its service.
      if (await options.hasPendingEdits()) {
        ready = version;
        return;
      }
      options.updater.install();
    } catch (error) {
      options.log('the update could not be offered', error);
    } finally {
      offering = false;
    }
  };

  options.updater.onDownloaded((version) => {
    ready = version;
    void offer();
  });
  const unsubscribe = options.onEditsChanged(() => void offer());
  check();
  const timer = setInterval(check, options.everyMs ?? UPDATE_CHECK_EVERY_MS);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      unsubscribe();
    },
  };
}

/**
 * Where updates come from, from TABLEDESK_UPDATE_URL: unset, the feed the build wrote into the app
 * (app-update.yml: GitHub releases unless `npm run dist` was given another); `off`, none; otherwise a generic
 * feed at that URL (https, or http on this computer).
 */
export type UpdateFeed = { kind: 'built' } | { kind: 'off' } | { kind: 'generic'; url: string };

export function updateFeed(value: string | undefined): UpdateFeed {
  const text = value?.trim() ?? '';
  if (text === '') return { kind: 'built' };
  if (text === 'off') return { kind: 'off' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ServiceError(
      'invalid-request',
      'TABLEDESK_UPDATE_URL is not a URL (give an https:// feed, or "off")',
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
    throw new ServiceError(
      'invalid-request',
      'TABLEDESK_UPDATE_URL must be an https:// feed (http:// only on this computer), or "off"',
    );
  if (url.username !== '' || url.password !== '')
    throw new ServiceError('invalid-request', 'TABLEDESK_UPDATE_URL must not carry a user name or password');
  return { kind: 'generic', url: url.href };
}
