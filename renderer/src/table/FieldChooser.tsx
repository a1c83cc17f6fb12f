/** Chooses the fields the view asks the service for (`fields`); the primary field always stays. */
import type { Column } from '../../../core/contract';
import { fieldTypeName } from '../../../core/records/format';
import { usePopover } from '../ui/useDismiss';

interface Props {
  columns: readonly Column[];
  /** undefined: every field. */
  selected: readonly string[] | undefined;
  onChange: (fields: string[] | undefined) => void;
}

export function FieldChooser({ columns, selected, onChange }: Props) {
  const { open, setOpen, anchor } = usePopover();
  const shown = new Set(selected ?? columns.map((c) => c.name));
  const hidden = columns.filter((c) => !shown.has(c.name)).length;

  const toggle = (name: string) => {
    const next = new Set(shown);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    const names = columns.filter((c) => c.primary || next.has(c.name)).map((c) => c.name);
    onChange(names.length === columns.length ? undefined : names);
  };

  return (
    <div className="td-popover-anchor" ref={anchor}>
      <button type="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        Fields{hidden > 0 ? ` (${hidden} hidden)` : ''} ▾
      </button>
      {open && (
        <div className="td-popover td-field-chooser" role="dialog" aria-label="Fields">
          <div className="td-popover-actions">
            <button type="button" onClick={() => onChange(undefined)}>
              Show all
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Done
            </button>
          </div>
          <ul>
            {columns.map((c) => (
              <li key={c.name}>
                <label>
                  <input
                    type="checkbox"
                    aria-label={c.name}
                    checked={c.primary || shown.has(c.name)}
                    disabled={c.primary}
                    onChange={() => toggle(c.name)}
                  />
                  {c.name}
                  <span className="td-muted"> {fieldTypeName(c.type)}</span>
                </label>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
