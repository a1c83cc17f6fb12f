/** The find bar over the grid: the search, "12 of 340 records", Previous, Next, Close, and what is going on. */
import './find.css';
import { useEffect, useRef } from 'react';
import { plural } from '../../../../core/records/format';
import type { useFind } from './useFind';
import { isCommand } from '../../commands/match';
import { MAC, titleOf } from '../../commands/shown';

interface Props {
  find: ReturnType<typeof useFind>;
  grouped: boolean;
  /** Rows the view's chain holds now, while Next walks it. */
  loaded: number;
}

const number = new Intl.NumberFormat();

function countText(find: Props['find']): string {
  if (find.search === '') return '';
  if (find.declined) return 'Not counted (its walk costs API calls)';
  if (find.count === undefined) return 'Counting…';
  if (find.current) return `${number.format(find.current.ordinal)} of ${plural(find.count, 'record')}`;
  if (find.count === 0) return 'No records match';
  return `${plural(find.count, 'record')} ${find.count === 1 ? 'matches' : 'match'}`;
}

export function FindBar({ find, grouped, loaded }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const { focusAsked } = find;
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [focusAsked]);
  const stepTitle = grouped ? 'Next and Previous work in a view without groups' : undefined;
  return (
    <div className="td-find" role="search" aria-label="Find in view">
      <input
        ref={input}
        type="search"
        placeholder="Find in view"
        aria-label="Find in view"
        value={find.text}
        onChange={(e) => find.setText(e.target.value)}
        onKeyDown={(e) => {
          const step = isCommand('find.next', e, MAC)
            ? 'next'
            : isCommand('find.previous', e, MAC)
              ? 'previous'
              : undefined;
          if (step) {
            e.preventDefault();
            void find.step(step);
          } else if (isCommand('find.close', e, MAC)) {
            e.preventDefault();
            e.stopPropagation();
            if (find.busy) find.cancel();
            else find.close();
          }
        }}
      />
      <span
        className="td-find-count"
        data-testid="find-count"
        role="status"
        title="Matching records (a record matches when any searched field contains the text)"
      >
        {countText(find)}
      </span>
      <button
        type="button"
        onClick={() => void find.step('previous')}
        disabled={grouped}
        title={stepTitle ?? titleOf('find.previous')}
      >
        Previous
      </button>
      <button
        type="button"
        onClick={() => void find.step('next')}
        disabled={grouped}
        title={stepTitle ?? titleOf('find.next')}
      >
        Next
      </button>
      <button
        type="button"
        onClick={find.close}
        aria-label="Close find"
        title={titleOf('find.close', 'Close')}
      >
        ×
      </button>
      {find.busy && (
        <span className="td-find-busy" role="status">
          Searching the view… {number.format(loaded)} rows loaded{' '}
          <button type="button" onClick={find.cancel}>
            Stop
          </button>
        </span>
      )}
      {!find.busy && find.note && (
        <span className="td-find-note" role="status">
          {find.note}
        </span>
      )}
      {!find.searchable && <span className="td-find-note">None of the shown fields can be searched.</span>}
    </div>
  );
}
