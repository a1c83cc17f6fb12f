/** One HTTP exchange with the service, turned into parsed JSON or a classified RecordTableError. */
import { nestedDeeperThan } from '../json-depth';
import {
  describeCause,
  isConnectionRefused,
  isQuotaRefusal,
  readServiceError,
  RecordTableError,
  redact,
} from './errors';
import type { RecordTableErrorInit } from './errors';
import { stripQuery } from './query';
import { boundedBody } from './bounded-body';
import { StallWatch } from './stall-watch';
import type { StallLimits } from './stall-watch';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface AttemptSpec {
  method: Method;
  /** Path and query string, e.g. /v0/app…/Table?pageSize=10 */
  path: string;
  body?: unknown;
  /** A POST that creates records: a failure after it may have reached the service is "outcome unknown". */
  creates: boolean;
  /** What may or may not have happened when such a POST's answer is lost; records created by default. */
  unknownOutcome?: string;
  /** Another origin of the same service (Airtable's uploads go to its content host); the base URL by default. */
  origin?: string;
  /** Bytes of the body handed to the connection so far, as they go. */
  onProgress?: (sent: number, total: number) => void;
}

/**
 * How a transfer whose size the user chose is bounded (an upload, a write of long texts): by its progress, not
 * by a total time, which failed a 5 MB upload (6.7 MB in base64) on a 1 Mbit/s uplink at 60 s. While the body
 * goes, each window must hand `minBytes` to the connection; once it is all handed over, the answer must begin
 * within a window plus the time the connection's buffers (which take megabytes at once, more than a slow line
 * has sent) need to drain the body at `drainBytesPerSecond`; then its body is read under the same window.
 */
export interface TransferLimits extends StallLimits {
  drainBytesPerSecond: number;
}

/** As the mirror's downloads (30 s bringing less than 32 KiB), draining at 16 KiB/s (128 kbit/s) at least. */
export const TRANSFER_LIMITS: TransferLimits = {
  windowMs: 30_000,
  minBytes: 32 * 1024,
  drainBytesPerSecond: 16 * 1024,
};

/**
 * An answer still arriving when its timeout passes goes on while each window of that length brings this much a
 * second (512 kbit/s; a 1 Mbit/s line brings twice that): an answer is at most MAX_ANSWER_BYTES, so one that
 * keeps to the floor ends within about 9 minutes, and one in drips within a window.
 */
export const ANSWER_FLOOR_BYTES_PER_SECOND = 64 * 1024;

/** A body past this many bytes is a transfer (see TransferLimits); an upload always is. */
export const TRANSFER_BODY_BYTES = 256 * 1024;

/**
 * The largest answer read: a page of 100 records of long texts is a few MB; past this an answer is refused as
 * it arrives, so a broken or hostile service cannot fill memory (four 300 MB answers took 3.5 GB).
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

class AnswerTooLarge extends Error {}
/** The reason a transfer is aborted when it stalls; the failure says so in its own words. */
class TransferStalled extends Error {}

/** Progress is counted in pieces of this size as the connection reads the body. */
const PROGRESS_CHUNK = 64 * 1024;

/** A JSON body that reports how much of it was read, with its length so nothing is sent chunked. */
function progressBody(bytes: Uint8Array, onProgress: (sent: number, total: number, piece: number) => void) {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes.length) return controller.close();
      const end = Math.min(bytes.length, sent + PROGRESS_CHUNK);
      controller.enqueue(bytes.subarray(sent, end));
      const piece = end - sent;
      sent = end;
      onProgress(sent, bytes.length, piece);
    },
  });
  return { stream, length: bytes.length };
}

export interface AttemptConfig {
  baseUrl: string;
  apiKey: string;
  /** The whole exchange's bound, but for transfers (see TransferLimits). */
  timeoutMs: number;
  /** TRANSFER_LIMITS by default. */
  transferLimits?: TransferLimits;
  fetch: typeof fetch;
}

/** A failed attempt, with what the retry policy needs beyond the public error. */
export interface AttemptFailure {
  error: RecordTableError;
  /** From a Retry-After header, in ms. */
  retryAfterMs?: number;
}

export class AttemptError extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.error.message);
  }
}

/** Retry-After is seconds, or an HTTP date. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export async function sendAttempt(
  config: AttemptConfig,
  spec: AttemptSpec,
  signal?: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  const path = stripQuery(spec.path);
  const where = `${spec.method} ${path}`;
  const fail = (init: Omit<RecordTableErrorInit, 'method' | 'path'>, extra: Partial<AttemptFailure> = {}) =>
    new AttemptError({
      error: new RecordTableError({
        ...init,
        message: redact(init.message, config.apiKey),
        rawBody: init.rawBody === undefined ? undefined : redact(init.rawBody, config.apiKey),
        method: spec.method,
        path,
      }),
      ...extra,
    });

  const headers: Record<string, string> = { Authorization: `Bearer ${config.apiKey}` };
  if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
  const bodyText = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  const bytes = bodyText === undefined ? undefined : new TextEncoder().encode(bodyText);
  const limits = config.transferLimits ?? TRANSFER_LIMITS;
  const watch =
    bytes !== undefined && (spec.onProgress !== undefined || bytes.length > TRANSFER_BODY_BYTES)
      ? new StallWatch(limits, () => new TransferStalled())
      : undefined;
  // Otherwise the answer must begin within timeoutMs, and its body then keeps moving (see answerWatch).
  const held = new AbortController();
  let timedOut = false;
  const headersTimer = watch
    ? undefined
    : setTimeout(() => {
        timedOut = true;
        held.abort();
      }, config.timeoutMs);
  let answerWatch: StallWatch | undefined;
  const bound = watch?.signal ?? held.signal;
  const combined = signal ? AbortSignal.any([signal, bound]) : bound;
  let body: string | ReadableStream<Uint8Array> | undefined = bodyText;
  if (bytes !== undefined && watch) {
    const p = progressBody(bytes, (sent, total, piece) => {
      watch.moved(piece);
      spec.onProgress?.(sent, total);
      if (sent === total) watch.handedOver((1000 * total) / limits.drainBytesPerSecond);
    });
    body = p.stream;
    headers['Content-Length'] = String(p.length);
  }
  const maybe = spec.unknownOutcome ?? 'the records may or may not have been created';

  let status: number | undefined;
  let text: string;
  let response: Response | undefined;
  try {
    response = await config.fetch((spec.origin ?? config.baseUrl) + spec.path, {
      method: spec.method,
      headers,
      body,
      signal: combined,
      // A stream body needs half duplex (fetch's rule); RequestInit's type does not know the option yet.
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
    status = response.status;
    watch?.answered();
    if (!watch) {
      // The body's size is the user's data (a page of long texts runs to megabytes): it is read for as long as
      // each window of timeoutMs brings minBytes, not within what is left of a total time.
      clearTimeout(headersTimer);
      const minBytes = Math.ceil((ANSWER_FLOOR_BYTES_PER_SECOND * config.timeoutMs) / 1000);
      answerWatch = new StallWatch({ windowMs: config.timeoutMs, minBytes }, () => new TransferStalled());
      answerWatch.signal.addEventListener('abort', () => held.abort(), { once: true });
    }
    const progress = watch ?? answerWatch;
    text = new TextDecoder().decode(
      await boundedBody(
        response,
        MAX_ANSWER_BYTES,
        () => new AnswerTooLarge(),
        (n) => progress?.moved(n),
      ),
    );
  } catch (cause) {
    if (cause instanceof AnswerTooLarge) {
      throw fail({
        kind: spec.creates ? 'outcome-unknown' : 'http',
        message: `${where} answered more than ${MAX_ANSWER_BYTES} bytes${spec.creates ? `: ${maybe}` : ''}`,
        status,
        retryable: false,
        cause,
      });
    }
    const sent = response !== undefined;
    if (signal?.aborted) {
      throw fail({
        kind: spec.creates ? 'outcome-unknown' : 'aborted',
        message: spec.creates
          ? `${where} was cancelled after it was sent: ${maybe}`
          : `${where} was cancelled`,
        status,
        cause,
      });
    }
    const stalled = watch ?? answerWatch;
    if (stalled?.hasStalled) {
      const { minBytes, windowMs } = stalled.limits;
      const floor = `less than ${Math.round(minBytes / 1024)} KiB in ${windowMs / 1000} s`;
      throw fail({
        kind: spec.creates ? 'outcome-unknown' : 'timeout',
        message: `${where} stalled (${floor})${spec.creates ? `: ${maybe}` : ''}`,
        status,
        retryable: !spec.creates,
        cause,
      });
    }
    if (timedOut) {
      throw fail({
        kind: spec.creates ? 'outcome-unknown' : 'timeout',
        message: `${where} timed out after ${config.timeoutMs} ms${spec.creates ? `: ${maybe}` : ''}`,
        status,
        retryable: !spec.creates,
        cause,
      });
    }
    const refused = !sent && isConnectionRefused(cause);
    const detail = redact(describeCause(cause), config.apiKey);
    if (spec.creates && !refused) {
      throw fail({
        kind: 'outcome-unknown',
        message: `${where} failed after it may have reached the service (${detail}): ${maybe}`,
        status,
        cause,
      });
    }
    throw fail({ kind: 'network', message: `${where} failed: ${detail}`, status, retryable: true, cause });
  } finally {
    clearTimeout(headersTimer);
    watch?.stop();
    answerWatch?.stop();
  }

  let json: unknown;
  // An answer nested past any the service sends is taken as not JSON: code that walks it (a message quoting
  // it, a deep comparison) would run out of stack.
  let parsed = !nestedDeeperThan(text, MAX_ANSWER_DEPTH);
  try {
    json = parsed && text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = false;
  }

  if (response.ok) {
    if (parsed && json !== undefined) return { status: response.status, body: json };
    throw fail({
      kind: spec.creates ? 'outcome-unknown' : 'http',
      message: `${where} answered ${status} with a body that is not JSON`,
      status,
      rawBody: text.slice(0, 2000),
      retryable: !spec.creates,
    });
  }

  const service = parsed ? readServiceError(json) : undefined;
  const label = [String(status), service?.type, service?.message].filter(Boolean).join(' ');
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  if (isQuotaRefusal(status, service)) {
    throw fail({
      kind: 'http',
      message: `${where}: ${label}`,
      status,
      type: service?.type,
      serviceMessage: service?.message,
      quota: true,
      retryable: false,
    });
  }
  if (status === 429) {
    throw fail(
      {
        kind: 'http',
        message: `${where}: ${label}`,
        status,
        type: service?.type,
        serviceMessage: service?.message,
        rawBody: parsed ? undefined : text.slice(0, 2000),
        retryable: true,
      },
      { retryAfterMs },
    );
  }
  const serverSide = status >= 500;
  const unknown = spec.creates && serverSide;
  throw fail(
    {
      kind: unknown ? 'outcome-unknown' : 'http',
      message: unknown
        ? `${where}: ${label}${parsed ? '' : ' (not JSON)'}; ${maybe}`
        : `${where}: ${label}${parsed ? '' : ` (not JSON): ${text.slice(0, 200)}`}`,
      status,
      type: service?.type,
      serviceMessage: service?.message,
      rawBody: parsed ? undefined : text.slice(0, 2000),
      retryable: serverSide && !spec.creates,
    },
    { retryAfterMs },
  );
}

/** Far deeper than any answer of the Airtable API (an attachment's thumbnail URL is 7 levels down). */
const MAX_ANSWER_DEPTH = 64;
