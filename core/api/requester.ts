/** Sends requests through their base's scheduler and applies the retry rules. */
import { sendAttempt, AttemptError } from './attempt';
import type { AttemptConfig, AttemptFailure, AttemptSpec } from './attempt';
import { isAbortError, RecordTableError } from './errors';
import type { ClientEvent, ClientEventListener } from './events';
import type { Priority, RequestOptions } from './options';
import { stripQuery } from './query';
import { queuePriority } from './scheduler';
import type { BaseScheduler, SchedulerRegistry, SchedulerStats, TokenGate } from './scheduler';

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
  /** Backoff before retry n: between half and all of min(maxMs, baseMs * 2^(n-1)). */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export interface RequesterConfig extends AttemptConfig, RetryPolicy {
  spacingMs: number;
  /** Starts per second across every base of this key (the service's 50); undefined for no such limit. */
  tokenRequestsPerSecond: number | undefined;
  schedulers: SchedulerRegistry;
  onEvent?: ClientEventListener;
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

export class Requester {
  readonly #config: RequesterConfig;
  /** The bases this client has used, for its summed stats. */
  readonly #schedulers = new Map<string, BaseScheduler>();
  readonly #gate: TokenGate | undefined;
  #nextId = 1;

  constructor(config: RequesterConfig) {
    this.#config = config;
    this.#gate =
      config.tokenRequestsPerSecond === undefined
        ? undefined
        : config.schedulers.gate(config.baseUrl, config.apiKey, config.tokenRequestsPerSecond);
  }

  scheduler(baseId: string): BaseScheduler {
    let s = this.#schedulers.get(baseId);
    if (!s) {
      s = this.#config.schedulers.get(this.#config.baseUrl, baseId, this.#config.spacingMs);
      this.#schedulers.set(baseId, s);
    }
    return s;
  }

  stats(baseId?: string): SchedulerStats {
    if (baseId !== undefined) return this.scheduler(baseId).stats();
    const all = [...this.#schedulers.values()].map((s) => s.stats());
    const paused = all.map((s) => s.pausedUntil).filter((p): p is number => p !== undefined);
    return {
      queued: all.reduce((n, s) => n + s.queued, 0),
      inFlight: all.reduce((n, s) => n + s.inFlight, 0),
      ratePerSecond: all.reduce((n, s) => n + s.ratePerSecond, 0),
      ...(paused.length > 0 ? { pausedUntil: Math.max(...paused) } : {}),
    };
  }

  async send<T>(spec: SendSpec): Promise<T> {
    const config = this.#config;
    const priority: Priority = spec.priority ?? 'interactive';
    const scheduler = this.scheduler(spec.baseId);
    const base = {
      baseId: spec.baseId,
      requestId: this.#nextId++,
      method: spec.method,
      path: stripQuery(spec.path),
      priority,
    };
    const emit = (e: Omit<ClientEvent, keyof typeof base | 'at'>) =>
      config.onEvent?.({ ...base, ...e, at: Date.now() });
    let retries = 0;
    let rateLimitRetries = 0;
    for (let attempt = 1; ; attempt++) {
      const queuedAt = Date.now();
      emit({ type: 'queued', attempt });
      let startedAt = 0;
      try {
        const result = await scheduler.run(
          async () => {
            startedAt = Date.now();
            emit({ type: 'started', attempt, waitMs: startedAt - queuedAt });
            try {
              const { status, body } = await sendAttempt(config, spec, spec.signal);
              emit({ type: 'finished', attempt, status, durationMs: Date.now() - startedAt });
              return body;
            } catch (e) {
              const err = e instanceof AttemptError ? e.failure.error : undefined;
              emit({
                type: 'finished',
                attempt,
                status: err?.status,
                errorKind: err?.kind,
                durationMs: Date.now() - startedAt,
              });
              throw e;
            }
          },
          queuePriority(priority, attempt > 1),
          spec.signal,
          this.#gate,
        );
        return result as T;
      } catch (e) {
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
