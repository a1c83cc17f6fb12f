/**
 * The API keys this process has handled, and the redaction of them from everything a renderer is sent. A key
 * can come back in any field a service fills (a whoami id, an error's message, a body excerpt, a record's
 * value), so every answer and every event payload is searched as a whole, not field by field.
 */

/** Shorter strings are too common to hide without mangling ordinary text (and are no real secret). */
const MIN_SECRET_LENGTH = 8;
export const REDACTED = '[key hidden]';
const WITHHELD = '[withheld: it held an API key]';

export class Secrets {
  private readonly keys = new Set<string>();

  add(key: string | undefined): void {
    if (key !== undefined && key.length >= MIN_SECRET_LENGTH) this.keys.add(key);
  }

  /** The value with every known key replaced in every string and property name, at any depth. */
  readonly redact = <T>(value: T): T => {
    if (this.keys.size === 0 || !this.holdsKey(value)) return value;
    try {
      return this.walk(value) as T;
    } catch {
      // Nested too deep to walk: nothing of it may go out.
      return WITHHELD as T;
    }
  };

  private holdsKey(value: unknown): boolean {
    let text: string | undefined;
    try {
      text = typeof value === 'string' ? value : JSON.stringify(value);
    } catch {
      // Not JSON (a cycle, a BigInt): walked in full instead.
      return true;
    }
    if (text === undefined) return false;
    for (const key of this.keys)
      if (text.includes(key) || text.includes(JSON.stringify(key).slice(1, -1))) return true;
    return false;
  }

  private hide(text: string): string {
    let out = text;
    for (const key of this.keys) out = out.split(key).join(REDACTED);
    return out;
  }

  private walk(value: unknown, seen = new WeakSet<object>()): unknown {
    if (typeof value === 'string') return this.hide(value);
    if (typeof value !== 'object' || value === null || seen.has(value)) return value;
    seen.add(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v, seen));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // defineProperty: a redacted name such as `__proto__` stays a plain property.
      Object.defineProperty(out, this.hide(k), {
        value: this.walk(v, seen),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
}
