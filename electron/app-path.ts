/** Which file of the renderer build an app:// URL names; undefined for anything outside it. */
import { isAbsolute, relative, resolve } from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'tabledesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export function isAppUrl(url: string): boolean {
  try {
    // protocol + host rather than origin: a non-standard scheme's origin is "null" outside Electron.
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

export function rendererFile(rendererDir: string, requestUrl: string): string | undefined {
  let url: URL;
  let pathname: string;
  try {
    url = new URL(requestUrl);
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || pathname.includes('\0')) return undefined;
  const root = resolve(rendererDir);
  const file = resolve(root, `.${pathname === '/' ? '/index.html' : pathname}`);
  const inside = relative(root, file);
  // Outside the root: a '..' path, or (Windows) another drive.
  return inside === '' || inside.split(/[\\/]/)[0] === '..' || isAbsolute(inside) ? undefined : file;
}
