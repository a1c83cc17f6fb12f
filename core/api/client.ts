import { IdsPerRequest } from './by-ids';
import { Comments } from './comments';
import type { CommentsClient } from './comments';
import { fetchAggregate } from './aggregate';
import type { Aggregate, AggregateRequest } from './aggregate';
import type { ClientEventListener } from './events';
import type { TransferLimits } from './attempt';
import { fetchExtensions } from './extensions';
import { Meta } from './meta';
import type { MetaClient } from './meta';
import type { Purpose, RequestOptions } from './options';
import { requireId } from './query';
import { Requester } from './requester';
import type { RequesterConfig } from './requester';
import { SchedulerRegistry } from './scheduler';
import type { SchedulerStats } from './scheduler';
import { Table } from './table';
import type { TableClient } from './table';
import { uploadAttachment } from './upload';
import type { UploadFile, UploadOptions } from './upload';
import { Webhooks } from './webhooks';
import type { WebhooksClient } from './webhooks';
import type { RecordData } from '../records/types';
import { invariant } from '../invariant';

export interface ClientOptions {
  /** e.g. https://api.airtable.com or the local server's url; without the /v0 segment. */
  baseUrl: string;
  apiKey: string;
  /** Starts per second per base; the service allows 5. */
  requestsPerSecond?: number;
  /**
   * Least time between two starts to one base. Default 1000/requestsPerSecond + 10 ms: the service counts
   * arrivals, which trail starts by a varying delay. On loopback it is a few ms, but the first request of a
   * fresh process or connection can trail by 100 ms (seen: six arrivals 937 ms apart from six starts 1015 ms
   * apart), which the local server's 50 ms of tolerance alone does not cover; the margin costs 5% of the
   * ceiling.
   */
  minSpacingMs?: number;
  /**
   * Starts per second across every base this key reaches (the service allows 50 a token); 'off' for none.
   * Default: ten times `requestsPerSecond`, the service's ratio, so a client paced for a server without
   * limits is not held by this one either.
   */
  tokenRequestsPerSecond?: number | 'off';
  /** Per attempt, default 60 s; an upload or a large write is bounded by `transferLimits` instead. */
  timeoutMs?: number;
  /** How uploads and writes of large bodies are bounded (see TransferLimits); TRANSFER_LIMITS by default. */
  transferLimits?: TransferLimits;
  /**
   * Retries of 5xx, timeouts, network errors and non-JSON 2xx bodies (for a create, of a refused connection
   * only), default 5.
   */
  maxRetries?: number;
  /** Re-queues after 429 responses before giving up, default 10. */
  maxRateLimitRetries?: number;
  /** Pause after a 429 without Retry-After, default 30 s (the service's penalty). */
  rateLimitPauseMs?: number;
  /** The longest Retry-After waited for, default 60 s; an answer asking for more fails at once. */
  maxRetryAfterMs?: number;
  /** Backoff before the n-th retry: between half and all of min(max, base * 2^(n-1)); defaults 500 ms and 15 s. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /**
   * Throttles shared with other clients, one per (base URL, base id): give every client of an app the same
   * registry so that two connections to one base keep to its limit together. Default: this client's own.
   */
  schedulers?: SchedulerRegistry;
  fetch?: typeof fetch;
  onEvent?: ClientEventListener;
  /** Asked before each attempt goes out; an error refuses it unsent (see RequesterConfig.refuse). */
  refuse?: RequesterConfig['refuse'];
}

export const DEFAULT_REQUESTS_PER_SECOND = 5;
const AIRTABLE_HOST = 'api.airtable.com';
/** The service's 50 requests/s a token against its 5 a base (airtable-wire.md §5). */
const TOKEN_TO_BASE_RATIO = 10;
/**
 * 5 ms over the service's 200: six starts span 1,025 ms, and the local server's window allows 75 ms of arrival
 * jitter (its ARRIVAL_JITTER_MS); the late first arrival of a cold start is held apart by the scheduler.
 */
const SPACING_MARGIN_MS = 5;

interface ClientShared {
  /** The server's extensions, asked once. */
  extensions?: Promise<ReadonlySet<string>>;
  idsPerRequest: IdsPerRequest;
}

function checkedBaseUrl(opts: ClientOptions): string {
  // The services take a connection's key and URL through the contract's checks, so neither fails here.
  invariant(opts.apiKey.length > 0, 'apiKey must not be empty');
  let url: URL | undefined;
  try {
    url = new URL(opts.baseUrl);
  } catch {
    url = undefined;
  }
  invariant(url, `baseUrl is not a URL: ${opts.baseUrl}`);
  return url.href.replace(/\/+$/, '');
}

function requesterConfig(opts: ClientOptions, baseUrl: string): RequesterConfig {
  const rps = opts.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND;
  invariant(rps > 0, `requestsPerSecond must be a positive number, got ${rps}`);
  const tokenRps = opts.tokenRequestsPerSecond ?? rps * TOKEN_TO_BASE_RATIO;
  invariant(
    tokenRps === 'off' || tokenRps > 0,
    `tokenRequestsPerSecond must be a positive number or 'off', got ${tokenRps}`,
  );
  const userFetch = opts.fetch;
  return {
    baseUrl,
    apiKey: opts.apiKey,
    timeoutMs: opts.timeoutMs ?? 60_000,
    transferLimits: opts.transferLimits,
    // A bare `fetch` reference loses its `this` in browsers ("Illegal invocation").
    fetch: userFetch ?? ((input, init) => globalThis.fetch(input, init)),
    spacingMs: opts.minSpacingMs ?? Math.ceil(1000 / rps) + SPACING_MARGIN_MS,
    tokenRequestsPerSecond: tokenRps === 'off' ? undefined : tokenRps,
    schedulers: opts.schedulers ?? new SchedulerRegistry(),
    maxRetries: opts.maxRetries ?? 5,
    maxRateLimitRetries: opts.maxRateLimitRetries ?? 10,
    rateLimitPauseMs: opts.rateLimitPauseMs ?? 30_000,
    maxRetryAfterMs: opts.maxRetryAfterMs ?? 60_000,
    backoffBaseMs: opts.backoffBaseMs ?? 500,
    backoffMaxMs: opts.backoffMaxMs ?? 15_000,
    onEvent: opts.onEvent,
    refuse: opts.refuse,
  };
}

/**
 * One client per connection (base URL and API key). Every request goes through the throttle of its base:
 * starts at least 1/requestsPerSecond apart, several in flight, interactive before background.
 */
export class RecordTableClient {
  readonly meta: MetaClient;
  readonly baseUrl: string;
  readonly #requester: Requester;
  /** What every purpose's view of this client shares: the extensions answer, the ids a request holds. */
  readonly #shared: ClientShared;

  /** `from`: internal, a view of another client for one purpose (see `withPurpose`). */
  constructor(opts: ClientOptions, from?: { requester: Requester; shared: ClientShared }) {
    this.baseUrl = from === undefined ? checkedBaseUrl(opts) : opts.baseUrl;
    this.#requester = from?.requester ?? new Requester(requesterConfig(opts, this.baseUrl));
    this.#shared = from?.shared ?? { idsPerRequest: new IdsPerRequest() };
    this.meta = new Meta(this.#requester);
  }

  /**
   * The same client (throttles, key, events), whose requests count for `purpose` in the request budget unless a
   * call names its own. Services hand each kind of work its own view: names, counts, offline copies.
   */
  withPurpose(purpose: Purpose): RecordTableClient {
    return new RecordTableClient(
      { baseUrl: this.baseUrl, apiKey: '' },
      { requester: this.#requester.withPurpose(purpose), shared: this.#shared },
    );
  }

  /** A table by name or id; names are percent-encoded in full. */
  table(baseId: string, tableNameOrId: string): TableClient {
    requireId('base id', baseId);
    requireId('table name or id', tableNameOrId);
    return new Table(this.#requester, this.baseUrl, baseId, tableNameOrId, this.#shared.idsPerRequest);
  }

  /**
   * TableDesk's wire extensions this server answers (none for Airtable). Asked once per client; a failed
   * question is asked again next time.
   */
  extensions(opts?: RequestOptions): Promise<ReadonlySet<string>> {
    const shared = this.#shared;
    // Airtable's own service has none: known without spending a call of the month's allowance on it.
    if (new URL(this.baseUrl).hostname === AIRTABLE_HOST) shared.extensions ??= Promise.resolve(new Set());
    shared.extensions ??= fetchExtensions(this.#requester, opts).catch((e: unknown) => {
      shared.extensions = undefined;
      throw e;
    });
    return shared.extensions;
  }

  /** The comments of a table's records, through the same throttle as its records. */
  comments(baseId: string, tableNameOrId: string): CommentsClient {
    requireId('base id', baseId);
    requireId('table name or id', tableNameOrId);
    return new Comments(this.#requester, baseId, tableNameOrId);
  }

  /** The base's webhooks, read by cursor (see webhooks.ts), through the base's throttle. */
  webhooks(baseId: string): WebhooksClient {
    return new Webhooks(this.#requester, requireId('base id', baseId));
  }

  /**
   * Appends a file (at most 5 MB) to an attachment field of a record, through the base's throttle. Never
   * retried once it may have reached the service: a lost answer is an `outcome-unknown` error.
   */
  uploadAttachment(
    baseId: string,
    recordId: string,
    field: string,
    file: UploadFile,
    opts?: UploadOptions,
  ): Promise<RecordData> {
    return uploadAttachment(this.#requester, this.baseUrl, baseId, recordId, field, file, opts);
  }

  /** Groups and summaries of a view, where `extensions()` names 'aggregate' (the local server). */
  aggregate(
    baseId: string,
    table: string,
    request: AggregateRequest,
    opts?: RequestOptions,
  ): Promise<Aggregate> {
    return fetchAggregate(this.#requester, requireId('baseId', baseId), table, request, opts);
  }

  /** Queue state of one base, or summed over every base used so far. */
  stats(baseId?: string): SchedulerStats {
    return this.#requester.stats(baseId);
  }
}
