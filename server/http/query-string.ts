/**
 * Airtable's query conventions on top of URLSearchParams (which handles `+`, `%20` and percent-decoding):
 * `k[]=v` repeated is an array, a key repeated without brackets is an array too, and `k[i][p]=v` builds an
 * array of objects (airtable-wire.md §2.2). A single bracket-less value stays a scalar, as on Airtable.
 */
export function parseQueryString(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    if (!m || !m[2]) {
      const prev = out[rawKey];
      if (prev === undefined) out[rawKey] = value;
      else out[rawKey] = Array.isArray(prev) ? [...(prev as unknown[]), value] : [prev, value];
      continue;
    }
    const name = m[1]!;
    const parts = [...m[2].matchAll(/\[([^[\]]*)\]/g)].map((p) => p[1]!);
    if (parts.length === 1 && parts[0] === '') {
      const prev = out[name];
      out[name] = Array.isArray(prev)
        ? [...(prev as unknown[]), value]
        : prev === undefined
          ? [value]
          : [prev, value];
      continue;
    }
    setPath(out, name, parts, value);
  }
  return out;
}

function setPath(out: Record<string, unknown>, name: string, parts: string[], value: string): void {
  let node: Record<string, unknown> | unknown[] = out;
  let key: string | number = name;
  for (const part of parts) {
    const isIndex = /^\d+$/.test(part);
    const container = (node as Record<string | number, unknown>)[key];
    if (typeof container !== 'object' || container === null)
      (node as Record<string | number, unknown>)[key] = isIndex ? [] : {};
    node = (node as Record<string | number, unknown>)[key] as Record<string, unknown> | unknown[];
    key = isIndex ? Number(part) : part;
  }
  (node as Record<string | number, unknown>)[key] = value;
}
