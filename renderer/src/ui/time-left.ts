/**
 * How long a walk of pages has left (go to row, CSV export), from the rate this walk has kept so far, else
 * the connection's current request rate: the throttle (5 requests/s on Airtable) sets the pace, not the page.
 */

/** Pages done in how many milliseconds since the walk began. */
export interface Pace {
  pages: number;
  ms: number;
}

/** Milliseconds left for `pagesLeft` pages; undefined while nothing tells the rate yet. */
export function msLeft(pagesLeft: number, pace: Pace, requestsPerSecond?: number): number | undefined {
  if (pagesLeft <= 0) return 0;
  // One page says little: its wait in the queue may have been another request's.
  if (pace.pages >= 2 && pace.ms > 0) return (pagesLeft * pace.ms) / pace.pages;
  if (requestsPerSecond !== undefined && requestsPerSecond > 0) return (pagesLeft * 1000) / requestsPerSecond;
  return undefined;
}

/** "about 52 s left", "about 3 min left", "a moment left". */
export function timeLeftText(ms: number | undefined): string {
  if (ms === undefined) return 'estimating the time left…';
  const seconds = Math.round(ms / 1000);
  if (seconds < 2) return 'a moment left';
  if (seconds < 90) return `about ${seconds} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}
