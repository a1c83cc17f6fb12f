/**
 * A conflicting cell's values as text, and text typed for Edit back into a value. A conflict names no field
 * type, so the typed text takes the shape of the values it stands between: a number where they are numbers,
 * true or false where they are checkboxes, JSON where they are lists or objects, else the text itself.
 */

/** One value as a line of text; `empty` stands for no value. */
export function valueText(value: unknown, empty = '(empty)'): string {
  if (value === undefined || value === null || value === '') return empty;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function editedValue(text: string, sides: { mine: unknown; theirs: unknown }): unknown {
  const known = [sides.mine, sides.theirs].filter((v) => v !== undefined && v !== null);
  if (text.trim() === '') return null;
  if (known.length > 0 && known.every((v) => typeof v === 'number')) {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  if (known.length > 0 && known.every((v) => typeof v === 'boolean')) return text.trim() === 'true';
  if (known.some((v) => typeof v === 'object')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
