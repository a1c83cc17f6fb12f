/** Sends requests through their base's scheduler and applies the retry rules. */
import { sendAttempt, AttemptError } from './attempt';
import type { AttemptConfig, AttemptFailure, AttemptSpec } from './attempt';
import { isAbortError, RecordTableError } from './errors';
import type { ClientEvent, ClientEventListener } from './events';
import type { Priority, Purpose, RequestOptions } from './options';
import { stripQuery } from './query';
import { queuePriority } from './scheduler';
import type { BaseScheduler, SchedulerRegistry, SchedulerStats, TokenGate } from './scheduler';

/**
 * Retries of an attempt that timed out: a service that let the whole timeout pass twice is not answering (a
 * connection held open, headers or a body in drips), and each more retry would cost the user another timeout
 * (six of them at the default five retries: six minutes of a pull or a page waiting on nothing).
 */
const MAX_TIMEOUT_RETRIES = 1;

export interface RetryPolicy {
  /**
   * Retries of what the attempt marked retryable: 5xx, timeouts, network errors, non-JSON 2xx bodies (for a
   * create, a refused connection only).
   */
  maxRetries: number;
  /** Re-queues after a 429 before giving up. */
  maxRateLimitRetries: number;
  /** Pause of a base after a 429 without Retry-After (the service's penalty is 30 s). */
  rateLimitPauseMs: number;
  /**
   * The longest Retry-After waited for: a service asking for more (an hour, or past what a timer holds) gets
   * its error passed on at once, never a request that waits on without end.
   */
  maxRetryAfterMs: number;
  /** Backoff before retry n: between half and all of min(maxMs, baseMs * 2^(n-1)). */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** What a request is, for a `refuse` hook deciding before it is sent. */
export interface OutgoingRequest {
  baseId: string;
  method: string;
  path: string;
  priority: Priority;
  purpose: Purpose;
}

export interface RequesterConfig extends AttemptConfig, RetryPolicy {
  spacingMs: number;
  /** Starts per second across every base of this key (the service's 50); undefined for no such limit. */
  tokenRequestsPerSecond: number | undefined;
  schedulers: SchedulerRegistry;
  onEvent?: ClientEventListener;
  /**
   * Asked before each attempt leaves its queue: an error refuses the request here, unsent (the request budget
   * stops background work once the service refused the month's calls). Undefined lets it go.
   */
  refuse?: (request: OutgoingRequest) => RecordTableError | undefined;
}

export interface SendSpec extends AttemptSpec, RequestOptions {
  /** The base whose throttle carries the request; '' for account-level calls. */
  baseId: string;
}

export function backoffMs(
  policy: Pick<RetryPolicy, 'backoffBaseMs' | 'backoffMaxMs'>,
  retry: number,
  random = Math.random,
): number {
  const cap = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** (retry - 1));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** What a request is for when nobody said: the metadata API is schema, a read is rows, anything else an edit. */
export function purposeOf(method: string, path: string): Purpose {
  if (path.startsWith('/v0/meta/') || path.startsWith('/_tabledesk/v1/extensions')) return 'schema';
  if (method === 'GET' || path.split('?')[0]?.endsWith('/listRecords')) return 'rows';
  return 'edits';
}

/** The state every purpose's view of one client shares: throttles, request ids. */
interface Shared {
  config: RequesterConfig;
  /** The bases this client has used, for its summed stats. */
  schedulers: Map<string, BaseScheduler>;
  gate: TokenGate | undefined;
  nextId: number;
}

export class Requester {
  readonly #shared: Shared;
  readonly #purpose: Purpose | undefined;

  constructor(config: RequesterConfig, purpose?: Purpose, shared?: Shared) {
    this.#shared = shared ?? {
      config,
      schedulers: new Map(),
      gate:
        config.tokenRequestsPerSecond === undefined
          ? undefined
          : config.schedulers.gate(config.baseUrl, config.apiKey, config.tokenRequestsPerSecond),
      nextId: 1,
    };
    this.#purpose = purpose;
  }

  /** The same requester (throttles, key, events), its requests counted for `purpose` unless they say otherwise. */
  withPurpose(purpose: Purpose): Requester {
    return new Requester(this.#shared.config, purpose, this.#shared);
  }

  scheduler(baseId: string): BaseScheduler {
    const { config, schedulers } = this.#shared;
    let s = schedulers.get(baseId);
    if (!s) {
      s = config.schedulers.get(config.baseUrl, baseId, config.spacingMs);
      schedulers.set(baseId, s);
    }
    return s;
  }

  stats(baseId?: string): SchedulerStats {
    if (baseId !== undefined) return this.scheduler(baseId).stats();
    const all = [...this.#shared.schedulers.values()].map((s) => s.stats());
    const paused = all.map((s) => s.pausedUntil).filter((p): p is number => p !== undefined);
    return {
      queued: all.reduce((n, s) => n + s.queued, 0),
      inFlight: all.reduce((n, s) => n + s.inFlight, 0),
      ratePerSecond: all.reduce((n, s) => n + s.ratePerSecond, 0),
      ...(paused.length > 0 ? { pausedUntil: Math.max(...paused) } : {}),
    };
  }

  /** A request of one base with the caller's options (signal, priority, purpose), through that base's throttle. */
  sendFor<T>(
    baseId: string,
    opts: RequestOptions | undefined,
    spec: Pick<SendSpec, 'method' | 'path' | 'body'>,
    creates = false,
  ): Promise<T> {
    return this.send<T>({
      signal: opts?.signal,
      priority: opts?.priority,
      purpose: opts?.purpose,
      baseId,
      creates,
      ...spec,
    });
  }

  async send<T>(spec: SendSpec): Promise<T> {
    const config = this.#shared.config;
    const priority: Priority = spec.priority ?? 'interactive';
    const scheduler = this.scheduler(spec.baseId);
    const base = {
      baseId: spec.baseId,
      requestId: this.#shared.nextId++,
      method: spec.method,
      path: stripQuery(spec.path),
      priority,
      purpose: spec.purpose ?? this.#purpose ?? purposeOf(spec.method, spec.path),
    };
    const emit = (e: Omit<ClientEvent, keyof typeof base | 'at'>) =>
      config.onEvent?.({ ...base, ...e, at: Date.now() });
    let retries = 0;
    let timeouts = 0;
    let rateLimitRetries = 0;
    for (let attempt = 1; ; attempt++) {
      const queuedAt = Date.now();
      emit({ type: 'queued', attempt });
      let startedAt = 0;
      try {
        const result = await scheduler.run(
          async () => {
            const refusal = config.refuse?.(base);
            if (refusal) throw refusal;
            startedAt = Date.now();
            emit({ type: 'started', attempt, waitMs: startedAt - queuedAt });
            try {
              const { status, body } = await sendAttempt(config, spec, spec.signal);
              const durationMs = Date.now() - startedAt;
              // Only answers that passed: a failure's time (a timeout, a refused connection) is no round trip.
              scheduler.noteRoundTrip(durationMs);
              emit({ type: 'finished', attempt, status, durationMs });
              return body;
            } catch (e) {
              const err = e instanceof AttemptError ? e.failure.error : undefined;
              emit({
                type: 'finished',
                attempt,
                status: err?.status,
                errorKind: err?.kind,
                ...(err?.quota ? { quota: true } : {}),
                durationMs: Date.now() - startedAt,
              });
              throw e;
            }
          },
          queuePriority(priority, attempt > 1),
          spec.signal,
          this.#shared.gate,
        );
        return result as T;
      } catch (e) {
        // Refused here before it was sent (see RequesterConfig.refuse).
        if (e instanceof RecordTableError) throw e;
        if (!(e instanceof AttemptError)) {
          if (spec.signal?.aborted || isAbortError(e)) {
            throw new RecordTableError({
              kind: 'aborted',
              message: `${spec.method} ${base.path} was cancelled before it was sent`,
              method: spec.method,
              path: base.path,
              attempts: attempt - 1,
            });
          }
          throw e;
        }
        const failure: AttemptFailure = e.failure;
        const error = failure.error;
        error.attempts = attempt;
        const reason =
          error.status !== undefined ? `${error.status} ${error.type ?? ''}`.trim() : `${error.kind}`;
        // The month's allowance is spent: every retry would be refused too (and may be counted).
        if (error.quota) throw error;
        if (failure.retryAfterMs !== undefined && failure.retryAfterMs > config.maxRetryAfterMs) {
          error.message = `${error.message} (the service asks to wait ${Math.round(failure.retryAfterMs / 1000)} s before trying again)`;
          throw error;
        }
        if (error.status === 429) {
          if (rateLimitRetries++ >= config.maxRateLimitRetries) throw error;
          const pauseMs = failure.retryAfterMs ?? config.rateLimitPauseMs;
          scheduler.pauseFor(pauseMs);
          emit({ type: 'paused', attempt, status: 429, waitMs: pauseMs, reason });
          emit({ type: 'retry', attempt, status: 429, waitMs: 0, reason });
          continue;
        }
        // The attempt decided `retryable`: for a create, only where the service provably did nothing.
        if (!error.retryable || retries >= config.maxRetries) throw error;
        if (error.kind === 'timeout' && timeouts++ >= MAX_TIMEOUT_RETRIES) throw error;
        retries++;
        const delay = failure.retryAfterMs ?? backoffMs(config, retries);
        emit({
          type: 'retry',
          attempt,
          status: error.status,
          waitMs: delay,
          reason: `${reason}: ${error.message}`,
        });
        try {
          await sleep(delay, spec.signal);
        } catch {
          throw new RecordTableError({
            ...error.toJSON(),
            kind: 'aborted',
            message: `${spec.method} ${base.path} was cancelled while waiting to retry after: ${error.message}`,
            retryable: false,
          });
        }
      }
    }
  }
}
