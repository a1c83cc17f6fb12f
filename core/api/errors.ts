/** The one error type of the client: every failed call rejects with a RecordTableError. */

export type ErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'outcome-unknown';

export interface RecordTableErrorInit {
  kind: ErrorKind;
  message: string;
  method?: string;
  path?: string;
  status?: number;
  type?: string;
  serviceMessage?: string;
  rawBody?: string;
  retryable?: boolean;
  attempts?: number;
  completed?: unknown[];
  cause?: unknown;
  quota?: boolean;
}

export class RecordTableError extends Error {
  override name = 'RecordTableError';
  kind: ErrorKind;
  status?: number;
  /** The service's error type, e.g. INVALID_VALUE_FOR_COLUMN or NOT_FOUND (both body shapes). */
  type?: string;
  serviceMessage?: string;
  /** The response text when it was not JSON (a proxy page, a 414...). */
  rawBody?: string;
  /** Whether sending the same request again could succeed and is safe. */
  retryable: boolean;
  /**
   * The service refused the call for its monthly allowance (see `isQuotaRefusal`): nothing will pass until the
   * month ends or the plan changes, so it is never retried, unlike the per-second 429.
   */
  quota: boolean;
  method?: string;
  path?: string;
  attempts?: number;
  /**
   * For calls split into several requests: the results of the requests that succeeded, in input order,
   * with `undefined` where a request failed, so a caller knows what was written.
   */
  completed?: unknown[];

  constructor(init: RecordTableErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.type = init.type;
    this.serviceMessage = init.serviceMessage;
    this.rawBody = init.rawBody;
    this.retryable = init.retryable ?? false;
    this.quota = init.quota ?? false;
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
    this.completed = init.completed;
  }

  /** Plain data for crossing a process or IPC boundary. */
  toJSON(): Omit<RecordTableErrorInit, 'cause' | 'completed'> {
    return {
      kind: this.kind,
      message: this.message,
      method: this.method,
      path: this.path,
      status: this.status,
      type: this.type,
      serviceMessage: this.serviceMessage,
      rawBody: this.rawBody,
      retryable: this.retryable,
      attempts: this.attempts,
      ...(this.quota ? { quota: true } : {}),
    };
  }
}

export interface ServiceErrorBody {
  type?: string;
  message?: string;
}

/**
 * Reads the service's `error` member in either shape (`{"error":"NOT_FOUND"}` or
 * `{"error":{"type":…,"message"?:…}}`); undefined when the body has none.
 */
export function readServiceError(body: unknown): ServiceErrorBody | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = (body as { error: unknown }).error;
  if (typeof error === 'string') return { type: error };
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, message } = error as { type?: unknown; message?: unknown };
  return {
    type: typeof type === 'string' ? type : undefined,
    message: typeof message === 'string' ? message : undefined,
  };
}

/** The per-second refusal's type (airtable-wire.md §4): a 429 of another type is not about the rate. */
export const RATE_LIMIT_TYPE = 'RATE_LIMIT_REACHED';

/**
 * Whether an answer refuses the call for the workspace's monthly allowance rather than the per-second rate.
 * Unverified on the wire (airtable-wire.md §5, §12): third parties report a 429 of type
 * PUBLIC_API_BILLING_LIMIT_EXCEEDED, Airtable's older docs a 402 Payment Required. Decided here: a 402 is the
 * allowance; a 429 is the allowance when its type is not RATE_LIMIT_REACHED and its type or message speaks of
 * billing, a quota or a plan's limit; any other 429 (no body, an unknown type) stays the per-second limit,
 * whose retry after its pause is harmless if this guess is wrong.
 */
export function isQuotaRefusal(status: number, service: ServiceErrorBody | undefined): boolean {
  if (status === 402) return true;
  if (status !== 429 || service === undefined || service.type === RATE_LIMIT_TYPE) return false;
  return /BILLING|QUOTA|PLAN_LIMIT|LIMIT_EXCEEDED/i.test(`${service.type ?? ''} ${service.message ?? ''}`);
}

/** Removes every occurrence of the API key from a text that leaves the client. */
export function redact(text: string, apiKey: string): string {
  return apiKey.length > 0 ? text.split(apiKey).join('[api key]') : text;
}

export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/** A connection the peer refused never reached the service: the one network failure a create may retry. */
export function isConnectionRefused(error: unknown): boolean {
  // fetch (undici) wraps the socket error as `cause`, sometimes twice; browsers give no code at all.
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 4; depth++) {
    if ((e as { code?: unknown }).code === 'ECONNREFUSED') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** A short description of a low-level failure (undici hides the socket error in `cause`). */
export function describeCause(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 4; depth++) {
    const { message, code } = e as { message?: unknown; code?: unknown };
    if (typeof message === 'string' && message.length > 0) parts.push(message);
    if (typeof code === 'string' && !parts.some((p) => p.includes(code))) parts.push(code);
    e = (e as { cause?: unknown }).cause;
  }
  return parts.length > 0 ? parts.join(': ') : String(error);
}
