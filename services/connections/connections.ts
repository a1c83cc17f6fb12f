/**
 * Connections: saved profiles plus the built-in "Demo base" on the embedded server; one RecordTableClient per
 * connection. Keys go only to the KeyVault (or, for "don't remember", to memory for this session) and to the
 * client's Authorization header; no answer to the renderer ever carries one. A saved key is bound to the
 * base URL it was saved with: it is sent nowhere else, and pointing a connection elsewhere needs the key again
 * (otherwise anyone able to call the channels could send a stored key to a server of their own).
 */
import { randomBytes } from 'node:crypto';
import { RecordTableClient, SchedulerRegistry } from '../../core/api/index';
import type { ClientEvent, ClientOptions, OutgoingRequest, RecordTableError } from '../../core/api/index';
import type { ConnectionSummary, EventPayload, ParsedRequest, Response } from '../../core/contract';
import type { RunningServer } from '../../server/index';
import { ServiceError } from '../errors';
import type { KeyVault } from '../keys/key-vault';
import type { Secrets } from '../secrets';
import { ClientStatus } from './client-status';
import { ProfileStore } from './profiles';
import type { Profile } from './profiles';
import { describeTestFailure } from './test-messages';

export const DEMO_CONNECTION_ID = 'demo';
const DEMO_NAME = 'Demo base';
const TEST_TIMEOUT_MS = 15_000;

export interface ConnectionsOptions {
  userDataDir: string;
  vault: KeyVault;
  /** Every key read or received is noted here, so answers and events can hide it. */
  secrets: Secrets;
  /** The embedded local server, when the app runs one. */
  embedded?: Promise<RunningServer>;
  /** Client throttle; the hosted service allows 5 requests per second per base. */
  requestsPerSecond?: number;
  /** The throttles of the bases (default: the connections' own); a caller that reads a base too shares them. */
  schedulers?: SchedulerRegistry;
  fetch?: typeof fetch;
  emitStatus: (status: EventPayload<'client.status'>) => void;
  /** The request budget: sees every request of every connection, and may refuse one before it is sent. */
  budget?: {
    observe(connectionId: string, event: ClientEvent): void;
    refuse(connectionId: string, request: OutgoingRequest): RecordTableError | undefined;
  };
}

interface Live {
  client: RecordTableClient;
  status: ClientStatus;
}

const vaultName = (id: string): string => `connection:${id}`;

/** Two spellings of one base URL (a trailing slash, letter case in the host) are the same destination. */
function sameBaseUrl(a: string, b: string): boolean {
  const norm = (u: string): string => {
    try {
      return new URL(u).href.replace(/\/+$/, '');
    } catch {
      return u;
    }
  };
  return norm(a) === norm(b);
}

const NEW_URL_NEEDS_KEY =
  'The base URL changed: type the API key again. A saved key is only ever sent to the URL it was saved with.';

export class Connections {
  private readonly profiles: ProfileStore;
  private readonly sessionKeys = new Map<string, string>();
  private readonly live = new Map<string, Promise<Live>>();
  /** Two connections to one base (say, two keys) share its throttle: the service limits the base. */
  private readonly schedulers: SchedulerRegistry;

  constructor(private readonly options: ConnectionsOptions) {
    this.schedulers = options.schedulers ?? new SchedulerRegistry();
    this.profiles = new ProfileStore(options.userDataDir);
  }

  async list(): Promise<Response<'connections.list'>> {
    const [profiles, stored] = await Promise.all([this.profiles.list(), this.options.vault.names()]);
    const connections = profiles.map((p) => this.summary(p, stored));
    if (this.options.embedded !== undefined) connections.push(await this.demoSummary());
    const defaultId = connections[0]?.id ?? DEMO_CONNECTION_ID;
    return { connections, defaultId };
  }

  async save(request: ParsedRequest<'connections.save'>): Promise<Response<'connections.save'>> {
    if (request.id === DEMO_CONNECTION_ID)
      throw new ServiceError('invalid-request', 'The demo connection cannot be changed.');
    if (request.id === undefined && request.apiKey === undefined) {
      throw new ServiceError('invalid-request', 'Give the API key of the new connection.');
    }
    this.options.secrets.add(request.apiKey);
    const id = request.id ?? `con${randomBytes(8).toString('hex')}`;
    const profile: Profile = { id, name: request.name, baseUrl: request.baseUrl, remember: request.remember };
    const before = (await this.profiles.list()).find((p) => p.id === id);
    if (before === undefined && request.id !== undefined)
      throw new ServiceError('not-found', `No connection ${id}.`);
    if (before !== undefined && !sameBaseUrl(before.baseUrl, request.baseUrl)) {
      if (request.apiKey === undefined) throw new ServiceError('invalid-request', NEW_URL_NEEDS_KEY);
      // The old key is bound to the old URL: it goes before the profile names the new one, so no failure
      // below (the OS refusing to seal the new key) can leave the old key under the new URL.
      this.sessionKeys.delete(id);
      await this.options.vault.delete(vaultName(id));
    }
    await this.profiles.update((list) => {
      const at = list.findIndex((p) => p.id === id);
      if (at === -1) list.push(profile);
      else list[at] = profile;
    });
    try {
      await this.placeKey(id, request.apiKey, request.remember);
    } catch (e) {
      // A save whose key could not be kept is not saved: the connection is as it was (a new one is gone).
      await this.profiles.update((list) => {
        const at = list.findIndex((p) => p.id === id);
        if (at === -1) return;
        if (before === undefined) list.splice(at, 1);
        else list[at] = before;
      });
      throw e;
    }
    this.forget(id);
    const info = this.options.vault.info();
    const connection = this.summary(profile, await this.options.vault.names());
    return request.remember && info.warning !== undefined
      ? { connection, warning: info.warning }
      : { connection };
  }

  async remove(id: string): Promise<{ removed: boolean }> {
    if (id === DEMO_CONNECTION_ID)
      throw new ServiceError('invalid-request', 'The demo connection cannot be removed.');
    const removed = await this.profiles.update((list) => {
      const at = list.findIndex((p) => p.id === id);
      if (at !== -1) list.splice(at, 1);
      return at !== -1;
    });
    await this.options.vault.delete(vaultName(id));
    this.sessionKeys.delete(id);
    this.forget(id);
    return { removed };
  }

  async test(request: ParsedRequest<'connections.test'>): Promise<Response<'connections.test'>> {
    this.options.secrets.add(request.apiKey);
    const saved = request.id === undefined ? undefined : await this.target(request.id);
    // The contract's schema asks for an id or a base URL, and a saved connection always has its base URL.
    const baseUrl = request.baseUrl ?? saved!.baseUrl;
    // A saved key goes only to its own URL: testing it against another one needs the key typed again.
    if (request.apiKey === undefined && saved !== undefined && !sameBaseUrl(baseUrl, saved.baseUrl)) {
      throw new ServiceError('invalid-request', NEW_URL_NEEDS_KEY);
    }
    const apiKey = request.apiKey ?? saved?.apiKey;
    if (apiKey === undefined) return { ok: false, message: 'Type the API key to test the connection.' };
    const client = new RecordTableClient({
      baseUrl,
      apiKey,
      maxRetries: 0,
      timeoutMs: TEST_TIMEOUT_MS,
      ...(this.options.fetch === undefined ? {} : { fetch: this.options.fetch }),
    });
    try {
      const me = await client.meta.whoami();
      return { ok: true, message: `Connected to ${baseUrl} as ${me.id}.`, userId: me.id };
    } catch (error) {
      return describeTestFailure(error, baseUrl, TEST_TIMEOUT_MS);
    }
  }

  /** The connection's client, created on first use. */
  async client(id: string): Promise<RecordTableClient> {
    return (await this.liveFor(id)).client;
  }

  /** Records a failed call in the connection's status bar. */
  noteError(id: string, message: string): void {
    void this.live.get(id)?.then((l) => l.status.noteError(message));
  }

  close(): void {
    for (const live of this.live.values()) void live.then((l) => l.status.stop());
    this.live.clear();
  }

  private liveFor(id: string): Promise<Live> {
    let live = this.live.get(id);
    if (live === undefined) {
      live = this.connect(id);
      live.catch(() => this.live.delete(id));
      this.live.set(id, live);
    }
    return live;
  }

  private async connect(id: string): Promise<Live> {
    const { baseUrl, apiKey } = await this.target(id);
    if (apiKey === undefined)
      throw new ServiceError('invalid-request', 'This connection has no API key: edit it and type one.');
    const status = new ClientStatus(id, this.options.emitStatus);
    const budget = this.options.budget;
    const opts: ClientOptions = {
      baseUrl,
      apiKey,
      schedulers: this.schedulers,
      ...(budget === undefined ? {} : { refuse: (r: OutgoingRequest) => budget.refuse(id, r) }),
      // A failure the client retries by itself must still show: the status bar names it with the retry.
      onEvent: (e) => {
        budget?.observe(id, e);
        if (e.type === 'retry') {
          status.noteError(`${e.method} ${e.path} failed (${e.reason ?? e.errorKind ?? 'error'}); retrying.`);
        } else status.observe(e);
      },
    };
    if (this.options.requestsPerSecond !== undefined) opts.requestsPerSecond = this.options.requestsPerSecond;
    if (this.options.fetch !== undefined) opts.fetch = this.options.fetch;
    const client = new RecordTableClient(opts);
    status.source = { stats: () => client.stats() };
    return { client, status };
  }

  /** Where a connection points and its key (undefined when none is stored). */
  private async target(id: string): Promise<{ baseUrl: string; apiKey?: string }> {
    if (id === DEMO_CONNECTION_ID) {
      const server = await this.demoServer();
      this.options.secrets.add(server.apiKey);
      return { baseUrl: server.url, apiKey: server.apiKey };
    }
    const profile = (await this.profiles.list()).find((p) => p.id === id);
    if (profile === undefined) throw new ServiceError('not-found', `No connection ${id}.`);
    const apiKey = this.sessionKeys.get(id) ?? (await this.options.vault.get(vaultName(id)));
    this.options.secrets.add(apiKey);
    return apiKey === undefined ? { baseUrl: profile.baseUrl } : { baseUrl: profile.baseUrl, apiKey };
  }

  /** Stores a new key, or moves the current one between the vault and memory when `remember` changed. */
  private async placeKey(id: string, newKey: string | undefined, remember: boolean): Promise<void> {
    const key = newKey ?? this.sessionKeys.get(id) ?? (await this.options.vault.get(vaultName(id)));
    this.options.secrets.add(key);
    if (key === undefined) return;
    if (remember) {
      await this.options.vault.set(vaultName(id), key);
      this.sessionKeys.delete(id);
    } else {
      this.sessionKeys.set(id, key);
      await this.options.vault.delete(vaultName(id));
    }
  }

  private forget(id: string): void {
    void this.live.get(id)?.then(
      (l) => l.status.stop(),
      () => undefined,
    );
    this.live.delete(id);
  }

  /** `stored`: the vault's names, read once for a whole list. */
  private summary(p: Profile, stored: ReadonlySet<string>): ConnectionSummary {
    const hasKey = this.sessionKeys.has(p.id) || stored.has(vaultName(p.id));
    return { id: p.id, name: p.name, baseUrl: p.baseUrl, hasKey, remember: p.remember, builtin: false };
  }

  /** A demo server that failed to start is still listed, so opening it shows why instead of hiding it. */
  private async demoSummary(): Promise<ConnectionSummary> {
    const server = await this.demoServer().catch(() => undefined);
    return {
      id: DEMO_CONNECTION_ID,
      name: server === undefined ? `${DEMO_NAME} (the local server did not start)` : DEMO_NAME,
      baseUrl: server?.url ?? '',
      hasKey: server !== undefined,
      remember: true,
      builtin: true,
    };
  }

  private async demoServer(): Promise<RunningServer> {
    if (this.options.embedded === undefined) {
      throw new ServiceError('not-found', 'This app runs without the local demo server.');
    }
    try {
      return await this.options.embedded;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ServiceError('network', `The local demo server did not start: ${reason}`, { cause: error });
    }
  }
}
