/** A pull's or sync's progress in words: tables, records and files done, requests spent, time left. */
import { plural } from '../../../core/records/format';
import { timeLeftText } from '../ui/time-left';
import type { MirrorProgress } from './mirrors';

const count = new Intl.NumberFormat();

const PHASES: Record<MirrorProgress['phase'], string> = {
  schema: 'Reading the schema',
  records: 'Copying records',
  files: 'Downloading files',
  refresh: 'Fetching remote changes',
  push: 'Sending local changes',
};

export function progressText(p: MirrorProgress): string {
  const parts = [
    `${count.format(p.tablesDone)} of ${plural(p.tables, 'table')}`,
    plural(p.records, 'record'),
    plural(p.files, 'file'),
    // Files that could not be downloaded do not stop the copy: their records are there, the files linked.
    ...(p.filesMissing > 0 ? [`${count.format(p.filesMissing)} not downloaded`] : []),
    plural(p.requests, 'request'),
  ];
  // The engine gives the time left where it knows the requests left (at the base's 5 requests/s); a first
  // walk of a table does not know its length, since the service gives no count.
  const left = p.etaMs === undefined ? 'time left not known yet' : timeLeftText(p.etaMs);
  return `${PHASES[p.phase]}: ${parts.join(' · ')} · ${left}`;
}
