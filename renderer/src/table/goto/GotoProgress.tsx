/** Over the grid while go to row walks the page chain: rows loaded of the row asked for, pages and time left. */
import { plural } from '../../../../core/records/format';
import { msLeft, timeLeftText } from '../../ui/time-left';
import type { GotoWalk } from './useGoToRow';

interface Props {
  walk: GotoWalk;
  pageSize: number;
  /** The connection's request rate now, for the estimate before this walk has a pace of its own. */
  requestsPerSecond: number | undefined;
  onCancel: () => void;
}

const count = new Intl.NumberFormat();

export function GotoProgress({ walk, pageSize, requestsPerSecond, onCancel }: Props) {
  const pagesLeft = Math.max(0, Math.ceil((walk.to - walk.loaded) / pageSize));
  const pace = { pages: (walk.loaded - walk.startLoaded) / pageSize, ms: walk.at - walk.startedAt };
  return (
    <div className="td-goto-progress" role="status" aria-label="Going to row">
      <div>
        Going to row {count.format(walk.row)}: {count.format(Math.min(walk.loaded, walk.row))} of{' '}
        {count.format(walk.row)} rows loaded
      </div>
      <progress aria-label="Go to row progress" value={Math.min(walk.loaded, walk.row)} max={walk.row} />
      <div data-testid="goto-left">
        {plural(pagesLeft, 'page')} left · {timeLeftText(msLeft(pagesLeft, pace, requestsPerSecond))}
      </div>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
