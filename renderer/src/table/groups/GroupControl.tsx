/** The toolbar's Group control: up to two fields to group by, each ascending or descending. */
import type { Column } from '../../../../core/contract';
import { MAX_GROUP_LEVELS } from '../../../../core/records/aggregate';
import type { SortSpec } from '../../../../core/records/types';
import { usePopover } from '../../ui/useDismiss';

interface Props {
  columns: readonly Column[];
  groupBy: readonly Required<SortSpec>[];
  onChange: (groupBy: Required<SortSpec>[]) => void;
}

const LEVEL_NAMES = ['Group by', 'then by'];

export function GroupControl({ columns, groupBy, onChange }: Props) {
  const { open, setOpen, anchor } = usePopover();
  const levels = Math.min(groupBy.length + 1, MAX_GROUP_LEVELS);

  const setLevel = (level: number, spec: Required<SortSpec> | undefined) => {
    const next = groupBy.slice(0, level);
    if (spec) next.push(spec, ...groupBy.slice(level + 1).filter((g) => g.field !== spec.field));
    onChange(next);
  };

  return (
    <div className="td-popover-anchor" ref={anchor}>
      <button type="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {groupBy.length > 0 ? `Grouped by ${groupBy.map((g) => g.field).join(', ')}` : 'Group'} ▾
      </button>
      {open && (
        <div className="td-popover td-group-chooser" role="dialog" aria-label="Group">
          {Array.from({ length: levels }, (_, level) => {
            const spec = groupBy[level];
            return (
              <div className="td-group-level" key={level}>
                <label>
                  {LEVEL_NAMES[level]}
                  <select
                    value={spec?.field ?? ''}
                    onChange={(e) =>
                      setLevel(
                        level,
                        e.target.value === ''
                          ? undefined
                          : { field: e.target.value, direction: spec?.direction ?? 'asc' },
                      )
                    }
                  >
                    <option value="">{level === 0 ? 'No grouping' : 'Nothing more'}</option>
                    {columns
                      .filter((c) => c.name === spec?.field || !groupBy.some((g) => g.field === c.name))
                      .map((c) => (
                        <option key={c.name} value={c.name}>
                          {c.name}
                        </option>
                      ))}
                  </select>
                </label>
                {spec && (
                  <select
                    aria-label={`${LEVEL_NAMES[level]} order`}
                    value={spec.direction}
                    onChange={(e) =>
                      setLevel(level, { ...spec, direction: e.target.value === 'desc' ? 'desc' : 'asc' })
                    }
                  >
                    <option value="asc">First to last</option>
                    <option value="desc">Last to first</option>
                  </select>
                )}
              </div>
            );
          })}
          <div className="td-popover-actions">
            <button type="button" disabled={groupBy.length === 0} onClick={() => onChange([])}>
              Remove grouping
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Done
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
