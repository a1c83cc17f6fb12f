/**
 * The renderer is served from `app://tabledesk/`, not file:// (which carries extra privileges), with the
 * CSP on every response. Only files inside the renderer's build folder are served.
 */
import { pathToFileURL } from 'node:url';
import { net, protocol } from 'electron';
import { APP_SCHEME, rendererFile } from './app-path';

export { APP_ORIGIN, isAppUrl } from './app-path';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // ag-grid sets its theme and row positions through inline styles.
  "style-src 'self' 'unsafe-inline'",
  // Attachment thumbnails: the hosted service's are https; a local service's (the demo's port is random)
  // are signed links on loopback. Images only: no script or fetch reaches those origins.
  "img-src 'self' data: https: http://127.0.0.1:* http://localhost:*",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Before the app is ready: the scheme behaves like https (origin, fetch, secure context), and V8 keeps the
 * compiled scripts in its code cache (userData's `Code Cache`) as it does for https, so the 1.9 MB bundle is
 * not compiled again on every start.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    },
  ]);
}

export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const path = rendererFile(rendererDir, request.url);
    if (path === undefined) return new Response('Not found', { status: 404 });
    const file = await net.fetch(pathToFileURL(path).toString());
    const headers = new Headers(file.headers);
    headers.set('Content-Security-Policy', CSP);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(file.body, { status: file.status, headers });
  });
}
