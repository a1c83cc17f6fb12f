/**
 * The one permission the app's page is granted: reading the clipboard, for the grid menu's Paste (Ctrl+V needs
 * none: its text comes in the paste event). Only the app's own page, served from app://tabledesk, is granted it:
 * a page the window was somehow led to (every other navigation is refused) or a frame of another origin reads
 * nothing. Everything else (camera, notifications, …) is refused.
 */
import { isAppUrl } from './app-path';

/** `url`: the requesting page's URL or origin, as Electron's request and check handlers give them. */
export function grantsPermission(permission: string, url: string): boolean {
  return permission === 'clipboard-read' && isAppUrl(url);
}
