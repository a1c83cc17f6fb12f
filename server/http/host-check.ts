/**
 * DNS rebinding guard for a server bound to loopback: a page on another site may point its own host name at
 * 127.0.0.1, and the browser then sends that name as `Host`. Only the loopback names pass; the port is not
 * compared, so a local proxy in front of the server (tests, a developer's tools) still works.
 */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1']);

/** A lower-cased host name or address (no brackets) that only this machine answers. */
const isLoopbackName = (name: string): boolean =>
  LOOPBACK_NAMES.has(name) || /^127(\.\d{1,3}){3}$/.test(name);

/** True when `host` (the address the server listens on) is reachable only from this machine. */
export function isLoopbackBind(host: string): boolean {
  return isLoopbackName(host.replace(/^\[|\]$/g, '').toLowerCase());
}

/** The host name of a `Host` header (`name`, `name:port`, `[v6]:port`), lower-cased, or undefined. */
function hostName(header: string): string | undefined {
  const m = /^(?:\[([0-9a-f:.]+)\]|([^:[\]]+))(?::\d{1,5})?$/i.exec(header.trim());
  return (m?.[1] ?? m?.[2])?.toLowerCase();
}

/** Whether a request with this `Host` header may reach a loopback-bound server. */
export function loopbackHostAllowed(header: string | undefined): boolean {
  const name = header === undefined ? undefined : hostName(header);
  return name !== undefined && isLoopbackName(name);
}
