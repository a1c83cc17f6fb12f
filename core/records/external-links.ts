/**
 * Which links the app may hand to the system's browser or fetch an attachment's file from: https anywhere,
 * and a local service's signed attachment links (http on loopback, under /files/). Anything else (file:,
 * javascript:, other http) is refused.
 */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function opensExternally(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:') return true;
  return (
    parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname) && parsed.pathname.startsWith('/files/')
  );
}
