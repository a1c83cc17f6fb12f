/**
 * A linked record opened from a chip, in a form of its own table, over whatever was open. Its links open
 * further records; Back returns to the one before (or to where the first was opened from), Esc closes all.
 */
import { useContext, useEffect, useRef, useState } from 'react';
import type { RecordData } from '../../../core/records/types';
import { useApi } from '../api/ApiProvider';
import { errorMessage } from '../api/call-errors';
import { formatCell } from '../grid/format';
import { LinkedRecords } from './LinkedRecords';
import { useModalFocus } from '../ui/useModalFocus';
import { FocusBackContext } from '../ui/useFocusReturn';
import { LinksContext, useBaseTables } from './context';
import { LinkList } from './LinkList';
import { linkNames, linkedTableId } from './names';

export interface LinkedPlace {
  tableId: string;
  recordId: string;
}

interface Props {
  place: LinkedPlace;
  /** What opened the first form of the stack: the focus goes back to it when the stack closes. */
  opener: Element | null;
  onBack: () => void;
  onClose: () => void;
}

export function LinkedRecordForm({ place, opener, onBack, onClose }: Props) {
  const api = useApi();
  const scope = useContext(LinksContext);
  const target = scope?.target ?? { connectionId: '', baseId: '' };
  const tables = useBaseTables(target.connectionId, target.baseId);
  const table = tables?.find((t) => t.id === place.tableId);
  const [record, setRecord] = useState<RecordData>();
  const [problem, setProblem] = useState<string>();
  const dialog = useRef<HTMLDivElement>(null);
  const back = useContext(FocusBackContext);
  const onKeyDown = useModalFocus(dialog, onClose, () => back(opener));

  useEffect(() => {
    // One form per place (its key): nothing to reset here.
    let live = true;
    api
      .call('links.record', {
        connectionId: target.connectionId,
        baseId: target.baseId,
        tableId: place.tableId,
        recordId: place.recordId,
      })
      .then(
        (r) => live && setRecord(r.record),
        (e: unknown) => live && setProblem(errorMessage(e)),
      );
    return () => {
      live = false;
    };
  }, [api, target.connectionId, target.baseId, place.tableId, place.recordId]);

  const primary = table?.fields.find((f) => f.id === table.primaryFieldId);
  const title =
    linkNames.name(place.tableId, place.recordId) ??
    (record && primary ? formatCell(record.fields[primary.name], primary) : '');
  return (
    <div
      className="td-modal-backdrop td-linked-backdrop"
      onPointerDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        className="td-modal td-record td-linked-record"
        role="dialog"
        aria-modal="true"
        aria-label="Linked record"
        ref={dialog}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header>
          <button type="button" onClick={onBack}>
            Back
          </button>
          <h2>{title || place.recordId}</h2>
          {table && <span className="td-muted">{table.name}</span>}
          <button type="button" onClick={onClose}>
            Close
          </button>
        </header>
        {/* One scrolling body under the header, as the record form's: its fields, then what links to it. */}
        <div className="td-record-body">
          {problem && (
            <p className="td-error" role="alert">
              {problem}
            </p>
          )}
          {!record && !problem && <p>Loading…</p>}
          {record && table && (
            <>
              <section className="td-record-section" aria-label="Fields">
                <dl data-record-id={record.id}>
                  {table.fields.map((f) => {
                    const linked = linkedTableId(f);
                    return (
                      <div key={f.id}>
                        <dt>{f.name}</dt>
                        <dd>
                          {linked !== undefined ? (
                            <LinkList
                              field={f}
                              value={record.fields[f.name]}
                              table={tables?.find((t) => t.id === linked)?.name}
                            />
                          ) : (
                            <output aria-label={f.name}>{formatCell(record.fields[f.name], f)}</output>
                          )}
                        </dd>
                      </div>
                    );
                  })}
                </dl>
              </section>
              <LinkedRecords tables={tables} table={table.id} record={record} />
            </>
          )}
        </div>
      </div>
    </div>
  );
}
