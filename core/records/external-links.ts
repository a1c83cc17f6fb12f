/**
 * Which links the app may hand to the system's browser or fetch an attachment's file from: https anywhere,
 * and a local service's signed attachment links (http on loopback, under /files/). Anything else (file:,
 * javascript:, other http) is refused.
 */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether a URL's host name (`URL.hostname`, an IPv6 address in brackets) names this computer. */
export const isLoopbackHost = (hostname: string): boolean => LOOPBACK.has(hostname);

export function opensExternally(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:') return true;
  return (
    parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname) && parsed.pathname.startsWith('/files/')
  );
}
