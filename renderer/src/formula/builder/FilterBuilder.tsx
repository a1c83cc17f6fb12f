/**
 * The filter builder beside the formula bar: conditions per field, joined with AND or OR, with one level of
 * groups. It shows the bar's formula as conditions when core/formula/builder can read it, and otherwise says
 * why and leaves the text alone. It only ever writes a formula into the bar; the bar checks and applies it.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { OPERATORS, readFilter, writeFilter, type Join } from '../../../../core/formula/builder';
import {
  isDraftGroup,
  kindOf,
  newCondition,
  newGroup,
  toDraft,
  toFilter,
  type BuilderFieldInfo,
  type Draft,
  type DraftCondition,
  type DraftItem,
} from './drafts';
import { userCalendar } from './calendar';
import { isCommand } from '../../commands/match';
import { MAC } from '../../commands/shown';
import { useFocusReturn } from '../../ui/useFocusReturn';

interface Props {
  fields: readonly BuilderFieldInfo[];
  /** The bar's text when the builder opened. */
  formula: string;
  /** Writes the formula into the bar; `apply` then applies it as Enter would. */
  onWrite: (formula: string, apply: boolean) => void;
  onClose: () => void;
}

const JOINS: { join: Join; label: string }[] = [
  { join: 'AND', label: 'all (AND)' },
  { join: 'OR', label: 'any (OR)' },
];

function JoinSelect({ label, value, onChange }: { label: string; value: Join; onChange: (j: Join) => void }) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value as Join)}>
      {JOINS.map((j) => (
        <option key={j.join} value={j.join}>
          {j.label}
        </option>
      ))}
    </select>
  );
}

function ValueInput({
  condition: c,
  field,
  onChange,
}: {
  condition: DraftCondition;
  field: BuilderFieldInfo | undefined;
  onChange: (patch: Partial<DraftCondition>) => void;
}) {
  const set = (value: string) => onChange({ value });
  switch (c.op) {
    case 'empty':
    case 'notEmpty':
    case 'checked':
    case 'unchecked':
    case 'thisWeek':
    case 'thisMonth':
    case 'thisYear':
      return null;
    case 'on':
    case 'before':
    case 'after':
      return <input type="date" aria-label="Day" value={c.value} onChange={(e) => set(e.target.value)} />;
    case 'lastDays':
    case 'nextDays':
      return (
        <input
          type="number"
          min={0}
          step={1}
          aria-label="Days"
          className="td-builder-days"
          value={c.value}
          onChange={(e) => set(e.target.value)}
        />
      );
    case '=':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=': {
      // Formulas see a percent as a fraction and a duration in seconds.
      const unit =
        field?.type === 'percent' ? ' (0.5 = 50%)' : field?.type === 'duration' ? ' (seconds)' : '';
      return (
        <input
          inputMode="decimal"
          aria-label={`Number${unit}`}
          placeholder={unit.trim()}
          value={c.value}
          onChange={(e) => set(e.target.value)}
        />
      );
    }
    case 'anyOf':
    case 'noneOf':
    case 'hasAny':
    case 'hasAll': {
      const known = [...(field?.choices ?? [])];
      const all = [...known, ...c.choices.filter((x) => !known.includes(x))];
      if (all.length === 0)
        return (
          <input
            aria-label="Values, separated by commas"
            value={c.value}
            onChange={(e) =>
              onChange({
                value: e.target.value,
                choices: e.target.value
                  .split(',')
                  .map((x) => x.trim())
                  .filter((x) => x !== ''),
              })
            }
          />
        );
      return (
        <fieldset className="td-builder-choices">
          <legend>Values</legend>
          {all.map((choice) => (
            <label key={choice}>
              <input
                type="checkbox"
                checked={c.choices.includes(choice)}
                onChange={(e) =>
                  onChange({
                    choices: e.target.checked
                      ? [...c.choices, choice]
                      : c.choices.filter((x) => x !== choice),
                  })
                }
              />
              {choice}
            </label>
          ))}
        </fieldset>
      );
    }
    default:
      return <input aria-label="Text" value={c.value} onChange={(e) => set(e.target.value)} />;
  }
}

function ConditionRow({
  label,
  condition: c,
  fields,
  onChange,
  onRemove,
}: {
  label: string;
  condition: DraftCondition;
  fields: readonly BuilderFieldInfo[];
  onChange: (next: DraftCondition) => void;
  onRemove: () => void;
}) {
  const kind = kindOf(fields, c.field);
  const field = fields.find((f) => f.name === c.field);
  return (
    <div role="group" aria-label={label} className="td-builder-condition">
      <select
        aria-label="Field"
        value={c.field}
        onChange={(e) => onChange({ ...newCondition(fields, e.target.value), key: c.key })}
      >
        {fields
          .filter((f) => kindOf(fields, f.name) !== undefined)
          .map((f) => (
            <option key={f.name} value={f.name}>
              {f.name}
            </option>
          ))}
      </select>
      <select
        aria-label="Operator"
        value={c.op}
        onChange={(e) => onChange({ ...c, op: e.target.value as DraftCondition['op'] })}
      >
        {(kind ? OPERATORS[kind] : []).map((o) => (
          <option key={o.op} value={o.op}>
            {o.label}
          </option>
        ))}
      </select>
      <ValueInput condition={c} field={field} onChange={(patch) => onChange({ ...c, ...patch })} />
      <button type="button" aria-label={`Remove ${label.toLowerCase()}`} title="Remove" onClick={onRemove}>
        ✕
      </button>
    </div>
  );
}

export function FilterBuilder({ fields, formula, onWrite, onClose }: Props) {
  const usable = useMemo(() => fields.filter((f) => kindOf(fields, f.name) !== undefined), [fields]);
  // Read once, when the builder opens: the bar's text is the source, the rows a view of it.
  const [read] = useState(() => readFilter(formula, fields));
  const [draft, setDraft] = useState<Draft>(() =>
    read.ok ? toDraft(read.filter) : { join: 'AND', items: [] },
  );
  const panel = useRef<HTMLDivElement>(null);
  useFocusReturn();

  useEffect(() => {
    panel.current?.querySelector<HTMLElement>('select, input, button')?.focus();
  }, []);

  const { filter, problems } = useMemo(() => toFilter(draft, fields), [draft, fields]);
  const written = useMemo(
    () => (problems.length === 0 ? writeFilter(filter, fields, userCalendar()) : ''),
    [filter, fields, problems],
  );

  const setItem = (i: number, item: DraftItem | undefined) =>
    setDraft((d) => ({
      ...d,
      items:
        item === undefined ? d.items.filter((_, j) => j !== i) : d.items.map((x, j) => (j === i ? item : x)),
    }));

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!isCommand('dialog.close', e, MAC)) return;
    e.preventDefault();
    e.stopPropagation();
    onClose();
  };

  let body: ReactNode;
  if (!read.ok) {
    body = (
      <p className="td-builder-note" role="note">
        The builder cannot show this formula as conditions. {read.reason} It stays as you wrote it: edit it in
        the bar, or clear the bar to start with conditions.
      </p>
    );
  } else if (usable.length === 0) {
    body = <p className="td-builder-note">This table has no fields the builder can filter.</p>;
  } else {
    body = (
      <>
        <div className="td-builder-join">
          Match{' '}
          <JoinSelect
            label="Match"
            value={draft.join}
            onChange={(join) => setDraft((d) => ({ ...d, join }))}
          />{' '}
          of these
        </div>
        {draft.items.map((item, i) =>
          isDraftGroup(item) ? (
            <div key={item.key} role="group" aria-label={`Group ${i + 1}`} className="td-builder-group">
              <div className="td-builder-join">
                Group {i + 1}: match{' '}
                <JoinSelect
                  label={`Group ${i + 1} matches`}
                  value={item.join}
                  onChange={(join) => setItem(i, { ...item, join })}
                />
              </div>
              {item.conditions.map((c, j) => (
                <ConditionRow
                  key={c.key}
                  label={`Group ${i + 1} condition ${j + 1}`}
                  condition={c}
                  fields={fields}
                  onChange={(next) =>
                    setItem(i, { ...item, conditions: item.conditions.map((x, k) => (k === j ? next : x)) })
                  }
                  onRemove={() =>
                    setItem(
                      i,
                      item.conditions.length > 1
                        ? { ...item, conditions: item.conditions.filter((_, k) => k !== j) }
                        : undefined,
                    )
                  }
                />
              ))}
              <div className="td-builder-actions">
                <button
                  type="button"
                  onClick={() =>
                    setItem(i, { ...item, conditions: [...item.conditions, newCondition(fields)] })
                  }
                >
                  Add condition to group {i + 1}
                </button>
                <button type="button" onClick={() => setItem(i, undefined)}>
                  Remove group {i + 1}
                </button>
              </div>
            </div>
          ) : (
            <ConditionRow
              key={item.key}
              label={`Condition ${i + 1}`}
              condition={item}
              fields={fields}
              onChange={(next) => setItem(i, next)}
              onRemove={() => setItem(i, undefined)}
            />
          ),
        )}
        <div className="td-builder-actions">
          <button
            type="button"
            onClick={() => setDraft((d) => ({ ...d, items: [...d.items, newCondition(fields)] }))}
          >
            Add condition
          </button>
          <button
            type="button"
            onClick={() => setDraft((d) => ({ ...d, items: [...d.items, newGroup(fields)] }))}
          >
            Add group
          </button>
        </div>
        {problems.length > 0 ? (
          <ul className="td-builder-problems" aria-label="Conditions to finish">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        ) : (
          <code className="td-builder-preview" aria-label="Formula to write">
            {written === '' ? '(no filter)' : written}
          </code>
        )}
        <div className="td-builder-actions">
          <button type="button" disabled={problems.length > 0} onClick={() => onWrite(written, true)}>
            Apply conditions
          </button>
          <button type="button" disabled={problems.length > 0} onClick={() => onWrite(written, false)}>
            Write to bar
          </button>
        </div>
      </>
    );
  }

  return (
    <div ref={panel} role="dialog" aria-label="Filter builder" className="td-builder" onKeyDown={onKeyDown}>
      {body}
      <div className="td-builder-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
