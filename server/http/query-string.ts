/**
 * Airtable's query conventions on top of URLSearchParams (which handles `+`, `%20` and percent-decoding):
 * `k[]=v` repeated is an array, a key repeated without brackets is an array too, and `k[i][p]=v` builds an
 * array of objects (airtable-wire.md §2.2). A single bracket-less value stays a scalar, as on Airtable.
 *
 * The query is parsed before the request is authenticated, so it is hostile: objects have no prototype and
 * the keys `__proto__`, `constructor` and `prototype` are ignored (no query can reach Object.prototype); an
 * index only orders its siblings (`fields[10000000]=a` is a one-item array, never ten million slots); and
 * paths deeper than MAX_DEPTH brackets are ignored. A query therefore builds at most one value per pair.
 */
const POLLUTING: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_DEPTH = 4;
// Up to 9 digits: the index is a number without rounding and orders as one.
const INDEX = /^\d{1,9}$/;

type Value = string | string[] | Tree | Indexed;
type Tree = { [key: string]: Value };

/** A container written with numeric indexes: its items, turned into a dense array in index order at the end. */
class Indexed {
  readonly items = new Map<number, Value>();
}

const tree = (): Tree => Object.create(null) as Tree;

export function parseQueryString(text: string): Record<string, unknown> {
  const out = tree();
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    const name = m ? m[1]! : rawKey;
    const parts = m?.[2] ? [...m[2].matchAll(/\[([^[\]]*)\]/g)].map((p) => p[1]!) : [];
    if (POLLUTING.has(name) || parts.some((p) => POLLUTING.has(p)) || parts.length > MAX_DEPTH) continue;
    if (parts.length === 0 || (parts.length === 1 && parts[0] === '')) {
      const prev = out[name];
      if (prev === undefined) out[name] = parts.length === 0 ? value : [value];
      else if (Array.isArray(prev)) prev.push(value);
      else if (typeof prev === 'string') out[name] = [prev, value];
      continue;
    }
    setPath(out, name, parts, value);
  }
  return dense(out) as Record<string, unknown>;
}

function setPath(out: Tree, name: string, parts: string[], value: string): void {
  let node: Tree | Indexed = out;
  let key: string | number = name;
  for (const part of parts) {
    const isIndex = INDEX.test(part);
    let child = get(node, key);
    if (child === undefined || typeof child === 'string' || Array.isArray(child)) {
      child = isIndex ? new Indexed() : tree();
      put(node, key, child);
    }
    // A path that treats an indexed container as a keyed one (or the reverse) is ignored.
    if (child instanceof Indexed !== isIndex) return;
    node = child as Tree | Indexed;
    key = isIndex ? Number(part) : part;
  }
  put(node, key, value);
}

function get(node: Tree | Indexed, key: string | number): Value | undefined {
  return node instanceof Indexed ? node.items.get(key as number) : node[key as string];
}

function put(node: Tree | Indexed, key: string | number, value: Value): void {
  if (node instanceof Indexed) node.items.set(key as number, value);
  else node[key as string] = value;
}

/** Indexed containers as arrays, in index order. */
function dense(value: Value): unknown {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  if (value instanceof Indexed)
    return [...value.items.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => dense(v));
  const out = tree() as Record<string, unknown>;
  for (const key of Object.keys(value)) out[key] = dense(value[key]!);
  return out;
}
