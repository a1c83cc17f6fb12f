/** The multiple-selects cell editor: a popup list of the field's choices, each toggled by a checkbox. */
import { useEffect, useRef } from 'react';
import type { CellEditorProps } from '../grid/parts';

type Props = CellEditorProps<string[]> & { choices: string[] };

export function MultiSelectEditor({ value, onValueChange, choices, stopEditing }: Props) {
  const chosen = Array.isArray(value) ? value : [];
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  // Names the field no longer lists stay chosen and visible, so an edit never drops them silently.
  const names = [...choices, ...chosen.filter((c) => !choices.includes(c))];
  return (
    <fieldset
      className="td-multiselect"
      aria-label="Choose options"
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          stopEditing();
        }
      }}
    >
      {names.map((name, i) => (
        <label key={name}>
          <input
            ref={i === 0 ? first : undefined}
            type="checkbox"
            checked={chosen.includes(name)}
            onChange={(e) =>
              onValueChange(e.target.checked ? [...chosen, name] : chosen.filter((c) => c !== name))
            }
          />
          {name}
        </label>
      ))}
      <button type="button" onClick={() => stopEditing()}>
        Done
      </button>
    </fieldset>
  );
}
