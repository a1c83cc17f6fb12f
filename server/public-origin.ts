/**
 * The origin a server names in its file URLs when it is reached through something in front of it (a reverse
 * proxy, a test's fault proxy): a client fetches a file only from the origin it talks to, so the URLs must
 * name that one, not the port the server listens on.
 */

import { SettingError } from './errors';

/** `text` as an origin (`http(s)://host[:port]`); a SettingError naming what is wrong when it is not one. */
export function publicOrigin(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new SettingError(
      `The public URL must be an http(s) URL, not ${JSON.stringify(text.slice(0, 200))}`,
    );
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash)
    throw new SettingError(
      `The public URL must be an origin only (scheme, host and port), not ${JSON.stringify(text.slice(0, 200))}`,
    );
  return url.origin;
}
