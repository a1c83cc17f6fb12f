/**
 * A look interval and what it costs an hour, as the status bar's menu offers it: looking is paid in calls of
 * the workspace's month for as long as a view is open, so the cost is shown where the choice is made (a call a
 * look per open table polled, or per base by webhook; the prompt choice's second is its webhook's, only while
 * the window is focused).
 */
import { LIVE_MIN_POLL_S, liveCallsPerHour } from '../../../core/contract/live';

export function intervalLabel(seconds: number): string {
  if (seconds === 0) return 'Never';
  const cost = `${liveCallsPerHour(seconds).toLocaleString('en-US')} calls/hour`;
  if (seconds < LIVE_MIN_POLL_S)
    return `Every ${seconds === 1 ? 'second' : `${seconds} s`} while focused (${cost} by webhook)`;
  return `${seconds < 60 ? `Every ${seconds} s` : `Every ${seconds / 60} min`} (${cost} a table)`;
}
