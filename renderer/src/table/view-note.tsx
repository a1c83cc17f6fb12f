/**
 * What the chosen view does, read-only beside the formula bar. TableDesk's local server gives a view's filter
 * and sort (an extra `tabledesk` property of its view metadata, checked here like any answer); Airtable's
 * metadata API does not, so for the hosted service the note says so in words.
 */
import { viewDetailsSchema } from '../../../core/contract';
import type { ViewDetails, ViewSchema } from '../../../core/records/types';

/** The view's filter and sort when the service gave them in a valid shape, else undefined. */
export function viewDetails(view: ViewSchema | undefined): ViewDetails | undefined {
  const parsed = viewDetailsSchema.safeParse(view?.tabledesk);
  return parsed.success ? parsed.data : undefined;
}

const ARROW = { asc: '↑', desc: '↓' } as const;

export function ViewNote({ view, userSorted }: { view: ViewSchema | undefined; userSorted: boolean }) {
  if (!view) return null;
  const details = viewDetails(view);
  const name = `View “${view.name}”`;
  if (!details) {
    return (
      <p className="td-view-note" role="note" aria-label="Filter and sort applied">
        {name}: sorted and filtered by the view as it is set up in the service (its API does not say how).
      </p>
    );
  }
  const sort = details.sort.map((s) => `${s.field} ${ARROW[s.direction]}`).join(', ');
  return (
    <p className="td-view-note" role="note" aria-label="Filter and sort applied">
      {name}:{' '}
      {details.filterByFormula ? (
        <>
          filter <code>{details.filterByFormula}</code>
        </>
      ) : (
        'no filter'
      )}
      {' · '}
      {sort === '' ? 'no sort' : `sorted by ${sort}`}
      {sort !== '' && userSorted ? ' (your sort replaces it)' : ''}
    </p>
  );
}
